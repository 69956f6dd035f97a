"""Statistics and distances composed from native ops: cov, corrcoef, trapezoid / trapz /
cumulative_trapezoid, gradient, dist, cdist, pdist, renorm. All differentiable through the ops
they are built from; p-norms are taken so that a zero difference has gradient 0 (PyTorch's
subgradient) rather than NaN."""

import math
import warnings

from engine import _C, _grad_fn_names, _transforms
from engine._composite_ops import _tensor_arg
from engine._joining import _dtype_word
from engine._shape_ops import _wrap
from engine.amp._policy import autocast_op
from engine.autograd.grad_mode import no_grad

_Tensor = _C.Tensor


def _as_float(t):
    """t itself if floating, else t in the default floating dtype (PyTorch's promotion here)."""
    return t if t.is_floating_point() else t.to(_C.get_default_dtype())


def _zero_safe_pnorm(d, p, dim, keepdim=False):
    """p-norm of d over dim with gradient 0 where the norm is 0 (also for p < 1)."""
    dtype = d.dtype
    if p == 0:
        count = (d != 0).to(dtype).sum(dim, keepdim=keepdim)
        return count + (d * 0).sum(dim, keepdim=keepdim)  # zero gradient, as PyTorch's
    a = d.abs()
    if p == math.inf:
        return a.amax(dim, keepdim=keepdim)
    if p == 1:
        return a.sum(dim, keepdim=keepdim)
    positive = a > 0
    one = _C.ones((), dtype=dtype)
    powered = _C.where(positive, _C.where(positive, a, one) ** p, _C.zeros((), dtype=dtype))
    s = powered.sum(dim, keepdim=keepdim)
    nonzero = s > 0
    root = _C.where(nonzero, s, one) ** (1.0 / p)
    return _C.where(nonzero, root, _C.zeros((), dtype=dtype))


# ---- covariance ----


def _observation_weights(name, w, n, integral):
    if w.dim() > 1:
        raise RuntimeError(
            f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
            f"{w.dim()} dimensions"
        )
    if integral and w.is_floating_point():
        raise RuntimeError(
            f"cov(): expected {name} to have integral dtype but got {name} with "
            f"{_dtype_word(w.dtype)} dtype"
        )
    if not integral and not w.is_floating_point():
        raise RuntimeError(
            f"cov(): expected {name} to have floating point dtype but got {name} with "
            f"{_dtype_word(w.dtype)} dtype"
        )
    if w.numel() != n:
        raise RuntimeError(
            f"cov(): expected {name} to have the same numel as there are observations in the "
            f"input but got {w.numel()} != {n}"
        )
    if w.numel() and (w < 0).any().item():
        raise RuntimeError(f"cov(): {name} cannot be negative")


def cov(input, *, correction=1, fweights=None, aweights=None):
    """Covariance matrix of the variables in input's rows (observations in columns); a 1-D input is
    one variable. fweights (integer repeat counts) and aweights (float importances) weight the
    observations; ``correction`` is subtracted from the (weighted) observation count."""
    _tensor_arg("cov", input, "input", 1)
    if input.dtype == _C.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    if input.dim() > 2:
        raise RuntimeError(
            "cov(): expected input to have two or fewer dimensions but got an input with "
            f"{input.dim()} dimensions"
        )
    x = _as_float(input)
    x = x.reshape(1, -1) if x.dim() < 2 else x
    n = x.shape[1]
    w = None
    if fweights is not None:
        _observation_weights("fweights", fweights, n, True)
        w = fweights.to(x.dtype)
    if aweights is not None:
        _observation_weights("aweights", aweights, n, False)
        w = aweights.to(x.dtype) if w is None else w * aweights.to(x.dtype)
    if w is None:
        w_sum = _C.full((), n, dtype=x.dtype)
        avg = x.mean(1, keepdim=True)
    else:
        w_sum = w.sum()
        avg = (x * w).sum(1, keepdim=True) / w_sum
    if w is None:
        norm = w_sum - correction
    elif aweights is None or correction == 0:
        norm = w_sum - correction
    else:
        norm = w_sum - correction * (w * aweights.to(x.dtype)).sum() / w_sum
    if norm.item() <= 0:
        warnings.warn(
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "number of observations.",
            UserWarning,
            stacklevel=2,
        )
        norm = _C.zeros((), dtype=x.dtype)
    centred = x - avg
    weighted = centred if w is None else centred * w
    c = _C.mm(centred, weighted.t()) / norm
    return c.reshape(()) if c.shape[0] == 1 else c


