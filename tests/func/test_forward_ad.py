"""engine.autograd.forward_ad: every differentiable op of tests/op_table.py in forward mode
against float64 central differences (gradcheck(check_forward_ad=True)), dual-tensor semantics
(views, in-place, levels, printing, non-differentiable results), custom Function.jvp in all three
forward styles, nesting (forward-over-forward, forward-over-reverse, reverse-over-forward), and
the checkers catching a wrong jvp."""

from __future__ import annotations

import sys
from pathlib import Path

import engine
import numpy as np
import pytest
from engine.autograd import Function, GradcheckError, gradcheck, gradgradcheck
from engine.autograd import forward_ad as fwAD

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from op_table import OPS, cases, make_input  # noqa: E402

F64 = engine.float64
# Every differentiable op of the table has a tangent: an explicit rule, or the generic rule where
# its backward is differentiable (ops with a NumPy backward have explicit rules).
NO_FORWARD: set[str] = set()


def _params(max_cases):
    rng = np.random.default_rng(11)
    for op in OPS:
        if not op.differentiable:
            continue
        for k, (ident, values, layout) in enumerate(
            cases(op, rng, ("contiguous", "permuted", "expanded"))
        ):
            if k >= max_cases:
                break
            yield pytest.param(op, values, layout, id=f"{op.name}-{ident}")


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("op,values,layout", list(_params(2)))
def test_forward_mode_matches_finite_differences(op, values, layout):
    xs = [make_input(engine, v, layout, F64).requires_grad_() for v in values]

    def fn(*a):
        return op.fn(engine, *a)

    if op.name in NO_FORWARD:
        with pytest.raises(RuntimeError, match="Trying to use forward AD with"):
            gradcheck(fn, xs, check_forward_ad=True, check_backward_ad=False)
        return
    assert gradcheck(fn, xs, check_forward_ad=True, check_backward_ad=False)


@pytest.fixture(autouse=True)
def _no_level_left_open():
    yield
    try:
        fwAD.exit_dual_level()
    except RuntimeError:
        pass


def _x():
    return engine.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=F64)


def _t():
    return engine.tensor([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]], dtype=F64)


def _close(a, b):
    np.testing.assert_allclose(np.array(a.tolist()), np.array(b.tolist()), rtol=1e-12, atol=1e-14)


# ---- the API ---------------------------------------------------------------------------------


def test_dual_level_returns_zero_and_closes():
    with fwAD.dual_level() as level:
        assert level == 0
        d = fwAD.make_dual(_x(), _t())
        assert fwAD.unpack_dual(d).tangent is not None
    assert fwAD.unpack_dual(d).tangent is None
    assert fwAD.enter_dual_level() == 0
    fwAD.exit_dual_level(level=0)


def test_unpack_dual_is_a_named_tuple_of_views():
    x, t = _x(), _t()
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        assert d._base is x
        unpacked = fwAD.unpack_dual(d)
        primal, tangent = unpacked
        assert type(unpacked).__name__ == "UnpackedDualTensor"
        assert unpacked.primal is primal and tangent is t
        assert fwAD.unpack_dual(primal).tangent is None
        _close(primal, x)
        assert fwAD.unpack_dual(x).tangent is None


def test_exit_with_wrong_level():
    fwAD.enter_dual_level()
    with pytest.raises(RuntimeError, match="not the last one that was created"):
        fwAD.exit_dual_level(level=3)


def test_make_dual_type_errors():
    with fwAD.dual_level():
        with pytest.raises(TypeError, match="argument 'tangent' must be Tensor"):
            fwAD.make_dual(_x(), 1.0)
        with pytest.raises(TypeError, match="argument 'tensor' must be Tensor"):
            fwAD.make_dual([1.0], _t())


def test_float32_tangent_is_kept_as_given():
    with fwAD.dual_level():
        t = engine.ones(2, 3)
        d = fwAD.make_dual(_x(), t)
        assert fwAD.unpack_dual(d).tangent.dtype == engine.float32


def test_views_carry_views_of_the_tangent():
    with fwAD.dual_level():
        d = fwAD.make_dual(_x(), _t())
        row = d[1]
        tangent = fwAD.unpack_dual(row).tangent
        _close(tangent, _t()[1])
        row.mul_(2)  # in place through the view: the dual's tangent changes too
        _close(fwAD.unpack_dual(d).tangent[1], _t()[1] * 2)


