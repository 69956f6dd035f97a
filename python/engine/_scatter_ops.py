"""Writing into and selecting from tensors by index: masked_select / masked_scatter, index_put,
index_fill, index_reduce, scatter_reduce, take_along_dim, put, the *_scatter family, nonzero,
argwhere, fill_diagonal_.

Most are one native op after an index computation: the flat positions a selection touches are
found by applying it to ``arange(numel)`` (so every index form the view or getitem accepts works,
and out-of-range indices fail there), then ``index_copy`` / ``index_add`` / ``index_select`` do the
differentiable work. Integer results (nonzero) come from NumPy on a detached copy. The in-place
variants copy the out-of-place result into self, so versions and gradients follow the in-place rules."""

import builtins

from engine import _C, _creation_extra, _expanded_writes, _grad_fn_names, _transforms
from engine._composite_ops import _tensor_arg
from engine._dense_layout import dense_order, inverse
from engine._joining import _broadcast_shape_of, _dtype_word
from engine._shape_ops import _wrap
from engine.autograd.grad_mode import no_grad

_Tensor = _C.Tensor
_INDEX_DTYPES = (_C.int64, _C.int32)


def _positions(input):
    """int64 tensor of input's shape holding each element's row-major flat position."""
    return _C.arange(input.numel()).reshape(list(input.shape))


def _write_flat(input, positions, values, accumulate=False, keep_layout=False):
    """input with values written (or added) at the flat positions; differentiable in both. With
    keep_layout, laid out like a dense input (index_put and put write into ``input.clone()``,
    which keeps a transposed layout; other ops' results are row-major)."""
    shape = list(input.shape)
    flat = input.reshape(-1)
    pos = positions.reshape(-1)
    vals = values.reshape(-1)
    out = (flat.index_add(0, pos, vals) if accumulate else flat.index_copy(0, pos, vals)).reshape(
        shape
    )
    order = dense_order(input) if keep_layout else None
    if order is None:
        return out
    return out.permute(order).contiguous().permute(inverse(order))


def _same_dtype(message, a, b):
    if a.dtype != b.dtype:
        raise RuntimeError(message.format(_dtype_word(a.dtype), _dtype_word(b.dtype)))


def _in_place(name, fn):
    def method(self, *args, **kwargs):
        _tensor_arg(name, self, "input", 1)
        return self.copy_(fn(self, *args, **kwargs))

    method.__name__ = name
    method.__doc__ = f"In-place ``{fn.__name__}``: writes the result into self."
    return method


# ---- masks ----


def _bool_mask(fname, mask):
    if mask.dtype != _C.bool:
        raise RuntimeError(f"{fname}: expected BoolTensor for mask")


@_transforms.values_op
def masked_select(input, mask, *, out=None):
    """A new 1-D tensor of the elements of ``input`` where the bool ``mask`` (broadcast with
    ``input``) is ``True``, in row-major order; the same as ``input[mask]``.

    Args:
        input (Tensor): the input tensor.
        mask (BoolTensor): which elements to take.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> x = engine.tensor([[1, 2], [3, 4]])
        >>> engine.masked_select(x, x > 1)
        tensor([2, 3, 4])
    """
    _tensor_arg("masked_select", input, "input", 1)
    _tensor_arg("masked_select", mask, "mask", 2)
    _bool_mask("masked_select", mask)
    shape = _broadcast_shape_of([input, mask])
    where = nonzero(mask.expand(shape).reshape(-1)).reshape(-1)
    if input.requires_grad and _C.is_grad_enabled() and not _transforms._open:
        with no_grad():  # one node, MaskedSelectBackward0, as PyTorch's
            out = input.expand(shape).reshape(-1).index_select(0, where)
        return _C._record_masked_select(out, input, mask, where)
    flat = input.expand(shape).reshape(-1)
    return _grad_fn_names.name_grad_fn(
        flat.index_select(0, where),
        "MaskedSelectBackward0",
        (input,),
        {"mask": mask, "self": input},
        only_shown=True,
    )


