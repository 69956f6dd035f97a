"""out= of add / sub / mul / div (and of exp / log / sqrt / sin / cos / tanh / sigmoid) written
straight into out's memory, and add / sub with alpha in
one fused pass (fresh, in place and out=): values against NumPy in float64 on every layout the
direct path takes (contiguous, strided out, broadcast, out aliasing an input, dtype promotion,
integer and bool alpha), and the fallbacks that keep PyTorch's out= rules."""

import os
import warnings

import engine
import numpy as np
import pytest

F32_TOL = dict(rtol=1e-6, atol=1e-6)


def np64(t):
    return t.numpy().astype(np.float64)


def data(*shape, seed=0, dtype=engine.float32):
    g = np.random.default_rng(seed + sum(shape))
    return engine.tensor(g.standard_normal(shape)).to(dtype)


OPS = {
    "add": (lambda a, b, **k: engine.add(a, b, **k), lambda x, y: x + y),
    "sub": (lambda a, b, **k: engine.sub(a, b, **k), lambda x, y: x - y),
    "mul": (lambda a, b, **k: engine.mul(a, b, **k), lambda x, y: x * y),
    "div": (lambda a, b, **k: engine.div(a, b, **k), lambda x, y: x / y),
}


@pytest.mark.parametrize("name", sorted(OPS))
@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 33, 70001])
def test_contiguous_out_is_written_and_returned(name, n):
    fn, ref = OPS[name]
    a, b = data(n, seed=1), data(n, seed=2) + 3.0
    out = engine.empty(n)
    version = out._version
    r = fn(a, b, out=out)
    assert r is out
    assert out._version == version + 1
    np.testing.assert_allclose(np64(out), ref(np64(a), np64(b)), **F32_TOL)


@pytest.mark.parametrize("name", sorted(OPS))
def test_strided_out_keeps_its_layout(name):
    fn, ref = OPS[name]
    a, b = data(5, 6, seed=3), data(5, 6, seed=4) + 3.0
    base = engine.zeros(6, 10)
    out = base[:, ::2].t()  # (5, 6), neither contiguous nor dense
    fn(a, b, out=out)
    np.testing.assert_allclose(np64(out), ref(np64(a), np64(b)), **F32_TOL)
    np.testing.assert_array_equal(base[:, 1::2].numpy(), np.zeros((6, 5), np.float32))


@pytest.mark.parametrize("name", sorted(OPS))
def test_broadcast_operands(name):
    fn, ref = OPS[name]
    a, b = data(4, 1, 3, seed=5), data(5, 1, seed=6) + 3.0
    out = engine.empty(4, 5, 3)
    fn(a, b, out=out)
    np.testing.assert_allclose(np64(out), ref(np64(a), np64(b)), **F32_TOL)
    out = engine.empty(4, 1, 3)
    fn(a, 2.5, out=out)
    np.testing.assert_allclose(np64(out), ref(np64(a), 2.5), **F32_TOL)


@pytest.mark.parametrize("name", sorted(OPS))
def test_out_aliasing_an_input(name):
    fn, ref = OPS[name]
    a, b = data(300, seed=7), data(300, seed=8) + 3.0
    expected = ref(np64(a), np64(b))
    fn(a, b, out=a)
    np.testing.assert_allclose(np64(a), expected, **F32_TOL)
    a, b = data(300, seed=7), data(300, seed=8) + 3.0
    expected = ref(np64(a), np64(b))
    fn(a, b, out=b)
    np.testing.assert_allclose(np64(b), expected, **F32_TOL)


def test_out_that_is_the_input_transposed_is_refused():
    a = data(4, 4, seed=9)
    with pytest.raises(RuntimeError, match="single memory location"):
        engine.mul(a, a.t(), out=a)


def test_partial_overlap_is_refused():
    a = data(10, seed=10)
    with pytest.raises(RuntimeError, match="single memory location"):
        engine.mul(a[:8], a[:8], out=a[2:])


@pytest.mark.parametrize(
    "da, db, dout",
    [
        (engine.int32, engine.float32, engine.float32),
        (engine.float32, engine.float64, engine.float64),
        (engine.int64, engine.int32, engine.int64),
        (engine.float32, engine.float32, engine.float64),  # out wider than the result: cast on copy
    ],
)
@pytest.mark.parametrize("name", ["add", "sub", "mul"])
def test_dtype_promotion(name, da, db, dout):
    fn, ref = OPS[name]
    a = engine.arange(1, 13).reshape(3, 4).to(da)
    b = (engine.arange(12).reshape(3, 4) - 5).to(db)
    out = engine.empty(3, 4, dtype=dout)
    fn(a, b, out=out)
    assert out.dtype == dout
    np.testing.assert_allclose(np64(out), ref(np64(a), np64(b)), rtol=1e-6)


