"""engine.special: PyTorch's ``torch.special`` namespace.

Most names are the engine's own pointwise ops under SciPy-style names (expit is sigmoid, gammaln is
lgamma, ...). The rest are compositions of differentiable engine ops (ndtr, log_ndtr, ndtri, erfcx,
i0e, i1e, entr, xlog1py), so gradients and double gradients come from the ops they are built from,
and the no-gradient families (orthogonal polynomials, Bessel and Airy functions, zeta) live in
``_special_polynomials`` and ``_special_bessel``."""

import math

import engine
from engine import _C
from engine._grad_fn_names import named_grad_fn
from engine._special_bessel import (
    airy_ai,
    bessel_j0,
    bessel_j1,
    bessel_y0,
    bessel_y1,
    modified_bessel_i0,
    modified_bessel_i1,
    modified_bessel_k0,
    modified_bessel_k1,
    scaled_modified_bessel_k0,
    scaled_modified_bessel_k1,
    spherical_bessel_j0,
    zeta,
)
from engine._special_common import BINARY_OVERLOADS, float_input, float_pair, write_out
from engine._special_polynomials import (
    chebyshev_polynomial_t,
    chebyshev_polynomial_u,
    chebyshev_polynomial_v,
    chebyshev_polynomial_w,
    hermite_polynomial_h,
    hermite_polynomial_he,
    laguerre_polynomial_l,
    legendre_polynomial_p,
    shifted_chebyshev_polynomial_t,
    shifted_chebyshev_polynomial_u,
    shifted_chebyshev_polynomial_v,
    shifted_chebyshev_polynomial_w,
)
from engine.autograd import Function

Tensor = _C.Tensor

# Names the engine already has, under torch.special's spelling.
erf = engine.erf
erfc = engine.erfc
erfinv = engine.erfinv
expm1 = engine.expm1
exp2 = engine.exp2
log1p = engine.log1p
digamma = engine.digamma
psi = engine.digamma
polygamma = engine.polygamma
gammaln = engine.lgamma
multigammaln = engine.mvlgamma
gammainc = engine.igamma
gammaincc = engine.igammac
i0 = engine.i0
expit = engine.sigmoid
logit = engine.logit
xlogy = engine.xlogy
sinc = engine.sinc


def round(input, *, decimals=0, out=None):  # noqa: A001 - PyTorch's name
    """``engine.round`` for floating-point tensors: PyTorch's special.round has no integer or
    bool kernel (``engine.round`` returns those unchanged)."""
    if isinstance(input, engine.Tensor) and not input.is_floating_point():
        from engine._joining import _dtype_word

        kernel = "round_vml_cpu" if decimals == 0 else "round_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_dtype_word(input.dtype)}'")
    return engine.round(input, decimals=decimals, out=out)


softmax = engine.softmax
log_softmax = engine.log_softmax
logsumexp = engine.logsumexp

_SQRT1_2 = math.sqrt(0.5)
_SQRT_PI = math.sqrt(math.pi)
_SQRT_HALF_PI = math.sqrt(math.pi / 2)
# erfcx switches from exp(x^2) erfc(x) to its continued fraction here: below it erfc keeps full
# relative precision, above it the fraction converges within _ERFCX_DEPTH levels.
_ERFCX_SWITCH = 2.0
_ERFCX_DEPTH = 80
# Past this |x| exp(|x|) overflows, so i0e/i1e use the large-argument expansion instead.
_BESSEL_SCALED_SWITCH = 700.0


def i1(input, *, out=None):
    """Modified Bessel function of the first kind of order 1, elementwise."""
    return write_out(_C._special_i1(float_input("special_i1", input)), out, "special_i1")


def ndtr(input, *, out=None):
    """Standard normal cumulative distribution function ``(1 + erf(x/sqrt(2))) / 2``."""
    x = float_input("special_ndtr", input)
    return write_out(0.5 * engine.erfc(x * -_SQRT1_2), out, "special_ndtr")


