"""Dropout inside ``vmap`` draws its mask as PyTorch's does: ``bernoulli_`` on a tensor shaped
like the batched input, so ``randomness="different"`` gives each sample the rows PyTorch gives
and ``"same"`` shares the first sample's; the default randomness refuses, with PyTorch's message.

Golden values recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest


def test_different_and_same(lib):
    x = lib.ones(4, 6)
    drop = lib.nn.Dropout(0.5)
    lib.manual_seed(1)
    a = lib.func.vmap(drop, randomness="different")(x)
    assert a.tolist() == [
        [2, 2, 2, 2, 0, 2],
        [2, 0, 0, 2, 0, 2],
        [0, 2, 2, 2, 0, 2],
        [0, 0, 0, 0, 0, 0],
    ]
    lib.manual_seed(1)
    b = lib.func.vmap(drop, randomness="same")(x)
    assert b.tolist() == [[2, 2, 2, 2, 0, 2]] * 4
    lib.manual_seed(1)
    assert lib.nn.functional.dropout(x)[0].tolist() == a[0].tolist()


def test_error_mode(lib):
    with pytest.raises(
        RuntimeError, match="called random operation while in randomness error mode"
    ):
        lib.func.vmap(lib.nn.Dropout(0.5))(lib.ones(2, 3))
