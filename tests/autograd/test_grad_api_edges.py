"""``autograd.grad`` / ``autograd.backward`` argument handling as in PyTorch 2.13: empty or dict
``inputs``, ``materialize_grads`` rules, GradientEdges as outputs, and calling a node with the
wrong number of gradients."""

import engine as torch
import pytest
from engine.autograd.graph import GradientEdge, get_gradient_edge


def test_empty_inputs():
    x = torch.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^`inputs` argument to `grad\(\)` cannot be empty.$"):
        torch.autograd.grad(2 * x, [], grad_outputs=torch.tensor([1.0]))


def test_dict_inputs_give_one_gradient_per_value():
    x = torch.tensor(2.0, requires_grad=True)
    y = torch.tensor(3.0, requires_grad=True)
    gx, gy = torch.autograd.grad(x * y, {"a": x, "b": y})
    assert (gx.item(), gy.item()) == (3.0, 2.0)


def test_materialize_grads():
    x = torch.tensor(0.5, requires_grad=True)
    a = torch.tensor(1.0, requires_grad=True)
    y = x * a
    (dydx,) = torch.autograd.grad(y, x, create_graph=True)
    (none,) = torch.autograd.grad(dydx, x, create_graph=True, allow_unused=True)
    assert none is None
    (zero,) = torch.autograd.grad(dydx, x, create_graph=True, materialize_grads=True)
    assert zero.item() == 0 and zero.requires_grad
    (again,) = torch.autograd.grad(zero, x, materialize_grads=True)
    assert again.item() == 0 and not again.requires_grad
    with pytest.raises(ValueError, match="Expected allow_unused to be True or not passed when"):
        torch.autograd.grad(y, x, allow_unused=False, materialize_grads=True)


def test_materialize_grads_refuses_unused_gradient_edges():
    x = torch.rand(2, requires_grad=True).clone()
    y = torch.rand(2, requires_grad=True).clone()
    edge_y = GradientEdge(y.grad_fn, y.output_nr)
    out = x.clone()
    torch.autograd.grad(out.sum(), (x, edge_y), allow_unused=True)
    with pytest.raises(
        RuntimeError,
        match="materialize_grads cannot be used when the given input is a GradientEdge",
    ):
        torch.autograd.grad(out.sum(), (x, edge_y), allow_unused=True, materialize_grads=True)


def test_backward_and_grad_from_a_gradient_edge():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    tmp = x.sin().sum()
    edge = get_gradient_edge(tmp)
    tmp.exp().backward(retain_graph=True)
    torch.autograd.backward(edge, retain_graph=True)
    assert torch.allclose(x.grad, x.cos() * (1 + tmp.exp()))
    (g,) = torch.autograd.grad(edge, (x,), grad_outputs=torch.tensor(2.0), retain_graph=True)
    assert torch.allclose(g, 2 * x.cos())
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        torch.autograd.grad(edge, (x,), grad_outputs=torch.ones(3))
    wide = x.sin()
    with pytest.raises(
        RuntimeError, match="grad can be implicitly created only for scalar outputs"
    ):
        torch.autograd.grad(get_gradient_edge(wide), (x,))


def test_calling_a_node_with_the_wrong_number_of_gradients():
    x = torch.ones(1, requires_grad=True)
    y = x**2
    with pytest.raises(TypeError, match="^expected 1 arguments, got 2 instead$"):
        y.grad_fn(x.detach(), x.detach())
    with pytest.raises(TypeError, match="^expected 1 arguments, got 0 instead$"):
        y.grad_fn()
    y.grad_fn(x.detach())
