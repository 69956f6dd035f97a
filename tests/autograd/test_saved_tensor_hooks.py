"""Saved tensors: saved_tensors_hooks on built-in ops and custom Functions, disabling them,
introspection of a node's saved tensors (grad_fn._saved_self, _raw_saved_self.register_hooks),
and the messages when they were freed. Expected messages are PyTorch 2.13's."""

import engine as torch
import pytest
from engine.autograd import Function
from engine.autograd.graph import disable_saved_tensors_hooks, saved_tensors_hooks

FREED = "Trying to backward through the graph a second time"


def leaf(*values):
    return torch.tensor(list(values), requires_grad=True)


def test_hooks_apply_to_builtin_ops():
    packed, unpacked = [], []

    def pack(t):
        packed.append(t)
        return t * 1

    def unpack(t):
        unpacked.append(t)
        return t

    a = leaf(1.0, 2.0)
    with saved_tensors_hooks(pack, unpack):
        y = a * a
    assert len(packed) == 2 and packed[0] is a
    y.sum().backward()
    assert len(unpacked) == 2
    assert a.grad.tolist() == [2.0, 4.0]


def test_hooks_can_change_what_backward_sees():
    a = leaf(1.0, 2.0)
    b = leaf(3.0, 4.0)
    with saved_tensors_hooks(lambda t: t, lambda t: t * 10):
        y = a * b
    y.sum().backward()
    assert a.grad.tolist() == [30.0, 40.0]
    assert b.grad.tolist() == [10.0, 20.0]


def test_saved_output_is_packed_too():
    seen = []
    a = leaf(0.0, 1.0)
    with saved_tensors_hooks(lambda t: seen.append(t.tolist()) or t, lambda t: t):
        y = a.exp()
    assert seen == [y.tolist()]
    y.sum().backward()
    assert torch.allclose(a.grad, y.detach())


def test_no_version_check_on_packed_copies():
    a = leaf(1.0, 2.0)
    b = torch.tensor([3.0, 4.0])
    with saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
        y = a * b
    b.add_(1)
    y.sum().backward()
    assert a.grad.tolist() == [3.0, 4.0]


def test_unpack_must_return_a_tensor():
    a = leaf(1.0)
    with saved_tensors_hooks(lambda t: t, lambda t: 1):
        y = a * a
    with pytest.raises(
        TypeError,
        match="Output of saved tensor unpack_hook expected to be a Tensor but got result of type int",
    ):
        y.sum().backward()


def test_nested_hooks_innermost_wins():
    outer, inner = [], []
    a = leaf(1.0)
    with saved_tensors_hooks(lambda t: outer.append(1) or t, lambda t: t):
        with saved_tensors_hooks(lambda t: inner.append(1) or t, lambda t: t):
            a * a
        a.exp()
    assert len(inner) == 2 and len(outer) == 1


