"""engine.func.vmap: the cases of tests/fixtures/vmap_cases.py against what PyTorch recorded
(values, dtypes, shapes, exception types and messages), and the behaviour PyTorch's
test/functorch/test_vmap.py checks: nesting, in_dims/out_dims trees, randomness modes, in-place
ops, composition with grad/jacrev, custom Functions, the per-sample fallback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import engine
import numpy as np
import pytest
from engine.autograd import Function
from engine.func import grad, vmap

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from vmap_cases import CASES  # noqa: E402

RECORDED = json.loads((FIXTURES / "vmap.json").read_text())


def _leaves(value):
    if isinstance(value, engine.Tensor):
        return [value]
    if isinstance(value, dict):
        return [leaf for key in sorted(value) for leaf in _leaves(value[key])]
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_pytorch(name):
    expected = RECORDED[name]
    case = CASES[name]
    if "error" in expected:
        with pytest.raises(Exception) as info:
            case(engine, vmap)
        assert type(info.value).__name__ == expected["error"]
        assert str(info.value) == expected["message"]
        return
    leaves = _leaves(case(engine, vmap))
    assert len(leaves) == len(expected["result"])
    for got, want in zip(leaves, expected["result"]):
        assert isinstance(got, engine.Tensor)
        assert list(got.shape) == want["shape"]
        assert str(got.dtype).replace("engine.", "").replace("torch.", "") == want["dtype"]
        np.testing.assert_allclose(
            got.detach().double().reshape(-1).numpy(), want["values"], rtol=1e-10, atol=1e-12
        )


# ---- behaviour ------------------------------------------------------------------------------------


def test_logical_metadata_inside():
    seen = {}

    def f(a):
        seen.update(shape=tuple(a.shape), dim=a.dim(), dtype=a.dtype, numel=a.numel())
        return a

    vmap(f, in_dims=1)(engine.zeros(2, 5, 3))
    assert seen == {"shape": (2, 3), "dim": 2, "dtype": engine.float32, "numel": 6}


def test_returns_input_unchanged_and_moves_batch():
    x = engine.arange(12.0).reshape(3, 4)
    assert engine.equal(vmap(lambda a: a)(x), x)
    assert engine.equal(vmap(lambda a: a, in_dims=1, out_dims=1)(x), x)
    assert engine.equal(vmap(lambda a: a, in_dims=1)(x), x.t())


def test_triple_nesting_matches_broadcast():
    a, b, c = engine.randn(2), engine.randn(3), engine.randn(4)
    f = vmap(
        vmap(vmap(lambda x, y, z: x * y + z, (None, None, 0)), (None, 0, None)), (0, None, None)
    )
    expected = a[:, None, None] * b[None, :, None] + c
    assert engine.allclose(f(a, b, c), expected)


def test_batch_size_zero():
    out = vmap(engine.sin)(engine.zeros(0, 3))
    assert tuple(out.shape) == (0, 3)


def test_chunk_size_gives_same_result():
    x = engine.randn(7, 3)
    for chunk in (1, 2, 3, 7, 100):
        assert engine.allclose(vmap(lambda a: a.sum() * a, chunk_size=chunk)(x), x.sum(1, True) * x)


def test_randomness_different_and_same():
    x = engine.zeros(4, 1000)
    different = vmap(lambda a: a.clone().uniform_(), randomness="different")(x)
    assert not engine.equal(different[0], different[1])
    same = vmap(lambda a: a.clone().normal_(), randomness="same")(x)
    assert all(engine.equal(same[0], same[i]) for i in range(4))


def test_inplace_on_batched_self_writes_physical():
    x = engine.zeros(3, 4)
    y = engine.arange(4.0)

    def f(a, b):
        out = a.add_(b)
        assert out is a
        return a

    vmap(f, in_dims=(0, None))(x, y)
    assert engine.equal(x, y.expand(3, 4))


def test_requires_grad_and_backward_through_vmap():
    x = engine.randn(3, 4, requires_grad=True)
    w = engine.randn(4, 2, requires_grad=True)
    out = vmap(lambda a: (a @ w).tanh().sum())(x)
    assert out.requires_grad
    out.sum().backward()
    ref_x = x.detach().clone().requires_grad_()
    ref_w = w.detach().clone().requires_grad_()
    (ref_x @ ref_w).tanh().sum().backward()
    assert engine.allclose(x.grad, ref_x.grad)
    assert engine.allclose(w.grad, ref_w.grad)


def test_per_sample_gradients_against_loop():
    w = engine.randn(4, 2, dtype=engine.float64)
    xs = engine.randn(5, 3, 4, dtype=engine.float64)

    def loss(weight, x):
        return (x @ weight).sin().pow(2).mean()

    batched = vmap(grad(loss), in_dims=(None, 0))(w, xs)
    looped = engine.stack([grad(loss)(w, xs[i]) for i in range(5)])
    assert engine.allclose(batched, looped)


def test_gradgrad_through_vmap():
    x = engine.randn(3, 4, dtype=engine.float64, requires_grad=True)
    assert engine.autograd.gradcheck(lambda a: vmap(lambda r: r.sin() @ r)(a), (x,))
    assert engine.autograd.gradgradcheck(lambda a: vmap(lambda r: r.sin() @ r)(a), (x,))


def test_fallback_op_is_correct_and_noted(capfd):
    from engine.func import _batching_rules

    rule = _batching_rules.RULES.pop("cumsum")
    _batching_rules._warned.discard("cumsum")
    try:
        x = engine.randn(3, 5)
        assert engine.allclose(vmap(lambda a: a.cumsum(0))(x), x.cumsum(1))
    finally:
        _batching_rules.RULES["cumsum"] = rule
    err = capfd.readouterr().err
    assert (
        "There is a performance drop because we have not yet implemented the batching rule for cumsum"
        in err
    )


def test_engine_vmap_is_func_vmap():
    assert engine.vmap is engine.func.vmap


def test_non_batchable_python_op_says_so():
    with pytest.raises(RuntimeError, match="computed by engine from the tensor's values"):
        vmap(lambda a: engine.histogram(a, bins=3).hist)(engine.randn(3, 4))


# ---- custom Functions ---------------------------------------------------------------------------


class _ExpNew(Function):
    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y


class _ExpGenerated(_ExpNew):
    generate_vmap_rule = True


class _PowerTutorial(Function):
    """The tutorial's style: forward(ctx, ...) and setup_context both defined."""

    generate_vmap_rule = True

    @staticmethod
    def forward(ctx, x, exponent):
        return x**exponent

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, exponent = inputs
        ctx.save_for_backward(x)
        ctx.exponent = exponent

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * ctx.exponent * x ** (ctx.exponent - 1), None


