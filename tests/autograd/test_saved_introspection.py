"""Saved tensors seen from Python (PyTorch 2.13's API and messages): ``_raw_saved_*`` handles with
``data`` / ``unpack_hook``, ``torch._C._autograd.SavedTensor``, a custom Function node's
``_raw_saved_tensors``, pack hooks that run without grad and may not write into their input, a
Python number an op wrapped is never shown to hooks, ``detach_()`` on a saved input, and
``clear_saved_tensors_on_access``."""

import weakref

import engine as torch
import pytest
from engine.autograd import Function
from engine.autograd.graph import saved_tensors_hooks

FREED = "Trying to backward through the graph a second time"


def test_saved_tensor_class_is_exposed_where_pytorch_has_it():
    a = torch.ones(2, requires_grad=True)
    y = a * a
    assert isinstance(y.grad_fn._raw_saved_self, torch._C._autograd.SavedTensor)


def test_data_and_unpack_hook_of_raw_saved_tensors():
    def pack(t):
        return t

    def unpack(t):
        return t

    a = torch.tensor(2.0, requires_grad=True)
    with saved_tensors_hooks(pack, unpack):
        b = a**2
    c = b.exp()
    d = c**2
    pow_sv = b.grad_fn._raw_saved_self
    assert pow_sv.unpack_hook is unpack
    assert torch.equal(pow_sv.data, a)
    exp_sv = c.grad_fn._raw_saved_result
    assert exp_sv.unpack_hook is None
    assert torch.equal(exp_sv.data, c) and exp_sv.data.grad_fn is None
    assert d.grad_fn._raw_saved_self.data.grad_fn is c.grad_fn


def test_pack_hooks_run_without_grad_and_may_not_write_their_input():
    seen = []

    def pack(t):
        seen.append(torch.is_grad_enabled())
        return t

    a = torch.randn(3, requires_grad=True)
    with saved_tensors_hooks(pack, lambda t: t):
        a.exp()
    assert seen == [False]

    def inc(t):
        t += 1
        return t

    msg = "A saved tensor pack hook is modifying its input in place."
    with saved_tensors_hooks(inc, lambda t: t):
        with pytest.raises(RuntimeError, match=msg):
            torch.exp(a)
    y = torch.exp(a)
    with pytest.raises(RuntimeError, match=msg):
        y.grad_fn._raw_saved_result.register_hooks(inc, lambda t: t)
    # register_hooks hands the hook the data without autograd state: writing a leaf's would fail.
    t = a * a
    with pytest.raises(RuntimeError, match=msg):
        t.grad_fn._raw_saved_self.register_hooks(inc, lambda t: t)


def test_register_hooks_argument_errors():
    y = torch.ones(2, requires_grad=True) * torch.ones(2, requires_grad=True)
    raw = y.grad_fn._raw_saved_self
    with pytest.raises(TypeError, match="incompatible function arguments"):
        raw.register_hooks(1, 1)
    with pytest.raises(TypeError, match="incompatible function arguments"):
        raw.register_hooks(lambda t: t)


def test_wrapped_numbers_skip_the_hooks():
    def refuse(t):
        raise RuntimeError("this hook should not be called")

    a = torch.randn(5, requires_grad=True)
    with saved_tensors_hooks(refuse, refuse):
        out = (a * 3).sum()
        (g,) = torch.autograd.grad(out, (a,))
    assert torch.equal(g, torch.full((5,), 3.0))


def test_saved_input_detached_in_place():
    a = torch.tensor(1.0, requires_grad=True).clone()
    b = a.sin()
    a.detach_()
    with pytest.raises(RuntimeError) as e:
        b.backward()
    assert str(e.value) == (
        "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is "
        "not supported, please use out-of-place `.detach()` instead"
    )
    # A saved output is kept apart from the tensor: detaching the tensor is fine.
    a = torch.tensor(1.0, requires_grad=True).clone()
    b = a.exp()
    a.detach_()
    b.backward()


def make_saver(save):
    class Saver(Function):
        @staticmethod
        def forward(ctx, x):
            if save:
                ctx.save_for_backward(x, None)
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return g

    return Saver


def test_custom_node_raw_saved_tensors():
    a = torch.randn(3, requires_grad=True)
    y = make_saver(True).apply(a)
    saved = y.grad_fn._raw_saved_tensors
    assert len(saved) == 2
    assert all(isinstance(s, torch._C._autograd.SavedTensor) for s in saved)
    with pytest.raises(RuntimeError, match="None is forbidden"):
        saved[1].register_hooks(lambda t: t, lambda t: t)
    calls = []
    saved[0].register_hooks(lambda t: t * 2, lambda t: calls.append(1) or t / 2)
    with pytest.raises(RuntimeError, match="already been set"):
        saved[0].register_hooks(lambda t: t, lambda t: t)
    (got, none) = y.grad_fn.saved_tensors
    assert torch.equal(got, a) and none is None and calls == [1]
    y.sum().backward()
    with pytest.raises(RuntimeError, match=FREED):
        _ = y.grad_fn._raw_saved_tensors
    with pytest.raises(RuntimeError, match=FREED):
        _ = y.grad_fn.saved_tensors
    y = make_saver(False).apply(a)
    assert y.grad_fn._raw_saved_tensors == () and y.grad_fn.saved_tensors == ()


class ClearOnAccess(Function):
    clear_saved_tensors_on_access = True

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        ref = weakref.ref(x)
        del x
        ClearOnAccess.dead = ref() is None
        if ClearOnAccess.read_twice:
            _ = ctx.saved_tensors
        return g


def test_clear_saved_tensors_on_access():
    assert Function.clear_saved_tensors_on_access is False
    ClearOnAccess.read_twice = False
    x = torch.randn(3, requires_grad=True)
    ClearOnAccess.apply(x.clone()).sum().backward()
    assert ClearOnAccess.dead
    ClearOnAccess.read_twice = True
    with pytest.raises(RuntimeError) as e:
        ClearOnAccess.apply(x).sum().backward()
    assert str(e.value) == (
        "saved_tensors can only be accessed once when clear_saved_tensors_on_access=True is set on "
        "the autograd.Function. Either access saved_tensors only once, or set "
        "clear_saved_tensors_on_access=False."
    )
