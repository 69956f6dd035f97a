"""Splitting, stacking and reshaping helpers PyTorch builds from narrow / cat / expand / index_select
(tensor_split, hsplit, atleast_*d, hstack, broadcast_tensors, block_diag, cartesian_prod,
combinations, diag_embed, repeat_interleave, meshgrid, inner, vdot, addr, ...). Every result comes
from differentiable native ops, so gradients need no rule of their own."""

import builtins
import math
import operator
import warnings

from engine import _C, _creation, _grad_fn_names
from engine._composite_ops import _scaled_sum, _tensor_arg, _type_name
from engine._out_param import accepts_out
from engine._scalar_type_names import scalar_type_name
from engine._shape_ops import (
    _UNSAFE_SPLIT,
    _UNSAFE_SPLIT_WITH_SIZES,
    _chunk_size,
    _pieces,
    _split_sizes,
    _wrap,
    split,
)
from engine._tensor import Size

_Tensor = _C.Tensor


def _tensor_list(fname, tensors):
    """The tensors of a call written f(a, b) or f([a, b])."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    for t in tensors:
        if not isinstance(t, _Tensor):
            raise TypeError(
                f"{fname}(): expected a sequence of Tensors, but got an element of type {_type_name(t)}"
            )
    return tuple(tensors)


def _int_sequence(fname, value, arg, position):
    """value as a list of ints, or a TypeError naming the function and argument."""
    if isinstance(value, (tuple, list)) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        return list(value)
    raise TypeError(
        f"{fname}(): argument '{arg}' (position {position}) must be tuple of ints, "
        f"not {_type_name(value)}"
    )


def _sections(n, sections):
    """Boundaries of `sections` nearly equal parts of n: the first n % sections are one longer."""
    base, extra = divmod(n, sections)
    bounds, start = [], 0
    for i in range(sections - 1):
        start += base + (1 if i < extra else 0)
        bounds.append(start)
    return bounds


def _split_at(input, bounds, dim):
    """Views input[b[i-1]:b[i]] along dim, each bound clamped to the size as in slicing."""
    n = input.shape[dim]
    edges = [0, *(builtins.min(builtins.max(b, 0), n) for b in bounds), n]
    return tuple(input.narrow(dim, a, builtins.max(b - a, 0)) for a, b in zip(edges, edges[1:]))


# More sections than views could ever be allocated for.
_MAX_SECTIONS = 2**31


def tensor_split(input, indices_or_sections, dim=0):
    """Views of input split into `sections` nearly equal parts, or at the given indices, along dim."""
    _tensor_arg("tensor_split", input, "input", 1)
    if input.dim() == 0:
        raise RuntimeError(
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"
        )
    arg = indices_or_sections
    if isinstance(arg, _Tensor):
        if arg.dtype != _C.int64:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to have dtype of long, "
                f"but got {_dtype_word(arg.dtype)}"
            )
        if arg.dim() > 1:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                f"one-dimensional tensor, but got a tensor with {arg.dim()} dims"
            )
        arg = arg.item() if arg.dim() == 0 else arg.tolist()
    dim = _wrap(dim, input.dim())
    if isinstance(arg, bool) or not isinstance(arg, (int, list, tuple)):
        raise TypeError(
            "tensor_split(): argument 'indices_or_sections' must be int, tuple of ints or Tensor, "
            f"not {_type_name(indices_or_sections)}"
        )
    if isinstance(arg, int):
        if arg <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {arg}")
        if arg > _MAX_SECTIONS:
            # One view per section: more than fit in memory (PyTorch fails with std::bad_alloc).
            raise _C.OutOfMemoryError(f"tensor_split: cannot make {arg} sections: out of memory")
        return _split_at(input, _sections(input.shape[dim], arg), dim)
    n = input.shape[dim]
    # Negative indices count from the end, as in Python slicing.
    return _split_at(input, [i + n if i < 0 else i for i in arg], dim)


def _dtype_word(dtype):
    return scalar_type_name(dtype)


def _directional_split(fname, input, indices_or_sections, min_dims, dim):
    _tensor_arg(fname, input, "input", 1)
    if isinstance(indices_or_sections, _Tensor) and indices_or_sections.dim() == 0:
        indices_or_sections = indices_or_sections.item()  # a 0-d tensor is a number of sections
    if input.dim() < min_dims:
        raise RuntimeError(
            f"torch.{fname} requires a tensor with at least {min_dims} dimension, but got a tensor "
            f"with {input.dim()} dimensions!"
        )
    if isinstance(indices_or_sections, int) and not isinstance(indices_or_sections, bool):
        size = input.shape[dim]
        if indices_or_sections == 0 or size % indices_or_sections:
            raise RuntimeError(
                f"torch.{fname} attempted to split along dimension {dim}, but the size of the "
                f"dimension {size} is not divisible by the split_size {indices_or_sections}!"
            )
    return tensor_split(input, indices_or_sections, dim)


def hsplit(input, indices_or_sections):
    """tensor_split along dim 1 (dim 0 for 1-D input); an int must divide the size."""
    dim = 1 if isinstance(input, _Tensor) and input.dim() > 1 else 0
    return _directional_split("hsplit", input, indices_or_sections, 1, dim)


def vsplit(input, indices_or_sections):
    """tensor_split along dim 0 of an input of 2 or more dims; an int must divide the size."""
    return _directional_split("vsplit", input, indices_or_sections, 2, 0)


def dsplit(input, indices_or_sections):
    """tensor_split along dim 2 of an input of 3 or more dims; an int must divide the size."""
    return _directional_split("dsplit", input, indices_or_sections, 3, 2)


def split_with_sizes(input, split_sizes, dim=0):
    """Views of input of the given sizes along dim; the sizes must sum to the dim's size."""
    return tuple(split(input, _checked_sizes("split_with_sizes", input, split_sizes, dim), dim))


