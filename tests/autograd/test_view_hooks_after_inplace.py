"""Hooks on a view's node and an in-place write through a view of a tensor with history: the write
reads the view through its base, so the view's old node (and the hooks registered on it before the
write) drop out of the graph, as in PyTorch, where CopySlices takes that node's place. Hooks
registered after the write, on the view's new node, see the gradient of the new value."""

import engine as torch


def fresh_base():
    return torch.tensor([1.0, 2.0], requires_grad=True).clone()


def test_hooks_registered_before_a_write_through_views_do_not_fire():
    fired = []
    base = fresh_base()
    view, view2 = base[:1], base[:1]
    view.register_hook(lambda g: fired.append("view, before"))
    view2.register_hook(lambda g: fired.append("view2, before"))
    view.mul_(2)
    assert view2.grad_fn is not None  # view2's history, rebuilt for its new value
    view2.register_hook(lambda g: fired.append(("view2, after", g.tolist())))
    (view + view2).sum().backward()
    assert fired == [("view2, after", [1.0])]


def test_gradient_through_the_written_view_is_unchanged():
    leaf = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    base = leaf.clone()
    view = base[1:]
    view.mul_(view.detach() + 1)  # 2 * 3 and 3 * 4, through the view
    base.sum().backward()
    assert leaf.grad.tolist() == [1.0, 3.0, 4.0]


def test_hook_on_a_view_written_by_an_unary_op_does_not_fire():
    fired = []
    base = fresh_base()
    view = base[1:]
    view.register_hook(lambda g: fired.append(g))
    view.exp_()
    base.sum().backward()
    assert fired == []


def test_hook_on_a_non_view_tensor_written_in_place_still_fires():
    # Only views lose their node: a plain tensor's old node still takes the gradient of the old value.
    fired = []
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    t = leaf * 1
    t.register_hook(lambda g: fired.append(g.tolist()))
    t.mul_(3)
    t.sum().backward()
    assert fired == [[3.0, 3.0]]
