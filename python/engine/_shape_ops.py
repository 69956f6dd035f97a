"""Shape, view and selection ops composed from the native ones (each differentiable through them),
installed as engine.<op> and Tensor methods by engine/__init__.py."""

import builtins
import contextlib
import math

from engine import (
    _C,
    _expanded_writes,
    _grad_fn_names,
    _method_aliases,
    _transforms,
    _user_warnings,
)
from engine._dense_layout import dense_order, inverse
from engine._int_list_arg import _int_list
from engine._out_param import CPP_NAMES
from engine.autograd.grad_mode import no_grad

_Tensor = _C.Tensor


def _sizes(args):
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return list(args[0])
    return list(args)


def _wrap(dim, ndim):
    n = builtins.max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim % n


def flatten(input, start_dim=0, end_dim=-1):
    if input.dim() == 0:
        return input.reshape(1)
    s, e = _wrap(start_dim, input.dim()), _wrap(end_dim, input.dim())
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    shape = list(input.shape)
    return _C.reshape(input, shape[:s] + [math.prod(shape[s : e + 1])] + shape[e + 1 :])


def unflatten(input, dim, sizes):
    d = _wrap(dim, input.dim())
    sizes = list(sizes)
    n = input.shape[d]
    known = math.prod(s for s in sizes if s != -1)
    if sizes.count(-1) == 1 and known and n % known == 0:
        sizes[sizes.index(-1)] = n // known
    if math.prod(sizes) != n or -1 in sizes:
        raise RuntimeError(
            f"unflatten: Provided sizes [{', '.join(map(str, sizes))}] don't multiply up to the size "
            f"of dim {dim} ({n}) in the input tensor"
        )
    shape = list(input.shape)
    return input.view(shape[:d] + sizes + shape[d + 1 :])


# PyTorch warns about these once per process (TORCH_WARN_ONCE), whatever the warnings filters.
_T_DEPRECATION = {
    0: "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.",
    "other": (
        "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
        "deprecated and it will throw an error in a future release. Consider `x.mT` to transpose "
        "batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the "
        "dimensions of a tensor."
    ),
}
_t_warned = set()


def _T(self):
    ndim = self.dim()
    if ndim != 2:
        key = 0 if ndim == 0 else "other"
        if key not in _t_warned:
            _t_warned.add(key)
            _user_warnings.warn(_T_DEPRECATION[key], UserWarning)
    return self.permute(*reversed(range(ndim)))


def _mT(self):
    if self.dim() < 2:
        raise RuntimeError(
            "tensor.mT is only supported on matrices or batches of matrices. "
            f"Got {self.dim()}-D tensor."
        )
    return self.transpose(-2, -1)


def broadcast_to(input, size):
    if not isinstance(size, (tuple, list)):
        raise TypeError(
            f"broadcast_to(): argument 'size' (position 2) must be tuple of ints, not {type(size).__name__}"
        )
    return input.expand(size)


def _one_spelling(fname, name, args, named):
    """``f(x, 1, 2)`` / ``f(x, (1, 2))`` or ``f(x, name=(1, 2))``, as PyTorch's parser takes them."""
    if named is None:
        return _sizes(args)
    if args:
        raise TypeError(f"{fname}() got multiple values for argument '{name}'")
    return _sizes((named,))


def repeat(self, *sizes, repeats=None):
    reps = _one_spelling("repeat", "repeats", sizes, repeats)
    if len(reps) < self.dim():
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
        )
    shape = [1] * (len(reps) - self.dim()) + list(self.shape)
    if self.requires_grad and _C.is_grad_enabled() and not _transforms._open:
        with no_grad():  # one node, RepeatBackward0, as PyTorch's
            out = _repeated(self, reps, shape)
        return _C._record_repeat(out, self, reps)
    return _grad_fn_names.name_grad_fn(_repeated(self, reps, shape), "RepeatBackward0", (self,))


def _repeated(self, reps, shape):
    """``self`` (viewed as ``shape``) repeated ``reps`` times along each dim: a fresh tensor."""
    x = _C.reshape(self, [v for s in shape for v in (1, s)])
    x = x.expand(*[v for r, s in zip(reps, shape) for v in (r, s)])
    return _C.reshape(x, [r * s for r, s in zip(reps, shape)])


