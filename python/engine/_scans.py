"""Scans and order statistics: cummax / cummin, logcumsumexp, aminmax, count_nonzero, mode,
nanmedian, quantile / nanquantile.

Positions (which element is the running max, the mode, the k-th value) are integer results found
with NumPy on a detached copy; values are then gathered from the input, so they are
differentiable like any gather. logcumsumexp runs NumPy's stable ``logaddexp.accumulate`` and has
PyTorch's stable first derivative."""

import math

from engine import _C, _grad_fn_names, _transforms, return_types
from engine._composite_ops import _tensor_arg
from engine._out_param import accepts_out, same_as_result
from engine._out_rules import median_out, mode_out
from engine._shape_ops import _wrap
from engine._sorting import _empty_median, _refuse_bool, sort
from engine.amp._policy import autocast_op

_Tensor = _C.Tensor


def _last_axis(input, dim):
    """input as a NumPy array with dim moved last (0-d becomes 1 element), and the dim."""
    import numpy as np

    d = _wrap(dim, input.dim())
    x = input.detach()
    a = (x.float() if x.dtype == _C.bfloat16 else x).numpy()  # NumPy has no bfloat16
    a = a.reshape(1) if a.ndim == 0 else np.moveaxis(a, d, -1)
    return a, d


def _from_last_axis(a, d, ndim):
    """int64 tensor from a NumPy array whose last axis is dim d of an ndim-dim tensor."""
    import numpy as np

    a = a.reshape(()) if ndim == 0 else np.moveaxis(a, -1, d)
    # np.array, not np.ascontiguousarray: that one turns a 0-d array into a 1-element 1-d one.
    return _C.from_numpy(np.array(a, dtype=np.int64, order="C"))


def _running_extreme(fname, input, dim, larger):
    import numpy as np

    _tensor_arg(fname, input, "input", 1)
    a, d = _last_axis(input, dim)
    acc = np.maximum if larger else np.minimum
    values = acc.accumulate(a, axis=-1) if a.size else a
    # The running extreme is the latest element equal to it (ties and NaN take the newer index).
    hit = (a == values) | (np.isnan(a) & np.isnan(values)) if a.dtype.kind == "f" else a == values
    pos = np.where(hit, np.arange(a.shape[-1]), 0)
    idx = np.maximum.accumulate(pos, axis=-1) if a.size else pos
    indices = _from_last_axis(idx, d, input.dim())
    out = _C.gather(input, d, indices) if input.dim() else input.clone()
    return out, indices


@_transforms.values_op
def cummax(input, dim, *, out=None):
    """(values, indices) of the running maximum along dim; NaN propagates, ties take the later index."""
    values, indices = _running_extreme("cummax", input, dim, True)
    shown = {"dim": dim, "indices": indices, "self": input}
    return _grad_fn_names.name_grad_fn(
        return_types.cummax(values, indices), "CummaxBackward0", (input,), shown, only_shown=True
    )


@_transforms.values_op
def cummin(input, dim, *, out=None):
    """(values, indices) of the running minimum along dim; NaN propagates, ties take the later index."""
    values, indices = _running_extreme("cummin", input, dim, False)
    shown = {"dim": dim, "indices": indices, "self": input}
    return _grad_fn_names.name_grad_fn(
        return_types.cummin(values, indices), "CumminBackward0", (input,), shown, only_shown=True
    )


_logcumsumexp_fn = []


