"""Tensor.as_strided_ (and engine.as_strided_) makes self the strided view of its own memory, with
the history and version bump of the other in-place view ops; views made without history refuse
it under grad mode as the others do. autograd.graph.Node is a subclass of itself."""

import engine as torch
import pytest


def test_as_strided_in_place_takes_the_view_and_its_history():
    x = torch.arange(6.0).requires_grad_().clone()
    r = x.as_strided_((2, 2), (1, 2), 1)
    assert r is x and x.shape == (2, 2) and x._version == 1
    assert x.tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert type(x.grad_fn).__name__ == "AsStridedBackward1"


@pytest.mark.parametrize(
    ("shape", "call", "node"),
    [
        ((2, 3), lambda v: v.t_(), "TBackward1"),
        ((2, 3), lambda v: v.transpose_(0, 1), "TransposeBackward1"),
        ((2, 3), lambda v: v.swapdims_(0, 1), "TransposeBackward1"),
        ((2, 3), lambda v: v.swapaxes_(0, 1), "TransposeBackward1"),
        ((2, 3), lambda v: v.unsqueeze_(0), "UnsqueezeBackward1"),
        ((2, 1, 3), lambda v: v.squeeze_(), "SqueezeBackward3"),
        ((2, 1, 3), lambda v: v.squeeze_(1), "SqueezeBackward4"),
    ],
)
def test_in_place_views_are_named_as_pytorch_names_them(shape, call, node):
    x = torch.rand(*shape, requires_grad=True).clone()
    assert type(call(x).grad_fn).__name__ == node
    x.sum().backward()


def test_as_strided_in_place_gradient():
    a = torch.arange(6.0, requires_grad=True)
    x = a.clone()
    x.as_strided_((2,), (2,), 1)
    (x * torch.tensor([10.0, 100.0])).sum().backward()
    assert a.grad.tolist() == [0.0, 10.0, 0.0, 100.0, 0.0, 0.0]


def test_function_form():
    x = torch.arange(6.0)
    assert torch.as_strided_(x, (2,), (2,)) is x and x.tolist() == [0.0, 2.0]


def test_no_grad_view_refuses_it_with_grad_on():
    base = torch.rand(2, 3, requires_grad=True).clone()
    with torch.no_grad():
        v = base.view_as(base)
    with pytest.raises(RuntimeError, match="A view was created in no_grad mode"):
        v.as_strided_((1, 0), (2, 2))


def test_node_is_a_subclass_of_itself_only_among_types():
    Node = torch.autograd.graph.Node
    assert issubclass(Node, Node)
    assert not isinstance(Node, Node)
    assert isinstance(torch.rand(1, requires_grad=True).exp().grad_fn, Node)
    assert not issubclass(int, Node)


@pytest.mark.parametrize("grad_mode_for_view", [True, False])
@pytest.mark.parametrize(
    "call", [lambda v: v.t_(), lambda v: v.as_strided_((1, 0), (2, 2)), lambda v: v.squeeze_(0)]
)
def test_in_place_views_under_no_grad(grad_mode_for_view, call):
    base = torch.rand(2, 3, requires_grad=True).clone()
    with torch.set_grad_enabled(grad_mode_for_view):
        v = base.view_as(base)
    with torch.no_grad():
        call(v)
    if grad_mode_for_view:
        v.add_(1)
    else:
        with pytest.raises(RuntimeError, match="A view was created in no_grad mode"):
            v.add_(1)
