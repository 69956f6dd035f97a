"""The order in which backward runs hooks, as PyTorch does: a tensor's hooks, then its retained
grad, then its node's pre-hooks, the node, its post-hooks; on a leaf its hooks, accumulation,
then post-accumulate-grad hooks. Expected messages are PyTorch 2.13's."""

import engine as torch
import pytest


def test_order_along_one_path():
    order = []
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    b.register_hook(lambda g: order.append("tensor_hook"))
    b.grad_fn.register_prehook(lambda g: order.append("node_prehook"))
    b.grad_fn.register_hook(lambda gi, go: order.append("node_hook"))
    a.register_hook(lambda g: order.append("leaf_hook"))
    a.register_post_accumulate_grad_hook(lambda t: order.append("post_accumulate"))
    b.sum().backward()
    assert order == ["tensor_hook", "node_prehook", "node_hook", "leaf_hook", "post_accumulate"]


def test_retained_grad_sees_what_the_hooks_returned():
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    b.retain_grad()  # registered first, still runs after the hook
    b.register_hook(lambda g: g * 2)
    b.sum().backward()
    assert b.grad.tolist() == [2.0, 2.0]
    assert a.grad.tolist() == [4.0, 4.0]


def test_tensor_hooks_run_in_registration_order_and_chain():
    a = torch.ones(1, requires_grad=True)
    b = a * 1
    seen = []
    b.register_hook(lambda g: seen.append(g.item()) or g + 1)
    b.register_hook(lambda g: seen.append(g.item()) or g * 10)
    b.backward()
    assert seen == [1.0, 2.0]
    assert a.grad.tolist() == [20.0]


def test_leaf_hook_changes_what_is_accumulated_and_post_hook_sees_it():
    a = torch.ones(2, requires_grad=True)
    seen = []
    a.register_hook(lambda g: g * 3)
    a.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.tolist()))
    (a * 2).sum().backward()
    assert seen == [[6.0, 6.0]]


def test_removed_hook_does_not_run():
    a = torch.ones(1, requires_grad=True)
    b = a * 1
    h = b.register_hook(lambda g: g * 100)
    h.remove()
    b.backward()
    assert a.grad.tolist() == [1.0]


def test_hook_changing_the_shape_is_rejected():
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    b.register_hook(lambda g: torch.ones(3))
    with pytest.raises(RuntimeError, match="hook '<lambda>' has changed the size of value"):
        b.sum().backward()


def test_post_accumulate_hook_only_on_leaves():
    a = torch.ones(1, requires_grad=True)
    with pytest.raises(
        RuntimeError, match="post accumulate grad hooks cannot be registered on non-leaf"
    ):
        (a * 2).register_post_accumulate_grad_hook(lambda t: None)


def test_post_accumulate_hook_must_return_none():
    a = torch.ones(2, requires_grad=True)
    a.register_post_accumulate_grad_hook(lambda t: t)
    with pytest.raises(RuntimeError, match="Tensor post accumulate grad hooks should return None."):
        (a * 2).sum().backward()
    b = torch.ones(2, requires_grad=True)
    b.register_post_accumulate_grad_hook(lambda t: 1)
    with pytest.raises(TypeError, match="expected Variable, but hook returned 'int'"):
        (b * 2).sum().backward()


def test_set_multithreading_enabled_is_scoped():
    assert torch.autograd.is_multithreading_enabled()
    with torch.autograd.set_multithreading_enabled(False):
        assert not torch.autograd.is_multithreading_enabled()
    assert torch.autograd.is_multithreading_enabled()
