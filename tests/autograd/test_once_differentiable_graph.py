"""The graph a @once_differentiable backward leaves under create_graph=True, as PyTorch builds it:
each result is an alias of a detached leaf standing for it, behind one ``Error`` node (one edge per
result, None for a result that is not a tensor), and the first gradient stored into ``.grad``
under create_graph is a copy whose node is ``CopyBackwards(None, <the gradient's node>)``."""

import re
import warnings

import engine as torch
import pytest
from engine.autograd import Function
from engine.autograd.function import once_differentiable


def desc(fn):
    if fn is None:
        return "None"
    inner = ", ".join(desc(n) for n, _ in fn.next_functions)
    return f"{type(fn).__name__}({inner})"


class Blend(Function):
    @staticmethod
    def forward(ctx, a, scale, b):
        ctx.scale = scale
        ctx.save_for_backward(a, b)
        return a * b + scale * b

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b, None, g * (a + ctx.scale)


def run_with_create_graph():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    go = torch.ones((), requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # backward(create_graph=True)'s cycle warning
        Blend.apply(a, 2.0, b).sum().backward(go, create_graph=True)
    return a, b


def test_grads_have_the_error_node_behind_a_copy():
    a, b = run_with_create_graph()
    assert a.grad.tolist() == [3.0, 4.0] and b.grad.tolist() == [3.0, 4.0]
    expected = "CopyBackwards(None, Error(AccumulateGrad(), None, AccumulateGrad()))"
    assert desc(a.grad.grad_fn) == expected and desc(b.grad.grad_fn) == expected
    a.grad = b.grad = None


def test_differentiating_the_result_raises():
    a, b = run_with_create_graph()
    message = "trying to differentiate twice a function that was marked with @once_differentiable"
    with pytest.raises(RuntimeError, match="^" + re.escape(message) + "$"):
        a.grad.sum().backward()
    a.grad = b.grad = None


def test_first_create_graph_gradient_is_a_copy_of_the_incoming_one():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (g,) = torch.autograd.grad((x * x).sum(), x, create_graph=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        (x * x).sum().backward(create_graph=True)
    assert type(x.grad.grad_fn).__name__ == "CopyBackwards"
    assert x.grad.grad_fn.next_functions[0] == (None, 0)
    assert x.grad.tolist() == g.tolist()
    # The copy is differentiable: d/dx of sum(2x) is 2.
    (h,) = torch.autograd.grad(x.grad.sum(), x)
    assert h.tolist() == [2.0, 2.0]
    x.grad = None
