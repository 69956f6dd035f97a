"""Counting and searching: histc, histogram, histogramdd, bincount, unique, unique_consecutive,
searchsorted, bucketize, isin. Their results are counts, positions or set membership (not
differentiable in PyTorch either), computed with NumPy on detached copies, vectorised."""

import builtins

from engine import _C, _transforms, return_types
from engine._composite_ops import _tensor_arg, _type_name
from engine._joining import _dtype_word
from engine._shape_ops import _wrap

_Tensor = _C.Tensor


def _np(t):
    # NumPy has no bfloat16: float32 holds every value exactly and keeps their order.
    t = t.detach()
    return (t.float() if t.dtype == _C.bfloat16 else t).numpy()


def _tensor(a, dtype=None):
    import numpy as np

    a = np.asarray(a if dtype is None else np.asarray(a).astype(dtype))
    return _C.from_numpy(np.ascontiguousarray(a).reshape(a.shape))


def _float_input(kernel, input):
    if not input.is_floating_point():
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_dtype_word(input.dtype)}'")


# ---- histograms ----


@_transforms.values_op
def histc(input, bins=100, min=0, max=0, *, out=None):  # noqa: A002 - PyTorch's names
    """Counts of input in `bins` equal bins over [min, max] (the data's range when both are 0);
    elements outside are ignored. Same dtype as input."""
    import numpy as np

    _tensor_arg("histc", input, "input", 1)
    _float_input("histogram_cpu", input)
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    a = _np(input).reshape(-1)
    lo, hi = float(min), float(max)
    if lo == hi and a.size:
        lo, hi = float(a.min()), float(a.max())
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise RuntimeError(f"torch.histc: range of [{lo}, {hi}] is not finite")
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    dt = a.dtype.type
    keep = (a >= lo) & (a <= hi)
    v = a[keep]
    # PyTorch's histc maps by linear interpolation in the input's precision, no edge search.
    pos = ((v - dt(lo)) * dt(bins) / (dt(hi) - dt(lo))).astype(np.int64)
    pos = np.minimum(pos, bins - 1)
    return _tensor(np.bincount(pos, minlength=bins).astype(a.dtype)).to(input.dtype)


def _bin_index(values, edges):
    """Bin of each value for increasing edges (the last edge belongs to the last bin); -1 outside."""
    import numpy as np

    n = len(edges) - 1
    pos = np.searchsorted(edges, values, side="right") - 1
    pos = np.where(values == edges[-1], n - 1, pos)
    inside = (values >= edges[0]) & (values <= edges[-1])
    return np.where(inside & (n > 0), pos, -1)


def _edges_for(fname, column, bins, rng, dim, dtype):

    if isinstance(bins, _Tensor):
        return _np(bins).astype(dtype)
    if bins <= 0:
        raise RuntimeError(
            f"torch.histogram(): bins must be > 0, but got {bins} for dimension {dim}"
        )
    if rng is not None:
        lo, hi = float(rng[0]), float(rng[1])
        if lo > hi:
            raise RuntimeError(
                f"torch.histogramdd: min should not exceed max, but got min {lo:g} max {hi:g} "
                f"for dimension {dim}"
            )
    elif column.size:
        lo, hi = float(column.min()), float(column.max())
    else:
        lo, hi = 0.0, 1.0
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return _linspace(lo, hi, bins + 1, dtype)


def _linspace(start, end, steps, dtype):
    """PyTorch's linspace in the given precision: the first half stepped up from start, the
    second half stepped down from end (so both ends are exact)."""
    import numpy as np

    t = np.dtype(dtype).type
    step = (t(end) - t(start)) / t(steps - 1) if steps > 1 else t(0)
    i = np.arange(steps)
    half = steps // 2
    up = t(start) + i.astype(dtype) * step
    down = t(end) - (steps - 1 - i).astype(dtype) * step
    return np.where(i < half, up, down).astype(dtype)