def flip(input, *dims_given, dims=None):
    dims = _one_spelling("flip", "dims", dims_given, dims)
    wrapped = [_wrap(d, input.dim()) for d in dims]
    # A dense input keeps its layout, as PyTorch's flip allocates its result like the input:
    # flipped in the row-major space of its dimension order, then permuted back.
    order = dense_order(input)
    out = input if order is None else input.permute(order)
    for d in wrapped:
        at = d if order is None else order.index(d)
        out = out.index_select(at, _C.arange(input.shape[d] - 1, -1, -1))
    if order is not None:
        out = out.permute(inverse(order))
    return _grad_fn_names.name_grad_fn(
        out, "FlipBackward0", (input,), {"dims": tuple(dims)}, only_shown=True
    )


def roll(input, shifts, dims=None):
    shifts = _int_list("roll", shifts, "shifts", 2)
    if dims is not None:
        dims = _int_list("roll", dims, "dims", 3)
    if dims is None:
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
        return _grad_fn_names.name_grad_fn(
            roll(input.reshape(-1), shifts, 0).view(*input.shape), "RollBackward0", (input,)
        )
    if len(shifts) != len(dims):
        raise RuntimeError(
            f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}"
        )
    records = input.requires_grad and _C.is_grad_enabled() and not _transforms._open
    out = input
    with no_grad() if records else contextlib.nullcontext():
        for s, d in zip(shifts, dims):
            n = input.shape[_wrap(d, input.dim())]
            s = s % n if n else 0
            if s:
                out = _C.cat([out.narrow(d, n - s, s), out.narrow(d, 0, n - s)], d)
        if records and out is input:
            out = input.clone()
    if records:  # one node, RollBackward0, as PyTorch's
        return _C._record_roll(out, input, list(shifts), list(dims))
    shown = {"dims": tuple(dims), "shifts": tuple(shifts)}
    return _grad_fn_names.name_grad_fn(out, "RollBackward0", (input,), shown)


def _split_method(self, split_size, dim=0):
    """``Tensor.split`` (PyTorch names its size argument ``split_size`` on the method and
    ``split_size_or_sections`` on ``torch.split``)."""
    return split(self, split_size, dim)


def split(tensor, split_size_or_sections, dim=0):
    by_size = isinstance(split_size_or_sections, int)
    sizes = _split_sizes(tensor, split_size_or_sections, dim)
    kind = _SPLIT if by_size else _SPLIT_WITH_SIZES
    return _pieces(tensor, sizes, dim, kind, split_size_or_sections if by_size else 0)


# The kinds of _C._split_pieces: which node the pieces share (SplitBackward0,
# SplitWithSizesBackward0, UnsafeSplitBackward0, UnsafeSplitWithSizesBackward0) and whether they
# are views (the unsafe_ variants' pieces share memory with the input but are not views).
_SPLIT, _SPLIT_WITH_SIZES, _UNSAFE_SPLIT, _UNSAFE_SPLIT_WITH_SIZES = range(4)
_MULTI_VIEW_NAMES = ("Split", "SplitWithSizes", "", "")


def _pieces(tensor, sizes, dim, kind, split_size=0):
    """The pieces of ``tensor`` of lengths ``sizes`` along ``dim``: outputs of one node, as
    PyTorch's split makes them. Inside a function transform the tensors are the transform's
    wrappers, which take the pieces one narrow at a time."""
    if not _transforms._open:
        return _C._split_pieces(tensor, sizes, dim, kind, split_size)
    out, start = [], 0
    for s in sizes:
        out.append(tensor.narrow(dim, start, s))
        start += s
    out = tuple(out)
    _C._mark_multi_output_views(out, _MULTI_VIEW_NAMES[kind])
    return out


def _split_sizes(tensor, split_size_or_sections, dim=0):
    """The pieces' lengths: ``split_size`` each (the last one shorter), or the sections given."""
    if tensor.dim() == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    n = tensor.shape[_wrap(dim, tensor.dim())]
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        if size < 0:
            raise RuntimeError(
                f"split expects split_size be non-negative, but got split_size={size}"
            )
        if size == 0 and n != 0:
            raise RuntimeError(
                f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}"
            )
        # An empty dim still gives one (empty) piece.
        return [builtins.min(size, n - i) for i in range(0, n, size)] if n else [0]
    sizes = list(split_size_or_sections)
    if builtins.sum(sizes) != n:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
            f"dimension {dim}), but got split_sizes=[{', '.join(map(str, sizes))}]"
        )
    return sizes


