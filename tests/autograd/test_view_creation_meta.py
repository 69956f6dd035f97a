"""How a view was made decides whether it may be written in place (PyTorch 2.13's CreationMeta):
the restriction applies whenever the write involves a tensor that requires grad (not only when the
base does), a view of a view inherits it, and views returned by a custom Function are marked even
when no graph was recorded. Messages are PyTorch 2.13's."""

import engine as torch
import pytest
from engine.autograd import Function

GIVEN = (
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
    "code by moving both the view and the inplace either both inside the no_grad block (if you "
    "don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
)
NO_GRAD_PREFIX = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled."
)
MULTI = (
    " This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation by "
    "an out-of-place one."
)
CUSTOM = (
    " This view was created inside a custom Function (or because an input was returned as-is) "
    "and the autograd logic to handle view+inplace would override the custom backward associated "
    "with the custom Function, leading to incorrect gradients. This behavior is forbidden. You can "
    "fix this by cloning the output of the custom Function."
)


class ViewOf(Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        return g


def message(excinfo):
    return str(excinfo.value)


def test_view_of_a_no_grad_view_keeps_the_restriction():
    x = torch.zeros(2)
    with torch.no_grad():
        y = x.view(2)
    y.requires_grad_(True)
    z = y.view(2)
    with pytest.raises(RuntimeError) as e:
        z /= 2
    assert message(e) == (
        "Output 0 of View is a view of a view which was created in no_grad mode and is being "
        "modified inplace with grad mode enabled." + GIVEN
    )


def test_view_of_an_inference_mode_view_keeps_the_restriction():
    x = torch.zeros(2)
    with torch.inference_mode():
        y = x.view(2)
    y.requires_grad_(True)
    z = y.view(2)
    with pytest.raises(
        RuntimeError, match="is a view of a view which was created in inference mode"
    ):
        z /= 2


def test_multi_output_view_of_a_plain_tensor_written_with_a_tensor_that_requires_grad():
    a = torch.rand(1, 2)
    b = torch.rand(1, requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        a.unbind()[0].copy_(b)
    assert message(e) == NO_GRAD_PREFIX + MULTI
    # Nothing requires grad: allowed.
    torch.rand(1, 2).unbind()[0].copy_(torch.rand(1))
    # A single view: allowed, and the base gets history.
    a = torch.rand(1, 2)
    a.select(1, 0).copy_(b)
    assert a.requires_grad


def test_view_of_a_multi_output_view_inherits_the_restriction():
    base = torch.rand(2, 3, requires_grad=True).clone()
    v = base.unbind()[1].view(3)
    with pytest.raises(RuntimeError) as e:
        v.add_(1)
    assert message(e) == "Output 0 of View is a view and is being modified inplace." + MULTI


def test_custom_function_view_without_a_graph():
    a = torch.rand(1, 2)
    view = ViewOf.apply(a)
    assert view._is_view() and not view.requires_grad
    with pytest.raises(RuntimeError) as e:
        view += torch.rand(1, requires_grad=True)
    assert message(e) == NO_GRAD_PREFIX + CUSTOM
    with pytest.raises(RuntimeError, match="This view was created inside a custom Function"):
        ViewOf.apply(torch.rand(1, 2)).copy_(torch.rand(1, requires_grad=True))
    view.add_(1)  # nothing requires grad: allowed


def test_custom_function_view_with_a_graph_names_the_function():
    base = torch.rand(2, requires_grad=True).clone()
    out = ViewOf.apply(base)
    with pytest.raises(RuntimeError) as e:
        out.mul_(2)
    assert message(e) == "Output 0 of ViewOf is a view and is being modified inplace." + CUSTOM


def test_inplace_view_ops_on_restricted_views():
    base = torch.rand(2, 3, requires_grad=True).clone()
    with torch.no_grad():
        v = base.view_as(base)
    with pytest.raises(RuntimeError, match="A view was created in no_grad mode"):
        v.t_()
    u = base.unbind()[0]
    with pytest.raises(RuntimeError, match="function that returns multiple views"):
        u.unsqueeze_(0)


class HeadAndSum(Function):
    @staticmethod
    def forward(ctx, a, b):
        head = a.narrow(0, 0, 2)
        return head, head + b

    @staticmethod
    def backward(ctx, g_head, g_sum):
        return g_head + g_sum, g_sum


def test_view_among_several_outputs_of_a_custom_function():
    a = torch.ones(3, requires_grad=True).clone()
    b = torch.ones(2, requires_grad=True).clone()
    head, _ = HeadAndSum.apply(a, b)
    with pytest.raises(RuntimeError) as e:
        head += 3
    assert message(e) == "Output 0 of HeadAndSum is a view and is being modified inplace." + MULTI


class AddOneInPlace(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


class AddInPlaceAndMore(Function):
    @staticmethod
    def forward(ctx, a, b):
        a.add_(b)
        ctx.mark_dirty(a)
        return a, a + b

    @staticmethod
    def backward(ctx, ga, gab):
        return ga + gab, ga + gab


class DirtyIntermediateView(Function):
    @staticmethod
    def forward(ctx, x):
        out = x.clone().view_as(x)
        ctx.mark_dirty(out)
        return out

    @staticmethod
    def backward(ctx, g):
        return g


def test_mark_dirty_rules_for_views():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(
        RuntimeError,
        match="^a view of a leaf Variable that requires grad is being used in an in-place operation.$",
    ):
        AddOneInPlace.apply(a.view_as(a))
    b = torch.ones(2, requires_grad=True)
    with pytest.raises(
        RuntimeError,
        match="^If your Function modifies inplace an input that is a view of another Tensor, your "
        "Function cannot return more than one Tensor.",
    ):
        AddInPlaceAndMore.apply(a.clone().view_as(a), b)
    with pytest.raises(
        RuntimeError, match="^ctx.mark_dirty\\(\\) received a tensor that was not an input."
    ):
        DirtyIntermediateView.apply(a.clone())
    # A single output: a modified view input is fine.
    out = AddOneInPlace.apply(a.clone().view_as(a))
    out.sum().backward()
    assert a.grad.tolist() == [1.0, 1.0]