class _ExpCustomRule(_ExpNew):
    calls = []

    @staticmethod
    def vmap(info, in_dims, x):
        _ExpCustomRule.calls.append((info.batch_size, info.randomness, in_dims))
        return _ExpNew.apply(x), in_dims[0]


def test_function_without_setup_context_is_refused():
    class Old(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    with pytest.raises(RuntimeError, match="it must override the setup_context staticmethod"):
        vmap(Old.apply)(engine.randn(3))


def test_function_without_vmap_support_is_refused():
    with pytest.raises(RuntimeError, match="You tried to vmap over _ExpNew, but it does not have"):
        vmap(_ExpNew.apply)(engine.randn(3))


def test_function_with_both_rules_is_refused():
    class Both(_ExpCustomRule):
        generate_vmap_rule = True

    with pytest.raises(RuntimeError, match="has both generate_vmap_rule=True and an overridden"):
        vmap(Both.apply)(engine.randn(3))


def test_function_vmap_staticmethod():
    _ExpCustomRule.calls.clear()
    # PyTorch shows the staticmethod the batch where in_dims put it (dimension 1 here).
    x = engine.randn(3, 4)
    out = vmap(_ExpCustomRule.apply, in_dims=1)(x)
    assert engine.allclose(out, x.exp().t())
    assert _ExpCustomRule.calls == [(4, "error", (1,))]


def test_function_vmap_staticmethod_bad_returns():
    class NoTuple(_ExpNew):
        @staticmethod
        def vmap(info, in_dims, x):
            return x

    class BadDims(_ExpNew):
        @staticmethod
        def vmap(info, in_dims, x):
            return x, (0, 0)

    with pytest.raises(RuntimeError, match="Expected the vmap staticmethod to have two returns"):
        vmap(NoTuple.apply)(engine.randn(3))
    with pytest.raises(RuntimeError, match="returned an incompatible \\(output, out_dims\\) tuple"):
        vmap(BadDims.apply)(engine.randn(3))


def test_generated_rule_forward_and_gradients():
    x = engine.randn(3, 4, dtype=engine.float64)
    assert engine.allclose(vmap(_ExpGenerated.apply)(x), x.exp())
    assert engine.allclose(vmap(grad(lambda a: _ExpGenerated.apply(a).sum()))(x), x.exp())
    assert engine.allclose(grad(lambda a: vmap(_ExpGenerated.apply)(a).sum())(x), x.exp())
    w = engine.randn(4, dtype=engine.float64, requires_grad=True)
    out = vmap(lambda a, b: _ExpGenerated.apply(a * b), in_dims=(0, None))(x, w)
    out.sum().backward()
    assert engine.allclose(w.grad, ((x * w).exp() * x).sum(0))


def test_generated_rule_tutorial_style():
    x = engine.randn(3, 4, dtype=engine.float64, requires_grad=True)
    out = vmap(lambda a: _PowerTutorial.apply(a, 3))(x)
    assert engine.allclose(out, x**3)
    out.sum().backward()
    assert engine.allclose(x.grad, 3 * x.detach() ** 2)
    assert engine.autograd.gradcheck(lambda a: vmap(lambda r: _PowerTutorial.apply(r, 2))(a), (x,))


def test_per_sample_gradients_with_paths_outside_vmapped_ops():
    # w reaches the loss through ops vmap sees (with batched x) and through ops on w alone.
    w = engine.randn(4, dtype=engine.float64)
    xs = engine.randn(5, 4, dtype=engine.float64)

    def only_outside(weight, x):
        return (x * (weight * 2)).sum()

    def both(weight, x):
        return (x * weight).sum() * (weight * 2).sin().sum() + (x * weight).cos().sum()

    for f in (only_outside, both):
        batched = vmap(grad(f), in_dims=(None, 0))(w, xs)
        looped = engine.stack([grad(f)(w, xs[i]) for i in range(5)])
        assert engine.allclose(batched, looped)


def test_second_derivative_through_per_sample_gradients():
    w = engine.randn(4, dtype=engine.float64)
    xs = engine.randn(3, 4, dtype=engine.float64)

    def f(weight, x):
        return (x * weight).sin().sum() * weight.pow(2).sum()

    outer = grad(lambda ww: vmap(grad(f), in_dims=(None, 0))(ww, xs).sum())(w)
    looped = sum(grad(lambda ww, x=x: grad(f)(ww, x).sum())(w) for x in xs.unbind(0))
    assert engine.allclose(outer, looped)


def test_composes_with_forward_mode():
    jvp = pytest.importorskip("engine.func").__dict__.get("jvp")
    if jvp is None:
        pytest.skip("forward mode absent")
    x = engine.randn(3, 4, dtype=engine.float64)
    t = engine.randn(3, 4, dtype=engine.float64)
    _, tangent = vmap(lambda a, b: jvp(engine.sin, (a,), (b,)))(x, t)
    assert engine.allclose(tangent, x.cos() * t)
    _, tangent = jvp(vmap(engine.sin), (x,), (t,))
    assert engine.allclose(tangent, x.cos() * t)
    jacobians = vmap(engine.func.jacfwd(engine.sin))(x)
    assert engine.allclose(jacobians, engine.diag_embed(x.cos()))


def test_view_as_a_batched_tensor():
    x, y = engine.randn(3, 4), engine.randn(3, 2, 2)
    assert engine.equal(vmap(lambda a, b: a.view_as(b))(x, y), x.view(3, 2, 2))


def test_convolution_and_pooling_batch_into_one_call():
    import engine.nn.functional as F

    w = engine.randn(4, 3, 3, 3, dtype=engine.float64)
    for x in (
        engine.randn(5, 3, 8, 8, dtype=engine.float64),
        engine.randn(5, 2, 3, 8, 8, dtype=engine.float64),
    ):

        def f(a):
            return F.avg_pool2d(F.max_pool2d(F.conv2d(a, w, padding=1), 2), 2)

        expected = engine.stack([f(x[i]) for i in range(5)])
        assert engine.allclose(vmap(f)(x), expected)


def test_batched_linear_algebra_drivers():
    a = engine.randn(4, 3, 3, dtype=engine.float64)
    spd = a @ a.mT + 3 * engine.eye(3, dtype=engine.float64)
    got = vmap(engine.linalg.cholesky)(spd)
    assert engine.allclose(got, engine.linalg.cholesky(spd))
    got = vmap(lambda m, b: engine.linalg.solve(m, b), in_dims=(0, None))(
        spd, engine.ones(3, dtype=engine.float64)
    )
    assert engine.allclose(got, engine.linalg.solve(spd, engine.ones(4, 3, dtype=engine.float64)))
