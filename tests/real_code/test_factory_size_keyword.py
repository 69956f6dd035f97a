"""Factories with their keyword spellings, as graph-attention code writes them
(``torch.ones(size=(N, 1))``, ``torch.zeros(size=...)``, ``full(size=, fill_value=)``,
``zeros_like(input=...)``), with PyTorch's TypeErrors for an int size or a size given twice.

Golden values recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest


def test_size_keyword(lib):
    assert tuple(lib.zeros(size=(2, 3)).shape) == (2, 3)
    assert lib.ones(size=[2]).tolist() == [1.0, 1.0]
    assert tuple(lib.empty(size=(1,)).shape) == (1,)
    assert lib.zeros(size=(2,), dtype=lib.int64).dtype == lib.int64
    assert lib.full(size=(2,), fill_value=1.5).tolist() == [1.5, 1.5]
    lib.manual_seed(0)
    assert lib.rand(size=(2,)).tolist() == pytest.approx([0.4963, 0.7682], abs=1e-4)
    assert lib.randn(size=(2,)).tolist() == pytest.approx([-0.2905, -1.0704], abs=1e-4)


def test_like_factories_input_keyword(lib):
    x = lib.ones(2)
    assert lib.zeros_like(input=x).tolist() == [0.0, 0.0]
    assert lib.ones_like(input=x).tolist() == [1.0, 1.0]
    assert tuple(lib.empty_like(input=x).shape) == (2,)
    assert lib.full_like(input=x, fill_value=3).tolist() == [3.0, 3.0]


def test_size_errors(lib):
    with pytest.raises(TypeError, match=r"zeros\(\) got multiple values for argument 'size'"):
        lib.zeros(2, size=(2,))
    with pytest.raises(
        TypeError, match=r"rand\(\): argument 'size' must be tuple of ints, not int"
    ):
        lib.rand(size=3)