def test_integer_division_into_a_float_out():
    a, b = engine.arange(1, 7), engine.tensor([2, 4, 3, 8, 5, 7])
    out = engine.empty(6)
    engine.div(a, b, out=out)
    np.testing.assert_allclose(np64(out), np64(a) / np64(b), rtol=1e-6)


def test_out_rules_kept():
    a, b = data(4, seed=11), data(4, seed=12)
    with pytest.raises(
        RuntimeError, match="result type Float can't be cast to the desired output type Long"
    ):
        engine.mul(a, b, out=engine.empty(4, dtype=engine.int64))
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        engine.mul(a.detach().requires_grad_(), b, out=engine.empty(4))
    out = engine.empty(2, 2)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        engine.add(a.detach(), b, out=out)
    assert out.shape == (4,) and any("resized" in str(x.message) for x in w)
    np.testing.assert_allclose(np64(out), np64(a) + np64(b), **F32_TOL)
    with engine.no_grad():
        out = engine.empty(4)
        engine.mul(a, b, out=out)
    assert not out.requires_grad
    np.testing.assert_allclose(np64(out), np64(a) * np64(b), **F32_TOL)


# ---- alpha, fused ----

ALPHA_FLOATS = [-0.1, 0.5, 3.0, -1.0, 0.0]


@pytest.mark.parametrize("alpha", ALPHA_FLOATS)
@pytest.mark.parametrize("dtype", [engine.float32, engine.float64])
@pytest.mark.parametrize("n", [1, 9, 100003])
def test_alpha_fresh_inplace_and_out(alpha, dtype, n):
    a, b = data(n, seed=13, dtype=dtype), data(n, seed=14, dtype=dtype)
    tol = F32_TOL if dtype == engine.float32 else dict(rtol=1e-13, atol=1e-13)
    add = np64(a) + alpha * np64(b)
    sub = np64(a) - alpha * np64(b)
    np.testing.assert_allclose(np64(engine.add(a, b, alpha=alpha)), add, **tol)
    np.testing.assert_allclose(np64(engine.sub(a, b, alpha=alpha)), sub, **tol)
    np.testing.assert_allclose(np64(a.clone().add_(b, alpha=alpha)), add, **tol)
    np.testing.assert_allclose(np64(a.clone().sub_(b, alpha=alpha)), sub, **tol)
    out = engine.empty(n, dtype=dtype)
    np.testing.assert_allclose(np64(engine.add(a, b, alpha=alpha, out=out)), add, **tol)
    np.testing.assert_allclose(np64(engine.sub(a, b, alpha=alpha, out=out)), sub, **tol)
    w = a.clone()
    engine.add(w, b, alpha=alpha, out=w)
    np.testing.assert_allclose(np64(w), add, **tol)


@pytest.mark.skipif(
    os.environ.get("ENGINE_SIMD") == "scalar",
    reason="the portable copy has no fused multiply-add: it rounds the product and the sum",
)
def test_alpha_rounds_once_in_float32():
    # a + alpha * b with alpha rounded to float32 and one rounding of the whole (PyTorch's FMA):
    # float64 holds the exact product, so rounding its sum once is within one float32 ulp.
    a, b = data(4099, seed=15), data(4099, seed=16)
    exact = np64(a) + np.float64(np.float32(-0.1)) * np64(b)
    got = engine.add(a, b, alpha=-0.1).numpy()
    ulp = np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)
    assert np.all(np.abs(got - exact) <= ulp)


def test_alpha_strided_and_broadcast():
    a = data(6, 8, seed=17).t()
    b = data(6, 1, seed=18).t()
    expected = np64(a) + 0.25 * np64(b)
    np.testing.assert_allclose(np64(engine.add(a, b, alpha=0.25)), expected, **F32_TOL)
    w = a.clone()
    w.add_(b, alpha=0.25)
    np.testing.assert_allclose(np64(w), expected, **F32_TOL)
    out = engine.zeros(8, 12)[:, ::2]
    engine.sub(a, b, alpha=-0.25, out=out)
    np.testing.assert_allclose(np64(out), expected, **F32_TOL)


