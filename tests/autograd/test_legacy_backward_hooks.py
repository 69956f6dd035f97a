"""``Tensor._backward_hooks``, PyTorch's legacy hook dict: assignable and readable; on a leaf
that requires grad its hooks run when the gradient is computed (in the dict's order then), on
other tensors never."""

import gc
import weakref
from collections import OrderedDict

import engine as torch
import pytest


def test_reads_none_until_assigned():
    assert torch.ones(2, requires_grad=True)._backward_hooks is None


def test_hooks_on_tensors_without_grad_never_run():
    x, y = torch.full((5, 5), 2.0), torch.full((5, 5), 3.0)
    z = torch.full((5, 5), 4.0, requires_grad=True)
    a = x + y
    b = a + z

    def error():
        raise RuntimeError

    for t in (a, x, y):
        t._backward_hooks = OrderedDict()
        t._backward_hooks["test"] = error
    b.backward(torch.ones(5, 5))
    assert z.grad.tolist() == torch.ones(5, 5).tolist()
    assert list(a._backward_hooks) == ["test"]


def test_leaf_dict_hooks_run_in_order_and_may_replace_the_gradient():
    x = torch.ones(2, requires_grad=True)
    hooks = OrderedDict()
    x._backward_hooks = hooks
    assert x._backward_hooks is hooks
    seen = []
    hooks["a"] = lambda g: seen.append("a") or g * 5
    hooks["b"] = lambda g: seen.append("b")  # None keeps the gradient
    (x * 1).sum().backward()
    assert x.grad.tolist() == [5.0, 5.0] and seen == ["a", "b"]
    # Entries added later are seen, and they combine with register_hook hooks.
    hooks["c"] = lambda g: g * 2
    x.register_hook(lambda g: g * 7)
    x.grad = None
    (x * 1).sum().backward()
    assert x.grad.tolist() == [70.0, 70.0]


def test_assigning_none_unhooks():
    x = torch.ones(2, requires_grad=True)
    x._backward_hooks = {"a": lambda g: g * 5}
    x._backward_hooks = None
    assert x._backward_hooks is None
    (x * 1).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_a_hook_returning_a_non_tensor_is_refused():
    x = torch.ones(2, requires_grad=True)
    x._backward_hooks = OrderedDict(a=lambda g: 5)
    with pytest.raises(TypeError, match="expected Variable, but hook returned 'int'"):
        (x * 1).sum().backward()


def test_deleting_is_refused():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^Deletion of _backwards_hooks not allowed!$"):
        del x._backward_hooks


def test_the_dict_does_not_keep_the_tensor_alive():
    x = torch.ones(2, requires_grad=True)
    x._backward_hooks = OrderedDict(a=lambda g: g)
    ref = weakref.ref(x)
    del x
    gc.collect()
    assert ref() is None
    y = torch.ones(2)
    assert y._backward_hooks is None
