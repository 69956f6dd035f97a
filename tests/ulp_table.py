"""The float32 transcendental functions, their input domains and float64 references: one table
shared by tests/test_ulp.py (a few thousand inputs per function, edge values included) and
bench/ulp.py (10^6 inputs per function, every instruction-set copy, the table in bench/README.md).

Error is measured in units in the last place of the float64 reference rounded to float32: a
correctly rounded result is within 0.5 ulp. Where the reference overflows or underflows float32,
or is NaN or infinite, the result must match it exactly (signs of zero aside)."""

from __future__ import annotations

import math

import numpy as np

# Values every function meets: zeros, infinities, NaN, subnormals, the float32 extremes, the
# overflow and underflow thresholds of exp, and large arguments (sin/cos range reduction).
EDGES = np.array(
    [
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        np.nan,
        1e-45,
        -1e-45,
        1e-40,
        -1e-40,
        1.1754942e-38,
        1.1754944e-38,
        -1.1754944e-38,
        3.4028235e38,
        -3.4028235e38,
        88.72283,
        88.72284,
        88.7229,
        -87.33654,
        -87.33655,
        -103.97208,
        -103.9721,
        -104.0,
        89.0,
        -89.0,
        1e-8,
        -1e-8,
        1e-30,
        0.5,
        -0.5,
        1.0,
        -1.0,
        2.0,
        -2.0,
        0.99999994,
        -0.99999994,
        1.0000001,
        3.1415927,
        -3.1415927,
        1.5707964,
        1e4,
        -1e4,
        1e6,
        1e10,
        -1e10,
        1e20,
        1e30,
        -1e30,
        20.0,
        21.0,
        -20.0,
        40.0,
        127.9,
        128.0,
        -149.0,
        -150.0,
        -126.0,
    ],
    dtype=np.float32,
)


def _special(name):
    """scipy.special's float64 function `name`, or None where SciPy is missing."""
    try:
        import scipy.special
    except ImportError:
        return None
    return getattr(scipy.special, name)


def _vec(f):
    return np.vectorize(f, otypes=[np.float64])


def _erf(x):
    return _vec(math.erf)(x)


def _erfc(x):
    return _vec(math.erfc)(x)


def _lgamma(x):
    def f(v):
        try:
            return math.lgamma(v)
        except ValueError:  # poles
            return math.inf
        except OverflowError:
            return math.inf

    return _vec(f)(x)


def _sigmoid(x):
    e = np.exp(-np.abs(x))
    return np.where(x < 0, e / (1 + e), 1 / (1 + e))


def _softplus(x):  # PyTorch's threshold: x itself above 20
    return np.where(x > 20, x, np.log1p(np.exp(np.minimum(x, 20))))


def _gelu(x):
    return 0.5 * x * _erfc(-x / math.sqrt(2))


def _mish(x):
    return x * np.tanh(np.log1p(np.exp(np.minimum(x, 20))) + np.where(x > 20, x - 20, 0))


def _sinc(x):
    px = np.pi * x
    with np.errstate(all="ignore"):
        return np.where(x == 0, 1.0, np.sin(px) / px)


def uniform(lo, hi):
    return lambda rng, n: rng.uniform(lo, hi, n)


def log_uniform(lo, hi):
    """exp of a uniform exponent: positive values spread over many binades."""
    return lambda rng, n: np.exp(rng.uniform(lo, hi, n))


