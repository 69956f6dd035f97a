"""Views made without history (under no_grad or inference_mode) of a tensor that requires grad
behave as PyTorch's: they require grad (following their base) while being leaves; once their base
or another view of it is written in place, reading their history raises PyTorch's error, and
printing shows grad_fn=<Invalid>."""

import re

import engine as torch
import pytest

NO_GRAD_STALE = re.escape(
    "A view was created in no_grad mode and its base or another view of its base has been modified "
    "inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is "
    "forbidden. You can clarify your code by moving both the view and the inplace either both inside "
    "the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the "
    "inplace to be tracked)."
)
INFERENCE_STALE = re.escape(
    "A view was created in inference mode and its base or another view of its base has been modified "
    "inplace in normal mode. Given that this use case is ambiguous and error-prone, it is forbidden. "
    "You can clarify your code by moving both the view and the inplace either both inside the "
    "inference_mode block"
)


def nograd_view(base, index=slice(0, 2)):
    with torch.no_grad():
        return base[index]


@pytest.mark.parametrize("leaf_base", [True, False])
def test_view_follows_its_base_requires_grad_and_is_a_leaf(leaf_base):
    a = torch.ones(3, requires_grad=True)
    v = nograd_view(a if leaf_base else a.clone())
    assert v.requires_grad and v.is_leaf and v.grad_fn is None and v._is_view()
    assert repr(v) == "tensor([1., 1.], requires_grad=True)"


def test_ops_on_the_view_record_but_reach_nothing():
    a = torch.ones(3, requires_grad=True)
    v = nograd_view(a)
    y = (v * 3).sum()
    assert y.requires_grad and type(y.grad_fn).__name__ == "SumBackward0"
    y.backward()
    assert a.grad is None and v.grad is None
    with torch.no_grad():
        assert not (v + 1).requires_grad


def test_view_of_a_base_that_does_not_require_grad_is_plain():
    z = torch.ones(3)
    v = nograd_view(z)
    z.mul_(2)
    assert not v.requires_grad and v.grad_fn is None
    assert repr(v) == "tensor([2., 2.])"


def test_base_requiring_grad_later_carries_its_views():
    z = torch.ones(3)
    v = nograd_view(z)
    z.requires_grad_()
    assert v.requires_grad and v.grad_fn is None


@pytest.mark.parametrize("write_under_no_grad", [False, True])
def test_base_written_in_place_makes_history_unreadable(write_under_no_grad):
    b = torch.ones(3, requires_grad=True).clone()
    v = nograd_view(b)
    if write_under_no_grad:
        with torch.no_grad():
            b.mul_(2)
    else:
        b.mul_(2)
    for read in (lambda: v.grad_fn, lambda: v.is_leaf, lambda: v * 2, lambda: v.sum().backward()):
        with pytest.raises(RuntimeError, match=NO_GRAD_STALE):
            read()
    assert v.requires_grad
    assert repr(v) == "tensor([2., 2.], grad_fn=<Invalid>)"
    assert str(v) == repr(v)
    # Without grad mode, or without autograd at all, the values stay usable.
    with torch.no_grad():
        assert (v * 2).tolist() == [4.0, 4.0]
    assert v.detach().tolist() == [2.0, 2.0]


def test_sibling_view_written_in_place_counts_too():
    b = torch.ones(4, requires_grad=True).clone()
    v = nograd_view(b)
    b[2:].mul_(2)
    with pytest.raises(RuntimeError, match=NO_GRAD_STALE):
        _ = v.grad_fn


def test_view_written_under_no_grad_prints_invalid():
    a = torch.ones(1, requires_grad=True)
    with torch.no_grad():
        b = a[:]
        b *= 2
    assert repr(b) == "tensor([2.], grad_fn=<Invalid>)"
    with pytest.raises(RuntimeError, match=NO_GRAD_STALE):
        _ = b.grad_fn


def test_in_place_on_the_view_with_grad_on_keeps_its_own_message():
    b = torch.ones(3, requires_grad=True).clone()
    v = nograd_view(b)
    with pytest.raises(
        RuntimeError, match="A view was created in no_grad mode and is being modified inplace"
    ):
        v.add_(1)


def test_view_made_before_the_write_only():
    b = torch.ones(3, requires_grad=True).clone()
    b.mul_(2)
    v = nograd_view(b)  # made after the write: nothing moved since
    assert v.grad_fn is None and v.is_leaf


def test_view_of_the_view_made_with_grad_on_names_its_op():
    b = torch.ones(3, requires_grad=True).clone()
    w = nograd_view(b)
    ww = w[:1]
    assert ww.requires_grad and type(ww.grad_fn).__name__ == "SliceBackward0"
    b.mul_(2)
    with pytest.raises(
        RuntimeError,
        match="Output 0 of Slice is a view of a view which was created in no_grad mode",
    ):
        _ = ww.grad_fn


def test_inference_mode_view_written_in_normal_mode():
    a = torch.ones(3, requires_grad=True).clone()
    with torch.inference_mode():
        iv = a[:2]
    assert iv.requires_grad and iv.is_leaf
    a.mul_(2)
    with pytest.raises(RuntimeError, match=INFERENCE_STALE):
        _ = iv.grad_fn
    assert repr(iv) == "tensor([2., 2.], grad_fn=<Invalid>)"


def test_view_of_leaf_made_with_grad_on_later_requiring_grad():
    x = torch.zeros(3)
    v = x[:2]
    x.requires_grad_()
    with pytest.raises(
        RuntimeError,
        match="a view of a leaf Variable that requires grad is being used in an in-place",
    ):
        v.add_(1)