def erfcx(input, *, out=None):
    """Scaled complementary error function ``exp(x**2) * erfc(x)``, finite for large positive x
    (a continued fraction there instead of the overflowing product)."""
    x = float_input("special_erfcx", input, half_ok=False)
    return write_out(_erfcx(x), out, "special_erfcx")


def _erfcx(x):
    large = x > _ERFCX_SWITCH
    # Each branch sees only arguments it handles, so the masked-off one cannot put inf/nan
    # into the gradient.
    direct_x = engine.where(large, 0.0, x)
    direct = engine.exp(direct_x * direct_x) * engine.erfc(direct_x)
    cf_x = engine.where(large, x, _ERFCX_SWITCH + 1.0)
    # erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))), backwards.
    # At x = inf the fraction is inf and 1/inf gives the limit 0; the forward value is exact there.
    finite_cf_x = engine.where(engine.isinf(cf_x), _ERFCX_SWITCH + 1.0, cf_x)
    tail = finite_cf_x
    for k in range(_ERFCX_DEPTH, 0, -1):
        tail = finite_cf_x + (0.5 * k) / tail
    fraction = engine.where(engine.isinf(cf_x), 0.0, 1.0 / (_SQRT_PI * tail))
    return engine.where(large, fraction, direct)


@named_grad_fn("SpecialLogNdtrBackward0")
def log_ndtr(input, *, out=None):
    """Log of the standard normal CDF, accurate far into the lower tail (through erfcx, so
    ``log_ndtr(-40)`` is finite) and near 1 (through log1p)."""
    x = float_input("special_log_ndtr", input, half_ok=False)
    lower = x < -1.0
    low_x = engine.where(lower, x, -2.0)
    low = engine.log(_erfcx(low_x * -_SQRT1_2) * 0.5) - 0.5 * low_x * low_x
    high_x = engine.where(lower, 0.0, x)
    high = engine.log1p(-0.5 * engine.erfc(high_x * _SQRT1_2))
    return write_out(engine.where(lower, low, high), out, "special_log_ndtr")


@named_grad_fn("SpecialNdtriBackward0")
def ndtri(input, *, out=None):
    """Inverse of :func:`ndtr`: the x with ``ndtr(x) == p``; -inf at 0, inf at 1, nan outside.

    A first guess from erfinv is refined by Newton steps on ``log ndtr(x) = log p`` in the lower
    half (p <= 1/2, mirrored for the upper half) so small p keeps full relative precision; the
    gradient through converged Newton steps is 1/phi(x), the true derivative."""
    p = float_input("special_ndtri", input, half_ok=False)
    # float32 goes through float64: the Newton steps near p = 1/2 subtract two values close to
    # log 2, which float32 leaves with tens of ulp in x.
    x = _ndtri64(p if p.dtype == engine.float64 else p.double())
    return write_out(x if p.dtype == engine.float64 else x.to(p.dtype), out, "special_ndtri")


def _ndtri64(p):
    upper = p > 0.5
    q = engine.where(upper, 1.0 - p, p)
    inside = (q > 0.0) & (q <= 0.5)
    safe_q = engine.where(inside, q, 0.25)
    log_q = engine.log(safe_q)
    # Far in the tail 2q - 1 rounds to -1; start there from the leading terms of the tail
    # expansion of log Phi instead.
    far = safe_q < 1e-8
    central = math.sqrt(2.0) * engine.erfinv(2.0 * engine.where(far, 0.25, safe_q) - 1.0)
    tail_square = -2.0 * engine.where(far, log_q, -20.0)
    tail = -engine.sqrt(tail_square - engine.log(tail_square) - math.log(2 * math.pi))
    x = engine.where(far, tail, central)
    for _ in range(4):
        # Phi(x)/phi(x) = sqrt(pi/2) * erfcx(-x/sqrt(2)); x <= 0 here, so no overflow.
        ratio = _SQRT_HALF_PI * _erfcx(x * -_SQRT1_2)
        x = x - (_log_ndtr_lower(x) - log_q) * ratio
    edge = engine.where(q == 0.0, -math.inf, math.nan)
    lower_value = engine.where(inside, x, edge)
    return engine.where(upper, -lower_value, lower_value)


