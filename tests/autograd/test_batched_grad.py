"""autograd.grad(..., is_grads_batched=True): the first dim of every grad_output is a batch of
vectors; each input's gradient comes back stacked along a new first dim, with PyTorch's shape
error, unused inputs left None (or zeros of the input's shape with materialize_grads), and the
graph freed after the last entry unless retained."""

import re

import engine as torch
import pytest


def test_batch_of_vectors_through_one_graph():
    x = torch.randn(2, 2, requires_grad=True)
    out = x.clone()
    batched = torch.arange(3.0).view(3, 1, 1).expand(3, 2, 2)
    (g,) = torch.autograd.grad(out, (x,), (batched,), is_grads_batched=True)
    assert g.shape == (3, 2, 2)
    assert g.tolist() == batched.tolist()


def test_scalar_output_batched_by_a_vector():
    x = torch.randn(2, 2, requires_grad=True)
    (g,) = torch.autograd.grad((x * 2).sum(), (x,), (torch.arange(3.0),), is_grads_batched=True)
    assert g.tolist() == [
        [[0.0, 0.0], [0.0, 0.0]],
        [[2.0, 2.0], [2.0, 2.0]],
        [[4.0, 4.0], [4.0, 4.0]],
    ]


def test_hessian_rows_from_the_identity():
    x = torch.randn(2, 2, requires_grad=True)
    (g,) = torch.autograd.grad((x * x).sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g, x, torch.eye(4).view(4, 2, 2), is_grads_batched=True)
    assert h.view(4, 4).tolist() == (2 * torch.eye(4)).tolist()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        torch.autograd.grad(g, x, torch.eye(4).view(4, 2, 2), is_grads_batched=True)


def test_shape_mismatch_message():
    x = torch.randn(2, 2, requires_grad=True)
    out = x.clone()
    # PyTorch's message shows the grad_output's shape without its first two dims.
    message = re.escape(
        "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the "
        "batch dimension. The sizes of the remaining dimensions are expected to match the shape of "
        "corresponding output, but a mismatch was detected: grad_output[0] has a shape of "
        "torch.Size([3]) and output[0] has a shape of torch.Size([2, 2])."
    )
    with pytest.raises(RuntimeError, match=message):
        torch.autograd.grad(out, (x,), (torch.ones(3, 2, 3),), is_grads_batched=True)
    with pytest.raises(RuntimeError, match="we interpret the first dimension"):
        torch.autograd.grad(out, (x,), (torch.ones(2, 2),), is_grads_batched=True)
    with pytest.raises(IndexError, match="index 0 is out of bounds for dimension 0 with size 0"):
        torch.autograd.grad(out, (x,), (torch.ones(0, 2, 2),), is_grads_batched=True)


def test_unused_inputs():
    x = torch.randn(2, 2, requires_grad=True)
    y = torch.randn(3, requires_grad=True)
    out = x.clone()
    go = (torch.ones(3, 2, 2),)
    gx, gy = torch.autograd.grad(
        out, (x, y), go, is_grads_batched=True, allow_unused=True, retain_graph=True
    )
    assert gx.shape == (3, 2, 2) and gy is None
    _, gy = torch.autograd.grad(out, (x, y), go, is_grads_batched=True, materialize_grads=True)
    assert gy.shape == (3,) and gy.tolist() == [0.0, 0.0, 0.0]


def test_create_graph_keeps_a_differentiable_result():
    x = torch.randn(2, requires_grad=True)
    (g,) = torch.autograd.grad(x * x, x, torch.eye(2), is_grads_batched=True, create_graph=True)
    assert g.requires_grad
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [2.0, 2.0]
