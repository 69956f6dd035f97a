"""Custom Functions in forward mode, checked as PyTorch checks them: an in-place forward needs an
in-place jvp returning the given tangent; a view (or an input returned as-is) needs a view of
the input's tangent; jvp sees only what save_for_forward kept. And gradcheck's forward-mode
part: backward first, then jvps, then the undefined-tangent check, with
``forward_ad._current_level`` set while it runs."""

import engine
import engine.autograd.forward_ad as fwAD
import pytest
from engine.autograd import Function, gradcheck
from engine.autograd.gradcheck import GradcheckError

f64 = engine.float64


def inplace_double(jvp_in_place):
    class InplaceDouble(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def vjp(ctx, g):
            return 2 * g

        @staticmethod
        def jvp(ctx, t):
            return t.mul_(2) if jvp_in_place else 2 * t

    return InplaceDouble


def test_inplace_function_updates_the_tangent_in_place():
    with fwAD.dual_level():
        t = engine.tensor([1.0, -2.0], dtype=f64)
        x = fwAD.make_dual(engine.tensor([3.0, 4.0], dtype=f64), t)
        out = inplace_double(True).apply(x)
        assert out is x
        assert fwAD.unpack_dual(out).tangent is t
        assert t.tolist() == [2.0, -4.0]
        with pytest.raises(RuntimeError, match="must modify the corresponding gradient inplace"):
            inplace_double(False).apply(fwAD.make_dual(engine.ones(2, dtype=f64), engine.ones(2)))


def test_inplace_function_gradcheck():
    x = engine.tensor([0.5, -1.5, 2.0], dtype=f64, requires_grad=True)
    assert gradcheck(lambda v: inplace_double(True).apply(v.clone()), (x,), check_forward_ad=True)
    with pytest.raises(RuntimeError, match="not modifying the forward mode gradients inplace"):
        gradcheck(lambda v: inplace_double(False).apply(v.clone()), (x,), check_forward_ad=True)


def narrowing(jvp):
    class Narrow(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.n = x.shape[0]
            return x.narrow(0, 0, 2)

        @staticmethod
        def vjp(ctx, g):
            full = g.new_zeros(ctx.n)
            full.narrow(0, 0, 2).copy_(g)
            return full

        @staticmethod
        def jvp(ctx, t):
            return jvp(t)

    return Narrow


@pytest.mark.parametrize(
    "jvp,message",
    [
        (lambda t: t.narrow(0, 0, 2), None),
        (lambda t: t.narrow(0, 0, 2).clone(), "jvp is not returning a view\\."),
        (lambda t: t.narrow(0, 0, 2).clone().view(2), "not returning a view of the given grad"),
    ],
)
def test_view_output_needs_a_view_of_the_tangent(jvp, message):
    x = engine.tensor([0.5, -1.5, 2.0], dtype=f64, requires_grad=True)
    if message is None:
        assert gradcheck(narrowing(jvp).apply, (x,), check_forward_ad=True)
    else:
        with pytest.raises(RuntimeError, match=message):
            gradcheck(narrowing(jvp).apply, (x,), check_forward_ad=True)


def test_view_of_a_view_input_needs_the_same_base():
    x = engine.tensor([0.5, -1.5, 2.0], dtype=f64, requires_grad=True)
    fn = narrowing(lambda t: t.narrow(0, 0, 2).clone().view(2))
    with pytest.raises(RuntimeError, match="not returning a view of the same base"):
        gradcheck(lambda v: fn.apply(v.view(3)), (x,), check_forward_ad=True)


def test_input_returned_as_is_is_a_view():
    class PassThrough(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def vjp(ctx, g):
            return g

        @staticmethod
        def jvp(ctx, t):
            return t.view_as(t)

    for requires_grad in (True, False):
        with fwAD.dual_level():
            t = engine.tensor([1.0, 2.0], dtype=f64)
            x = engine.tensor([3.0, 4.0], dtype=f64, requires_grad=requires_grad)
            out = PassThrough.apply(fwAD.make_dual(x, t))
            assert fwAD.unpack_dual(out).tangent._base is t


def test_jvp_sees_only_tensors_saved_for_forward():
    seen = []

    class Square(Function):
        @staticmethod
        def forward(x):
            return x * x

        @staticmethod
        def vjp(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

        @staticmethod
        def jvp(ctx, t):
            seen.append(len(ctx.saved_tensors))
            return 2 * ctx.x_for_jvp * t

        @staticmethod
        def setup_context(ctx, inputs, output):
            (x,) = inputs
            ctx.save_for_backward(x)
            ctx.x_for_jvp = x

    x = engine.tensor([0.5, 1.5], dtype=f64, requires_grad=True)
    assert gradcheck(Square.apply, (x,), check_forward_ad=True)
    assert seen and set(seen) == {0}


def test_gradcheck_forward_mode_order_and_level():
    levels = []

    class Double(Function):
        @staticmethod
        def forward(ctx, x, bad_backward, bad_jvp):
            levels.append(fwAD._current_level)
            ctx.bad_backward, ctx.bad_jvp = bad_backward, bad_jvp
            return x * 2

        @staticmethod
        def vjp(ctx, g):
            if ctx.bad_backward:
                raise RuntimeError("backward failed")
            return 2 * g, None, None

        @staticmethod
        def jvp(ctx, t, _a, _b):
            if ctx.bad_jvp:
                raise RuntimeError("jvp failed")
            return 2 * t

    x = engine.tensor([0.5, 1.5], dtype=f64, requires_grad=True)
    assert gradcheck(Double.apply, (x, False, False), check_forward_ad=True)
    assert -1 in levels and 0 in levels
    assert fwAD._current_level == -1
    with pytest.raises(RuntimeError, match="backward failed"):
        gradcheck(Double.apply, (x, True, True), check_forward_ad=True)
    with pytest.raises(RuntimeError, match="jvp failed"):
        gradcheck(Double.apply, (x, False, True), check_forward_ad=True, check_backward_ad=False)
    with pytest.raises(AssertionError, match="Expected at least one of"):
        gradcheck(Double.apply, (x, False, False), check_backward_ad=False)


def test_gradcheck_counts_jvp_calls_like_pytorch():
    calls = []

    class Copy(Function):
        @staticmethod
        def forward(ctx, x, y):
            return x.clone(), y.clone()

        @staticmethod
        def jvp(ctx, tx, ty):
            calls.append(1)
            return tx, ty

    x = engine.tensor([0.5], dtype=f64, requires_grad=True)
    y = engine.tensor([1.5], dtype=f64, requires_grad=True)
    kw = {"check_forward_ad": True, "check_backward_ad": False}
    gradcheck(Copy.apply, (x, y), check_undefined_grad=False, **kw)
    assert len(calls) == 2  # one column per input
    calls.clear()
    gradcheck(Copy.apply, (x, y), check_undefined_grad=True, **kw)
    assert len(calls) == 6  # + a zero tangent and no tangent, per input


def test_undefined_tangent_check_catches_a_missing_tangent_handled_differently():
    def add(x, y):
        out = x + y
        if fwAD._current_level >= 0 and fwAD.unpack_dual(y).tangent is None:
            # wrong: a missing tangent of y must act as a zero one, not triple x's
            primal, tangent = fwAD.unpack_dual(out)
            out = fwAD.make_dual(primal, tangent * 3)
        return out

    x = engine.tensor([0.5], dtype=f64, requires_grad=True)
    y = engine.tensor([1.5], dtype=f64, requires_grad=True)
    assert gradcheck(add, (x, y), check_forward_ad=True, check_undefined_grad=False)
    with pytest.raises(GradcheckError, match="Mismatch in tangent values"):
        gradcheck(add, (x, y), check_forward_ad=True, check_backward_ad=False)