def _log_ndtr_lower(x):
    # log Phi(x) for x <= 0 (the half ndtri's Newton steps stay in).
    return engine.log(_erfcx(x * -_SQRT1_2) * 0.5) - 0.5 * x * x


def entr(input, *, out=None):
    """Elementwise entropy term: ``-x * log(x)`` for x > 0, 0 at 0, -inf for x < 0; its gradient
    is PyTorch's ``-(1 + log x)`` everywhere (inf at 0, nan below)."""
    x = float_input("special_entr", input)
    return write_out(_Entr.apply(x), out, "special_entr")


class _Entr(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        positive = x > 0
        safe = engine.where(positive, x, 1.0)
        other = engine.where(x == 0, 0.0, engine.where(x < 0, -math.inf, x))
        return engine.where(positive, -safe * engine.log(safe), other)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -(1 + engine.log(x))


def xlog1py(input, other, *, out=None):
    """``input * log1p(other)``, taken as 0 where input is 0 (unless other is nan)."""
    x, y = float_pair("special_xlog1py", input, other, BINARY_OVERLOADS)
    zero = (x == 0) & ~engine.isnan(y)
    safe_y = engine.where(zero, 0.0, y)
    return write_out(engine.where(zero, 0.0, x * engine.log1p(safe_y)), out, "special_xlog1py")


def i0e(input, *, out=None):
    """Exponentially scaled modified Bessel function of order 0: ``exp(-|x|) * i0(x)``."""
    x = float_input("special_i0e", input)
    return write_out(_scaled_i(x, 0), out, "special_i0e")


def _scaled_i(x, order):
    # In float64 whatever the input dtype, so float32's narrow exponent range does not overflow
    # I_v(x) before the exp(-|x|) scaling.
    return _scaled_i_double(x.to(engine.float64), order).to(x.dtype)


def i1e(input, *, out=None):
    """Exponentially scaled modified Bessel function of order 1: ``exp(-|x|) * i1(x)``."""
    x = float_input("special_i1e", input)
    return write_out(_scaled_i(x, 1), out, "special_i1e")


def _scaled_i_double(x, order):
    ax = engine.abs(x)
    small = ax <= _BESSEL_SCALED_SWITCH
    small_x = engine.where(small, x, 1.0)
    bessel = engine.i0(small_x) if order == 0 else _C._special_i1(small_x)
    near = engine.exp(-engine.abs(small_x)) * bessel
    # exp(-x) I_v(x) ~ (1/sqrt(2 pi x)) sum_k (-1)^k a_k(v) / x^k,
    # a_k(v) = prod_{j<=k} (4v^2 - (2j-1)^2) / (k! 8^k); a few terms reach double precision here.
    big_x = engine.where(small, 2.0 * _BESSEL_SCALED_SWITCH, ax)
    series = 1.0
    coefficient = 1.0
    power = 1.0
    for k in range(1, 6):
        coefficient *= -(4 * order * order - (2 * k - 1) ** 2) / (k * 8)
        power = power / big_x
        series = series + coefficient * power
    far = series / engine.sqrt(2 * math.pi * big_x)
    if order == 1:
        far = far * engine.sign(x)
    return engine.where(small, near, far)


__all__ = [
    "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
    "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
    "chebyshev_polynomial_w", "digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit",
    "expm1", "gammainc", "gammaincc", "gammaln", "hermite_polynomial_h", "hermite_polynomial_he",
    "i0", "i0e", "i1", "i1e", "laguerre_polynomial_l", "legendre_polynomial_p", "log1p",
    "log_ndtr", "log_softmax", "logit", "logsumexp", "modified_bessel_i0", "modified_bessel_i1",
    "modified_bessel_k0", "modified_bessel_k1", "multigammaln", "ndtr", "ndtri", "polygamma", "psi",
    "round", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
    "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "sinc", "softmax",
    "spherical_bessel_j0", "xlog1py", "xlogy", "zeta",
]  # fmt: skip
