"""The ``*_copy`` functions (PyTorch's view ops returning fresh contiguous tensors instead of
views: ``t_copy(x)`` is ``x.t()`` copied) as one mechanism over the view ops, plus unfold_copy,
as_strided_copy and as_strided_scatter on a tensor's own (contiguous) elements. Each copy is
differentiable through the view it copies."""

import builtins

from engine import _C
from engine._composite_ops import _tensor_arg
from engine._joining import split_with_sizes
from engine._shape_ops import _wrap, split

_Tensor = _C.Tensor


def _fresh(t):
    """A new contiguous tensor holding t's values (never t's memory)."""
    return t.contiguous() if not t.is_contiguous() else t.clone()


def _make_copy(name, view):
    def copy(input, *args, out=None, **kwargs):
        _tensor_arg(name, input, "input", 1)
        result = view(input, *args, **kwargs)
        if isinstance(result, (tuple, list)):
            return tuple(_fresh(t) for t in result)
        return _fresh(result)

    copy.__name__ = name
    copy.__qualname__ = name
    copy.__doc__ = f"A fresh contiguous copy of what the view op ``{name[:-5]}`` returns."
    return copy


def _split_arg(split_size):
    if isinstance(split_size, int) and not isinstance(split_size, bool):
        return split_size
    from engine._joining import _int_sequence

    return _int_sequence("split_copy", split_size, "split_size", 2)


def _slice(input, dim=0, start=None, end=None, step=1):
    d = _wrap(dim, input.dim())
    return input[(slice(None),) * d + (slice(start, end, step),)]


def _squeeze(input, dim=None):
    return input.squeeze() if dim is None else input.squeeze(dim)


def _expand(input, size, *, implicit=False):
    from engine._joining import _int_sequence

    return input.expand(_int_sequence("expand_copy", size, "size", 2))


def _view(input, *shape):
    if len(shape) == 1 and isinstance(shape[0], _C.dtype):
        return _view_as_dtype(input, shape[0])
    return input.view(*shape)


def _view_as_dtype(input, dtype):
    """input's bytes reinterpreted as dtype (the last dim rescaled), as ``Tensor.view(dtype)``."""
    import numpy as np

    from engine._creation_extra import _np_dtype

    a = input.detach().contiguous().numpy()
    if a.ndim == 0 and np.dtype(_np_dtype(dtype)).itemsize != a.itemsize:
        raise RuntimeError(
            "self.dim() cannot be 0 to view a tensor as a dtype of a different element size"
        )
    try:
        b = a.view(_np_dtype(dtype))
    except ValueError as e:
        raise RuntimeError(f"view_copy(): cannot view {input.dtype} as {dtype}: {e}") from None
    return _C.from_numpy(np.ascontiguousarray(b).copy())


def _unfold(input, dimension, size, step):
    """Windows of `size` elements every `step` along dimension, as a new last dim."""
    d = _wrap(dimension, input.dim())
    n = input.shape[d] if input.dim() else 1
    if size > n:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {n} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    x = input if input.dim() else input.reshape(1)
    count = (n - size) // step + 1
    starts = _C.arange(count).unsqueeze(1) * step
    index = (starts + _C.arange(size).unsqueeze(0)).reshape(-1)
    picked = x.index_select(d, index)
    shape = list(x.shape)
    windows = picked.reshape(shape[:d] + [count, size] + shape[d + 1 :])
    out = windows.movedim(d + 1, -1)
    return out if input.dim() else out.squeeze(0)


def _storage_of(fname, input):
    """(the contiguous tensor owning input's memory, input's offset in it, in elements)."""
    base = input if input._base is None else input._base
    if not base.is_contiguous():
        raise NotImplementedError(f"{fname}: engine supports it only over contiguous storage")
    offset = (input.data_ptr() - base.data_ptr()) // builtins.max(input.element_size(), 1)
    return base, offset


def _strided_positions(fname, storage, size, stride, offset):
    """Storage positions a strided view (size, stride, offset) reads, with PyTorch's bound check."""
    size, stride = list(size), list(stride)
    if len(size) != len(stride):
        raise RuntimeError(
            f"mismatch in length of strides and shape: sizes has {len(size)} dims but strides "
            f"has {len(stride)}"
        )
    if builtins.any(s < 0 for s in stride):
        raise RuntimeError(
            f"as_strided: Negative strides are not supported at the moment, got strides: {stride}"
        )
    if builtins.all(size):
        needed = offset + 1 + builtins.sum((n - 1) * s for n, s in zip(size, stride))
    else:
        needed = 0
    item = storage.element_size()
    if needed > storage.numel():
        raise RuntimeError(
            f"setStorage: sizes {size}, strides {stride}, storage offset {offset}, and itemsize "
            f"{item} requiring a storage size of {needed * item} are out of bounds for storage "
            f"of size {storage.numel() * item}"
        )
    pos = _C.full(size, offset, dtype=_C.int64)
    for i, (n, s) in enumerate(zip(size, stride)):
        view = [1] * len(size)
        view[i] = n
        pos = pos + _C.arange(n).reshape(view) * s
    return pos