@_transforms.values_op
def masked_scatter(input, mask, source):
    """input with the positions where mask is True filled, in order, by source's leading elements."""
    _tensor_arg("masked_scatter", input, "input", 1)
    _tensor_arg("masked_scatter", mask, "mask", 2)
    _tensor_arg("masked_scatter", source, "source", 3)
    if mask.dtype != _C.bool:
        raise RuntimeError(
            "masked_scatter_ only supports boolean masks, but got mask with dtype "
            f"{_dtype_word(mask.dtype)}"
        )
    _same_dtype(
        "masked_scatter: expected self and source to have same dtypes but got{} and {}",
        input,
        source,
    )
    shape = _broadcast_shape_of([input, mask])
    where = nonzero(mask.expand(shape).reshape(-1)).reshape(-1)
    if where.numel() > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")
    picked = source.reshape(-1).narrow(0, 0, where.numel())
    return _write_flat(input.expand(shape), where, picked)


# ---- index_put / index_fill / put ----


def index_put(input, indices, values, accumulate=False):
    """input with ``input[indices] = values`` (or ``+=`` with accumulate, duplicates summed)."""
    _tensor_arg("index_put", input, "input", 1)
    _tensor_arg("index_put", values, "values", 3)
    if not isinstance(indices, (tuple, list)):
        raise TypeError(
            "index_put(): argument 'indices' (position 2) must be tuple of Tensors, "
            f"not {type(indices).__name__}"
        )
    _same_dtype(
        "Index put requires the source and destination dtypes match, got {} for the "
        "destination and {} for the source.",
        input,
        values,
    )
    pos = _positions(input)[tuple(indices)]
    try:
        values = values.expand(list(pos.shape))
    except RuntimeError:
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(values.shape)} cannot be broadcast to "
            f"indexing result of shape {list(pos.shape)}"
        ) from None
    return _write_flat(input, pos, values, accumulate, keep_layout=True)


def _index_vector(fname, index, dim_size, dim):
    if index.dtype != _C.int64:
        raise IndexError(f"{fname}(): Expected dtype int64 for index.")
    if index.dim() > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    _check_bounds(index, dim_size, dim)
    return index.reshape(-1)


def _check_bounds(index, size, dim):
    if index.numel() == 0:
        return
    lo, hi = int(index.min().item()), int(index.max().item())
    for bad in (lo, hi):
        if not -size <= bad < size:
            raise IndexError(f"index {bad} is out of bounds for dimension {dim} with size {size}")


def index_fill(input, dim, index, value):
    """input with the slices at `index` along dim set to value (a number or 0-d tensor)."""
    _tensor_arg("index_fill", input, "input", 1)
    d = _wrap(dim, input.dim())
    n = input.shape[d] if input.dim() else 1
    index = _index_vector("index_fill_", index, n, d)
    if isinstance(value, _Tensor) and value.dim() != 0:
        raise RuntimeError(
            "index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value.dim()} dimension(s)."
        )
    hit = _C.zeros((n,), dtype=_C.int64).index_add(0, index % n, _C.ones_like(index)) > 0
    view = [1] * input.dim()
    if input.dim():
        view[d] = n
    hit = hit.reshape(view)
    if isinstance(value, _Tensor):
        fill = value.to(input.dtype)
    else:
        fill = _C.full((), value, dtype=input.dtype)
    return _C.where(hit, fill, input)


def put(input, index, source, accumulate=False):
    """input (seen as 1-D) with source written (or added) at the flat positions in index."""
    _tensor_arg("put", input, "input", 1)
    if index.dtype != _C.int64:
        raise RuntimeError(
            f"put_(): Expected a long tensor for index, but got {_dtype_word(index.dtype)}"
        )
    if input.dtype != source.dtype:
        raise RuntimeError(
            "put_(): self and source expected to have the same dtype, but got self.dtype = "
            f"{_dtype_word(input.dtype)} and source.dtype = {_dtype_word(source.dtype)}"
        )
    if index.numel() != source.numel():
        raise IndexError(
            "put_(): Expected source and index to have the same number of elements, but got "
            f"source.numel() = {source.numel()}, index.numel() = {index.numel()}"
        )
    n = input.numel()
    if index.numel():
        for bad in (int(index.min().item()), int(index.max().item())):
            if not -n <= bad < n:
                raise IndexError(
                    f"out of range: tried to access index {bad} on a tensor of {n} elements."
                )
    return _write_flat(input, index % builtins.max(n, 1), source, accumulate, keep_layout=True)