def test_in_place_updates_the_tangent_in_place():
    with fwAD.dual_level():
        t = _t()
        d = fwAD.make_dual(_x(), t)
        d.exp_()
        assert fwAD.unpack_dual(d).tangent is t
        _close(t, _t() * _x().exp())


def test_in_place_on_plain_tensor_with_dual_operand():
    with fwAD.dual_level():
        d = fwAD.make_dual(_x(), _t())
        plain = engine.ones(2, 3, dtype=F64)
        plain.mul_(d)
        _close(fwAD.unpack_dual(plain).tangent, _t())
        other = engine.ones(2, 3, dtype=F64)
        other += d * d
        _close(fwAD.unpack_dual(other).tangent, 2 * _x() * _t())


def test_copy_and_fill_and_zero():
    with fwAD.dual_level():
        d = fwAD.make_dual(_x(), _t())
        target = engine.zeros(2, 3, dtype=F64)
        target.copy_(d)
        _close(fwAD.unpack_dual(target).tangent, _t())
        target.fill_(2.0)
        _close(fwAD.unpack_dual(target).tangent, engine.zeros(2, 3, dtype=F64))
        d.zero_()
        _close(fwAD.unpack_dual(d).tangent, engine.zeros(2, 3, dtype=F64))


def test_non_differentiable_results_have_no_tangent():
    with fwAD.dual_level():
        d = fwAD.make_dual(_x(), _t())
        for out in (d > 0, d.long(), d.argmax(), d.detach(), d.isnan(), engine.zeros_like(d)):
            assert fwAD.unpack_dual(out).tangent is None
        values, indices = d.max(1)
        assert fwAD.unpack_dual(indices).tangent is None
        _close(fwAD.unpack_dual(values).tangent, engine.tensor([-1.0, 0.5], dtype=F64))
        assert d.shape == (2, 3) and d.dim() == 2 and not d.requires_grad


def test_tangents_are_computed_under_no_grad():
    with fwAD.dual_level(), engine.no_grad():
        d = fwAD.make_dual(_x().requires_grad_(), _t())
        y = d.sin()
        _close(fwAD.unpack_dual(y).tangent, _x().cos() * _t())
        assert not y.requires_grad and not fwAD.unpack_dual(y).tangent.requires_grad


def test_random_fills_give_zero_tangent():
    with fwAD.dual_level():
        d = fwAD.make_dual(_x(), _t()).clone()
        d.uniform_()
        _close(fwAD.unpack_dual(d).tangent, engine.zeros(2, 3, dtype=F64))


def test_printing_matches_pytorch_layout():
    with fwAD.dual_level():
        d = fwAD.make_dual(engine.tensor([1.0, 2.0]), engine.tensor([0.5, 0.0]))
        assert repr(d) == "tensor([1., 2.], tangent=tensor([0.5000, 0.0000]))"
    assert repr(d) == "tensor([1., 2.])"


# ---- nesting ---------------------------------------------------------------------------------


def test_reverse_over_forward_hessian_vector_product():
    x = _x().requires_grad_()
    v = _t()
    with fwAD.dual_level():
        y = (fwAD.make_dual(x, v) ** 3).sum()
        tangent = fwAD.unpack_dual(y).tangent
    (hvp,) = engine.autograd.grad(tangent, x)
    _close(hvp, 6 * _x() * v)


def test_reverse_over_forward_through_the_generic_rule():
    x = _x().requires_grad_()
    v = _t()
    with fwAD.dual_level():
        y = engine.logsumexp(fwAD.make_dual(x, v), 1).sum()
        tangent = fwAD.unpack_dual(y).tangent
    (g,) = engine.autograd.grad(tangent, x)
    # d/dx <softmax(x), v> row-wise = softmax * (v - <softmax, v>)
    p = _x().softmax(1)
    expected = p * (v - (p * v).sum(1, keepdim=True))
    _close(g, expected)


def test_forward_over_reverse_with_autograd_grad():
    x = _x().requires_grad_()
    v = _t()
    with fwAD.dual_level():
        d = fwAD.make_dual(x, v)
        (g,) = engine.autograd.grad((d.sin() * d).sum(), d, create_graph=True)
        tangent = fwAD.unpack_dual(g).tangent
    _close(tangent, (2 * _x().cos() - _x() * _x().sin()) * v)


