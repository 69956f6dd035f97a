"""broadcast_tensors gives back an input that already has the broadcast shape as itself (no
ExpandBackward0 node), and expands the others."""

import engine as torch


def test_input_with_the_broadcast_shape_is_returned_as_is():
    a = torch.randn(2, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    x, y = torch.broadcast_tensors(a, b)
    assert x is a
    assert x.grad_fn is None
    assert y.grad_fn.name() == "ExpandBackward0"
    assert y.shape == (2, 3)


def test_all_expanded_when_none_has_the_shape():
    a = torch.randn(1, 3, requires_grad=True)
    b = torch.randn(2, 1)
    x, y = torch.broadcast_tensors(a, b)
    assert x.grad_fn.name() == "ExpandBackward0"
    assert x.shape == y.shape == (2, 3)
    (x * y).sum().backward()
    assert torch.allclose(a.grad, b.sum(0, keepdim=True).expand(1, 3))


def test_same_shapes_give_the_inputs():
    a = torch.randn(4)
    b = torch.randn(4)
    x, y = torch.broadcast_tensors(a, b)
    assert x is a and y is b