def _checked_sizes(fname, input, split_sizes, dim):
    _tensor_arg(fname, input, "input", 1)
    sizes = _int_sequence(fname, split_sizes, "split_sizes", 2)
    d = _wrap(dim, input.dim())
    n = input.shape[d] if input.dim() else 1
    if builtins.any(s < 0 for s in sizes):
        raise RuntimeError(
            "split_with_sizes expects split_sizes have only non-negative entries, but got "
            f"split_sizes={sizes}"
        )
    if builtins.sum(sizes) != n:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
            f"dimension {dim}), but got split_sizes={sizes}"
        )
    return sizes


def unsafe_split(input, split_size, dim=0):
    """``split`` whose pieces are not views: they may be written in place (they share memory
    with the input, which autograd does not track)."""
    _tensor_arg("unsafe_split", input, "input", 1)
    if isinstance(split_size, bool) or not isinstance(split_size, int):
        sizes = _int_sequence("unsafe_split", split_size, "split_size", 2)
        return _pieces(input, _split_sizes(input, sizes, dim), dim, _UNSAFE_SPLIT_WITH_SIZES)
    sizes = _split_sizes(input, split_size, dim)
    return _pieces(input, sizes, dim, _UNSAFE_SPLIT, split_size)


def unsafe_split_with_sizes(input, split_sizes, dim=0):
    """``split_with_sizes`` whose pieces are not views (see ``unsafe_split``)."""
    sizes = _checked_sizes("unsafe_split_with_sizes", input, split_sizes, dim)
    return _pieces(input, sizes, dim, _UNSAFE_SPLIT_WITH_SIZES)


def unsafe_chunk(input, chunks, dim=0):
    """``chunk`` whose pieces are not views (see ``unsafe_split``)."""
    _tensor_arg("unsafe_chunk", input, "input", 1)
    size = _chunk_size(input, chunks, dim)
    if not size:
        return _pieces(input, [0] * chunks, dim, _UNSAFE_SPLIT_WITH_SIZES)
    return _pieces(input, _split_sizes(input, size, dim), dim, _UNSAFE_SPLIT, size)


def _atleast(fname, ndim, tensors):
    single = len(tensors) == 1 and isinstance(tensors[0], _Tensor)
    if len(tensors) == 1 and not isinstance(tensors[0], (_Tensor, list, tuple)):
        raise TypeError(
            f"{fname}() received an invalid combination of arguments - got "
            f"({_type_name(tensors[0])}), but expected one of: (Tensor input) or "
            "(tuple of Tensors tensors)"
        )
    out = []
    for t in _tensor_list(fname, tensors):
        if t.dim() == 0:
            t = t.reshape([1] * ndim)
        elif t.dim() == 1 and ndim >= 2:
            t = t.unsqueeze(0).unsqueeze(-1) if ndim == 3 else t.unsqueeze(0)
        elif t.dim() == 2 and ndim == 3:
            t = t.unsqueeze(-1)
        out.append(t)
    return out[0] if single else tuple(out)