def corrcoef(input):
    """Pearson correlation coefficients of the variables in input's rows, clipped to [-1, 1]."""
    _tensor_arg("corrcoef", input, "input", 1)
    if input.dtype == _C.bool:
        # PyTorch's corrcoef is cov's, and its message says so.
        raise RuntimeError("cov(): bool dtype is not supported for input")
    if input.dim() > 2:
        raise RuntimeError(
            "corrcoef(): expected input to have two or fewer dimensions but got an input with "
            f"{input.dim()} dimensions"
        )
    c = cov(input)
    if c.dim() == 0:
        return c / c
    std = c.diagonal().sqrt()
    c = c / std.unsqueeze(1) / std.unsqueeze(0)
    return c.clamp(-1, 1)


# ---- integration and differentiation of samples ----


def _spacings(fname, y, x, dim):
    """Differences of the sample coordinates x along dim, shaped to broadcast against y's pairs."""
    n = y.shape[dim]
    if x.dim() == 1:
        if x.shape[0] != n:
            raise RuntimeError(f"{fname}: There must be one `x` value for each sample point")
        view = [1] * y.dim()
        view[dim] = max(n - 1, 0)
        return (x.narrow(0, 1, n - 1) - x.narrow(0, 0, n - 1)).reshape(view) if n else None
    xd = _wrap(dim - y.dim() + x.dim(), x.dim()) if x.dim() < y.dim() else dim
    m = x.shape[xd]
    return x.narrow(xd, 1, m - 1) - x.narrow(xd, 0, m - 1)


def _pair_sums(y, dim):
    n = y.shape[dim]
    return y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1)


def _refuse_bool(fname, y, x):
    """PyTorch's trapezoid rules refuse bool samples and coordinates, naming which it got."""
    if isinstance(x, _C.Tensor) and (y.dtype == _C.bool or x.dtype == _C.bool):
        raise RuntimeError(
            f"{fname}: received a bool input for `x` or `y`, but bool is not supported"
        )
    if y.dtype == _C.bool:
        raise RuntimeError(f"{fname}: received a bool input for `y`, but bool is not supported")


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """Integral of samples y along dim by the trapezoidal rule, at coordinates x or spacing dx."""
    _tensor_arg("trapezoid", y, "y", 1)
    _refuse_bool("trapezoid", y, x)
    d = _wrap(dim, y.dim())
    yf = _as_float(y)
    n = yf.shape[d] if yf.dim() else 1
    if x is not None and dx is not None:
        raise RuntimeError("trapezoid: received both x and dx; pass one of them")
    if n == 0:
        return _zero_sum(yf, d)
    if isinstance(x, _Tensor):
        steps = _spacings("trapezoid", yf, x, d)
        if n == 1:
            return _zero_sum(yf, d)
        return (_pair_sums(yf, d) * steps).sum(d) / 2
    step = 1 if dx is None else dx
    if x is not None:  # trapz(y, dx) written positionally
        step = x
    ends = yf.narrow(d, 0, 1) + yf.narrow(d, n - 1, 1)
    return (yf.sum(d) - ends.squeeze(d) * 0.5) * step


def _zero_sum(y, d):
    return (y * 0).sum(d)


def trapz(y, x=None, *, dx=None, dim=-1):
    """``trapezoid`` (PyTorch's older name)."""
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """Running trapezoidal integral along dim (one element shorter than y there)."""
    _tensor_arg("cumulative_trapezoid", y, "y", 1)
    _refuse_bool("cumulative_trapezoid", y, x)
    d = _wrap(dim, y.dim())
    yf = _as_float(y)
    n = yf.shape[d]
    if n == 0:
        return yf.narrow(d, 0, 0)
    if isinstance(x, _Tensor):
        steps = _spacings("cumulative_trapezoid", yf, x, d)
        return (_pair_sums(yf, d) * steps / 2).cumsum(d)
    step = 1 if dx is None else dx
    return (_pair_sums(yf, d) * (step / 2)).cumsum(d)


