"""Tensor._backward_hooks lists the hooks Tensor.register_hook added, as PyTorch's does: None
before the first, then an OrderedDict keyed by each handle's id; removing a handle takes its
hook out, and assigning None unhooks them all."""

from collections import OrderedDict

import engine as torch
import pytest


def test_none_before_any_hook():
    assert torch.rand(2, requires_grad=True)._backward_hooks is None


def test_registered_hooks_listed_in_order_under_handle_ids():
    t = torch.rand(2, requires_grad=True)
    first, second = (lambda g: g * 2), (lambda g: g + 1)
    h1 = t.register_hook(first)
    h2 = t.register_hook(second)
    hooks = t._backward_hooks
    assert isinstance(hooks, OrderedDict)
    assert list(hooks.items()) == [(h1.id, first), (h2.id, second)]
    assert isinstance(h1.id, int) and h1.id != h2.id
    t.sum().backward()
    assert t.grad.tolist() == [3.0, 3.0]


def test_removing_handles_empties_the_dict():
    t = torch.rand(2, requires_grad=True)
    h = t.register_hook(lambda g: g * 5)
    h.remove()
    h.remove()  # a second remove does nothing
    assert t._backward_hooks == OrderedDict()
    t.sum().backward()
    assert t.grad.tolist() == [1.0, 1.0]


def test_non_leaf_hooks_are_listed_and_run():
    x = torch.ones(2, requires_grad=True)
    u = x * 1
    u.register_hook(lambda g: g * 3)
    assert len(u._backward_hooks) == 1
    u.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_assigning_none_unhooks_registered_hooks():
    x = torch.ones(2, requires_grad=True)
    x.register_hook(lambda g: g * 10)
    x._backward_hooks = None
    assert x._backward_hooks is None
    x.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_hook_on_tensor_without_grad_is_refused():
    t = torch.rand(2)
    with pytest.raises(
        RuntimeError, match="cannot register a hook on a tensor that doesn't require gradient"
    ):
        t.register_hook(lambda g: g)
    assert t._backward_hooks is None


def test_hook_joins_a_dict_assigned_to_a_leaf_once():
    x = torch.ones(2, requires_grad=True)
    hooks = OrderedDict(a=lambda g: g * 2)
    x._backward_hooks = hooks
    h = x.register_hook(lambda g: g * 7)
    assert x._backward_hooks is hooks and list(hooks)[1] == h.id
    x.sum().backward()
    assert x.grad.tolist() == [14.0, 14.0]
    h.remove()
    assert list(hooks) == ["a"]
