"""A view whose base was written in place, directly or through another view, has its history
rebuilt from the base's current one (PyTorch's regenerated ``AsStridedBackward0``), so gradients
through it are those of its current value; views whose history cannot be rebuilt unambiguously
refuse with PyTorch 2.13's messages."""

import engine as torch
import pytest
from engine.autograd import Function


def test_sibling_view_after_a_write_through_another_view():
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    base = leaf.clone()
    v, v2 = base[:1], base[:1]
    v.mul_(2)
    assert v2.grad_fn.name() == "AsStridedBackward0"
    v2.sum().backward()
    assert leaf.grad.tolist() == [2.0, 0.0]


def test_view_after_a_write_to_its_base():
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    base = leaf.clone()
    v = base[1:]
    base.mul_(3)
    (v * v).sum().backward()
    # v is now 3 * leaf[1]: d(v^2)/d leaf[1] = 2 * 9 * leaf[1].
    assert leaf.grad.tolist() == [0.0, 36.0]


def test_view_of_a_leaf_written_under_no_grad():
    p = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = p[:2]
    with torch.no_grad():
        p.mul_(2)
    assert w.grad_fn.name() == "AsStridedBackward0"
    w.sum().backward()
    assert p.grad.tolist() == [1.0, 1.0, 0.0]


def test_unchanged_views_keep_their_own_node():
    base = torch.rand(4, requires_grad=True).clone()
    v = base[:2]
    assert v.grad_fn.name() == "SliceBackward0"
    v2 = base[2:]
    v2.add_(1)
    assert v2.grad_fn.name() == "AsStridedBackward0"
    # v shares the storage, so its history is rebuilt too (as in PyTorch); values stay right.
    v.sum().backward()


def test_retain_grad_follows_the_rebuilt_history():
    base = torch.tensor([1.0], requires_grad=True).clone()
    view, view2 = base[:], base[:]
    view.retain_grad()
    view2.retain_grad()
    view.mul_(2)
    (view + view2).sum().backward()
    assert view.grad.tolist() == [1.0] and view2.grad.tolist() == [1.0]


def test_a_hook_registered_after_the_rebuild_runs():
    calls = []
    base = torch.tensor([1.0], requires_grad=True).clone()
    view, view2 = base[:], base[:]
    view.mul_(2)
    _ = view2.grad_fn  # rebuilt now: a hook registered from here on goes to the new node
    view2.register_hook(lambda g: calls.append(g.tolist()))
    (view + view2).sum().backward()
    assert calls == [[1.0]]


def test_multi_output_view_whose_base_was_written():
    b = torch.rand(3, requires_grad=True).clone()
    u = b.unbind()[0]
    b.mul_(2)
    with pytest.raises(RuntimeError) as e:
        _ = u.grad_fn
    assert str(e.value) == (
        "Output 0 of Unbind is a view and its base or another view of its base has been modified "
        "inplace. This view is the output of a function that returns multiple views. Such "
        "functions do not allow the output views to be modified inplace. You should replace the "
        "inplace operation by an out-of-place one."
    )


class Head(Function):
    @staticmethod
    def forward(ctx, x):
        return x[:2]

    @staticmethod
    def backward(ctx, g):
        return torch.cat([g, g.new_zeros(1)])


def test_custom_function_view_whose_base_was_written():
    b = torch.rand(3, requires_grad=True).clone()
    c = Head.apply(b)
    b.mul_(2)
    with pytest.raises(
        RuntimeError, match="^Output 0 of Head is a view and its base or another view"
    ):
        _ = c.grad_fn