def _make_logcumsumexp():
    from engine.autograd.function import Function, once_differentiable

    def reverse_lcse(a):
        import numpy as np

        return np.flip(np.logaddexp.accumulate(np.flip(a, -1), axis=-1), -1)

    class LogCumSumExp(Function):
        _backward_name = "LogcumsumexpBackward0"

        @staticmethod
        def forward(ctx, input, dim):
            import numpy as np

            a, d = _last_axis(input, dim)
            r = np.logaddexp.accumulate(a, axis=-1) if a.size else a
            out = _C.from_numpy(
                np.array(np.moveaxis(r, -1, d) if input.dim() else r.reshape(()), order="C")
            ).to(input.dtype)
            ctx.save_for_backward(input, out)
            ctx.dim = d
            return out

        @staticmethod
        @once_differentiable
        def backward(ctx, grad):
            import numpy as np

            input, out = ctx.saved_tensors
            x, d = _last_axis(input, ctx.dim)
            r, _ = _last_axis(out, ctx.dim)
            g, _ = _last_axis(grad, ctx.dim)
            # d r_i / d x_j = exp(x_j - r_i) for j <= i. Summed over i >= j in log space, positive
            # and negative parts of the incoming gradient apart, so nothing overflows.
            with np.errstate(divide="ignore", invalid="ignore"):
                pos = np.exp(x + reverse_lcse(np.log(np.where(g > 0, g, 0)) - r))
                neg = np.exp(x + reverse_lcse(np.log(np.where(g < 0, -g, 0)) - r))
            gx = np.nan_to_num(pos, nan=0.0) - np.nan_to_num(neg, nan=0.0)
            gx = np.moveaxis(gx, -1, d) if input.dim() else gx.reshape(())
            gx = np.array(gx, dtype=x.dtype, order="C")
            return _C.from_numpy(gx).to(input.dtype), None

    return LogCumSumExp.apply


@_transforms.values_op
def logcumsumexp(input, dim, *, out=None):
    """``log(cumsum(exp(input), dim))`` computed without overflow."""
    _tensor_arg("logcumsumexp", input, "input", 1)
    # PyTorch wraps dim before its kernel's dtype dispatch: a bad dim is reported first.
    _wrap(dim, input.dim())
    if not input.is_floating_point():
        raise NotImplementedError(
            f"\"logcumsumexp_out_cpu\" not implemented for '{_dtype_word(input.dtype)}'"
        )
    if not _logcumsumexp_fn:
        _logcumsumexp_fn.append(_make_logcumsumexp())
    return _logcumsumexp_fn[0](input, dim)


def _dtype_word(dtype):
    from engine._joining import _dtype_word as word

    return word(dtype)


@accepts_out(same_as_result)
def aminmax(input, *, dim=None, keepdim=False, out=None):
    """(min, max) of all elements, or along dim."""
    _tensor_arg("aminmax", input, "input", 1)
    if dim is None:
        if input.numel() == 0:
            raise RuntimeError(
                "aminmax(): cannot compute aminmax over an empty dimension as the operation has "
                "no identity."
            )
        return return_types.aminmax(*_minmax(input, None, keepdim))
    d = _wrap(dim, input.dim())
    if input.dim() and input.shape[d] == 0:
        raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
    return return_types.aminmax(*_minmax(input, dim, keepdim))


def _minmax(input, dim, keepdim):
    """(min, max): outputs of one node (AminmaxBackward0), or inside a function transform, whose
    wrappers take amin and amax one at a time."""
    if not _transforms._open:
        return _C._aminmax(input, dim, keepdim)
    if input.dim() == 0:
        return input.clone(), input.clone()
    if dim is None:
        flat = input.reshape(-1)
        lo, hi = _C.amin(flat, 0), _C.amax(flat, 0)
        if keepdim:
            lo, hi = lo.reshape([1] * input.dim()), hi.reshape([1] * input.dim())
        return lo, hi
    return _C.amin(input, dim, keepdim), _C.amax(input, dim, keepdim)


def count_nonzero(input, dim=None):
    """int64 count of nonzero elements, of all or over dim (an int or a tuple)."""
    _tensor_arg("count_nonzero", input, "input", 1)
    nz = (input != 0).to(_C.int64)
    if dim is None:
        return nz.sum()
    dims = [dim] if isinstance(dim, int) else list(dim)
    wrapped = [_wrap(d, input.dim()) for d in dims]
    for d in wrapped:
        if wrapped.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    if input.dim() == 0:
        return nz
    return nz.sum(wrapped) if wrapped else nz.sum()  # an empty dim list counts everything