def _gradient_along(f, d, h, edge_order):
    """Central differences of f along d for a number spacing h or a 1-D coordinate tensor h."""
    n = f.shape[d]

    def at(start, length):
        return f.narrow(d, start, length)

    if not isinstance(h, _Tensor):
        interior = (at(2, n - 2) - at(0, n - 2)) / (2 * h)
        if edge_order == 1:
            first = (at(1, 1) - at(0, 1)) / h
            last = (at(n - 1, 1) - at(n - 2, 1)) / h
        else:
            first = (at(0, 1) * -3 + at(1, 1) * 4 - at(2, 1)) / (2 * h)
            last = (at(n - 1, 1) * 3 - at(n - 2, 1) * 4 + at(n - 3, 1)) / (2 * h)
        return _C.cat([first, interior, last], d)
    view = [1] * f.dim()
    view[d] = -1
    x = h.to(f.dtype)
    steps = x.narrow(0, 1, n - 1) - x.narrow(0, 0, n - 1)
    # Second-order weights of the three neighbours, in PyTorch's arithmetic order.
    dx1, dx2 = steps.narrow(0, 0, n - 2), steps.narrow(0, 1, n - 2)
    a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(view)
    b = ((dx2 - dx1) / (dx1 * dx2)).reshape(view)
    c = (dx1 / (dx2 * (dx1 + dx2))).reshape(view)
    interior = a * at(0, n - 2) + b * at(1, n - 2) + c * at(2, n - 2)
    if edge_order == 1:
        first = (at(1, 1) - at(0, 1)) / steps[0]
        last = (at(n - 1, 1) - at(n - 2, 1)) / steps[n - 2]
    else:
        h0, h1 = steps[0], steps[1]
        first = (
            at(0, 1) * (-(h0 * 2.0 + h1) / (h0 * (h0 + h1)))
            + at(1, 1) * ((h0 + h1) / (h0 * h1))
            + at(2, 1) * (-h0 / (h1 * (h0 + h1)))
        )
        hl, hm = steps[n - 2], steps[n - 3]
        last = (
            at(n - 3, 1) * (hl / (hm * (hl + hm)))
            + at(n - 2, 1) * (-(hl + hm) / (hl * hm))
            + at(n - 1, 1) * ((hl * 2 + hm) / (hl * (hl + hm)))
        )
    return _C.cat([first, interior, last], d)


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """Estimated derivative of the sampled function along each dim (a tuple, one per dim), by
    central differences inside and one-sided differences of ``edge_order`` at the ends; spacing is
    a number, one number per dim, or one coordinate tensor per dim."""
    _tensor_arg("gradient", input, "input", 1)
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if dim is None:
        dims = list(range(input.dim()))
    elif isinstance(dim, int):
        dims = [_wrap(dim, input.dim())]
    else:
        dims = [_wrap(d, input.dim()) for d in dim]
    if isinstance(spacing, (list, tuple)):
        spacings = list(spacing)
        if len(spacings) != len(dims):
            raise RuntimeError(
                f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing and "
                f"dim arguments to have the same length, but got a spacing argument of length "
                f"{len(spacings)} and a dim argument of length {len(dims)}."
            )
    else:
        spacings = [spacing] * len(dims)
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError(
                "torch.gradient expected each dimension size to be at least edge_order+1"
            )
    f = _as_float(input)
    out = []
    for d, h in zip(dims, spacings):
        if isinstance(h, _Tensor) and h.dim() == 0:
            h = h.item()
        if isinstance(h, _Tensor) and h.numel() != f.shape[d]:
            raise RuntimeError(
                "torch.gradient expected each tensor to be on the same device, and each "
                f"coordinate tensor to have as many elements as dimension {d} of the input"
            )
        out.append(_gradient_along(f, d, h, edge_order))
    return tuple(out)


# ---- distances ----


