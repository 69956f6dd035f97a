"""``Tensor.T`` on a tensor that is not 2-D: PyTorch reverses the dimensions as before but warns,
once per process, with one message for 0-D tensors and another for the other ranks.

Messages recorded from PyTorch 2.13 (whose text also names the C++ line that raised it).
"""

from __future__ import annotations

import warnings

import engine
import pytest
from engine import _shape_ops

ZERO_D = "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."
OTHER = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and "
    "it will throw an error in a future release. Consider `x.mT` to transpose batches of matrices "
    "or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor."
)


@pytest.fixture
def fresh(monkeypatch):
    """As in a new process: neither warning given yet."""
    monkeypatch.setattr(_shape_ops, "_t_warned", set())


def _messages(fn):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        result = fn()
    return result, [str(w.message) for w in seen if issubclass(w.category, UserWarning)]


def test_matrix_transpose_is_silent(fresh):
    out, msgs = _messages(lambda: engine.arange(6).reshape(2, 3).T)
    assert msgs == [] and out.shape == (3, 2)


def test_other_ranks_warn_once_per_process(fresh):
    out, msgs = _messages(lambda: engine.arange(24).reshape(2, 3, 4).T)
    assert msgs == [OTHER] and out.shape == (4, 3, 2)
    out, msgs = _messages(lambda: engine.ones(3).T)
    assert msgs == [] and out.shape == (3,)


def test_zero_d_has_its_own_message(fresh):
    _, msgs = _messages(lambda: engine.ones(3).T)
    assert msgs == [OTHER]
    out, msgs = _messages(lambda: engine.tensor(2.0).T)
    assert msgs == [ZERO_D] and out.item() == 2.0


def test_warning_points_at_the_callers_line(fresh):
    with pytest.warns(UserWarning) as record:
        _ = engine.ones(3).T
    assert record[0].filename == __file__