def atleast_1d(*tensors):
    """Each tensor viewed with at least 1 dim (one tensor in, one out; several give a tuple)."""
    return _atleast("atleast_1d", 1, tensors)


def atleast_2d(*tensors):
    """Each tensor viewed with at least 2 dims (a vector becomes a row)."""
    return _atleast("atleast_2d", 2, tensors)


def atleast_3d(*tensors):
    """Each tensor viewed with at least 3 dims (a vector (n) becomes (1, n, 1), a matrix (m, n, 1))."""
    return _atleast("atleast_3d", 3, tensors)


def _stack_list(fname, tensors):
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(
            f"{fname}(): argument 'tensors' (position 1) must be tuple of Tensors, "
            f"not {_type_name(tensors)}"
        )
    tensors = _tensor_list(fname, tensors)
    if not tensors:
        raise RuntimeError(f"{fname} expects a non-empty TensorList")
    return tensors


def hstack(tensors, *, out=None):
    """Tensors joined along dim 1 (dim 0 for vectors) after atleast_1d."""
    ts = _atleast("hstack", 1, (_stack_list("hstack", tensors),))
    return _C.cat(list(ts), 0 if ts[0].dim() == 1 else 1)


def vstack(tensors, *, out=None):
    """Tensors joined along dim 0 after atleast_2d."""
    return _C.cat(list(_atleast("vstack", 2, (_stack_list("vstack", tensors),))), 0)


row_stack = vstack


def dstack(tensors, *, out=None):
    """Tensors joined along dim 2 after atleast_3d."""
    return _C.cat(list(_atleast("dstack", 3, (_stack_list("dstack", tensors),))), 2)


def column_stack(tensors, *, out=None):
    """Tensors joined as columns: 0-d and 1-d inputs become (n, 1) columns first."""
    ts = _stack_list("column_stack", tensors)
    cols = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in ts]
    return _C.cat(cols, 1)


def broadcast_shapes(*shapes):
    """The shape all the given shapes (ints or sequences of ints) broadcast to."""
    norm = []
    for s in shapes:
        if s is None:
            continue
        if isinstance(s, int) and not isinstance(s, bool):
            s = (s,)
        if not isinstance(s, (tuple, list)):
            raise RuntimeError(
                f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {s}"
            )
        norm.append(s)
    if not norm:
        return Size(())
    common = [1] * builtins.max(len(s) for s in norm)
    for arg, shape in enumerate(norm):
        for i in range(-1, -1 - len(shape), -1):
            if shape[i] == common[i]:
                continue
            if common[i] == 1:
                if shape[i] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[i] = shape[i]
            if shape[i] != 1 and common[i] != shape[i]:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {shape[i]} at {i}! Mismatching "
                    f"argument at index {arg} had {shape}; but expected shape should be "
                    f"broadcastable to {common}"
                )
    return Size(common)


def _broadcast_shape_of(tensors):
    """The common shape of tensors, with PyTorch's message for the first mismatch."""
    shape = []
    for t in tensors:
        other = list(t.shape)
        n = builtins.max(len(shape), len(other))
        a = [1] * (n - len(shape)) + shape
        b = [1] * (n - len(other)) + other
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y and x != 1 and y != 1:
                raise RuntimeError(
                    f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                    f"non-singleton dimension {i}"
                )
        shape = [y if x == 1 else x for x, y in zip(a, b)]
    return shape


def broadcast_tensors(*tensors):
    """The tensors expanded (as views) to their common broadcast shape; one that already has it
    comes back as itself, as in PyTorch (no ExpandBackward0 node)."""
    ts = _tensor_list("broadcast_tensors", tensors)
    shape = _broadcast_shape_of(ts)
    return tuple(t if list(t.shape) == list(shape) else t.expand(shape) for t in ts)


