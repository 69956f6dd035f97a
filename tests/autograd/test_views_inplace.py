"""Views and in-place writes under autograd: the history of a base written through its view, the
safety errors for views made in no_grad / inference mode, detach_() on views, leaves, and
retain_grad / hooks across in-place ops. Expected messages are PyTorch 2.13's."""

import engine as torch
import pytest
from engine.autograd import Function

NO_GRAD_VIEW = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
    "code by moving both the view and the inplace either both inside the no_grad block (if you "
    "don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
)


def leaf(*values):
    return torch.tensor(list(values), requires_grad=True)


def test_writing_through_a_view_gives_the_base_history():
    a = leaf(1.0, 2.0, 3.0)
    b = a.clone()
    v = b[:2]
    v.mul_(2)
    assert b.grad_fn.name() == "CopySlices"
    assert v.requires_grad and v.grad_fn is not None
    b.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0, 1.0]


def test_copy_into_a_view_of_a_plain_tensor():
    c = torch.zeros(3)
    w = leaf(1.0)
    c[:1].copy_(w)
    assert c.requires_grad and c.grad_fn.name() == "CopySlices"
    c.sum().backward()
    assert w.grad.tolist() == [1.0]


def test_view_made_in_no_grad_then_written_with_grad_on():
    a = leaf(1.0, 2.0)
    with torch.no_grad():
        v = a[:1]
    with pytest.raises(RuntimeError) as info:
        v.add_(1)
    assert str(info.value) == NO_GRAD_VIEW
    b = a.clone()
    with torch.no_grad():
        w = b[:1]
    with pytest.raises(RuntimeError, match="A view was created in no_grad mode"):
        w.mul_(2)


def test_view_made_in_no_grad_may_be_written_in_no_grad():
    a = leaf(1.0, 2.0)
    with torch.no_grad():
        v = a[:1]
        v.add_(1)
    assert a.tolist() == [2.0, 2.0]


def test_view_made_in_no_grad_of_a_plain_tensor_may_be_written():
    a = torch.ones(2)
    with torch.no_grad():
        v = a[:1]
    v.add_(1)
    assert a.tolist() == [2.0, 1.0]


def test_leaf_and_view_of_leaf_in_place():
    a = leaf(1.0, 2.0)
    with pytest.raises(
        RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"
    ):
        a.add_(1)
    with pytest.raises(
        RuntimeError, match="a view of a leaf Variable that requires grad is being used"
    ):
        a.view(2).add_(1)


def test_detach_in_place_on_a_view_is_refused():
    x = leaf(1.0, 2.0, 3.0).clone()
    with pytest.raises(RuntimeError, match=r"Can't detach views in-place. Use detach\(\) instead."):
        x[:2].detach_()
    y = x * 2
    y.detach_()
    assert not y.requires_grad and y.grad_fn is None


def test_retain_grad_follows_the_tensor_across_inplace():
    a = leaf(1.0, 1.0)
    b = a * 2
    b.retain_grad()
    b.mul_(3)
    (b * 5).sum().backward()
    assert b.grad.tolist() == [5.0, 5.0]
    assert a.grad.tolist() == [30.0, 30.0]


def test_hooks_stay_with_the_version_they_were_registered_on():
    a = leaf(1.0, 1.0)
    b = a * 2
    seen = []
    b.register_hook(lambda g: seen.append(("old", g.tolist())))
    b.mul_(3)
    b.register_hook(lambda g: seen.append(("new", g.tolist())))
    (b * 5).sum().backward()
    assert seen == [("new", [5.0, 5.0]), ("old", [15.0, 15.0])]


def test_retain_grad_on_view_written_in_place():
    a = leaf(1.0, 2.0, 3.0)
    b = a.clone()
    v = b[1:]
    v.retain_grad()
    v.mul_(2)
    (v * 3).sum().backward()
    assert v.grad.tolist() == [3.0, 3.0]
    assert a.grad.tolist() == [0.0, 6.0, 6.0]


def test_inplace_bumps_version_and_breaks_saved_tensor():
    a = leaf(1.0)
    b = a.clone()
    y = b * b
    b.add_(1)
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0 instead"):
        y.backward()


MULTI = (
    "is a view and is being modified inplace. This view is the output of a function that returns "
    "multiple views. Such functions do not allow the output views to be modified inplace. You "
    "should replace the inplace operation by an out-of-place one."
)


@pytest.mark.parametrize(
    "make, name",
    [
        (lambda a: a.unbind(0), "Unbind"),
        (lambda a: a.split(2), "Split"),
        (lambda a: a.chunk(2), "Split"),
        (lambda a: a.split([1, 3]), "SplitWithSizes"),
    ],
)
def test_multi_output_views_cannot_be_written_in_place(make, name):
    a = torch.ones(4, requires_grad=True).clone()
    out = make(a)
    with pytest.raises(RuntimeError) as info:
        out[1].add_(1)
    assert str(info.value) == f"Output 1 of {name} {MULTI}"


def test_multi_output_views_of_plain_tensors_and_unsafe_variants_may_be_written():
    out = torch.ones(4).unbind(0)
    out[0].add_(1)
    a = torch.ones(4, requires_grad=True).clone()
    pieces = torch.unsafe_chunk(a, 2)
    pieces[0].mul_(2)
    a.sum().backward()


def test_multi_output_view_written_in_no_grad_loses_its_history():
    a = torch.ones(4, requires_grad=True).clone()
    out = a.unbind(0)
    with torch.no_grad():
        out[0].add_(1)
    message = (
        "Output 0 of Unbind is a view and its base or another view of its base has been modified"
    )
    with pytest.raises(RuntimeError, match=message):
        _ = out[0].grad_fn
    with pytest.raises(RuntimeError, match=message):
        _ = out[0] * 2
    assert repr(out[0]) == "tensor(2., grad_fn=<Invalid>)"


CUSTOM_VIEW = (
    "is a view and is being modified inplace. This view was created inside a custom Function (or "
    "because an input was returned as-is) and the autograd logic to handle view+inplace would "
    "override the custom backward associated with the custom Function, leading to incorrect "
    "gradients. This behavior is forbidden. You can fix this by cloning the output of the custom "
    "Function."
)


class FirstTwo(Function):
    @staticmethod
    def forward(ctx, x):
        return x[:2]

    @staticmethod
    def backward(ctx, g):
        return torch.cat([g, torch.zeros(1)])


class Same(Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g


@pytest.mark.parametrize("fn", [FirstTwo, Same])
@pytest.mark.parametrize("make_input", [lambda a: a.clone(), lambda a: a])
def test_views_returned_by_custom_functions_cannot_be_written_in_place(fn, make_input):
    x = make_input(torch.ones(3, requires_grad=True))
    y = fn.apply(x)
    with pytest.raises(RuntimeError) as info:
        y.add_(1)
    assert str(info.value) == f"Output 0 of {fn.__name__} {CUSTOM_VIEW}"
    y.clone().add_(1).sum().backward()  # the advice works
