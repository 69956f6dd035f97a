"""``engine.sparse``: sparse COO tensors as graph code uses them (see engine/_sparse.py):
``mm``, the legacy constructors ``FloatTensor`` / ``DoubleTensor``, ``sum``."""

from __future__ import annotations

from engine import _C
from engine._sparse import sparse_coo_tensor, spmm

__all__ = ["mm", "sum", "FloatTensor", "DoubleTensor"]


def mm(mat1, mat2, reduce="sum"):
    """Sparse ``mat1`` times dense ``mat2`` (a dense result, differentiable in both)."""
    return spmm(mat1, mat2)


def sum(input, dim=None, dtype=None):
    """The sum of a sparse tensor's elements (over ``dim`` when given), dense."""
    dense = input.to_dense()
    out = dense.sum() if dim is None else dense.sum(dim)
    return out if dtype is None else out.to(dtype)


def _legacy(dtype):
    def construct(indices, values, size=None):
        return sparse_coo_tensor(indices, values, size, dtype=dtype)

    return construct


FloatTensor = _legacy(_C.float32)
FloatTensor.__doc__ = "Legacy ``torch.sparse.FloatTensor(indices, values, size)``."
DoubleTensor = _legacy(_C.float64)
DoubleTensor.__doc__ = "Legacy ``torch.sparse.DoubleTensor(indices, values, size)``."