def dist(input, other, p=2):
    """p-norm of ``input - other`` (broadcast)."""
    _tensor_arg("dist", input, "input", 1)
    _tensor_arg("dist", other, "other", 2)
    diff = input - other
    if diff.dtype.is_complex:  # the distance of complex numbers: the norm of |input - other|
        diff = diff.abs()
    if not diff.is_floating_point():
        raise RuntimeError(
            "norm(): input dtype should be either floating point or complex. Got "
            f"{_dtype_word(diff.dtype)} instead."
        )
    p = float(p)
    records = input.requires_grad or other.requires_grad
    if records and 0 < p < math.inf and _C.is_grad_enabled() and not _transforms._open:
        with no_grad():  # one node, DistBackward0, as PyTorch's
            out = _zero_safe_pnorm(diff.reshape(-1), p, 0)
        return _C._record_dist(out, input, other, p)
    return _zero_safe_pnorm(diff.reshape(-1), p, 0)


_COMPUTE_MODES = (
    "use_mm_for_euclid_dist_if_necessary",
    "use_mm_for_euclid_dist",
    "donot_use_mm_for_euclid_dist",
)


@autocast_op("cdist")
def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """p-norm distances between each row of x1 (..., P, M) and each row of x2 (..., R, M), batch
    dims broadcast. Computed from the differences for every compute_mode (exact, at the cost of a
    (..., P, R, M) temporary)."""
    _tensor_arg("cdist", x1, "x1", 1)
    _tensor_arg("cdist", x2, "x2", 2)
    if compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    for name, t in (("X1", x1), ("X2", x2)):
        if t.dim() < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {t.dim()}D")
    for name, t in (("X1", x1), ("X2", x2)):
        if not t.is_floating_point():
            raise RuntimeError(
                f"cdist only supports floating-point dtypes, {name} got: {_dtype_word(t.dtype)}"
            )
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(
            f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}"
        )
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1.dtype in (_C.float16, _C.bfloat16):
        # PyTorch's kernel exists for float32 and float64 only.
        raise NotImplementedError(f"\"cdist\" not implemented for '{_dtype_word(x1.dtype)}'")
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    return _zero_safe_pnorm(diff, float(p), -1)


def pdist(input, p=2):
    """p-norm distances between every pair of rows i < j of an (N, M) input, in row-major order."""
    _tensor_arg("pdist", input, "input", 1)
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input.is_floating_point():
        raise RuntimeError("pdist only supports floating-point dtypes")
    if input.dtype in (_C.float16, _C.bfloat16):
        raise NotImplementedError(f"\"pdist\" not implemented for '{_dtype_word(input.dtype)}'")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    from engine._creation_extra import triu_indices

    n = input.shape[0]
    rows, cols = triu_indices(n, n, 1)
    diff = input.index_select(0, rows) - input.index_select(0, cols)
    out = _zero_safe_pnorm(diff, float(p), -1)
    return _grad_fn_names.name_grad_fn(
        out,
        "PdistBackward0",
        (input,),
        {"p": float(p), "result": out, "self": input},
        only_shown=True,
    )


def renorm(input, p, dim, maxnorm):
    """input with each slice along dim whose p-norm exceeds maxnorm scaled down to norm maxnorm."""
    _tensor_arg("renorm", input, "input", 1)
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if input.dim() < 2:
        raise RuntimeError(
            f"renorm: input needs at least 2 dimensions, got {input.dim()} dimensions"
        )
    if not input.is_floating_point():
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{_dtype_word(input.dtype)}"
        )
    d = _wrap(dim, input.dim())
    flat = input.movedim(d, 0).reshape(input.shape[d], -1)
    norms = _zero_safe_pnorm(flat, float(p), 1)
    scale = _C.where(norms > maxnorm, maxnorm / (norms + 1e-7), _C.ones((), dtype=input.dtype))
    view = [1] * input.dim()
    view[d] = -1
    # PyTorch allocates renorm's result row-major whatever input's layout.
    return (input * scale.reshape(view)).contiguous()


FUNCTIONS = {
    f.__name__: f
    for f in (
        cov, corrcoef, trapezoid, trapz, cumulative_trapezoid, gradient, dist, cdist, pdist,
        renorm,
    )
}  # fmt: skip
METHOD_NAMES = ("cov", "corrcoef", "dist", "renorm")


def install():
    """Adds the Tensor methods (existing native methods of the same name are kept)."""
    for name in METHOD_NAMES:
        if not hasattr(_Tensor, name):
            setattr(_Tensor, name, FUNCTIONS[name])
    _Tensor.dist = dist  # the same function as engine.dist (replaces linalg's simpler method)
