"""``func.jvp`` / ``jacfwd`` / ``linearize`` of a function that captures tensors requiring grad
(a model's parameters) return results that keep their graph to those tensors, as PyTorch's do;
results tied only to the transform's own inputs, or computed under ``no_grad``, come detached.

Expectations from PyTorch 2.13's behaviour; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest

# PyTorch's first forward-mode transform imports code that warns about torch.jit.script.
pytestmark = [
    pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated:DeprecationWarning"),
    # PyTorch's linearize traces with torch.fx, which warns about captured tensors.
    pytest.mark.filterwarnings("ignore:Attempted to insert a get_attr Node:UserWarning"),
]


def _setup(lib):
    lib.manual_seed(0)
    return lib.randn(3, 3, requires_grad=True), lib.randn(3)


def test_captured_parameters_keep_the_graph(lib):
    W, x = _setup(lib)
    out, tangent = lib.func.jvp(lambda v: (W @ v).sin(), (x,), (lib.ones(3),))
    assert out.grad_fn is not None and tangent.grad_fn is not None
    (out.sum() + tangent.sum()).backward()
    expected = lib.outer(
        lib.cos(W.detach() @ x) - lib.sin(W.detach() @ x) * (W.detach() @ lib.ones(3)), x
    )
    expected = expected + lib.outer(lib.cos(W.detach() @ x), lib.ones(3))
    assert lib.allclose(W.grad, expected, atol=1e-5)
    assert lib.func.jacfwd(lambda v: (W @ v).sin())(x).grad_fn is not None
    out, fn = lib.func.linearize(lambda v: (W @ v).sin(), x)
    assert out.grad_fn is not None and fn(lib.ones(3)).grad_fn is not None


def test_own_inputs_only_or_no_grad_detach(lib):
    W, x = _setup(lib)
    out, tangent = lib.func.jvp(lambda v: (v * 2).sin(), (x,), (lib.ones(3),))
    assert out.grad_fn is None and tangent.grad_fn is None
    with lib.no_grad():
        out, tangent = lib.func.jvp(lambda v: (W @ v).sin(), (x,), (lib.ones(3),))
    assert out.grad_fn is None and tangent.grad_fn is None
    xr = x.clone().requires_grad_()
    out, tangent = lib.func.jvp(lambda v: (v * 2).sin(), (xr,), (lib.ones(3),))
    tangent.sum().backward()
    assert xr.grad.tolist() == pytest.approx((-4 * lib.sin(2 * x)).tolist(), abs=1e-5)
