"""RNNCell / LSTMCell / GRUCell name a wrong input or hidden size as PyTorch does ("input has
inconsistent input_size", "Input batch size ... doesn't match hidden0 batch size ...",
"hidden1 has inconsistent hidden_size ..."), instead of a matmul or broadcasting error.

Messages from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest


def _cells(lib):
    return [lib.nn.RNNCell(3, 4), lib.nn.GRUCell(3, 4), lib.nn.LSTMCell(3, 4)]


def _hidden(lib, cell, *shapes):
    if isinstance(cell, lib.nn.LSTMCell):
        return tuple(lib.zeros(*s) for s in shapes)
    return lib.zeros(*shapes[0])


@pytest.mark.parametrize("shape", [(2, 5), (5,)])
def test_input_size(lib, shape):
    for cell in _cells(lib):
        with pytest.raises(
            RuntimeError, match="^input has inconsistent input_size: got 5 expected 3$"
        ):
            cell(lib.randn(*shape))


def test_hidden_batch_and_size(lib):
    x = lib.randn(2, 3)
    for cell in _cells(lib):
        with pytest.raises(
            RuntimeError, match="^Input batch size 2 doesn't match hidden0 batch size 3$"
        ):
            cell(x, _hidden(lib, cell, (3, 4), (2, 4)))
        with pytest.raises(
            RuntimeError, match="^hidden0 has inconsistent hidden_size: got 5, expected 4$"
        ):
            cell(x, _hidden(lib, cell, (2, 5), (2, 4)))
        with pytest.raises(
            RuntimeError, match="^hidden0 has inconsistent hidden_size: got 5, expected 4$"
        ):
            cell(lib.randn(3), _hidden(lib, cell, (5,), (4,)))


def test_lstm_cell_state_is_hidden1(lib):
    cell = lib.nn.LSTMCell(3, 4)
    x = lib.randn(2, 3)
    with pytest.raises(
        RuntimeError, match="^hidden1 has inconsistent hidden_size: got 6, expected 4$"
    ):
        cell(x, (lib.zeros(2, 4), lib.zeros(2, 6)))
    with pytest.raises(
        RuntimeError, match="^Input batch size 2 doesn't match hidden1 batch size 3$"
    ):
        cell(x, (lib.zeros(2, 4), lib.zeros(3, 4)))


def test_correct_shapes_still_run(lib):
    for cell in _cells(lib):
        out = cell(lib.randn(2, 3), _hidden(lib, cell, (2, 4), (2, 4)))
        first = out[0] if isinstance(out, tuple) else out
        assert tuple(first.shape) == (2, 4)
        single = cell(lib.randn(3))
        first = single[0] if isinstance(single, tuple) else single
        assert tuple(first.shape) == (4,)