@accepts_out(mode_out)
@_transforms.values_op
def mode(input, dim=-1, keepdim=False, *, out=None):
    """(values, indices): the most frequent value along dim (the smallest among equally frequent
    ones) and the index of its last occurrence."""
    import numpy as np

    _tensor_arg("mode", input, "input", 1)
    a, d = _last_axis(input, dim)
    n = a.shape[-1]
    if n == 0:
        raise IndexError(f"mode(): Expected reduction dim {d} to have non-zero size.")
    rows = a.reshape(-1, n)
    s = np.sort(rows, axis=-1)
    start = np.ones(s.shape, dtype=bool)
    start[:, 1:] = s[:, 1:] != s[:, :-1]  # NaN != NaN: every NaN is a run of its own
    ar = np.arange(n)
    first = np.maximum.accumulate(np.where(start, ar, 0), axis=-1)
    end = np.ones(s.shape, dtype=bool)
    end[:, :-1] = start[:, 1:]
    last = np.flip(np.minimum.accumulate(np.flip(np.where(end, ar, n), -1), axis=-1), -1)
    best = np.argmax(last - first, axis=-1)  # the first longest run: the smallest value
    value = s[np.arange(len(s)), best]
    same = (rows == value[:, None]) | (np.isnan(rows) & np.isnan(value)[:, None])
    idx = (n - 1) - np.argmax(np.flip(same, -1), axis=-1)
    # Which of equal values PyTorch reports follows its sort's exact order once that is no
    # longer an insertion sort (past 16 elements) or NaNs (unordered) take part: replayed then.
    replay = np.arange(len(rows)) if n > 16 else np.flatnonzero(np.isnan(rows).any(axis=-1))
    if len(replay):
        from engine._mode_order import mode_row

        for r in replay:
            idx[r] = mode_row(rows[r].tolist())[1]
    idx = idx.reshape(a.shape[:-1] + (1,))
    indices = _from_last_axis(idx, d, input.dim()) if input.dim() else _C.tensor(0)
    if input.dim() == 0:
        return _grad_fn_names.name_grad_fn(
            return_types.mode(input.clone(), indices), "ModeBackward0", (input,)
        )
    values = _C.gather(input, d, indices)
    if not keepdim:
        values, indices = values.squeeze(d), indices.squeeze(d)
    return _grad_fn_names.name_grad_fn(
        return_types.mode(values, indices), "ModeBackward0", (input,)
    )