# ---- scatter_reduce / index_reduce ----

_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


def _target_positions(input, dim, index):
    """Flat positions in input that each element of index sends to (index replaces the dim)."""
    d = dim
    coords = [
        _C.arange(s).reshape([-1 if i == k else 1 for k in range(index.dim())])
        for i, s in enumerate(index.shape)
    ]
    strides = []
    acc = 1
    for s in reversed(list(input.shape)):
        strides.append(acc)
        acc *= s
    strides.reverse()
    pos = _C.zeros(list(index.shape), dtype=_C.int64)
    for i in range(index.dim()):
        c = index % builtins.max(input.shape[i], 1) if i == d else coords[i]
        pos = pos + c * strides[i]
    return pos


def _src_part(src, index):
    """The leading block of src that index addresses."""
    for i, s in enumerate(index.shape):
        if src.shape[i] != s:
            src = src.narrow(i, 0, s)
    return src


@_transforms.values_op
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """input with src's elements reduced ('sum', 'prod', 'mean', 'amax', 'amin') into the
    positions index names along dim; include_self=False leaves input's own values out of the
    reduction wherever something is scattered."""
    _tensor_arg("scatter_reduce", input, "input", 1)
    if reduce not in _REDUCTIONS:
        raise RuntimeError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        )
    if index.dtype not in _INDEX_DTYPES:
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if input.dtype != src.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if input.dtype == _C.bool and reduce == "mean":
        raise NotImplementedError(
            "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'"
        )
    d = _wrap(dim, input.dim())
    # The native scatter_add checks index's shape and bounds with PyTorch's messages.
    counts = _C.zeros_like(input, dtype=_C.int64).scatter_add(d, index, _C.ones_like(index))
    if input.dim() == 0:
        return _reduce_flat(
            input, index.reshape(-1) * 0, src.reshape(-1), counts, reduce, include_self
        )
    pos = _target_positions(input, d, index.to(_C.int64))
    return _reduce_flat(input, pos, _src_part(src, index), counts, reduce, include_self)


def _reduce_flat(input, pos, src, counts, reduce, include_self):
    shape = list(input.shape)
    flat, pos, src = input.reshape(-1), pos.reshape(-1), src.reshape(-1)
    touched = counts.reshape(-1) > 0
    base = flat if include_self else _C.where(touched, _C.zeros((), dtype=flat.dtype), flat)
    if reduce == "sum":
        out = base.index_add(0, pos, src)
    elif reduce == "mean":
        total = base.index_add(0, pos, src)
        n = counts.reshape(-1) + (1 if include_self else 0)
        n = _C.where(n > 0, n, _C.ones_like(n))
        if flat.is_floating_point():
            out = total / n.to(flat.dtype)
        else:
            # PyTorch divides in the input's integer type.
            out = total.floor_divide(n).to(flat.dtype)
        out = _C.where(touched, out, flat)
    elif reduce == "prod":
        out = _scatter_prod(flat, pos, src, include_self)
    else:
        out = _extremum(flat, pos, src, touched, reduce, include_self)
    return out.reshape(shape)


def _extremum_values(flat, pos, src, touched, reduce, include_self):
    """Forward values of amax/amin (NumPy's ufunc.at over the scattered positions)."""
    import numpy as np

    if flat.dtype == _C.bfloat16:
        # NumPy has no bfloat16: float32 holds each value exactly, and max / min only pick one.
        return _extremum_values(flat.float(), pos, src.float(), touched, reduce, include_self).to(
            _C.bfloat16
        )
    a = flat.detach().numpy().copy()
    ufunc = np.maximum if reduce == "amax" else np.minimum
    if not include_self:
        t = touched.numpy()
        if a.dtype.kind == "f":
            a[t] = -np.inf if reduce == "amax" else np.inf
        elif a.dtype == np.bool_:
            a[t] = reduce != "amax"
        else:
            info = np.iinfo(a.dtype)
            a[t] = info.min if reduce == "amax" else info.max
    ufunc.at(a, pos.numpy(), src.detach().numpy())
    return _C.from_numpy(np.ascontiguousarray(a))