def mixed(*parts):
    return lambda rng, n: np.concatenate([p(rng, max(n // len(parts), 1)) for p in parts])


def signed(part):
    return lambda rng, n: part(rng, n) * rng.choice([-1.0, 1.0], n)


def _F():
    import engine.nn.functional as F

    return F


def _e():
    import engine

    return engine


# name -> (engine function of a float32 tensor, float64 reference of a float64 array, domain)
UNARY = {
    "exp": (lambda t: t.exp(), np.exp, mixed(uniform(-104, 89), uniform(-1, 1))),
    "exp2": (lambda t: t.exp2(), np.exp2, uniform(-151, 129)),
    "expm1": (lambda t: t.expm1(), np.expm1, mixed(uniform(-20, 89), signed(log_uniform(-30, 0)))),
    "log": (lambda t: t.log(), np.log, mixed(log_uniform(-103, 88), uniform(0.5, 2))),
    "log2": (lambda t: t.log2(), np.log2, mixed(log_uniform(-103, 88), uniform(0.5, 2))),
    "log10": (lambda t: t.log10(), np.log10, mixed(log_uniform(-103, 88), uniform(0.5, 2))),
    "log1p": (lambda t: t.log1p(), np.log1p, mixed(uniform(-1, 10), signed(log_uniform(-40, 0)))),
    "sin": (
        lambda t: t.sin(),
        np.sin,
        mixed(uniform(-10, 10), uniform(-1e4, 1e4), signed(log_uniform(-20, 60))),
    ),
    "cos": (
        lambda t: t.cos(),
        np.cos,
        mixed(uniform(-10, 10), uniform(-1e4, 1e4), signed(log_uniform(-20, 60))),
    ),
    "tan": (lambda t: t.tan(), np.tan, mixed(uniform(-10, 10), uniform(-1e4, 1e4))),
    "asin": (lambda t: t.asin(), np.arcsin, uniform(-1, 1)),
    "acos": (lambda t: t.acos(), np.arccos, uniform(-1, 1)),
    "atan": (lambda t: t.atan(), np.arctan, mixed(uniform(-2, 2), signed(log_uniform(-20, 40)))),
    "sinh": (lambda t: t.sinh(), np.sinh, mixed(uniform(-90, 90), uniform(-1, 1))),
    "cosh": (lambda t: t.cosh(), np.cosh, uniform(-90, 90)),
    "tanh": (lambda t: t.tanh(), np.tanh, mixed(uniform(-10, 10), uniform(-0.7, 0.7))),
    "asinh": (lambda t: t.asinh(), np.arcsinh, mixed(uniform(-2, 2), signed(log_uniform(-20, 80)))),
    "acosh": (lambda t: t.acosh(), np.arccosh, mixed(uniform(1, 3), log_uniform(0, 80))),
    "atanh": (lambda t: t.atanh(), np.arctanh, uniform(-1, 1)),
    "sigmoid": (lambda t: t.sigmoid(), _sigmoid, mixed(uniform(-110, 110), uniform(-6, 6))),
    "erf": (lambda t: t.erf(), _erf, mixed(uniform(-5, 5), uniform(-0.5, 0.5))),
    "erfc": (lambda t: t.erfc(), _erfc, mixed(uniform(-3, 10), uniform(-0.5, 0.5))),
    "erfinv": (lambda t: t.erfinv(), _special("erfinv"), uniform(-1, 1)),
    "lgamma": (lambda t: t.lgamma(), _lgamma, mixed(uniform(0, 40), log_uniform(-20, 60))),
    "digamma": (lambda t: t.digamma(), _special("psi"), mixed(uniform(0, 40), uniform(-10, 0))),
    "sqrt": (lambda t: t.sqrt(), np.sqrt, log_uniform(-103, 88)),
    "rsqrt": (lambda t: t.rsqrt(), lambda x: 1 / np.sqrt(x), log_uniform(-103, 88)),
    "softplus": (lambda t: _F().softplus(t), _softplus, mixed(uniform(-100, 30), uniform(-5, 5))),
    "gelu": (lambda t: _F().gelu(t), _gelu, mixed(uniform(-10, 10), uniform(-1, 1))),
    "silu": (
        lambda t: _F().silu(t),
        lambda x: x * _sigmoid(x),
        mixed(uniform(-90, 90), uniform(-5, 5)),
    ),
    "mish": (lambda t: _F().mish(t), _mish, mixed(uniform(-30, 30), uniform(-3, 3))),
    "logit": (lambda t: t.logit(), lambda p: np.log(p / (1 - p)), uniform(0, 1)),
    "i0": (lambda t: t.i0(), _special("i0"), uniform(-80, 80)),
    "i0e": (lambda t: _e().special.i0e(t), _special("i0e"), uniform(-100, 100)),
    "i1": (lambda t: _e().special.i1(t), _special("i1"), uniform(-80, 80)),
    "sinc": (lambda t: t.sinc(), _sinc, uniform(-0.45, 0.45)),
    "ndtr": (lambda t: _e().special.ndtr(t), _special("ndtr"), uniform(-10, 10)),
    "log_ndtr": (lambda t: _e().special.log_ndtr(t), _special("log_ndtr"), uniform(-20, 10)),
    "ndtri": (lambda t: _e().special.ndtri(t), _special("ndtri"), uniform(0, 1)),
    "erfcx": (lambda t: _e().special.erfcx(t), _special("erfcx"), uniform(-5, 50)),
}

# name -> (engine function of two float32 tensors, float64 reference, domain of each operand)
BINARY = {
    "pow": (lambda a, b: a.pow(b), np.power, (uniform(0, 10), uniform(-10, 10))),
    "atan2": (lambda a, b: a.atan2(b), np.arctan2, (uniform(-10, 10), uniform(-10, 10))),
}


def ulp_errors(got, ref):
    """|got - ref| in float32 ulps of ref (rounded to float32), for finite reference values inside
    float32's range; the second array says where that was measured."""
    with np.errstate(over="ignore", invalid="ignore"):
        ref32 = ref.astype(np.float32)
    # A NaN where the reference is a number is counted by special_mismatches, not here.
    ok = np.isfinite(ref) & np.isfinite(ref32) & ~np.isnan(got)
    with np.errstate(over="ignore"):  # spacing of float32's largest value is inf: not measured
        spacing = np.maximum(np.spacing(np.abs(ref32)).astype(np.float64), 2.0**-149)
    err = np.zeros_like(ref)
    with np.errstate(invalid="ignore"):
        err[ok] = np.abs(got[ok] - ref[ok]) / spacing[ok]
    return err, ok


def special_mismatches(got, ref):
    """Indices where got does not give ref's NaN, infinity or overflow exactly, or gives NaN for
    a number."""
    with np.errstate(over="ignore", invalid="ignore"):
        ref32 = ref.astype(np.float64).astype(np.float32).astype(np.float64)
    nan_bad = np.isnan(got) != np.isnan(ref)
    inf = np.isinf(ref32) & ~np.isnan(ref)
    inf_bad = inf & (got != ref32)
    return np.flatnonzero(nan_bad | inf_bad)


def inputs(name, rng, n, edges=True):
    """float32 inputs of unary function `name`: n drawn from its domain, then the edge values."""
    x = UNARY[name][2](rng, n)
    if edges:
        x = np.concatenate([x, EDGES.astype(np.float64)])
    with np.errstate(over="ignore"):
        return x.astype(np.float32)


def measure_unary(name, n, seed=0, edges=True):
    """(max ulp error, worst input, special-value mismatches) of unary function `name`."""
    import engine

    fn, ref_fn, _ = UNARY[name]
    x = inputs(name, np.random.default_rng(seed), n, edges)
    got = fn(engine.from_numpy(x)).numpy().astype(np.float64)
    with np.errstate(all="ignore"):
        ref = np.asarray(ref_fn(x.astype(np.float64)), dtype=np.float64)
    err, _ = ulp_errors(got, ref)
    worst = int(np.argmax(err))
    return float(err[worst]), float(x[worst]), special_mismatches(got, ref)


def measure_binary(name, n, seed=0):
    import engine

    fn, ref_fn, (da, db) = BINARY[name]
    rng = np.random.default_rng(seed)
    a = da(rng, n).astype(np.float32)
    b = db(rng, n).astype(np.float32)
    got = fn(engine.from_numpy(a), engine.from_numpy(b)).numpy().astype(np.float64)
    with np.errstate(all="ignore"):
        ref = ref_fn(a.astype(np.float64), b.astype(np.float64))
    err, _ = ulp_errors(got, ref)
    worst = int(np.argmax(err))
    return float(err[worst]), (float(a[worst]), float(b[worst])), special_mismatches(got, ref)
