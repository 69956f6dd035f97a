"""autograd.grad asks conv and linear for the gradients of some inputs only: the others are not
computed (a post-hook sees None for them, as in PyTorch), and the requested ones are unchanged."""

import engine
import engine.nn.functional as F
import pytest


def _hooked(out):
    seen = []
    out.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(grad_inputs))
    return seen


CONVS = [
    lambda x, w, b: F.conv2d(x, w, b, padding=1),
    lambda x, w, b: F.conv2d(x, w, b, stride=2),  # the transposed-kernel input gradient
    lambda x, w, b: F.conv_transpose2d(x, w.transpose(0, 1), b, stride=2),
]


@pytest.mark.parametrize("conv", CONVS)
@pytest.mark.parametrize("create_graph", [False, True])
def test_conv_computes_only_the_requested_gradients(conv, create_graph):
    engine.manual_seed(0)
    x0 = engine.randn(2, 3, 7, 7, dtype=engine.float64, requires_grad=True)
    w = engine.randn(4, 3, 3, 3, dtype=engine.float64, requires_grad=True)
    b = engine.randn(4, dtype=engine.float64, requires_grad=True)
    x = x0 * 2  # a non-leaf input: its gradient edge is valid, but not requested below
    out = conv(x, w, b)
    full = engine.autograd.grad(out.square().sum(), [x0, w, b], retain_graph=True)
    seen = _hooked(out)
    (gw,) = engine.autograd.grad(out.square().sum(), [w], create_graph=create_graph)
    assert seen[0][0] is None and seen[0][1] is not None and seen[0][2] is None
    assert engine.allclose(gw, full[1])
    gx, gb = engine.autograd.grad(conv(x, w, b).square().sum(), [x0, b])
    assert engine.allclose(gx, full[0]) and engine.allclose(gb, full[2])


def test_linear_computes_only_the_requested_gradients():
    x0 = engine.randn(5, 6, requires_grad=True)
    w = engine.randn(3, 6, requires_grad=True)
    b = engine.randn(3, requires_grad=True)
    out = F.linear(x0 * 1.5, w, b)
    seen = _hooked(out)
    (gx,) = engine.autograd.grad(out.sum(), [x0])
    # AddmmBackward0's inputs in PyTorch's order: bias, input, weight.t()
    assert seen[0][1] is not None and seen[0][0] is None and seen[0][2] is None
    assert engine.allclose(gx, (engine.ones(5, 3) @ w) * 1.5)


def test_backward_still_computes_every_gradient():
    x = engine.randn(1, 2, 5, 5, requires_grad=True)
    w = engine.randn(3, 2, 3, 3, requires_grad=True)
    out = F.conv2d(x, w)
    seen = _hooked(out)
    out.sum().backward()
    assert all(g is not None for g in seen[0])
    assert x.grad is not None and w.grad is not None
