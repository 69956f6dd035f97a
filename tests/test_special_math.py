"""Special functions and the less common pointwise ops: values, dtypes and errors at domain edges
against PyTorch 2.13 (tests/fixtures/special_math.json, recorded by
tests/fixtures/record_special_math.py), and the behaviour around them (history, `out=`, dtype
dispatch). Values on random inputs and gradients are driven by the op table (tests/op_table.py).
"""

from __future__ import annotations

import json
import math
import pathlib

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck, gradgradcheck

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "special_math.json").read_text())
# float32 results of PyTorch are computed in float32 in places where engine rounds a double
# result once, so they agree to a few float32 ulps; float64 results agree to the accuracy of
# PyTorch's own approximations.
RTOL = {"float32": 1e-5, "float64": 1e-8}


def _check(got, expected, expr):
    if isinstance(expected, list):
        assert isinstance(got, tuple) and len(got) == len(expected), expr
        for g, e in zip(got, expected):
            _check(g, e, expr)
        return
    if "size" in expected:
        assert list(got) == expected["size"], expr
        return
    if "python" in expected:
        assert got == expected["python"], expr
        return
    assert isinstance(got, engine.Tensor), expr
    assert list(got.shape) == expected["shape"], expr
    assert str(got.dtype) == "torch." + expected["dtype"], f"{expr}: dtype {got.dtype}"
    values = np.asarray(got.reshape(-1).tolist(), dtype=np.float64)
    want = np.asarray(expected["values"], dtype=np.float64)
    if expected["dtype"] in RTOL:
        tol = RTOL[expected["dtype"]]
        np.testing.assert_allclose(
            values, want, rtol=tol, atol=1e-300, equal_nan=True, err_msg=expr
        )
        # Signed zeros and infinities match exactly.
        assert list(np.signbit(values[values == 0])) == list(np.signbit(want[values == 0])), expr
    else:
        np.testing.assert_array_equal(values, want, err_msg=expr)


@pytest.mark.parametrize("expr,expected", FIXTURE["cases"], ids=[c[0] for c in FIXTURE["cases"]])
def test_matches_pytorch(expr, expected):
    scope = {"lib": engine, "inf": math.inf, "nan": math.nan}
    if "error" in expected:
        with pytest.raises(Exception) as info:
            eval(expr, scope)
        assert type(info.value).__name__ == expected["error"], expr
        assert str(info.value) == expected["message"], expr
    else:
        _check(eval(expr, scope), expected, expr)


# ---- history and gradients beyond the op table ---------------------------------------------


def test_grad_fn_names_follow_pytorch():
    x = engine.tensor([0.5, 1.5], dtype=engine.float64, requires_grad=True)
    names = {
        "LgammaBackward0": engine.lgamma(x),
        "DigammaBackward0": x.digamma(),
        "PolygammaBackward0": engine.polygamma(2, x),
        "ErfinvBackward0": (x * 0.1).erfinv(),
        "I0Backward0": engine.i0(x),
        "SincBackward0": engine.sinc(x),
        "FracBackward0": x.frac(),
        "LogaddexpBackward0": engine.logaddexp(x, x),
        "FmaxBackward0": engine.fmax(x, x),
        "CopysignBackward1": engine.copysign(x, -1),
        "IgammaBackward0": engine.igamma(x, x),
        "NextafterBackward0": engine.nextafter(x, x),
        "FrexpBackward0": engine.frexp(x).mantissa,
        "NotImplemented": engine.heaviside(x, x),
        "HypotBackward0": engine.hypot(x, x),
        "XlogyBackward0": engine.xlogy(x, x),
        "XlogyBackward1": engine.xlogy(2.0, x),
        "XlogyBackward2": x.xlogy(2.0),
        "LogitBackward0": engine.logit(x * 0.5),
    }
    for name, out in names.items():
        assert out.grad_fn.name() == name
    assert not engine.signbit(x).requires_grad
    assert not engine.frexp(x).exponent.requires_grad


