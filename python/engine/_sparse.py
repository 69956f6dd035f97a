"""Sparse COO tensors, enough for the graph code that builds an adjacency matrix with
``torch.sparse_coo_tensor`` (or the legacy ``torch.sparse.FloatTensor``) and multiplies it into
dense features (``torch.spmm``, ``torch.sparse.mm``, ``adj @ x``, ``torch.mm``).

A sparse tensor here is a Tensor subclass that keeps PyTorch's sparse face (``is_sparse``,
``layout``, ``indices()`` / ``values()``, ``coalesce()``, ``_nnz()``, ``to_dense()``, its printed
form) over dense storage: its elements are the values scattered (and summed where indices
repeat) into zeros, recorded by autograd, so products with dense tensors are ordinary dense
products and gradients reach ``values`` as PyTorch's do. Operations other than those listed
return dense tensors (PyTorch would keep some sparse); memory is that of the dense tensor.
"""

from __future__ import annotations

from engine import _C
from engine._tensor_misc import layout

_Tensor = _C.Tensor

sparse_coo = layout("sparse_coo")


class _SparseCooTensor(_Tensor):
    """A sparse COO tensor (dense storage, sparse face); see the module docstring."""

    _sparse_indices: _Tensor
    _sparse_values: _Tensor
    _sparse_coalesced: bool

    @property
    def is_sparse(self):
        """True: a sparse COO tensor."""
        return True

    @property
    def layout(self):
        """``torch.sparse_coo``."""
        return sparse_coo

    def _indices(self):
        """The (sparse_dim, nnz) int64 indices, as given."""
        return self._sparse_indices

    def _values(self):
        """The (nnz, *dense dims) values, as given."""
        return self._sparse_values

    def indices(self):
        """The indices of a coalesced tensor (PyTorch refuses an uncoalesced one)."""
        if not self._sparse_coalesced:
            raise RuntimeError(
                "Cannot get indices on an uncoalesced tensor, please call .coalesce() first"
            )
        return self._sparse_indices

    def values(self):
        """The values of a coalesced tensor (PyTorch refuses an uncoalesced one)."""
        if not self._sparse_coalesced:
            raise RuntimeError(
                "Cannot get values on an uncoalesced tensor, please call .coalesce() first"
            )
        return self._sparse_values

    def _nnz(self):
        """The number of stored entries."""
        return int(self._sparse_indices.shape[1])

    def sparse_dim(self):
        """The number of sparse dims (rows of the indices)."""
        return int(self._sparse_indices.shape[0])

    def dense_dim(self):
        """The number of dense dims (the values' trailing dims)."""
        return self._sparse_values.dim() - 1

    def is_coalesced(self):
        """Whether indices are sorted and unique (True after ``coalesce()``)."""
        return self._sparse_coalesced

    def coalesce(self):
        """The same tensor with sorted, unique indices (repeated entries summed)."""
        if self._sparse_coalesced:
            return self
        idx, vals = self._sparse_indices, self._sparse_values
        shape = tuple(self.shape)
        sd = idx.shape[0]
        # Row-major linear positions order the entries; repeated positions are summed.
        linear = _C.zeros(idx.shape[1], dtype=_C.int64)
        for k in range(sd):
            linear = linear * shape[k] + idx[k]
        unique, inverse = linear.unique(sorted=True, return_inverse=True)
        summed = _C.zeros((unique.shape[0], *vals.shape[1:]), dtype=vals.dtype).index_add(
            0, inverse, vals
        )
        rows = []
        rest = unique
        for k in reversed(range(sd)):
            rows.append(rest % shape[k])
            rest = rest // shape[k]
        new_idx = _C.stack(rows[::-1]) if rows else unique.reshape(0, -1)
        return _make(new_idx, summed, shape, coalesced=True)

    def to_dense(self, dtype=None, *, masked_grad=None):
        """The dense tensor (differentiable with respect to the values)."""
        dense = self.as_subclass(_Tensor)
        return dense if dtype is None else dense.to(dtype)

    def t(self):
        """The transpose of a 2-D sparse tensor, sparse."""
        if self.sparse_dim() != 2 or self.dense_dim() != 0:
            raise RuntimeError(
                f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, but got "
                f"{self.sparse_dim()} sparse and {self.dense_dim()} dense dimensions"
            )
        idx = self._sparse_indices.flip(0)
        return _make(idx, self._sparse_values, tuple(self.shape)[::-1], coalesced=False)

    def transpose(self, dim0, dim1):
        """The tensor with sparse dimensions ``dim0`` and ``dim1`` swapped, sparse (uncoalesced)."""
        ndim = self.dim()
        d0, d1 = (_wrap_dim(d, ndim) for d in (dim0, dim1))
        if d0 == d1:
            return self
        sd = self.sparse_dim()
        if d0 >= sd or d1 >= sd:
            raise RuntimeError(
                "sparse transpose: transposed dimensions must be sparse "
                f"Got sparse_dim: {sd}, d0: {d0}, d1: {d1}"
            )
        order = list(range(sd))
        order[d0], order[d1] = d1, d0
        idx = self._sparse_indices[order]
        size = list(self.shape)
        size[d0], size[d1] = size[d1], size[d0]
        return _make(idx, self._sparse_values, tuple(size), coalesced=False)

    def to_sparse(self, *args, **kwargs):
        """Itself: already sparse."""
        return self

    def __repr__(self, *, tensor_contents=None):
        def indent(text, width):
            return text.replace("\n", "\n" + " " * width)

        idx = repr(self._sparse_indices)
        vals = self._sparse_values.detach()
        values = repr(vals)
        # The values print without their dtype: it goes with the size, as in PyTorch.
        if vals.dtype not in (_C.float32, _C.int64, _C.bool):
            values = values.replace(f", dtype={vals.dtype})", ")")
        size = tuple(self.shape)
        tail = f"size={size}, nnz={self._nnz()}"
        if vals.dtype not in (_C.float32, _C.int64, _C.bool):
            tail += f", dtype={vals.dtype}"
        tail += ", layout=torch.sparse_coo"
        fn = self.grad_fn
        if fn is not None:
            tail += f",\n       grad_fn=<{type(fn).__name__}>"
        elif self.requires_grad:
            tail += ", requires_grad=True"
        return (
            f"tensor(indices={indent(idx, 15)},\n"
            f"       values={indent(values, 14)},\n"
            f"       {tail})"
        )

    __str__ = __repr__


