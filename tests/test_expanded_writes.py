"""Writes by mask or index into an expanded tensor (elements sharing memory): PyTorch 2.13 warns
that index_put_ / masked_fill_ / index_fill_ there are deprecated and writes each selected
element's memory, so all elements sharing it change; elementwise writes stay errors. Expected
values were recorded from PyTorch 2.13."""

from __future__ import annotations

import engine
import pytest

OVERLAP = "more than one element of the written-to tensor refers to a single memory location"
MASK = [[True, False, False, False], [False] * 4, [False, False, True, False]]


def _rows():
    """[3, 4] with strides (1, 0): row i is one memory location holding i."""
    return engine.arange(3.0).view(3, 1).expand(3, 4)


def _deprecated(op):
    return pytest.warns(UserWarning, match=f"Use of {op} on expanded tensors is deprecated")


def test_mask_assignment_of_a_number_fills_every_row_a_selected_element_shares():
    m = _rows()
    with _deprecated("index_put_"), _deprecated("masked_fill_"):
        m[engine.tensor(MASK)] = 0
    assert m.tolist() == [[0.0] * 4, [1.0] * 4, [0.0] * 4]
    assert m.stride() == (1, 0)


def test_mask_assignment_of_values_writes_them_in_order():
    m = _rows()
    with _deprecated("index_put_"):
        m[engine.tensor(MASK)] = engine.tensor([7.0, 8.0])
    assert m.tolist() == [[7.0] * 4, [1.0] * 4, [8.0] * 4]


def test_integer_index_assignment_and_row_mask():
    m = _rows()
    with _deprecated("index_put_"):
        m[engine.tensor([0])] = 9.0
    assert m.tolist() == [[9.0] * 4, [1.0] * 4, [2.0] * 4]
    m = _rows()
    with _deprecated("index_put_"), _deprecated("masked_fill_"):
        m[m > 1] = 0.0
    assert m.tolist() == [[0.0] * 4, [1.0] * 4, [0.0] * 4]


def test_masked_fill_and_its_mask_dtype_message():
    m = _rows()
    with _deprecated("masked_fill_"):
        m.masked_fill_(engine.tensor(MASK), engine.tensor(-1.0))
    assert m.tolist() == [[-1.0] * 4, [1.0] * 4, [-1.0] * 4]
    for dtype, word in [(engine.float32, "float"), (engine.int64, "long int")]:
        with pytest.raises(RuntimeError, match=f"but got mask with dtype {word}$"):
            _rows().masked_fill_(engine.zeros(3, 4, dtype=dtype), 1.0)
        with pytest.raises(RuntimeError, match=f"but got mask with dtype {word}$"):
            engine.zeros(3, 4).masked_fill_(engine.zeros(3, 4, dtype=dtype), 1.0)


def test_index_put_with_and_without_accumulate():
    m = _rows()
    with _deprecated("index_put_"):
        m.index_put_((engine.tensor([0, 2]), engine.tensor([1, 3])), engine.tensor([5.0, 6.0]))
    assert m.tolist() == [[5.0] * 4, [1.0] * 4, [6.0] * 4]
    m = _rows()
    with _deprecated("index_put_"):
        m.index_put_(
            (engine.tensor([0, 0]), engine.tensor([1, 3])), engine.tensor([5.0, 6.0]), True
        )
    assert m.tolist() == [[11.0] * 4, [1.0] * 4, [2.0] * 4]


def test_index_fill_along_a_repeating_dim_and_along_another():
    m = _rows()
    with _deprecated("index_fill_"):
        m.index_fill_(1, engine.tensor([0]), 4.0)
    assert m.tolist() == [[4.0] * 4] * 3
    m = _rows()
    with _deprecated("index_fill_"):
        m.index_fill_(0, engine.tensor([1]), 4.0)
    assert m.tolist() == [[0.0] * 4, [4.0] * 4, [2.0] * 4]


def test_elementwise_writes_into_an_expanded_tensor_stay_errors():
    with pytest.raises(RuntimeError, match=OVERLAP):
        _rows()[0:1] = 9.0
    with pytest.raises(RuntimeError, match=OVERLAP):
        _rows().masked_scatter_(engine.tensor(MASK), engine.tensor([7.0, 8.0]))


def test_a_recorded_write_into_an_expanded_tensor_raises_instead_of_a_wrong_gradient():
    # PyTorch fails in backward on the expanded gradient; engine refuses the write itself.
    w = engine.randn(2, 3, requires_grad=True)
    m = (w * 2).sum(1, keepdim=True).expand(2, 3)
    with pytest.raises(RuntimeError, match=OVERLAP):
        m[engine.tensor([[True, False, False], [False] * 3])] = 0


def test_xnor_net_scale_update_through_data():
    # XNOR-Net's BinOp.updateBinaryGradWeight zeroes an expanded per-filter mean where |w| > 1.
    w = engine.tensor([[[[-1.5, 0.5]]], [[[0.25, -0.5]]]])
    m = w.norm(1, 3, keepdim=True).sum(2, keepdim=True).sum(1, keepdim=True).div(2).expand(w.size())
    with _deprecated("index_put_"), _deprecated("masked_fill_"):
        m[w.lt(-1.0)] = 0
    assert m.reshape(-1).tolist() == [0.0, 0.0, 0.375, 0.375]