def block_diag(*tensors):
    """A block-diagonal matrix of the inputs (0-d counts as 1x1, a vector as one row)."""
    ts = _tensor_list("block_diag", tensors)
    for i, t in enumerate(ts):
        if t.dim() > 2:
            raise RuntimeError(
                "torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                f"Input {i} has {t.dim()} dimensions"
            )
    if not ts:
        return _C.zeros((1, 0))
    dtype = ts[0].dtype
    for t in ts[1:]:
        dtype = _C.result_type(_C.empty((), dtype=dtype), t)
    mats = [t.reshape(1, -1) if t.dim() < 2 else t for t in ts]
    mats = [m.to(dtype) if m.dtype != dtype else m for m in mats]
    width = builtins.sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        r, c = m.shape
        parts = [_C.zeros((r, left), dtype=dtype), m, _C.zeros((r, width - left - c), dtype=dtype)]
        rows.append(_C.cat(parts, 1))
        left += c
    return _C.cat(rows, 0)


def _vector_arg(t):
    if t.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")


def cartesian_prod(*tensors):
    """Rows of every combination of one element from each 1-D input (itertools.product order)."""
    ts = _tensor_list("cartesian_prod", tensors)
    for t in ts:
        _vector_arg(t)
    if len(ts) == 1:
        return ts[0]
    grids = meshgrid(*ts, indexing="ij")
    return _C.stack([g.reshape(-1) for g in grids], 1)


def combinations(input, r=2, with_replacement=False):
    """Rows of the r-element combinations of a 1-D input (itertools.combinations order)."""
    _tensor_arg("combinations", input, "input", 1)
    _vector_arg(input)
    if isinstance(r, bool) or not hasattr(type(r), "__index__"):
        raise TypeError(
            f"combinations(): argument 'r' (position 2) must be int, not {type(r).__name__}"
        )
    r = operator.index(r)  # NumPy and other integer types, as PyTorch takes them
    if not -(2**63) <= r < 2**63:
        raise ValueError("Overflow when unpacking long long")
    if not isinstance(with_replacement, bool):
        raise TypeError(
            "combinations(): argument 'with_replacement' (position 3) must be bool, not "
            f"{type(with_replacement).__name__}"
        )
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _C.empty((0,), dtype=input.dtype)
    n = input.shape[0]
    count = math.comb(n + r - 1, r) if with_replacement else math.comb(n, r)
    # Sized before anything is built: the index rows alone need count * r int64s, and an
    # impossible size is refused here as an allocation of the result would be (never a hang).
    _C.empty((count * r,) if count * r < 2**62 else (2**62,), dtype=_C.int64)
    if count == 0:
        return _C.empty((0, r), dtype=input.dtype)
    idx = _combination_rows(n, r, with_replacement)
    picked = input.index_select(0, _C.from_numpy(idx.reshape(-1)))
    return picked.reshape(-1, r)