@accepts_out(median_out)
@_transforms.values_op
def nanmedian(input, dim=None, keepdim=False, *, out=None):
    """The lower median ignoring NaN (of all elements, or (values, indices) along dim); NaN only
    where a slice is all NaN."""
    _tensor_arg("nanmedian", input, "input", 1)
    if dim is None:
        flat = input.reshape(-1)
        if flat.numel() == 0:
            return _empty_median(input.dtype)
        _refuse_bool(input, dim)
        return _grad_fn_names.name_grad_fn(
            nanmedian(flat, 0).values, "NanmedianBackward0", (input,)
        )
    d = _wrap(dim, input.dim())
    if input.dim() and input.shape[d] == 0:
        raise IndexError(f"nanmedian(): Expected reduction dim {d} to have non-zero size.")
    _refuse_bool(input, dim)
    if input.dim() == 0:
        return _grad_fn_names.name_grad_fn(
            return_types.nanmedian(input.clone(), _C.tensor(0)),
            "NanmedianBackward1",
            (input,),
        )
    order = sort(input.detach(), d).indices  # NaN sorts last
    count = (~_C.isnan(input.detach())).to(_C.int64).sum(d, keepdim=True)
    k = _C.clamp((count - 1).floor_divide(2), 0, None)
    k = _C.where(count == 0, _C.full_like(k, (input.shape[d] - 1) // 2), k)
    indices = order.gather(d, k)
    values = _C.gather(input, d, indices)
    if not keepdim:
        values, indices = values.squeeze(d), indices.squeeze(d)
    return _grad_fn_names.name_grad_fn(
        return_types.nanmedian(values, indices),
        "NanmedianBackward1",
        (input,),
    )


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(fname, input, q, dim, keepdim, interpolation, ignore_nan):
    _tensor_arg(fname, input, "input", 1)
    if input.dtype not in (_C.float32, _C.float64):
        raise RuntimeError(f"{fname}() input tensor must be either float or double dtype")
    if isinstance(q, _Tensor):
        if q.dim() > 1:
            raise RuntimeError(f"{fname}() q must be a scalar or 1D tensor")
        if q.dtype != input.dtype:
            raise RuntimeError(f"{fname}() q tensor must be same dtype as the input tensor")
        qs, scalar_q = [float(v) for v in q.reshape(-1).tolist()], q.dim() == 0
    else:
        qs, scalar_q = [float(q)], True
    for v in qs:
        if not 0 <= v <= 1:
            raise RuntimeError(f"{fname}() q must be in the range [0, 1] but got {v}")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(
            f"{fname}() interpolation must be one of linear, lower, higher, midpoint or nearest, "
            f"but got {interpolation}"
        )
    if input.numel() == 0:
        raise RuntimeError(f"{fname}() input tensor must be non-empty")
    if dim is None:
        x, d = input.reshape(-1), 0
    else:
        d = _wrap(dim, input.dim())
        x = input if input.dim() else input.reshape(1)
    x = x.movedim(d, -1)
    n = x.shape[-1]
    s = sort(x, -1).values  # NaN last; the values are differentiable gathers of the input
    nan = _C.isnan(x.detach())
    valid = (~nan).to(_C.int64).sum(-1, keepdim=True) if ignore_nan else None
    results = []
    for v in qs:
        if ignore_nan:
            rank = (valid - 1).to(input.dtype).clamp(0, None) * v
        else:
            rank = _C.full(list(x.shape[:-1]) + [1], (n - 1) * v, dtype=input.dtype)
        lo, hi = rank.floor(), rank.ceil()
        if interpolation == "nearest":
            lo = hi = rank.round()  # half to even, as PyTorch rounds
        elif interpolation == "lower":
            hi = lo
        elif interpolation == "higher":
            lo = hi
        lo_v = s.gather(-1, lo.to(_C.int64))
        hi_v = s.gather(-1, hi.to(_C.int64))
        if interpolation == "linear":
            out = lo_v + (hi_v - lo_v) * (rank - lo)
        elif interpolation == "midpoint":
            out = lo_v + (hi_v - lo_v) * 0.5
        else:
            out = lo_v
        undefined = (valid == 0) if ignore_nan else nan.any(-1, keepdim=True)
        out = _C.where(undefined, _C.full((), math.nan, dtype=input.dtype), out)
        results.append(out.squeeze(-1))
    out = _C.stack(results, 0)  # (len(q), *reduced shape)
    if keepdim:
        if dim is None:
            out = out.reshape([len(qs)] + [1] * input.dim())
        elif input.dim():
            out = out.unsqueeze(d + 1)
    return out.squeeze(0) if scalar_q else out


@autocast_op("quantile")
@_transforms.values_op
def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """The q-th quantiles (q a number or 1-D tensor in [0, 1]) of all elements or along dim, with
    PyTorch's five interpolations; NaN where a slice holds a NaN."""
    return _quantile("quantile", input, q, dim, keepdim, interpolation, False)


@autocast_op("nanquantile")
@_transforms.values_op
def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """quantile ignoring NaN; NaN only where a slice is all NaN."""
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation, True)


FUNCTIONS = {
    f.__name__: f
    for f in (
        cummax, cummin, logcumsumexp, aminmax, count_nonzero, mode, nanmedian, quantile,
        nanquantile,
    )
}  # fmt: skip


def install():
    """Adds the Tensor methods (existing native methods of the same name are kept)."""
    for name, fn in FUNCTIONS.items():
        if not hasattr(_Tensor, name):
            setattr(_Tensor, name, fn)