def _extremum(flat, pos, src, touched, reduce, include_self):
    result = _extremum_values(flat, pos, src, touched, reduce, include_self)
    if not (flat.requires_grad or src.requires_grad) or not _C.is_grad_enabled():
        return result
    # Gradient shared evenly among the elements equal to the result (PyTorch's rule). The
    # weights are piecewise constant, so higher derivatives are 0, as they are in PyTorch; they
    # are applied by a node of their own, which stays finite where values are infinite (an
    # empty amax slot starts at -inf).
    dtype = flat.dtype
    self_hits = flat.detach() == result
    if not include_self:
        self_hits = self_hits & ~touched
    src_hits = src.detach() == result.index_select(0, pos)
    ties = self_hits.to(dtype).index_add(0, pos, src_hits.to(dtype))
    ties = _C.where(ties > 0, ties, _C.ones_like(ties))
    self_weight = self_hits.to(dtype) / ties
    src_weight = src_hits.to(dtype) / ties.index_select(0, pos)
    if not _extremum_fn:
        _extremum_fn.append(_make_extremum())
    return _extremum_fn[0](result, flat, src, pos, self_weight, src_weight)


_extremum_fn = []


def _make_extremum():
    from engine.autograd.function import Function

    class ScatterExtremum(Function):
        @staticmethod
        def forward(ctx, result, flat, src, pos, self_weight, src_weight):
            ctx.save_for_backward(pos, self_weight, src_weight)
            return result

        @staticmethod
        def backward(ctx, grad):
            pos, self_weight, src_weight = ctx.saved_tensors
            g_self = grad * self_weight if ctx.needs_input_grad[1] else None
            g_src = grad.index_select(0, pos) * src_weight if ctx.needs_input_grad[2] else None
            return None, g_self, g_src, None, None, None

    return ScatterExtremum.apply


_scatter_prod_fn = []


def _scatter_prod(flat, pos, src, include_self):
    """Product reduction with PyTorch's first derivative (the product of the other factors,
    exact where factors are zero); not differentiable twice."""
    if not _scatter_prod_fn:
        _scatter_prod_fn.append(_make_scatter_prod())
    return _scatter_prod_fn[0](flat, pos, src, include_self)


def _np_of(t):
    """t's values as a NumPy array; bfloat16, which NumPy lacks, as float32 (which holds it)."""
    t = t.detach()
    return (t.float() if t.dtype == _C.bfloat16 else t).numpy()


def _make_scatter_prod():
    from engine.autograd.function import Function, once_differentiable

    def reduce_np(flat, pos, src, include_self):
        import numpy as np

        a = flat.copy()
        if not include_self:
            a[np.unique(pos)] = 1
        np.multiply.at(a, pos, src)
        return a

    class ScatterProd(Function):
        @staticmethod
        def forward(ctx, flat, pos, src, include_self):
            import numpy as np

            f, p, s = _np_of(flat), pos.numpy(), _np_of(src)
            ctx.save_for_backward(flat, pos, src)
            ctx.include_self = include_self
            result = _C.from_numpy(np.ascontiguousarray(reduce_np(f, p, s, include_self)))
            return result.to(flat.dtype)

        @staticmethod
        @once_differentiable
        def backward(ctx, grad):
            import numpy as np

            flat, pos, src = ctx.saved_tensors
            f, p, s = _np_of(flat), pos.numpy(), _np_of(src)
            g = _np_of(grad)
            touched = np.zeros(f.shape, dtype=bool)
            touched[p] = True
            self_in = ~touched | ctx.include_self
            # Per target: the product of its nonzero factors and how many factors are zero.
            nonzero_prod = np.where(self_in & (f != 0), f, 1).astype(f.dtype)
            np.multiply.at(nonzero_prod, p, np.where(s != 0, s, 1))
            zeros = np.where(self_in & (f == 0), 1, 0)
            np.add.at(zeros, p, (s == 0).astype(zeros.dtype))

            def others(x, target):
                # Product of every other factor of the target: the nonzero product divided by x
                # when x is nonzero and no other factor is zero; that product when x is the only
                # zero; 0 otherwise.
                safe = np.where(x != 0, x, 1)
                return np.where(
                    x != 0,
                    np.where(zeros[target] == 0, nonzero_prod[target] / safe, 0),
                    np.where(zeros[target] == 1, nonzero_prod[target], 0),
                )

            idx = np.arange(f.size)
            g_self = np.where(self_in, g * others(f, idx), 0).astype(f.dtype)
            g_src = (g[p] * others(s, p)).astype(s.dtype)
            return (
                _C.from_numpy(np.ascontiguousarray(g_self)).to(flat.dtype),
                None,
                _C.from_numpy(np.ascontiguousarray(g_src)).to(src.dtype),
                None,
            )

    return ScatterProd.apply