def _combination_rows(n, r, with_replacement):
    """int64 (count, r) array of increasing (non-decreasing with replacement) index tuples in
    lexicographic order, built one column at a time: memory stays the size of the result."""
    import numpy as np

    rows = np.arange(n, dtype=np.int64).reshape(-1, 1)
    for _ in range(r - 1):
        start = rows[:, -1] if with_replacement else rows[:, -1] + 1
        counts = np.maximum(n - start, 0)
        first = np.repeat(np.cumsum(counts) - counts, counts)
        new = np.repeat(start, counts) + (np.arange(int(counts.sum()), dtype=np.int64) - first)
        rows = np.concatenate([np.repeat(rows, counts, axis=0), new.reshape(-1, 1)], 1)
    return np.ascontiguousarray(rows.reshape(-1, r))


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor whose (dim1, dim2) diagonals at `offset` hold input's last dim, zeros elsewhere."""
    _tensor_arg("diag_embed", input, "input", 1)
    nd = input.dim() + 1
    d1, d2 = _wrap(dim1, nd), _wrap(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    x = input if input.dim() else input.reshape(1)
    n, k = x.shape[-1], builtins.abs(offset)
    eye = _creation.eye(n, dtype=x.dtype)
    square = x.unsqueeze(-1) * eye  # (..., n, n), input on the main diagonal
    batch = list(x.shape[:-1])
    if k:
        cols = _C.zeros(batch + [n, k], dtype=x.dtype)
        rows = _C.zeros(batch + [k, n + k], dtype=x.dtype)
        if offset > 0:  # (i, i + k): zero columns on the left, zero rows below
            square = _C.cat([_C.cat([cols, square], -1), rows], -2)
        else:  # (i + k, i): zero rows above, zero columns on the right
            square = _C.cat([rows, _C.cat([square, cols], -1)], -2)
    # A fresh row-major result whatever input's layout, as PyTorch's (zeros, then the diagonal).
    return square.movedim((-2, -1), (d1, d2)).contiguous()


def diagflat(input, offset=0):
    """A matrix with input's flattened elements on the diagonal at `offset`."""
    _tensor_arg("diagflat", input, "input", 1)
    return diag_embed(input.reshape(-1), offset, 0, 1)


def ravel(input):
    """input flattened to 1-D (a view when the layout allows, a contiguous copy otherwise)."""
    _tensor_arg("ravel", input, "input", 1)
    # Always contiguous, as PyTorch's: a strided input that reshape could view is copied too.
    return input.contiguous().reshape(-1)


def sum_to_size(self, *size):
    """self summed over the dims it was broadcast along from `size`."""
    size = list(size[0]) if len(size) == 1 and isinstance(size[0], (list, tuple)) else list(size)
    shape = list(self.shape)
    lead = len(shape) - len(size)
    expandable = lead >= 0 and builtins.all(
        s == 1 or s == shape[lead + i] for i, s in enumerate(size)
    )
    if not expandable:
        raise RuntimeError(f"size {{{size}}} is not expandable to size {{{shape}}}.")
    dims = list(range(lead)) + [
        lead + i for i, s in enumerate(size) if s == 1 and shape[lead + i] != 1
    ]
    out = self.sum(dims, keepdim=True) if dims else self
    return out.reshape(size) if lead else out


def _repeat_index(repeats_np, total):
    """int64 index tensor repeating position i repeats[i] times (``total`` positions)."""
    import numpy as np

    try:
        idx = np.repeat(np.arange(len(repeats_np), dtype=np.int64), repeats_np)
    except (MemoryError, ValueError):  # NumPy: out of memory, or more bytes than it can address
        raise _C.OutOfMemoryError(
            f"DefaultCPUAllocator: not enough memory: you tried to allocate {total * 8} bytes."
        ) from None
    return _C.from_numpy(np.ascontiguousarray(idx))


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element (or slice along dim) repeated `repeats` times (an int or one count per slice);
    ``repeat_interleave(counts)`` repeats the index i counts[i] times."""
    import numpy as np

    if repeats is None:
        _tensor_arg("repeat_interleave", input, "repeats", 1)
        if input.dim() > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        return repeat_interleave(_C.arange(input.numel()), input, 0, output_size=output_size)
    _tensor_arg("repeat_interleave", input, "input", 1)
    if dim is None:
        input, dim = input.reshape(-1), 0
    d = _wrap(dim, input.dim())
    x = input if input.dim() else input.reshape(1)
    n = x.shape[d]
    if isinstance(repeats, _Tensor):
        if repeats.dim() > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        if repeats.dim() == 1 and repeats.numel() != 1 and repeats.shape[0] != n:
            raise RuntimeError(
                "repeats must have the same size as input along dim, but got repeats.size(0) = "
                f"{repeats.shape[0]} and input.size(0) = {n}"
            )
        if repeats.dtype not in (_C.int64, _C.int32):
            raise RuntimeError("repeats has to be Long or Int tensor")
        counts = repeats.detach().reshape(-1).numpy().astype(np.int64)
        if (counts < 0).any():
            raise RuntimeError("repeats can not be negative")
        if counts.size == 1:
            counts = np.full(n, counts[0], dtype=np.int64)
    else:
        if repeats < 0:
            raise RuntimeError("Repeats must be non-negative")
        counts = np.full(n, repeats, dtype=np.int64)
    # Summed as Python ints: an int64 sum of huge counts would wrap (and NumPy's repeat then
    # crashes on the wrapped size, as PyTorch's kernel does on this input).
    total = (
        builtins.sum(int(c) for c in counts)
        if counts.size and int(counts.max()) > 2**62 // counts.size
        else int(counts.sum())
    )
    if total > 2**63 - 1:
        raise RuntimeError(
            f"repeat_interleave: the result would have {total} elements, more than an int64 holds"
        )
    if output_size is not None and output_size != total:
        raise RuntimeError(
            f"repeat_interleave: Invalid output_size, expected {total} but got {output_size}"
        )
    return x.index_select(d, _repeat_index(counts, total))


def meshgrid(*tensors, indexing=None):
    """Coordinate grids of 0-D/1-D inputs: 'ij' puts input i along dim i; 'xy' swaps the first two."""
    ts = _tensor_list("meshgrid", tensors)
    if indexing is None:
        warnings.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
            "argument.",
            UserWarning,
            stacklevel=2,
        )
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(
            f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}'
        )
    if not ts:
        raise RuntimeError("torch.meshgrid: Expected at least one tensor")
    for t in ts:
        if t.dim() > 1:
            raise RuntimeError(
                f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}"
            )
        if t.dtype != ts[0].dtype:
            raise RuntimeError(
                "torch.meshgrid: Expected all tensors in the tensor list to have the same dtype."
            )
    order = list(ts)
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        order[0], order[1] = order[1], order[0]
    shape = [t.numel() for t in order]
    grids = []
    for i, t in enumerate(order):
        view = [1] * len(order)
        view[i] = -1
        grids.append(t.reshape(view).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def inner(input, other, *, out=None):
    """Sum of products over the last dims (a scalar factor if either is 0-d)."""
    _tensor_arg("inner", input, "input", 1)
    _tensor_arg("inner", other, "other", 2)
    if input.dim() == 0 or other.dim() == 0:
        return input * other
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(
            "inner() the last dimension must match on both input tensors but got shapes "
            f"{list(input.shape)} and {list(other.shape)}"
        )
    k = input.shape[-1]
    product = _C.matmul(input.reshape(-1, k), other.reshape(-1, k).t())
    return product.reshape(list(input.shape[:-1]) + list(other.shape[:-1]))


def vdot(input, other, *, out=None):
    """Dot product of two 1-D tensors (the first conjugated: the same for real tensors)."""
    _tensor_arg("vdot", input, "input", 1)
    _tensor_arg("vdot", other, "other", 2)
    if input.dim() != 1 or other.dim() != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {input.dim()}D and {other.dim()}D tensors"
        )
    if input.numel() != other.numel():
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{input.numel()}] and src "
            f"[{other.numel()}] to have the same number of elements, but got {input.numel()} and "
            f"{other.numel()} elements respectively"
        )
    if input.dtype != other.dtype:
        raise RuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{_dtype_word(input.dtype)} and {_dtype_word(other.dtype)}"
        )
    result = _C.dot(input.conj() if input.dtype.is_complex else input, other)
    return _grad_fn_names.name_grad_fn(result, "VdotBackward0", (input, other))


@accepts_out()
def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * outer(vec1, vec2)``."""
    for i, (name, t) in enumerate((("input", input), ("vec1", vec1), ("vec2", vec2))):
        _tensor_arg("addr", t, name, i + 1)
    for name, t in (("vec1", vec1), ("vec2", vec2)):
        if t.dim() != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {t.dim()}-D")
    return _scaled_sum("addr", input, _C.outer(vec1, vec2), beta, alpha)


FUNCTIONS = {
    f.__name__: f
    for f in (
        tensor_split, hsplit, vsplit, dsplit, split_with_sizes, unsafe_split,
        unsafe_split_with_sizes, unsafe_chunk, atleast_1d, atleast_2d, atleast_3d, hstack, vstack,
        dstack, column_stack, broadcast_shapes, broadcast_tensors, block_diag, cartesian_prod,
        combinations, diag_embed, diagflat, ravel, repeat_interleave, meshgrid, inner, vdot, addr,
    )
}  # fmt: skip
FUNCTIONS["row_stack"] = row_stack

# Tensor methods: PyTorch has these as methods too (with self as input).
METHOD_NAMES = (
    "tensor_split", "hsplit", "vsplit", "dsplit", "split_with_sizes", "unsafe_split",
    "unsafe_split_with_sizes", "unsafe_chunk", "diag_embed", "diagflat", "ravel",
    "repeat_interleave", "inner", "vdot", "addr",
)  # fmt: skip


def install():
    """Adds the Tensor methods (existing native methods of the same name are kept)."""
    for name in METHOD_NAMES:
        if not hasattr(_Tensor, name):
            setattr(_Tensor, name, FUNCTIONS[name])
    if not hasattr(_Tensor, "sum_to_size"):
        _Tensor.sum_to_size = sum_to_size