def test_missing_derivatives_raise_as_in_pytorch():
    a = engine.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(
        NotImplementedError, match="the derivative for 'igamma: input' is not implemented."
    ):
        engine.igamma(a, engine.tensor(0.5)).sum().backward()
    with pytest.raises(RuntimeError, match="derivative for aten::heaviside is not implemented"):
        engine.heaviside(a, engine.tensor(0.5)).sum().backward()
    # The other argument of igammac has a derivative, and nextafter records none (no error).
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    engine.igammac(engine.tensor([2.0, 3.0]), x).sum().backward()
    assert x.grad is not None
    engine.nextafter(a, engine.tensor(0.5)).sum().backward()


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: engine.polygamma(4, x),
        lambda x: engine._C._special_i1(x),
        lambda x: engine.igamma(engine.tensor(2.3, dtype=engine.float64), x),
        lambda x: engine.mvlgamma(x + 1, 2),
    ],
    ids=["polygamma4", "i1", "igamma_other", "mvlgamma"],
)
def test_higher_derivatives(fn):
    x = engine.tensor([0.7, 1.3, 2.2], dtype=engine.float64, requires_grad=True)
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


def test_out_argument():
    out = engine.empty(3)
    r = engine.lgamma(engine.tensor([1.0, 2.0, 3.0]), out=out)
    assert r is out and out.tolist() == pytest.approx([0.0, 0.0, math.log(2)])
    iout = engine.empty(2, dtype=engine.int64)
    engine.gcd(engine.tensor([4, 6]), engine.tensor([6, 9]), out=iout)
    assert iout.tolist() == [2, 3]
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long"):
        engine.erfc(engine.tensor([1.0]), out=engine.empty(1, dtype=engine.int64))


def test_kernels_on_strided_and_large_inputs():
    base = np.linspace(0.2, 5.0, 3 * 70000).reshape(3, 70000)
    x = engine.tensor(base).t()  # non-contiguous, large enough for the threaded path
    got = np.asarray(engine.lgamma(x).tolist())
    want = np.vectorize(math.lgamma)(base.T)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    shifted = engine.tensor([1, 2, 3]).expand(4, 3) << engine.tensor([[0], [1], [2], [3]])
    assert shifted.tolist() == [[1, 2, 3], [2, 4, 6], [4, 8, 12], [8, 16, 24]]


def test_shift_operators_and_reflected_forms():
    x = engine.tensor([1, 2, 3])
    assert (x << 1).tolist() == [2, 4, 6]
    assert (16 >> x).tolist() == [8, 4, 2]
    y = x.clone()
    y <<= 2
    assert y.tolist() == [4, 8, 12]
    y >>= engine.tensor([1, 1, 2])
    assert y.tolist() == [2, 4, 3]
    assert x.__lshift__("a") is NotImplemented


def test_xlogy_and_logit_gradients_at_their_edges():
    x = engine.tensor([0.0, 0.0, 1.0], requires_grad=True)
    y = engine.tensor([0.0, -1.0, 2.0], requires_grad=True)
    gx, gy = engine.autograd.grad(engine.xlogy(x, y).sum(), (x, y))
    assert gx.tolist() == pytest.approx([0.0, 0.0, math.log(2)])
    assert math.isnan(gy[0].item()) and gy[1].item() == 0.0 and gy[2].item() == 0.5
    p = engine.tensor([0.0, -0.5, 0.3, 1.5, 1.0], requires_grad=True)
    (g,) = engine.autograd.grad(engine.logit(p).sum(), (p,))
    got = g.tolist()
    assert got[0] == math.inf and math.isnan(got[1]) and math.isnan(got[3]) and got[4] == math.inf
    assert got[2] == pytest.approx(1 / 0.21, rel=1e-6)
    (g,) = engine.autograd.grad(engine.logit(p, 0.2).sum(), (p,))
    assert g.tolist() == pytest.approx([0.0, 0.0, 1 / 0.21, 0.0, 0.0], rel=1e-6)
    big = engine.tensor([1e200], dtype=engine.float64, requires_grad=True)
    (g,) = engine.autograd.grad(engine.hypot(big, big).sum(), (big,))
    assert g.item() == pytest.approx(math.sqrt(2))  # both arguments are big: 2 * x / hypot(x, x)