def as_strided_copy(input, size, stride, storage_offset=None, *, out=None):
    """The elements ``input.as_strided(size, stride, storage_offset)`` would show, as a fresh
    tensor (storage_offset counts from the start of input's memory block, as in PyTorch)."""
    _tensor_arg("as_strided_copy", input, "input", 1)
    storage, own = _storage_of("as_strided_copy", input)
    offset = own if storage_offset is None else storage_offset
    pos = _strided_positions("as_strided_copy", storage, size, stride, offset)
    # Read through input where the positions fall inside it, so the gradient reaches input.
    flat = input.reshape(-1) if storage is input else storage.detach().reshape(-1)
    if storage is not input and input.is_contiguous():
        inside = (pos >= own) & (pos < own + input.numel())
        if inside.all().item():
            return (
                input.reshape(-1).index_select(0, (pos - own).reshape(-1)).reshape(list(pos.shape))
            )
    return flat.index_select(0, pos.reshape(-1)).reshape(list(pos.shape))


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """input with the elements of ``input.as_strided(size, stride, storage_offset)`` replaced by
    src (positions outside input's own elements are dropped, as in PyTorch)."""
    _tensor_arg("as_strided_scatter", input, "input", 1)
    _tensor_arg("as_strided_scatter", src, "src", 2)
    if not input.is_contiguous():
        raise NotImplementedError("as_strided_scatter: engine supports contiguous inputs only")
    storage, own = _storage_of("as_strided_scatter", input)
    offset = own if storage_offset is None else storage_offset
    pos = _strided_positions("as_strided_scatter", storage, size, stride, offset)
    if list(src.shape) != list(pos.shape):
        raise RuntimeError(
            "expected src to have a size equal to the slice of self. src size = "
            f"{list(src.shape)}, slice size = {list(pos.shape)}"
        )
    rel = (pos - own).reshape(-1)
    keep = nonzero_flat((rel >= 0) & (rel < input.numel()))
    values = src.reshape(-1).to(input.dtype).index_select(0, keep)
    flat = input.reshape(-1).index_copy(0, rel.index_select(0, keep), values)
    return flat.reshape(list(input.shape))


def nonzero_flat(mask):
    """Positions of the True elements of a 1-D mask."""
    from engine._scatter_ops import nonzero

    return nonzero(mask).reshape(-1)


_VIEWS = {
    "alias_copy": lambda x: x.view(list(x.shape)),
    "detach_copy": lambda x: x.detach(),
    "diagonal_copy": lambda x, offset=0, dim1=0, dim2=1: x.diagonal(offset, dim1, dim2),
    "expand_copy": _expand,
    "permute_copy": lambda x, dims: x.permute(dims),
    "select_copy": lambda x, dim, index: x.select(dim, index),
    "slice_copy": _slice,
    "split_copy": lambda x, split_size, dim=0: tuple(split(x, _split_arg(split_size), dim)),
    "split_with_sizes_copy": lambda x, split_sizes, dim=0: split_with_sizes(x, split_sizes, dim),
    "squeeze_copy": _squeeze,
    "t_copy": lambda x: x.t(),
    "transpose_copy": lambda x, dim0, dim1: x.transpose(dim0, dim1),
    "unbind_copy": lambda x, dim=0: tuple(x.unbind(dim)),
    "unfold_copy": _unfold,
    "unsqueeze_copy": lambda x, dim: x.unsqueeze(dim),
    "view_copy": _view,
    "narrow_copy": lambda x, dim, start, length: x.narrow(dim, start, length),
}

FUNCTIONS = {name: _make_copy(name, view) for name, view in _VIEWS.items()}
FUNCTIONS["as_strided_copy"] = as_strided_copy
FUNCTIONS["as_strided_scatter"] = as_strided_scatter
METHOD_NAMES = ("narrow_copy", "as_strided_scatter")


def install():
    """Adds the Tensor methods PyTorch has for this family."""
    for name in METHOD_NAMES:
        if not hasattr(_Tensor, name):
            setattr(_Tensor, name, FUNCTIONS[name])
