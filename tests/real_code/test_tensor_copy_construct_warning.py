"""``torch.tensor(t)`` with a tensor as data copies and detaches it, and warns every time that
``t.detach().clone()`` says so; other ways to build from tensors stay silent.

Message recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import warnings

import pytest

MESSAGE = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach\\(\\).clone\\(\\) "
    "or sourceTensor.detach\\(\\).clone\\(\\).requires_grad_\\(True\\), rather than "
    "torch.tensor\\(sourceTensor\\)."
)


@pytest.mark.parametrize("make", [lambda L: L.ones(2), lambda L: L.tensor(3.0, requires_grad=True)])
def test_tensor_of_a_tensor_warns_and_detaches(lib, make):
    src = make(lib)
    with pytest.warns(UserWarning, match=MESSAGE):
        out = lib.tensor(src)
    assert out.requires_grad is False
    assert out.tolist() == src.tolist()


def test_the_warning_repeats_on_every_call(lib):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        lib.tensor(lib.ones(1))
        lib.tensor(lib.ones(1), dtype=lib.float64)
    assert len(seen) == 2


def test_other_constructions_are_silent(lib):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lib.as_tensor(lib.ones(2))
        lib.tensor([lib.tensor(1.0), lib.tensor(2.0)])
        lib.tensor([1, 2])
        lib.ones(2).detach().clone()