def test_forward_over_forward():
    x, u, w = _x(), _t(), _t().flip(1)

    def inner(a):
        return engine.func.jvp(lambda b: (b.exp() * b).sum(), (a,), (u,))[1]

    _, second = engine.func.jvp(inner, (x,), (w,))
    xs = np.array(x.tolist())
    expected = np.sum(np.exp(xs) * (xs + 2) * np.array(u.tolist()) * np.array(w.tolist()))
    assert abs(second.item() - expected) < 1e-10


# ---- custom Functions ------------------------------------------------------------------------


class _Exp(Function):
    """exp with save_for_forward, in PyTorch's original style."""

    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_forward(y)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y

    @staticmethod
    def jvp(ctx, t):
        (y,) = ctx.saved_tensors
        return t * y


class _ExpSetup(Function):
    """exp in the new style: forward without ctx, setup_context."""

    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_forward(output)

    @staticmethod
    def jvp(ctx, t):
        (y,) = ctx.saved_tensors
        return t * y


class _ExpTutorial(Function):
    """exp in the tutorial's style: forward(ctx, x) plus setup_context."""

    @staticmethod
    def forward(ctx, x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.out = output

    @staticmethod
    def jvp(ctx, t):
        return t * ctx.out


@pytest.mark.parametrize("cls", [_Exp, _ExpSetup, _ExpTutorial])
def test_function_jvp_in_every_forward_style(cls):
    with fwAD.dual_level():
        y = cls.apply(fwAD.make_dual(_x(), _t()))
        _close(fwAD.unpack_dual(y).tangent, _t() * _x().exp())
    x = _x().requires_grad_()
    assert gradcheck(cls.apply, (x,), check_forward_ad=True, check_backward_ad=cls is _Exp)


def test_function_jvp_gets_zero_and_none_tangents():
    seen = []

    class Scale(Function):
        @staticmethod
        def forward(ctx, x, y, k):
            return x * y * k

        @staticmethod
        def jvp(ctx, tx, ty, tk):
            seen.append((tx, ty, tk))
            return tx * 2

    with fwAD.dual_level():
        Scale.apply(fwAD.make_dual(_x(), _t()), _x(), 2.0)
    tx, ty, tk = seen[0]
    _close(tx, _t())
    _close(ty, engine.zeros(2, 3, dtype=F64))
    assert tk is None


def test_function_mark_dirty_updates_the_input_tangent():
    class Double(Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def jvp(ctx, t):
            t.mul_(2)
            return t

    with fwAD.dual_level():
        t = _t()
        d = fwAD.make_dual(_x().clone(), t)
        out = Double.apply(d)
        _close(fwAD.unpack_dual(out).tangent, _t() * 2)
        _close(fwAD.unpack_dual(d).tangent, _t() * 2)


def test_function_jvp_errors():
    class Nothing(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    with fwAD.dual_level():
        with pytest.raises(NotImplementedError, match="You must implement the jvp function"):
            Nothing.apply(fwAD.make_dual(_x(), _t()))
    # Without a dual argument the Function never meets forward mode.
    assert Nothing.apply(_x()).shape == (2, 3)


def test_wrong_jvp_is_caught_by_gradcheck():
    class WrongSquare(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            return x * x

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return x * t  # the factor 2 is missing

    x = _x().requires_grad_()
    with pytest.raises(GradcheckError, match="Jacobian computed with forward mode mismatch"):
        gradcheck(WrongSquare.apply, (x,), check_forward_ad=True, check_backward_ad=False)
    assert not gradcheck(
        WrongSquare.apply,
        (x,),
        check_forward_ad=True,
        check_backward_ad=False,
        raise_exception=False,
    )


def test_gradgradcheck_forward_over_reverse():
    x = _x().requires_grad_()
    w = _t().requires_grad_()
    assert gradgradcheck(
        lambda a, b: (a.tanh() * b).sum(0) + a.exp().prod(1).sum(),
        (x, w),
        check_fwd_over_rev=True,
    )


# ---- in-place variants -----------------------------------------------------------------------


def _inplace_cases():
    from test_inplace_variants import BINARY, UNARY, _values

    for name, extra, domain in UNARY:
        yield pytest.param(name, extra, _values(domain), None, id=name)
    for name in BINARY:
        if name in ("igamma", "igammac"):
            continue  # no derivative in their first argument (nor in PyTorch)
        domain = "pos" if name in ("float_power", "xlogy") else "real"
        yield pytest.param(name, (), _values(domain), _values(domain, seed=1), id=f"{name}-binary")


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name,extra,values,other", list(_inplace_cases()))
def test_in_place_variant_carries_the_out_of_place_tangent(name, extra, values, other):
    x = engine.tensor(values, dtype=F64)
    t = engine.tensor(np.random.default_rng(5).uniform(-1, 1, values.shape), dtype=F64)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, t)
        args = extra if other is None else (fwAD.make_dual(engine.tensor(other), t.flip(0)),)
        expected = getattr(dual, name)(*args)
        if not expected.is_floating_point():
            expected_tangent = engine.zeros_like(x)  # the in-place result stays floating
        else:
            expected_tangent = fwAD.unpack_dual(expected).tangent
        written = dual.clone()
        getattr(written, name + "_")(*args)
        got = fwAD.unpack_dual(written).tangent
    if expected_tangent is None:
        expected_tangent = engine.zeros_like(x)
    np.testing.assert_allclose(
        np.array(got.tolist()), np.array(expected_tangent.tolist()), rtol=1e-12, atol=1e-12
    )


def test_function_transforms_require_setup_context():
    class OldStyle(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def jvp(ctx, t):
            return t * 2

    with pytest.raises(RuntimeError, match="it must override the setup_context staticmethod"):
        engine.func.jvp(OldStyle.apply, (_x(),), (_t(),))
    # The tutorial's style (forward(ctx, x) + setup_context) works under the transform.
    out, tangent = engine.func.jvp(_ExpTutorial.apply, (_x(),), (_t(),))
    _close(tangent, _t() * _x().exp())
    # forward_ad itself takes the original style.
    with fwAD.dual_level():
        y = OldStyle.apply(fwAD.make_dual(_x(), _t()))
        _close(fwAD.unpack_dual(y).tangent, _t() * 2)


@pytest.mark.parametrize(
    "name,f",
    [
        ("logsumexp", lambda a: engine.logsumexp(a, 0)),
        ("prod", lambda a: a.prod()),
        ("norm", lambda a: a.norm()),
        ("cumprod", lambda a: a.cumprod(0).sum()),
        ("inv", lambda a: engine.linalg.inv(engine.outer(a, a) + engine.eye(4, dtype=F64)).sum()),
    ],
)
def test_forward_over_forward_through_the_generic_rule(name, f):
    """Second directional derivatives of ops whose tangent comes from their backward: the inner
    level's autograd.grad calls carry the outer level's tangents (u^T H w against jacrev's)."""
    x = engine.tensor([0.3, -1.2, 2.0, 0.5], dtype=F64)
    u = engine.tensor([1.0, 0.0, 2.0, -1.0], dtype=F64)
    w = engine.tensor([0.5, 1.0, 0.0, 3.0], dtype=F64)
    _, second = engine.func.jvp(lambda a: engine.func.jvp(f, (a,), (u,))[1], (x,), (w,))
    hess = engine.func.jacrev(engine.func.jacrev(f))(x)
    assert abs(second.item() - (u @ hess @ w).item()) < 1e-9


def test_grad_with_respect_to_the_tangent_is_the_vjp():
    x = _x()
    v = _t().requires_grad_()
    with fwAD.dual_level():
        y = (fwAD.make_dual(x, v).sin() * 2).sum(1)
        tangent = fwAD.unpack_dual(y).tangent
    (g,) = engine.autograd.grad(tangent, v, engine.tensor([1.0, -2.0], dtype=F64))
    expected = 2 * x.cos() * engine.tensor([[1.0], [-2.0]], dtype=F64)
    _close(g, expected)


def test_a_failing_op_leaves_the_dual_tensor_intact():
    with fwAD.dual_level():
        d = fwAD.make_dual(_x(), _t())
        with pytest.raises(RuntimeError):
            d @ engine.ones(5, dtype=F64)
        _close(fwAD.unpack_dual(d).tangent, _t())
        _close(fwAD.unpack_dual(d * 2).tangent, _t() * 2)