def _wrap_dim(dim, ndim):
    if not -ndim <= dim < ndim:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})"
        )
    return dim % ndim


def _make(indices, values, size, coalesced):
    sd = indices.shape[0]
    dense = _C.zeros(tuple(size), dtype=values.dtype)
    if values.requires_grad:
        dense.requires_grad_(False)
    key = tuple(indices[k] for k in range(sd))
    dense = dense.index_put(key, values, accumulate=True)
    out = dense.as_subclass(_SparseCooTensor)
    out._sparse_indices = indices
    out._sparse_values = values
    out._sparse_coalesced = coalesced or indices.shape[1] <= 1
    return out


def sparse_coo_tensor(
    indices,
    values,
    size=None,
    *,
    dtype=None,
    device=None,
    pin_memory=False,
    requires_grad=False,
    check_invariants=None,
    is_coalesced=None,
):
    """A sparse COO tensor with the given ``indices`` (sparse_dim, nnz) and ``values``
    (nnz, *dense dims); ``size`` defaults to the smallest that holds every index."""
    from engine._complex import refuse_complex

    refuse_complex("sparse_coo_tensor", indices, values)
    indices = indices if isinstance(indices, _Tensor) else _C.tensor(indices)
    values = values if isinstance(values, _Tensor) else _C.tensor(values)
    if indices.dtype != _C.int64:
        indices = indices.to(_C.int64)
    if indices.dim() != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {list(indices.shape)}")
    if dtype is not None:
        values = values.to(dtype)
    if requires_grad:
        values = values.detach().requires_grad_(True)
    sd = indices.shape[0]
    if size is None:
        top = indices.amax(1) + 1 if indices.shape[1] else _C.zeros(sd, dtype=_C.int64)
        size = tuple(int(v) for v in top.tolist()) + tuple(values.shape[1:])
    size = tuple(int(s) for s in size)
    if indices.shape[1] and sd:
        for k in range(sd):
            top = int(indices[k].max())
            if top >= size[k]:
                raise RuntimeError(
                    f"size is inconsistent with indices: for dim {k}, size is {size[k]} but "
                    f"found index {top}"
                )
    return _make(indices, values, size, coalesced=bool(is_coalesced))


def spmm(input, mat2):
    """Sparse (or dense) ``input`` times dense ``mat2``: a dense result."""
    return _C.mm(input, mat2)


def to_sparse(self, *args, layout=None, blocksize=None, dense_dim=None):
    """This dense tensor as a sparse COO tensor of its nonzero entries."""
    nz = self.detach().nonzero().t()
    key = tuple(nz[k] for k in range(nz.shape[0]))
    return _make(nz, self[key], tuple(self.shape), coalesced=True)
