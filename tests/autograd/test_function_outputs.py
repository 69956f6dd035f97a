"""A custom Function's outputs, as PyTorch 2.13 treats them: outputs of a type without gradients
(a bool mask, integer indices) never require grad and their backward argument is zeros of that
type; ``ctx._materialize_non_diff_grads = False`` passes None for outputs marked
non-differentiable."""

import engine as torch
import pytest
from engine.autograd import Function


class TwiceAndMask(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x > 0

    @staticmethod
    def backward(ctx, g, g_mask):
        TwiceAndMask.seen = g_mask
        return g * 2


def test_non_floating_outputs_do_not_require_grad():
    x = torch.tensor([1.0, -1.0], requires_grad=True)
    y, mask = TwiceAndMask.apply(x)
    assert y.requires_grad
    assert not mask.requires_grad and mask.grad_fn is None and mask.is_leaf
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    assert TwiceAndMask.seen.dtype == torch.bool and TwiceAndMask.seen.tolist() == [False, False]


class CloneAndMark(Function):
    @staticmethod
    def forward(ctx, x, materialize):
        a, b = x.clone(), x.clone()
        ctx.mark_non_differentiable(b)
        if not materialize:
            ctx._materialize_non_diff_grads = False
        return a, b

    @staticmethod
    def backward(ctx, g, g_b):
        CloneAndMark.seen = g_b
        return g, None


def test_materialize_non_diff_grads():
    x = torch.tensor(1.0, requires_grad=True)
    CloneAndMark.apply(x, True)[0].backward()
    assert CloneAndMark.seen is not None and CloneAndMark.seen.item() == 0.0
    CloneAndMark.apply(x, False)[0].backward()
    assert CloneAndMark.seen is None


class CubeKeepingSquare(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x2 = x * x  # computed in forward: carries no graph
        return x**3

    @staticmethod
    def backward(ctx, g):
        CubeKeepingSquare.flags = (ctx.x2.requires_grad, ctx.x2.grad_fn, ctx.x2.is_leaf)
        return g * 3 * ctx.x2


def test_forward_values_keep_their_flags_under_create_graph():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (g,) = torch.autograd.grad(CubeKeepingSquare.apply(x).sum(), x, create_graph=True)
    assert CubeKeepingSquare.flags == (False, None, True)
    # Computed from the forward value and sum's constant gradient alone: as in PyTorch, the result
    # does not require grad, so there is no second derivative to take.
    assert g.tolist() == [3.0, 12.0] and not g.requires_grad and g.grad_fn is None
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
        torch.autograd.grad(g.sum(), x)


def test_a_real_second_derivative_through_a_forward_value_is_still_refused():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (g,) = torch.autograd.grad((CubeKeepingSquare.apply(x) ** 2).sum(), x, create_graph=True)
    assert g.tolist() == [6.0, 192.0] and g.requires_grad  # through 2 y, which has a graph
    with pytest.raises(RuntimeError, match="a tensor computed in forward"):
        torch.autograd.grad(g.sum(), x)


def test_values_made_from_guarded_values_alone_chain_without_requiring_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = CubeKeepingSquare.apply(x)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    h = (g * 2).exp().sum()  # still guard-only: no flags appear downstream either
    assert not h.requires_grad and h.grad_fn is None
    # Mixed with a tensor that has a graph, the result requires grad and the guard is on its path.
    mixed = (g * x).sum()
    assert mixed.requires_grad
    with pytest.raises(RuntimeError, match="a tensor computed in forward"):
        torch.autograd.grad(mixed, x)