def _histogramdd(fname, input, bins, range, weight, density):  # noqa: A002
    import numpy as np

    _float_input("histogramdd", input)
    if input.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    a = _np(input)
    d = a.shape[-1]
    if d == 0:
        return _C.zeros((), dtype=input.dtype), ()
    pts = a.reshape(-1, d)
    if isinstance(bins, (int, _Tensor)) and not isinstance(bins, bool):
        bins = [bins] * d
    if not isinstance(bins, (list, tuple)):
        raise TypeError(
            f"{fname}(): argument 'bins' must be int, a sequence of ints or of Tensors, "
            f"not {_type_name(bins)}"
        )
    bins = list(bins)
    if len(bins) != d:
        raise RuntimeError(
            "histogramdd: The size of bins must be equal to the innermost dimension of the input."
        )
    ranges = [None] * d if range is None else [range[2 * i : 2 * i + 2] for i in builtins.range(d)]
    if weight is not None:
        if list(weight.shape) != list(input.shape[:-1]):
            raise RuntimeError(
                "torch.histogramdd: if weight tensor is provided it should have the same shape as "
                "the input tensor excluding its innermost dimension, but got input with shape "
                f"{list(input.shape)} and weight with shape {list(weight.shape)}"
            )
        w = _np(weight).reshape(-1).astype(a.dtype)
    else:
        w = np.ones(len(pts), dtype=a.dtype)
    edges, flat, ok = [], np.zeros(len(pts), dtype=np.int64), np.ones(len(pts), dtype=bool)
    for i in builtins.range(d):
        e = _edges_for(fname, pts[:, i], bins[i], ranges[i], i, a.dtype)
        b = _bin_index(pts[:, i], e)
        ok &= b >= 0
        flat = flat * (len(e) - 1) + np.maximum(b, 0)
        edges.append(e)
    shape = tuple(len(e) - 1 for e in edges)
    total = int(np.prod(shape, dtype=np.int64))
    hist = np.bincount(flat[ok], weights=w[ok], minlength=total).astype(a.dtype).reshape(shape)
    if density:
        volume = np.ones(shape, dtype=a.dtype)
        for i, e in enumerate(edges):
            view = [1] * d
            view[i] = -1
            volume = volume * np.diff(e).reshape(view)
        hist = (hist / (hist.sum() * volume)).astype(a.dtype)
    return _tensor(hist), tuple(_tensor(e) for e in edges)


def histogram(input, bins=100, *, range=None, weight=None, density=False, out=None):  # noqa: A002
    """(hist, bin_edges) of a tensor's values: `bins` equal bins over `range` (the data's range by
    default) or the given increasing edges; optional weights and density normalisation."""
    _tensor_arg("histogram", input, "input", 1)
    _refuse_half_bin_counts(input, [bins])
    hist, edges = _histogramdd(
        "histogram", input.reshape(-1, 1), [bins], range, _flat(weight), density
    )
    return return_types.histogram(hist, edges[0])


def _refuse_half_bin_counts(input, bins):
    """PyTorch's histogramdd kernel with bin counts (edges it computes) exists only for float32
    and float64; given edges, its dtype check speaks instead."""
    if input.dtype in (_C.float16, _C.bfloat16) and not any(isinstance(b, _Tensor) for b in bins):
        raise NotImplementedError(
            f"\"histogramdd\" not implemented for '{_dtype_word(input.dtype)}'"
        )


def _flat(weight):
    return None if weight is None else weight.reshape(-1)


def histogramdd(input, bins=10, *, range=None, weight=None, density=False):  # noqa: A002
    """(hist, bin_edges) of points given as input's innermost dim: bins per dim (an int, a list
    of ints, or a list of edge tensors), range as [min0, max0, min1, max1, ...]."""
    _tensor_arg("histogramdd", input, "input", 1)
    _refuse_half_bin_counts(input, bins if isinstance(bins, (list, tuple)) else [bins])
    hist, edges = _histogramdd("histogramdd", input, bins, range, weight, density)
    return return_types.histogramdd(hist, edges)


