"""Details of custom Functions and graph objects as PyTorch 2.13 has them: the vmap defaults of
Function, a Function called under no_grad that returns a view, a Tensor subclass returned as-is,
the SavedTensor type, and the name of the node behind nn module backward hooks."""

import engine as torch
import pytest
from engine.autograd import Function


def test_function_vmap_defaults():
    class Square(Function):
        @staticmethod
        def forward(x):
            return x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

    assert Square.generate_vmap_rule is False
    with pytest.raises(
        NotImplementedError, match="you must either override the vmap staticmethod or set"
    ):
        Square.vmap(None, (0,), torch.ones(2))


class _Alias(Function):
    @staticmethod
    def forward(ctx, x):
        return x[1:]

    @staticmethod
    def backward(ctx, g):
        return torch.nn.functional.pad(g, (1, 0))


def test_view_returned_under_no_grad_behaves_as_a_no_grad_view():
    x = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        out = _Alias.apply(x)
        plain = x[1:]
    assert out.requires_grad == plain.requires_grad is True
    assert out.grad_fn is None
    with pytest.raises(
        RuntimeError, match="A view was created in no_grad mode and is being modified inplace"
    ):
        out.zero_()


def test_view_returned_with_grad_off_inputs_is_still_custom_function_view():
    x = torch.ones(3)
    out = _Alias.apply(x)
    assert not out.requires_grad
    with pytest.raises(RuntimeError, match="This view was created inside a custom Function"):
        out.add_(torch.ones(2, requires_grad=True))


class _Marked(torch.Tensor):
    pass


def test_subclass_returned_as_is_keeps_its_class():
    class Identity(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.ones(2).as_subclass(_Marked)
    y = Identity.apply(x)
    assert type(y) is _Marked
    assert y is not x and y.tolist() == [1.0, 1.0]


def test_saved_tensor_type_is_public_but_not_constructible():
    a = torch.ones(2, requires_grad=True)
    b = a * a
    assert isinstance(b.grad_fn._raw_saved_self, torch.autograd.SavedTensor)
    with pytest.raises(
        RuntimeError, match=r"^Trying to create a SavedTensor object from Python is forbidden\.$"
    ):
        torch.autograd.SavedTensor()


def test_module_backward_hook_node_name():
    lin = torch.nn.Linear(2, 2)
    lin.register_full_backward_hook(lambda m, gi, go: None)
    out = lin(torch.ones(1, 2, requires_grad=True))
    assert out.grad_fn.name() == "BackwardHookFunctionBackward"


def test_module_backward_hook_skips_a_double_backward_through_the_forward():
    calls = []
    loss = torch.nn.MSELoss()
    loss.register_full_backward_hook(lambda m, gi, go: calls.append(len(gi)))
    x = torch.tensor([0.5], requires_grad=True)
    f = loss(x, torch.tensor([2.0]))
    (gx,) = torch.autograd.grad(f, x, create_graph=True)
    assert calls == [2]
    (ggx,) = torch.autograd.grad(gx, x)  # reaches the inputs without passing the outputs
    assert calls == [2]
    assert ggx.item() == 2.0