@_transforms.values_op
def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    """input with source's slices reduced ('prod', 'mean', 'amax', 'amin') into the slices that
    index names along dim."""
    _tensor_arg("index_reduce", input, "input", 1)
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(
            "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
            f"{reduce}."
        )
    if input.dtype == _C.bool:
        # PyTorch's kernels for bool: none without self, none for a vector, and no division.
        kernel = None
        if not include_self:
            kernel = "index_reduce_func_exclude_input_init"
        elif input.dim() <= 1:
            kernel = "index_func_"
        elif reduce == "mean":
            kernel = "div_floor_cpu"
        if kernel:
            raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    d = _wrap(dim, input.dim())
    if index.dim() > 1:
        raise IndexError(
            "index_reduce_(): Index is supposed to be a vector, but got dim: "
            f"{index.dim()} with type: {_dtype_word(index.dtype)} and size: {list(index.shape)}"
        )
    if index.dtype not in _INDEX_DTYPES:
        raise RuntimeError(
            "index_reduce_(): Expected dtype int32/int64 for index but got: "
            f"{_dtype_word(index.dtype)}"
        )
    if input.dtype != source.dtype:
        raise RuntimeError(
            f"index_reduce_(): self ({_dtype_word(input.dtype)}) and source "
            f"({_dtype_word(source.dtype)}) must have the same scalar type"
        )
    src_n = source.shape[d] if source.dim() else 1
    if index.numel() != src_n:
        raise RuntimeError(
            f"index_reduce_(): Number of indices ({index.numel()}) should be equal to "
            f"source.size(dim): ({src_n}), for dim: {dim}"
        )
    n = input.shape[d] if input.dim() else 1
    if index.numel():
        lo, hi = int(index.min().item()), int(index.max().item())
        if lo < -n or hi >= n:
            raise IndexError("index out of range in self")
    view = [1] * source.dim()
    if source.dim():
        view[d] = -1
    full = (index.to(_C.int64) % n).reshape(view).expand(list(source.shape))
    return scatter_reduce(input, d, full, source, reduce, include_self=include_self)


# ---- take_along_dim ----


def take_along_dim(input, indices, dim=None, *, out=None):
    """Elements of input picked by indices along dim (broadcast elsewhere), or from the
    flattened input when dim is None."""
    _tensor_arg("take_along_dim", input, "input", 1)
    _tensor_arg("take_along_dim", indices, "indices", 2)
    if indices.dtype != _C.int64:
        raise RuntimeError(
            "torch.take_along_dim(): dtype of indices should be Long but got "
            f"{_dtype_word(indices.dtype)}"
        )
    if dim is None:
        return input.reshape(-1).gather(0, indices.reshape(-1))
    d = _wrap(dim, input.dim())
    if input.dim() != indices.dim():
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of "
            f"dimensions, but got {input.dim()} dimensions for input, and {indices.dim()} "
            "dimensions for indices"
        )
    want = list(indices.shape)
    want[d] = input.shape[d]
    shape = _broadcast_shape_of([input, _C.empty(want)])
    idx_shape, in_shape = list(shape), list(shape)
    idx_shape[d], in_shape[d] = indices.shape[d], input.shape[d]
    return input.expand(in_shape).gather(d, indices.expand(idx_shape))


# ---- *_scatter: a tensor written into a view's positions ----


def _scatter_into(fname, input, src, pos):
    if list(src.shape) != list(pos.shape):
        raise RuntimeError(
            "expected src to have a size equal to the slice of self. src size = "
            f"{list(src.shape)}, slice size = {list(pos.shape)}"
        )
    return _write_flat(input, pos, src.to(input.dtype) if src.dtype != input.dtype else src)