@_transforms.values_op
def bincount(input, weights=None, minlength=0):
    """Occurrences (or summed weights) of each value of a 1-D non-negative integer tensor."""
    import numpy as np

    _tensor_arg("bincount", input, "input", 1)
    if input.is_floating_point() or input.dtype == _C.bool:
        raise NotImplementedError(
            f"\"bincount_cpu\" not implemented for '{_dtype_word(input.dtype)}'"
        )
    if weights is not None and not isinstance(weights, _Tensor):
        raise TypeError(
            f"bincount(): argument 'weights' (position 2) must be Tensor, not {_type_name(weights)}"
        )
    if isinstance(minlength, bool) or not isinstance(minlength, int):
        raise TypeError(
            f"bincount(): argument 'minlength' (position 3) must be int, not {_type_name(minlength)}"
        )
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    a = _np(input)
    if a.ndim != 1 or (a.size and a.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None:
        if weights.dim() != 1 or weights.shape[0] != a.shape[0]:
            raise RuntimeError("weights should be 1-d and have the same length as input")
        w = _np(weights)
        dtype = w.dtype if weights.is_floating_point() else np.float64
        return _tensor(np.bincount(a, weights=w, minlength=minlength).astype(dtype))
    return _tensor(np.bincount(a, minlength=minlength).astype(np.int64))


# ---- unique ----


def _unique_result(values, inverse, counts, return_inverse, return_counts):
    out = [values]
    if return_inverse:
        out.append(inverse)
    if return_counts:
        out.append(counts)
    return out[0] if len(out) == 1 else tuple(out)


def _no_derivative(values, input, node_name, op):
    # As PyTorch: the values require grad when input does, through a node that raises
    # NotImplementedError on backward; the inverse and the counts never require grad.
    return _C._record_not_implemented(values.to(input.dtype), input, node_name, op)


@_transforms.values_op
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """The distinct elements (or slices along dim) in ascending order, with optionally the
    inverse mapping (input's positions into the result) and the counts. NaNs are all distinct."""
    import numpy as np

    _tensor_arg("unique", input, "input", 1)
    a = _np(input)
    if dim is None:
        flat = a.reshape(-1)
        values, inv, counts = np.unique(
            flat, return_inverse=True, return_counts=True, equal_nan=False
        )
        inverse = _tensor(inv.reshape(a.shape), np.int64)
        values = _no_derivative(_tensor(values), input, "Unique2Backward0", "_unique2")
        return _unique_result(
            values, inverse, _tensor(counts, np.int64), return_inverse, return_counts
        )
    d = _wrap(dim, input.dim())
    moved = np.moveaxis(a, d, 0)
    rows = moved.reshape(moved.shape[0], -1)
    values, inv, counts = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
    values = np.moveaxis(values.reshape((-1,) + moved.shape[1:]), 0, d)
    return _unique_result(
        _no_derivative(_tensor(values), input, "UniqueDimBackward0", "unique_dim"),
        _tensor(inv.reshape(-1), np.int64),
        _tensor(counts, np.int64),
        return_inverse,
        return_counts,
    )


@_transforms.values_op
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """input with each run of equal consecutive elements (or slices along dim) kept once."""
    import numpy as np

    _tensor_arg("unique_consecutive", input, "input", 1)
    a = _np(input)
    if dim is None:
        rows, shape = a.reshape(-1, 1), a.shape
    else:
        d = _wrap(dim, input.dim())
        moved = np.moveaxis(a, d, 0)
        rows, shape = moved.reshape(moved.shape[0], -1), (moved.shape[0],)
    n = rows.shape[0]
    start = np.ones(n, dtype=bool)
    if n > 1:
        start[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    run = np.cumsum(start) - 1
    first = np.flatnonzero(start)
    counts = np.diff(np.append(first, n))
    if dim is None:
        values = rows[first, 0]
    else:
        values = np.moveaxis(moved[first], 0, d)
    return _unique_result(
        _no_derivative(_tensor(values), input, "UniqueConsecutiveBackward0", "unique_consecutive"),
        _tensor(run.reshape(shape), np.int64),
        _tensor(counts, np.int64),
        return_inverse,
        return_counts,
    )


# ---- searching ----


def _side(right, side):
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(
                f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}"
            )
        if right and side == "left":
            raise RuntimeError(
                "torch.searchsorted(): side and right can't be set to opposites, got side of left "
                "while right was True"
            )
        return side == "right"
    return bool(right)


def _binary_search(bounds, values, right):
    """PyTorch's lower/upper-bound loop run on every value at once: log2(m) vectorised steps.
    Written as PyTorch writes it (``!(mid >= v)`` / ``!(mid > v)``) so NaN behaves the same."""
    import numpy as np

    m = bounds.shape[-1]
    start = np.zeros(values.shape, dtype=np.int64)
    end = np.full(values.shape, m, dtype=np.int64)
    with np.errstate(invalid="ignore"):
        while True:
            active = start < end
            if not active.any():
                return start
            mid = start + ((end - start) >> 1)
            mid_val = np.take_along_axis(bounds, np.minimum(mid, m - 1), axis=-1)
            go_right = ~(mid_val > values) if right else ~(mid_val >= values)
            start = np.where(active & go_right, mid + 1, start)
            end = np.where(active & ~go_right, mid, end)


@_transforms.values_op
def searchsorted(
    sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None, out=None
):
    """Indices where input's values would be inserted into sorted_sequence (its last dim, per
    row for N-D sequences) to keep it sorted; right/side='right' goes after equal elements."""
    import numpy as np

    _tensor_arg("searchsorted", sorted_sequence, "sorted_sequence", 1)
    right = _side(right, side)
    scalar = not isinstance(input, _Tensor)
    vals = np.asarray(input) if scalar else _np(input)
    bounds = _np(sorted_sequence)
    if sorter is not None:
        bounds = np.take_along_axis(bounds, _np(sorter).astype(np.int64), axis=-1)
    if bounds.ndim > 1 and (scalar or list(bounds.shape[:-1]) != list(vals.shape[:-1])):
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            "dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor {list(bounds.shape)} and input value tensor "
            f"{list(vals.shape) if not scalar else []}"
        )
    common = np.result_type(bounds.dtype, vals.dtype)
    if common == np.bool_:
        # PyTorch's kernel runs in the promoted dtype and has no bool form.
        raise NotImplementedError("\"searchsorted_out_cpu\" not implemented for 'Bool'")
    b, v = bounds.astype(common), vals.astype(common)
    if b.ndim <= 1:
        b = np.broadcast_to(b.reshape((1,) * v.ndim + (-1,)), v.shape + (b.shape[-1],))
        pos = _binary_search(b, v[..., None], right)[..., 0] if b.shape[-1] else np.zeros(v.shape)
    else:
        pos = _binary_search(b, v, right) if b.shape[-1] else np.zeros(v.shape)
    return _tensor(np.asarray(pos), np.int32 if out_int32 else np.int64)