def test_hooks_apply_to_custom_functions_and_not_to_ctx_attributes():
    packed = []

    class Square(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.kept = x * 1
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    a = leaf(3.0)
    with saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        y = Square.apply(a)
    assert len(packed) == 1 and packed[0] is a
    y.backward()
    assert a.grad.tolist() == [6.0]


def test_disable_saved_tensors_hooks():
    with disable_saved_tensors_hooks("no hooks here"):
        with pytest.raises(RuntimeError, match="no hooks here"):
            with saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        pass

    @disable_saved_tensors_hooks("decorated")
    def f():
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            pass

    with pytest.raises(RuntimeError, match="decorated"):
        f()


def test_saved_self_and_other():
    a, b = leaf(1.0, 2.0), leaf(3.0, 4.0)
    y = a * b
    assert y.grad_fn._saved_self is a
    assert y.grad_fn._saved_other is b
    with pytest.raises(AttributeError, match="'MulBackward0' object has no attribute '_saved_foo'"):
        _ = y.grad_fn._saved_foo


def test_saved_result_is_the_output_with_its_history():
    a = leaf(1.0)
    y = a.exp()
    r = y.grad_fn._saved_result
    assert torch.equal(r, y)
    assert r.grad_fn is y.grad_fn
    z = a.sin()
    assert z.grad_fn._saved_self is a


def test_saved_tensor_freed_after_backward():
    a = leaf(1.0)
    y = a * a
    y.sum().backward()
    with pytest.raises(RuntimeError, match=FREED):
        _ = y.grad_fn._saved_self
    with pytest.raises(RuntimeError, match=FREED):
        y.sum().backward()


def test_saved_tensor_kept_with_retain_graph():
    a = leaf(1.0)
    y = a * a
    y.sum().backward(retain_graph=True)
    assert y.grad_fn._saved_self is a


def test_raw_saved_register_hooks():
    a = leaf(1.0, 2.0)
    y = a * 3 * a
    calls = []
    raw = y.grad_fn._raw_saved_self
    raw.register_hooks(lambda t: calls.append("pack") or t, lambda t: calls.append("unpack") or t)
    assert calls == ["pack"]
    with pytest.raises(RuntimeError, match="whose hooks have already been set"):
        raw.register_hooks(lambda t: t, lambda t: t)
    y.sum().backward()
    assert calls == ["pack", "unpack"]
    with pytest.raises(
        RuntimeError, match="Calling register_hooks on a saved tensor after it has been freed"
    ):
        raw.register_hooks(lambda t: t, lambda t: t)


def test_raw_saved_register_hooks_needs_callables():
    y = leaf(1.0) * leaf(2.0)
    with pytest.raises(TypeError):
        y.grad_fn._raw_saved_self.register_hooks(1, lambda t: t)


def test_saved_tensor_modified_inplace_message():
    a = leaf(1.0)
    b = torch.ones(1)
    y = a * b
    b.add_(1)
    with pytest.raises(
        RuntimeError,
        match=r"one of the variables needed for gradient computation has been modified",
    ):
        y.backward()


def test_linear_unpacks_input_before_weight():
    # AddmmBackward0 unpacks mat1 (the input) then mat2 (the weight transposed), as PyTorch's
    # node does; activation-offloading hooks that count or order unpacks see the same sequence.
    x = torch.randn(3, 4, requires_grad=True)
    lin = torch.nn.Linear(4, 2)
    shapes = []
    with saved_tensors_hooks(lambda t: t, lambda t: shapes.append(tuple(t.shape)) or t):
        out = lin(x)
    out.sum().backward()
    assert shapes == [(3, 4), (4, 2)]


class _SaveInput(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


def test_custom_function_unpacks_a_new_tensor_with_the_saved_ones_history():
    # As PyTorch's SavedVariable: what the unpack hook returns becomes a new tensor that carries the
    # saved tensor's place in the graph (a leaf's accumulator, a non-leaf's grad_fn), even when the
    # hook hands back the original object or a detached copy.
    a = torch.randn(3, requires_grad=True)
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        y = _SaveInput.apply(a)
    (s,) = y.grad_fn.saved_tensors
    assert s is not a and s.requires_grad and s.is_leaf and s.grad_fn is None
    h = a * 1
    with saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
        y2 = _SaveInput.apply(h)
    (s2,) = y2.grad_fn.saved_tensors
    assert s2 is not h and s2.grad_fn.name() == "MulBackward0"
    (g,) = torch.autograd.grad(y2.sum(), a, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), a)
    assert torch.equal(gg, torch.full((3,), 2.0))


def test_custom_function_unpack_hook_must_return_a_tensor():
    with saved_tensors_hooks(lambda t: t, lambda t: 5):
        y = _SaveInput.apply(leaf(1.0))
    with pytest.raises(
        TypeError, match="unpack_hook expected to be a Tensor but got result of type int"
    ):
        y.backward()
