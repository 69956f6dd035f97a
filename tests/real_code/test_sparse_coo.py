"""Sparse COO tensors as graph networks use them: built with ``sparse_coo_tensor`` (or the legacy
``sparse.FloatTensor``), multiplied into dense features (``spmm``, ``sparse.mm``, ``mm``,
``@``), differentiated with respect to their values, saved for backward by a custom Function,
and printed in PyTorch's form.

Golden values recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import warnings

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:Sparse invariant checks")

REPR = (
    "tensor(indices=tensor([[0, 1, 1],\n"
    "                       [2, 0, 2]]),\n"
    "       values=tensor([3., 4., 5.]),\n"
    "       size=(2, 3), nnz=3, layout=torch.sparse_coo)"
)


def _example(lib, **kw):
    i = lib.tensor([[0, 1, 1], [2, 0, 2]])
    return lib.sparse_coo_tensor(i, lib.tensor([3.0, 4.0, 5.0]), (2, 3), **kw)


def test_face(lib):
    s = _example(lib)
    assert s.is_sparse and not lib.ones(1).is_sparse
    assert str(s.layout) == "torch.sparse_coo"
    assert repr(s) == REPR
    assert s._nnz() == 3 and s.sparse_dim() == 2 and s.dense_dim() == 0
    assert s.to_dense().tolist() == [[0.0, 0.0, 3.0], [4.0, 0.0, 5.0]]
    assert not s.to_dense().is_sparse
    assert tuple(s.shape) == (2, 3)


def test_coalesce_sums_repeated_entries(lib):
    s = lib.sparse_coo_tensor(lib.tensor([[1, 0, 1]]), lib.tensor([1.0, 2.0, 3.0]), (3,))
    assert not s.is_coalesced()
    with pytest.raises(RuntimeError, match="uncoalesced"):
        s.indices()
    c = s.coalesce()
    assert c.is_coalesced()
    assert c.indices().tolist() == [[0, 1]] and c.values().tolist() == [2.0, 4.0]
    assert s.to_dense().tolist() == [2.0, 4.0, 0.0]


def test_products_and_gradients(lib):
    v = lib.tensor([3.0, 4.0, 5.0], requires_grad=True)
    s = lib.sparse_coo_tensor(lib.tensor([[0, 1, 1], [2, 0, 2]]), v, (2, 3))
    b = lib.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    for out in (lib.spmm(s, b), lib.sparse.mm(s, b), lib.mm(s, b), s @ b):
        assert out.tolist() == [[15.0, 18.0], [29.0, 38.0]] and not out.is_sparse
    lib.sparse.mm(s, b).sum().backward()
    assert v.grad.tolist() == [11.0, 3.0, 11.0]
    assert b.grad.tolist() == [[4.0, 4.0], [0.0, 0.0], [8.0, 8.0]]


def test_legacy_constructor_and_to_sparse(lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = lib.sparse.FloatTensor(
            lib.tensor([[0, 1], [1, 0]]), lib.tensor([2.0, 3.0]), lib.Size([2, 2])
        )
    assert s.is_sparse and s.to_dense().tolist() == [[0.0, 2.0], [3.0, 0.0]]
    t = s.t()
    assert t.is_sparse and t.to_dense().tolist() == [[0.0, 3.0], [2.0, 0.0]]
    d = lib.tensor([[0.0, 1.5], [2.5, 0.0]]).to_sparse()
    assert d.is_sparse and d.indices().tolist() == [[0, 1], [1, 0]]
    assert d.values().tolist() == [1.5, 2.5]


def test_custom_function_saving_a_sparse_tensor(lib):
    class SpecialSpmm(lib.autograd.Function):
        @staticmethod
        def forward(ctx, indices, values, shape, b):
            a = lib.sparse_coo_tensor(indices, values, shape)
            ctx.save_for_backward(a, b)
            ctx.N = shape[0]
            return lib.matmul(a, b)

        @staticmethod
        def backward(ctx, grad_output):
            a, b = ctx.saved_tensors
            grad_a_dense = grad_output.matmul(b.t())
            edge_idx = a._indices()[0, :] * ctx.N + a._indices()[1, :]
            return None, grad_a_dense.view(-1)[edge_idx], None, a.t().matmul(grad_output)

    idx = lib.tensor([[0, 1, 2], [1, 2, 0]])
    v = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = lib.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
    out = SpecialSpmm.apply(idx, v, lib.Size([3, 3]), b)
    assert out.tolist() == [[2.0], [6.0], [3.0]]
    out.sum().backward()
    assert v.grad.tolist() == [2.0, 3.0, 1.0]
    assert b.grad.tolist() == [[3.0], [1.0], [2.0]]