@_transforms.values_op
def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    """Index of the bucket of each input value for 1-D increasing boundaries."""
    _tensor_arg("bucketize", boundaries, "boundaries", 2)
    if boundaries.dim() != 1:
        raise RuntimeError(
            f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})"
        )
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


@_transforms.values_op
def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """Bool tensor of elements' shape: whether each is among test_elements (NaN never is)."""
    import numpy as np

    for name, v in (("elements", elements), ("test_elements", test_elements)):
        if not isinstance(v, (_Tensor, int, float, bool)):
            raise TypeError(
                f"isin(): argument '{name}' must be Tensor or Number, not {_type_name(v)}"
            )
    if not isinstance(elements, _Tensor) and not isinstance(test_elements, _Tensor):
        raise TypeError("isin(): at least one of elements and test_elements must be a Tensor")
    for v in (elements, test_elements):
        if isinstance(v, bool) or (isinstance(v, _Tensor) and v.dtype == _C.bool):
            # PyTorch's sorting-based kernel has no bool form.
            raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    e = _np(elements) if isinstance(elements, _Tensor) else np.asarray(elements)
    t = _np(test_elements) if isinstance(test_elements, _Tensor) else np.asarray(test_elements)
    return _tensor(np.isin(e, t, invert=invert), np.bool_)


FUNCTIONS = {
    f.__name__: f
    for f in (
        histc, histogram, histogramdd, bincount, unique, unique_consecutive, searchsorted,
        bucketize, isin,
    )
}  # fmt: skip
METHOD_NAMES = ("histc", "histogram", "bincount", "unique", "unique_consecutive")


def install():
    """Adds the Tensor methods (existing native methods of the same name are kept)."""
    for name in METHOD_NAMES:
        if not hasattr(_Tensor, name):
            setattr(_Tensor, name, FUNCTIONS[name])
