"""engine.special against torch.special: every public name exists, values match a grid recorded
from PyTorch (tests/fixtures/record_special_namespace.py), gradients where PyTorch has them, none
where it has none, and PyTorch's errors."""

import json
import math
import pathlib

import engine
import numpy as np
import pytest
from engine import special

FIXTURE = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "special_namespace.json").read_text()
)

TORCH_SPECIAL_NAMES = [
    "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t",
    "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w", "digamma",
    "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc",
    "gammaln", "hermite_polynomial_h", "hermite_polynomial_he", "i0", "i0e", "i1", "i1e",
    "laguerre_polynomial_l", "legendre_polynomial_p", "log1p", "log_ndtr", "log_softmax", "logit",
    "logsumexp", "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
    "modified_bessel_k1", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round",
    "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w", "sinc", "softmax", "spherical_bessel_j0", "xlog1py", "xlogy",
    "zeta",
]  # fmt: skip

# Relative tolerance against PyTorch; absolute floor for values near a function's zeros.
RTOL, ATOL = 1e-7, 1e-12


def decode(values):
    return np.array([float(v) for v in values])


def f64(values):
    return engine.tensor(values, dtype=engine.float64)


def assert_matches(got, want):
    np.testing.assert_allclose(np.array(got.tolist()), want, rtol=RTOL, atol=ATOL, equal_nan=True)


@pytest.mark.parametrize("name", TORCH_SPECIAL_NAMES)
def test_every_name_exists(name):
    assert callable(getattr(special, name))
    assert name in special.__all__


def test_lazy_submodule():
    assert engine.special is special


@pytest.mark.parametrize("name", sorted(FIXTURE["unary"]))
def test_unary_values_match_pytorch(name):
    grid = f64(decode(FIXTURE["grid"]))
    assert_matches(getattr(special, name)(grid), decode(FIXTURE["unary"][name]))


def test_ndtri_values_match_pytorch():
    assert_matches(special.ndtri(f64(FIXTURE["probabilities"])), decode(FIXTURE["ndtri"]))


@pytest.mark.parametrize("name", sorted(FIXTURE["polynomials"]))
def test_polynomial_values_match_pytorch(name):
    x = f64(FIXTURE["poly_x"]).unsqueeze(1)
    n = f64(FIXTURE["poly_n"])
    want = np.array([decode(row) for row in FIXTURE["polynomials"][name]])
    assert_matches(getattr(special, name)(x, n), want)


def test_zeta_values_match_pytorch():
    x = f64(FIXTURE["zeta_x"]).unsqueeze(1)
    q = f64(FIXTURE["zeta_q"])
    assert_matches(special.zeta(x, q), np.array([decode(row) for row in FIXTURE["zeta"]]))


def test_xlog1py_values_match_pytorch():
    x = f64([0.0, 1.0, -0.5, 2.0, 0.0])
    y = f64([math.nan, 0.5, 3.0, -0.9, -1.0])
    assert_matches(special.xlog1py(x, y), decode(FIXTURE["xlog1py"]))


def test_large_arguments_do_not_overflow():
    big = f64([800.0, 1e5, 1e300])
    assert np.all(np.isfinite(special.i0e(big).tolist()))
    assert np.all(np.isfinite(special.i1e(big).tolist()))
    assert np.all(np.isfinite(special.erfcx(big).tolist()))
    assert math.isfinite(special.log_ndtr(f64([-1e4])).item())
    np.testing.assert_allclose(special.erfcx(f64([1e5])).item(), 1 / (1e5 * math.sqrt(math.pi)))


@pytest.mark.parametrize(
    "name, points",
    [
        ("ndtr", [-3.0, -0.5, 0.3, 2.5]),
        ("log_ndtr", [-40.0, -3.0, -0.5, 0.3, 2.5]),
        ("ndtri", [0.001, 0.2, 0.49, 0.7, 0.99]),
        ("erfcx", [-3.0, -0.5, 0.3, 1.5, 2.5, 30.0]),
        ("i0e", [-3.0, -0.5, 0.3, 1.5, 30.0]),
        ("i1e", [-3.0, -0.5, 0.3, 1.5, 30.0]),
        ("i1", [-3.0, -0.5, 0.3, 1.5]),
        ("entr", [0.1, 0.5, 3.0]),
    ],
)
def test_gradients(name, points):
    x = f64(points).requires_grad_()
    fn = getattr(special, name)
    assert engine.autograd.gradcheck(fn, (x,))
    assert engine.autograd.gradgradcheck(fn, (x,))