def select_scatter(input, src, dim, index):
    """input with ``input.select(dim, index)`` replaced by src."""
    _tensor_arg("select_scatter", input, "input", 1)
    _tensor_arg("select_scatter", src, "src", 2)
    return _scatter_into("select_scatter", input, src, _positions(input).select(dim, index))


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """input with the slice ``start:end:step`` of dim replaced by src."""
    _tensor_arg("slice_scatter", input, "input", 1)
    _tensor_arg("slice_scatter", src, "src", 2)
    d = _wrap(dim, input.dim())
    key = (slice(None),) * d + (slice(start, end, step),)
    return _scatter_into("slice_scatter", input, src, _positions(input)[key])


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """input with its (offset, dim1, dim2) diagonal replaced by src."""
    _tensor_arg("diagonal_scatter", input, "input", 1)
    _tensor_arg("diagonal_scatter", src, "src", 2)
    pos = _positions(input).diagonal(offset, dim1, dim2)
    return _scatter_into("diagonal_scatter", input, src, pos)


# ---- nonzero ----


def _nonzero_np(input):
    import numpy as np

    x = input.detach()
    a = (x.float() if x.dtype == _C.bfloat16 else x).numpy()  # NumPy has no bfloat16
    return np.nonzero(a.reshape(1) if a.ndim == 0 else a)


@_transforms.values_op
def nonzero(input, *, out=None, as_tuple=False):
    """The indices of the non-zero elements of ``input``, in row-major order: an int64 tensor of
    shape (n, input.dim()) with one row per element, or with ``as_tuple=True`` one 1-D tensor
    per dimension (usable as an index: ``input[input.nonzero(as_tuple=True)]``).

    Args:
        input (Tensor): the input tensor.

    Keyword args:
        as_tuple (bool): return one tensor per dimension. Default: ``False``.
        out (Tensor, optional): the output tensor.

    Example::

        >>> x = engine.tensor([[0, 1], [2, 0]])
        >>> engine.nonzero(x)
        tensor([[0, 1],
                [1, 0]])
        >>> engine.nonzero(x, as_tuple=True)
        (tensor([0, 1]), tensor([1, 0]))
    """
    _tensor_arg("nonzero", input, "input", 1)
    import numpy as np

    idx = _nonzero_np(input)
    if as_tuple:
        return tuple(_C.from_numpy(np.ascontiguousarray(i, dtype=np.int64)) for i in idx)
    rows = np.stack(idx, 1) if input.dim() else np.zeros((len(idx[0]), 0))
    rows = _C.from_numpy(np.ascontiguousarray(rows, dtype=np.int64))
    if rows.numel() == 0:
        return rows
    # PyTorch's result is column-major: strides (1, n) for n rows.
    out = _creation_extra.empty_strided(rows.shape, (1, rows.shape[0]), dtype=_C.int64)
    return out.copy_(rows)


def nonzero_static(input, *, size, fill_value=-1):
    """nonzero with exactly `size` rows: truncated, or padded with fill_value."""
    _tensor_arg("nonzero_static", input, "input", 1)
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    rows = nonzero(input)
    n = rows.shape[0]
    if n >= size:
        return rows.narrow(0, 0, size)
    pad = _C.full((size - n, rows.shape[1]), fill_value, dtype=_C.int64)
    return _C.cat([rows, pad], 0)


@_transforms.values_op
def argwhere(input):
    """``nonzero(input)``: one row of indices per nonzero element."""
    _tensor_arg("argwhere", input, "input", 1)
    return nonzero(input)


