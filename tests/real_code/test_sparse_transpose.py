"""``transpose`` of a sparse COO tensor swaps two sparse dimensions and stays sparse (its
indices rows swapped, no longer coalesced), with gradients reaching the values; dense
dimensions cannot be swapped.

Behaviour and messages recorded from PyTorch 2.13; with torch installed they run on it too.
"""

from __future__ import annotations

import pytest

# PyTorch's one-time notice about its sparse invariant checks is not what these tests are about.
pytestmark = pytest.mark.filterwarnings("ignore:Sparse invariant checks:UserWarning")


def _hybrid(lib):
    idx = lib.tensor([[0, 1, 1], [1, 0, 2]])
    vals = lib.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return lib.sparse_coo_tensor(idx, vals, (2, 3, 2)).coalesce()


def test_transpose_swaps_index_rows(lib):
    t = _hybrid(lib).transpose(0, 1)
    assert t.layout == lib.sparse_coo and tuple(t.shape) == (3, 2, 2)
    assert t.is_coalesced() is False
    assert t._indices().tolist() == [[1, 0, 2], [0, 1, 1]]
    assert lib.equal(t.to_dense(), _hybrid(lib).to_dense().transpose(0, 1))
    assert tuple(_hybrid(lib).transpose(-2, -3).shape) == (3, 2, 2)


def test_then_coalesce(lib):
    t = _hybrid(lib).transpose(0, 1).coalesce()
    assert t.is_coalesced() and t.indices().tolist() == [[0, 1, 2], [1, 0, 1]]


def test_same_dim_returns_it_unchanged(lib):
    a = _hybrid(lib)
    assert a.transpose(1, 1).is_coalesced() is True


def test_dense_dimension_is_refused(lib):
    with pytest.raises(
        RuntimeError, match="sparse transpose: transposed dimensions must be sparse"
    ):
        _hybrid(lib).transpose(0, 2)
    with pytest.raises(IndexError, match="Dimension out of range"):
        _hybrid(lib).transpose(0, 5)


def test_gradient_reaches_values(lib):
    w = lib.ones(2, requires_grad=True)
    s = lib.sparse_coo_tensor(lib.tensor([[0, 1], [1, 0]]), w, (2, 2)).transpose(0, 1)
    (s.to_dense() * lib.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert w.grad.tolist() == [3.0, 2.0]
