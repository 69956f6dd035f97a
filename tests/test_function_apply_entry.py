"""Function.apply's native entry (a vectorcall function, not a pybind11 binding) behaves as the
binding did: positional and keyword arguments reach forward, errors from the body come through,
a call without the class is a TypeError, and function transforms still see the call."""

from __future__ import annotations

import engine
import pytest


class Scale(engine.autograd.Function):
    @staticmethod
    def forward(x, factor=2.0):
        return x * factor

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.factor = inputs[1]

    @staticmethod
    def backward(ctx, g):
        return g * ctx.factor, None

    @staticmethod
    def jvp(ctx, tx, tfactor):
        return tx * ctx.factor


def test_positional_and_keyword_arguments_reach_forward():
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    assert Scale.apply(x).tolist() == [2.0, 4.0]
    assert Scale.apply(x, 3.0).tolist() == [3.0, 6.0]
    y = Scale.apply(x, factor=4.0)
    assert y.tolist() == [4.0, 8.0]
    assert type(y.grad_fn).__name__ == "ScaleBackward"
    y.sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]


def test_the_entry_is_native_and_refuses_a_call_without_the_class():
    assert type(engine._C._function_apply).__name__ == "builtin_function_or_method"
    assert engine._C._function_apply.__name__ == "_function_apply"
    with pytest.raises(TypeError, match="_function_apply"):
        engine._C._function_apply()


def test_errors_of_the_body_come_through():
    class NoForward(engine.autograd.Function):
        pass

    with pytest.raises(NotImplementedError, match="You must implement the forward function"):
        NoForward.apply(engine.ones(2))
    with pytest.raises(AttributeError):
        engine._C._function_apply(object(), engine.ones(2))


def test_forward_mode_ad_still_sees_custom_functions():
    import engine.autograd.forward_ad as fwAD

    x = engine.tensor([1.0, 2.0], dtype=engine.float64)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, engine.ones(2, dtype=engine.float64))
        out = Scale.apply(d, 3.0)
        assert fwAD.unpack_dual(out).tangent.tolist() == [3.0, 3.0]