def test_xlog1py_gradient():
    x = f64([0.5, 2.0]).requires_grad_()
    y = f64([0.3, 4.0]).requires_grad_()
    assert engine.autograd.gradcheck(special.xlog1py, (x, y))


def test_zeta_gradient_in_q_only():
    q = f64([0.5, 2.0]).requires_grad_()
    assert engine.autograd.gradcheck(lambda q: special.zeta(f64([2.0, 3.0]), q), (q,))
    x = f64([2.0, 3.0]).requires_grad_()
    with pytest.raises(NotImplementedError, match="the derivative for 'zeta' is not implemented."):
        special.zeta(x, q).sum().backward()


@pytest.mark.parametrize(
    "name", ["bessel_j0", "airy_ai", "modified_bessel_k0", "spherical_bessel_j0"]
)
def test_no_gradient_families(name):
    x = f64([0.5, 2.0]).requires_grad_()
    assert not getattr(special, name)(x).requires_grad
    assert not special.chebyshev_polynomial_t(x, 3).requires_grad


def test_integer_inputs_promote_to_default_float():
    ints = engine.tensor([1, 2])
    for name in ["ndtr", "erfcx", "i0e", "i1", "bessel_j0", "airy_ai", "entr", "log_ndtr"]:
        assert getattr(special, name)(ints).dtype == engine.float32
    assert special.zeta(2, ints).dtype == engine.float32
    assert special.hermite_polynomial_h(ints, ints).dtype == engine.float32
    assert special.chebyshev_polynomial_t(f64([0.5]), 3).dtype == engine.float64


def test_polynomial_number_arguments():
    assert special.legendre_polynomial_p(0.5, f64([2.0])).item() == pytest.approx(-0.125)
    assert special.chebyshev_polynomial_t(f64([0.5]), 3.5).item() == pytest.approx(-1.0)


def test_out_argument():
    out = engine.empty(0, dtype=engine.float64)
    result = special.ndtr(f64([0.0, 1.0]), out=out)
    assert result is out
    np.testing.assert_allclose(out.tolist(), [0.5, 0.8413447460685429])


def test_errors():
    with pytest.raises(TypeError, match="special_chebyshev_polynomial_t"):
        special.chebyshev_polynomial_t(0.5, 3)
    with pytest.raises(TypeError, match=r"\(Number self, Tensor other, \*, Tensor out = None\)"):
        special.zeta(2.0, 1.0)
    with pytest.raises(TypeError, match=r"\(Number x, Tensor n, \*, Tensor out = None\)"):
        special.legendre_polynomial_p(2.0, 1.0)
    with pytest.raises(
        TypeError,
        match=r"special_ndtr\(\): argument 'input' \(position 1\) must be Tensor, not list",
    ):
        special.ndtr([0.5])
    with pytest.raises(TypeError, match="special_bessel_j0"):
        special.bessel_j0(0.5)
    with pytest.raises(TypeError, match="special_xlog1py"):
        special.xlog1py(1.0, 2.0)


def test_polynomial_degrees_outside_int64_give_zero():
    degrees = f64([math.inf, -math.inf, math.nan, 1e30])
    for name in ["chebyshev_polynomial_u", "legendre_polynomial_p", "hermite_polynomial_h"]:
        assert getattr(special, name)(f64([0.3]), degrees).tolist() == [0.0] * 4


def test_chebyshev_huge_degree_inside_uses_closed_form():
    # T_n(x) = cos(n acos x) inside (-1, 1): a degree of 1e9 costs no loop.
    value = special.chebyshev_polynomial_t(f64([0.3, 1.0, -1.0]), 1e9)
    np.testing.assert_allclose(value.tolist(), [math.cos(1e9 * math.acos(0.3)), 1.0, 1.0])