@pytest.mark.parametrize(
    "dtype", [engine.int64, engine.int32, engine.int16, engine.int8, engine.uint8]
)
def test_integer_alpha(dtype):
    a = engine.arange(-20, 20).to(dtype) if dtype != engine.uint8 else engine.arange(40).to(dtype)
    b = engine.arange(40).flip(0).to(dtype)
    kind = a.numpy().dtype
    for alpha in (3, -2, 0, 1000):
        wrap = lambda x: x.astype(kind)  # noqa: E731 (NumPy's integer casts wrap, as the kernels do)
        x, y = a.numpy().astype(np.int64), b.numpy().astype(np.int64)
        np.testing.assert_array_equal(engine.add(a, b, alpha=alpha).numpy(), wrap(x + alpha * y))
        np.testing.assert_array_equal(engine.sub(a, b, alpha=alpha).numpy(), wrap(x - alpha * y))
        np.testing.assert_array_equal(a.clone().add_(b, alpha=alpha).numpy(), wrap(x + alpha * y))
        out = engine.empty(40, dtype=dtype)
        np.testing.assert_array_equal(
            engine.sub(a, b, alpha=alpha, out=out).numpy(), wrap(x - alpha * y)
        )


def test_bool_alpha():
    a = engine.tensor([True, False, True, False])
    b = engine.tensor([True, True, False, False])
    assert engine.add(a, b, alpha=True).tolist() == [True, True, True, False]
    assert engine.add(a, b, alpha=False).tolist() == [True, False, True, False]
    assert a.clone().add_(b, alpha=True).tolist() == [True, True, True, False]


def test_alpha_errors():
    i = engine.arange(4)
    with pytest.raises(
        RuntimeError,
        match="For integral input tensors, argument alpha must not be a floating point number.",
    ):
        engine.add(i, i, alpha=0.5)
    with pytest.raises(
        RuntimeError,
        match="For integral input tensors, argument alpha must not be a floating point number.",
    ):
        i.clone().sub_(i, alpha=1.5)
    with pytest.raises(RuntimeError, match="Boolean alpha only supported for Boolean results."):
        engine.add(i, i, alpha=True)
    with pytest.raises(
        RuntimeError, match="result type Float can't be cast to the desired output type Long"
    ):
        engine.add(i, engine.ones(4), alpha=2, out=engine.empty(4, dtype=engine.int64))


def test_alpha_gradients():
    a = data(5, seed=19, dtype=engine.float64).requires_grad_()
    b = data(5, seed=20, dtype=engine.float64).requires_grad_()
    (engine.add(a, b, alpha=-0.3).sum() + engine.sub(a, b, alpha=2.0).sum()).backward()
    np.testing.assert_allclose(a.grad.numpy(), np.full(5, 2.0))
    np.testing.assert_allclose(b.grad.numpy(), np.full(5, -2.3))


def test_half_alpha_keeps_its_rounding():
    a = data(257, seed=21, dtype=engine.float16)
    b = data(257, seed=22, dtype=engine.float16)
    fresh = engine.add(a, b, alpha=0.1)
    assert a.clone().add_(b, alpha=0.1).tolist() == fresh.tolist()
    np.testing.assert_allclose(np64(fresh), np64(a) + 0.1 * np64(b), rtol=2e-3, atol=2e-3)


UNARY = {
    "exp": np.exp,
    "log": np.log,
    "sqrt": np.sqrt,
    "sin": np.sin,
    "cos": np.cos,
    "tanh": np.tanh,
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", [engine.float32, engine.float64])
def test_unary_functions_write_into_out(name, dtype):
    # The float functions' out= also takes the direct path: contiguous, strided, the input itself.
    x = data(300, 7, seed=3, dtype=dtype).abs() + 0.25
    want = UNARY[name](np64(x))
    fn = getattr(engine, name)
    out = engine.empty(300, 7, dtype=dtype)
    version = out._version
    assert fn(x, out=out) is out and out._version == version + 1
    np.testing.assert_allclose(np64(out), want, **F32_TOL)
    strided = engine.empty(7, 300, dtype=dtype).t()
    fn(x, out=strided)
    assert strided.stride() == (1, 300)
    np.testing.assert_allclose(np64(strided), want, **F32_TOL)
    same = x.clone()
    fn(same, out=same)
    np.testing.assert_allclose(np64(same), want, **F32_TOL)


def test_unary_out_fallbacks_keep_the_rules():
    x = data(4, 5)
    wider = engine.empty(4, 5, dtype=engine.float64)  # another dtype: computed, then cast
    engine.exp(x, out=wider)
    np.testing.assert_allclose(np64(wider), np.exp(np64(x)), **F32_TOL)
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long"):
        engine.exp(x, out=engine.empty(4, 5, dtype=engine.int64))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        resized = engine.exp(x, out=engine.empty(3))
    assert resized.shape == (4, 5) and any("resized" in str(w.message) for w in caught)
    ints = engine.arange(6).reshape(2, 3)  # integers compute in the default dtype
    np.testing.assert_allclose(
        np64(engine.exp(ints, out=engine.empty(2, 3))),
        np.exp(np.arange(6.0)).reshape(2, 3),
        **F32_TOL,
    )
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        engine.exp(x.clone().requires_grad_(), out=engine.empty(4, 5))