def _chunk_size(input, chunks, dim, fname="chunk"):
    """The split_size chunk splits by; 0 for an empty dim, which chunk cuts into ``chunks``
    empty pieces (by sizes, as PyTorch does)."""
    if chunks <= 0:
        raise RuntimeError(f"{fname} expects `chunks` to be greater than 0, got: {chunks}")
    n = input.shape[_wrap(dim, input.dim())]
    return builtins.max(-(-n // chunks), 1) if n else 0


def chunk(input, chunks, dim=0):
    size = _chunk_size(input, chunks, dim)
    return split(input, size if size else [0] * chunks, dim)


def unbind(input, dim=0):
    if not isinstance(dim, int):
        if not hasattr(dim, "__index__"):
            raise TypeError(
                f"unbind(): argument 'dim' (position 1) must be int, not {type(dim).__name__}"
            )
        dim = dim.__index__()
    if not _transforms._open:
        return _C._unbind(input, dim)
    out = tuple(input.select(dim, i) for i in range(input.shape[_wrap(dim, input.dim())]))
    _C._mark_multi_output_views(out, "Unbind")
    return out


def _tri(input, diagonal, lower, name):
    if input.dim() < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    rows, cols = input.shape[-2], input.shape[-1]
    offset = _C.arange(cols).unsqueeze(0) - _C.arange(rows).unsqueeze(1)
    keep = offset <= diagonal if lower else offset >= diagonal
    if input.requires_grad and not _transforms._open and _C.is_grad_enabled():
        # One edge, to input (a masked_fill), as PyTorch's TrilBackward0 / TriuBackward0 has.
        return masked_fill(input, ~keep, 0)
    return _C.where(keep, input, _C.zeros((), dtype=input.dtype))


def tril(input, diagonal=0):
    return _grad_fn_names.name_grad_fn(
        _tri(input, diagonal, True, "tril"),
        "TrilBackward0",
        (input,),
        {"diagonal": diagonal},
        only_shown=True,
    )


def triu(input, diagonal=0):
    return _grad_fn_names.name_grad_fn(
        _tri(input, diagonal, False, "triu"),
        "TriuBackward0",
        (input,),
        {"diagonal": diagonal},
        only_shown=True,
    )


def diag(input, diagonal=0):
    if input.dim() == 1:
        k, m = diagonal, input.shape[0]
        n = m + builtins.abs(k)
        i = _C.arange(m)
        pos = i * (n + 1) + (k if k >= 0 else -k * n)
        out = _C.zeros(n * n, dtype=input.dtype).index_copy(0, pos, input)
        return _grad_fn_names.name_grad_fn(
            out.view(n, n), "DiagEmbedBackward0" if input.dim() == 1 else None, (input,)
        )
    if input.dim() == 2:
        return _grad_fn_names.name_grad_fn(
            input.diagonal(diagonal).clone(),
            "DiagEmbedBackward0" if input.dim() == 1 else None,
            (input,),
        )
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{input.dim()}D")


def take(input, index):
    import numpy as np

    n = input.numel()
    idx = index.detach().numpy().astype(np.int64)
    bad = idx[(idx < -n) | (idx >= n)]
    if bad.size:
        raise IndexError(
            f"out of range: tried to access index {bad.flat[0]} on a tensor of {n} elements."
        )
    flat = _C.from_numpy(np.ascontiguousarray(np.where(idx < 0, idx + n, idx).reshape(-1)))
    if _transforms._open or not (input.requires_grad and _C.is_grad_enabled()):
        return input.reshape(-1).index_select(0, flat).view(*index.shape)
    # One node, TakeBackward0, as PyTorch records take.
    with no_grad():
        out = input.reshape(-1).index_select(0, flat).reshape(*index.shape)
    return _C._record_take(out, input, index, flat)


def _check_bool_mask(mask):
    if mask.dtype != _C.bool:  # the dtype as PyTorch's message spells it, by its C++ type
        raise RuntimeError(
            "masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{CPP_NAMES.get(mask.dtype, mask.dtype)}"
        )


def masked_fill(input, mask, value):
    # PyTorch's node for a Number value is MaskedFillBackward0, for a tensor MaskedFillBackward1.
    node_name = "MaskedFillBackward1" if isinstance(value, _Tensor) else "MaskedFillBackward0"
    if isinstance(value, _Tensor):
        if value.dim() != 0:
            raise RuntimeError(
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value.dim()} dimension(s)."
            )
        value = (
            _C.full((), value, dtype=input.dtype)
            if value.dtype.is_complex
            else value.to(input.dtype)
        )
    elif isinstance(value, complex):
        # full() checks that a real input can hold the value (PyTorch's overflow error).
        value = _C.full((), value, dtype=input.dtype)
    elif isinstance(value, (bool, int, float)) or (
        hasattr(type(value), "__float__") and not isinstance(value, (type, str, bytes))
    ):
        value = _C.tensor(value, dtype=input.dtype)
    else:
        kind = "type" if isinstance(value, type) else type(value).__name__
        raise TypeError(f"masked_fill(): argument 'value' must be Number, not {kind}")
    _check_bool_mask(mask)
    shown_mask = mask  # the node shows the mask as given
    if (
        not _transforms._open
        and _C.is_grad_enabled()
        and (input.requires_grad or value.requires_grad)
    ):
        # One node, MaskedFillBackward0 (1 for a value tensor that records), as PyTorch's.
        given = input
        with no_grad():
            if not input.is_contiguous():  # PyTorch fills a row-major copy of input
                input = input.contiguous()
                mask = mask if mask.is_contiguous() else mask.contiguous()
            out = _C.where(mask, value, input)
        return _C._record_masked_fill(out, given, shown_mask, value, node_name.endswith("1"))
    if not input.is_contiguous():  # PyTorch fills a row-major copy of input
        input = input.contiguous()
        mask = mask if mask.is_contiguous() else mask.contiguous()
    return _grad_fn_names.name_grad_fn(
        _C.where(mask, value, input),
        node_name,
        (input,),
        {"mask": shown_mask},
        only_shown=True,
    )


def _inplace(op):
    inplace_apply = _method_aliases._inplace_method(op.__name__, op)

    def method(self, *args, **kwargs):
        if _transforms._open:  # the transforms see the write as a copy of the result
            return self.copy_(op(self, *args, **kwargs))
        # The op's own node takes self's place in the graph (MaskedFillBackward0, ...), as in
        # PyTorch, where the in-place variant records the same node as the out-of-place one.
        return inplace_apply(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = op.__name__ + "_"
    method.__doc__ = f"In-place version of :meth:`Tensor.{op.__name__}`."
    return method


_masked_fill_in_place = _inplace(masked_fill)


def masked_fill_(self, mask, value):
    mem = _expanded_writes.memory_view(self)
    if mem is None:
        return _masked_fill_in_place(self, mask, value)  # MaskedFillBackward0 in self's place
    # Deprecated but allowed on an expanded tensor, as in PyTorch: see _expanded_writes.
    _check_bool_mask(mask)  # before the mask is reduced over the repeating dims
    _expanded_writes.warn_deprecated("masked_fill_", "tensor[mask] = scalar")
    return _expanded_writes.masked_fill_(self, mem, mask, value)


def _contains(self, element):
    if not isinstance(element, (_Tensor, int, float, bool)):
        raise RuntimeError(
            f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a {type(element)}."
        )
    return bool((self == element).detach().numpy().any())


FUNCTIONS = {
    "flatten": flatten,
    "unflatten": unflatten,
    "broadcast_to": broadcast_to,
    "flip": flip,
    "roll": roll,
    "split": split,
    "chunk": chunk,
    "unbind": unbind,
    "tril": tril,
    "triu": triu,
    "diag": diag,
    "take": take,
    "masked_fill": masked_fill,
}


def install():
    T = _Tensor
    for name, fn in FUNCTIONS.items():
        setattr(T, name, fn)
    T.repeat = repeat
    T.split = _split_method
    T.T = property(_T)
    T.mT = property(_mT)
    T.__contains__ = _contains
    for name in ("index_add", "index_copy", "scatter", "scatter_add"):
        setattr(T, name + "_", _inplace(getattr(T, name)))
    T.masked_fill_ = masked_fill_