def fill_diagonal_(self, fill_value, wrap=False):
    """Fills the main diagonal (all dims equal, or a tall/wide matrix) in place; with wrap, a
    tall matrix's diagonal restarts every ncols + 1 rows."""
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    shape = list(self.shape)
    if self.dim() > 2 and len(set(shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    n = min(shape)
    if self.dim() == 2 and wrap and shape[0] > shape[1] + 1:
        # Positions 0, c+1, 2(c+1), ... over the whole row-major layout.
        flat = _C.arange(0, self.numel(), shape[1] + 1)
        rows, cols = flat.floor_divide(shape[1]), flat.remainder(shape[1])
        self[rows, cols] = fill_value
        return self
    diag = _C.arange(n)
    self[(diag,) * self.dim()] = fill_value
    return self


def unravel_index(indices, shape):
    """The coordinates in an array of `shape` of flat indices (one int64 tensor per dim);
    indices wrap around modulo the size, as in PyTorch."""
    if not isinstance(indices, _Tensor):
        raise TypeError(f"expected 'indices' to be a tensor, but got {type(indices).__name__}")
    if indices.is_floating_point() or indices.dtype == _C.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    from engine._joining import _int_sequence

    dims = [shape] if isinstance(shape, int) else _int_sequence("unravel_index", shape, "shape", 2)
    if builtins.any(d < 0 for d in dims):
        raise ValueError(f"'shape' cannot have negative values, but got {tuple(dims)}")
    idx = indices.to(_C.int64)
    coords, step = [], 1
    for d in reversed(dims):
        coords.append(idx.floor_divide(step).remainder(builtins.max(d, 1)))
        step *= d
    return tuple(reversed(coords))


FUNCTIONS = {
    f.__name__: f
    for f in (
        unravel_index, put, masked_select, masked_scatter, index_put, index_fill, index_reduce, scatter_reduce,
        take_along_dim, select_scatter, slice_scatter, diagonal_scatter, nonzero,
        nonzero_static, argwhere,
    )
}  # fmt: skip

METHODS = {k: v for k, v in FUNCTIONS.items() if k != "unravel_index"}  # a function only
METHODS["put"] = put
METHODS["fill_diagonal_"] = fill_diagonal_
for _name in (
    "masked_scatter", "index_put", "index_fill", "index_reduce", "scatter_reduce", "put",
):  # fmt: skip
    METHODS[_name + "_"] = _in_place(_name + "_", METHODS[_name])


def _expanded_aware(method, expanded):
    """method, except on a self whose elements repeat memory (an expand() result): there
    PyTorch's index_put_ and index_fill_ warn and write through (see _expanded_writes)."""

    def wrapper(self, *args, **kwargs):
        mem = _expanded_writes.memory_view(self) if isinstance(self, _Tensor) else None
        if mem is None:
            return method(self, *args, **kwargs)
        return expanded(self, mem, *args, **kwargs)

    wrapper.__name__ = method.__name__
    wrapper.__doc__ = method.__doc__
    return wrapper


def _index_put_expanded(self, mem, indices, values, accumulate=False):
    index_put(self, indices, values, accumulate)  # the argument checks
    _expanded_writes.warn_deprecated("index_put_", "tensor[indices] = tensor")
    indices = tuple(indices)
    mask = indices[0] if len(indices) == 1 else None
    if mask is not None and mask.dtype == _C.bool and values.dim() == 0 and not accumulate:
        # One mask and a 0-d value: PyTorch goes on to masked_fill_.
        mask = mask.reshape(list(mask.shape) + [1] * (self.dim() - mask.dim()))
        return self.masked_fill_(mask, values)
    pos = _positions(self)[indices]
    return _expanded_writes.write_positions(
        self, mem, pos, values.expand(list(pos.shape)), accumulate
    )


def _index_fill_expanded(self, mem, dim, index, value):
    index_fill(self, dim, index, value)  # the argument checks
    _expanded_writes.warn_deprecated("index_fill_", "tensor[mask] = scalar")
    view, dims = mem
    d = _wrap(dim, self.dim())
    if d in dims:  # every index along d is the same memory
        index = index.reshape(-1)[:1].mul(0)
    view.index_fill_(d, index, value)
    return self


METHODS["index_put_"] = _expanded_aware(METHODS["index_put_"], _index_put_expanded)
METHODS["index_fill_"] = _expanded_aware(METHODS["index_fill_"], _index_fill_expanded)
# torch.index_put_ exists as a function too.
FUNCTIONS["index_put_"] = METHODS["index_put_"]


def install():
    """Adds the Tensor methods (existing native methods of the same name are kept)."""
    for name, fn in METHODS.items():
        if not hasattr(_Tensor, name):
            setattr(_Tensor, name, fn)
