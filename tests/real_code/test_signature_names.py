"""Arguments PyTorch 2.13's Python signatures have that scripts pass by name: ``F.l1_loss(...,
weight=)`` (per-element weights; "mean" divides by their sum), ``nn.Hardtanh(min_value=,
max_value=)`` and ``autograd.backward(grad_variables=)`` (old names, accepted with PyTorch's
FutureWarning), ``torch.compile(name=, recompile_limit=, ...)``.

Values recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

from importlib import import_module

import pytest


def test_weighted_l1_loss(lib):
    F = import_module(lib.__name__ + ".nn.functional")
    x = lib.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
    t, w = lib.zeros(2, 2), lib.tensor([[1.0, 2.0], [0.5, 0.0]])
    assert F.l1_loss(x, t, weight=w).item() == pytest.approx(6.5 / 3.5)
    assert F.l1_loss(x, t, reduction="sum", weight=w).item() == 6.5
    assert F.l1_loss(x, t, reduction="none", weight=w).tolist() == [[1.0, 4.0], [1.5, 0.0]]
    F.l1_loss(x, t, weight=w).backward()
    assert x.grad.flatten().tolist() == pytest.approx([1 / 3.5, -2 / 3.5, 0.5 / 3.5, 0.0])
    with pytest.raises(ValueError, match="Weights and input must have the same size."):
        F.l1_loss(x, t, weight=lib.ones(3))


def test_hardtanh_old_argument_names(lib):
    with pytest.warns(FutureWarning) as caught:
        m = lib.nn.Hardtanh(min_value=-2.0, max_value=2.0)
    assert [str(w.message) for w in caught] == [
        "keyword argument `min_value` is deprecated and renamed to `min_val`",
        "keyword argument `max_value` is deprecated and renamed to `max_val`",
    ]
    assert (m.min_val, m.max_val) == (-2.0, 2.0)
    assert m(lib.tensor([-3.0, 3.0])).tolist() == [-2.0, 2.0]


def test_backward_grad_variables(lib):
    a = lib.ones(2, requires_grad=True)
    with pytest.warns(FutureWarning, match="`grad_variables` is deprecated"):
        lib.autograd.backward([a * 2], grad_variables=[lib.tensor([1.0, 3.0])])
    assert a.grad.tolist() == [2.0, 6.0]
    with pytest.warns(FutureWarning), pytest.raises(RuntimeError, match="both passed"):
        lib.autograd.backward([a * 2], grad_tensors=[lib.ones(2)], grad_variables=[lib.ones(2)])


def test_compile_takes_its_keywords():
    import engine

    def f(x):
        return x * 2

    g = engine.compile(f, name="f", recompile_limit=4, isolate_recompiles=True, backend="eager")
    assert g(engine.ones(1)).tolist() == [2.0]
