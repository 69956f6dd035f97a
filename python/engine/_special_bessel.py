"""Bessel, Airy and Hurwitz zeta functions of torch.special, written with vectorised engine ops.

Each function is piecewise, every piece chosen where it keeps double precision:
- J0, J1, Y0, Y1: their power series (with the logarithmic terms for Y) for |x| <= 17, where the
  alternating terms lose at most ~1e-11 to cancellation, and Hankel's asymptotic expansion beyond,
  whose smallest term there is ~1e-14.
- K0, K1: the power series for x <= 2, and above it the integral
  ``exp(x) K_v(x) = int_0^inf exp(-x (cosh t - 1)) cosh(v t) dt`` by the trapezoid rule, which
  converges geometrically for this smooth, doubly-exponentially decaying integrand; the nodes are
  spread over the part of t where the integrand is above exp(-40), so large x stays accurate.
- Airy Ai: its Maclaurin series on [-8, 2], the same K_{1/3} integral for x > 2 and the oscillatory
  asymptotic expansion for x < -8.
- zeta(x, q): Euler-Maclaurin summation after shifting q past 9, with twelve Bernoulli terms.
PyTorch differentiates none of these (zeta only in q), so results never require grad; zeta's
gradient in x raises PyTorch's "not implemented" error."""

import math

import engine
from engine._special_common import (
    BINARY_OVERLOADS,
    float_input,
    float_pair,
    in_layout_of_first,
    write_out,
)
from engine.autograd import Function

_EULER_GAMMA = 0.57721566490153286061
_SERIES_SWITCH = 17.0
_SERIES_TERMS = 45
_HANKEL_TERMS = 30
_QUADRATURE_NODES = 64
_QUADRATURE_DEPTH = 40.0  # the integrand is cut where it falls below exp(-40)
_QUADRATURE_CHUNK = 1 << 15


def _no_grad_unary(fname, input, out, evaluate):
    x = float_input(fname, input, half_ok=False)
    with engine.no_grad():
        # Evaluated in float64 whatever the input dtype: the series' cancellation would eat
        # float32's precision.
        value = evaluate(x.detach().to(engine.float64)).to(x.dtype)
    return write_out(value, out, fname)


def _power_series(x, order):
    """Partial sums over k of ``(-1)^k (x/2)^(2k+order) / (k! (k+order)!)`` (J_order) and of the
    same terms weighted by ``psi(k+1) + psi(k+1+order)`` (for Y_order)."""
    quarter_square = x * x / 4
    term = (x / 2) ** order / math.factorial(order)
    total = term
    weighted = term * (_digamma_int(1) + _digamma_int(1 + order))
    for k in range(1, _SERIES_TERMS):
        term = term * (-quarter_square / (k * (k + order)))
        total = total + term
        weighted = weighted + term * (_digamma_int(k + 1) + _digamma_int(k + 1 + order))
    return total, weighted


def _digamma_int(n):
    # psi(n) = -gamma + 1 + 1/2 + ... + 1/(n-1)
    return -_EULER_GAMMA + sum(1.0 / j for j in range(1, n))


def _hankel(x, order):
    """P and Q of Hankel's expansion J = sqrt(2/(pi x)) (P cos chi - Q sin chi)."""
    mu = 4.0 * order * order
    p = engine.ones_like(x)
    q = engine.zeros_like(x)
    coefficient = 1.0
    power = engine.ones_like(x)
    for k in range(1, _HANKEL_TERMS):
        coefficient *= (mu - (2 * k - 1) ** 2) / (k * 8)
        power = power / x
        term = coefficient * power
        sign = -1.0 if (k // 2) % 2 else 1.0
        if k % 2:
            q = q + sign * term
        else:
            p = p + sign * term
    return p, q


def _bessel_first_second(x, order):
    """(J_order(x), Y_order(x)) for x >= 0; Y is nan for x < 0 and -inf at 0, as in PyTorch."""
    ax = engine.abs(x)
    near = ax <= _SERIES_SWITCH
    small = engine.where(near, ax, 1.0)
    j_series, weighted = _power_series(small, order)
    log_half = engine.log(small / 2)
    if order == 0:
        # Y0 = (2/pi)(ln(x/2) + gamma) J0 - (2/pi) sum (-1)^k H_k (x^2/4)^k/(k!)^2, and
        # psi(k+1) = H_k - gamma makes the weighted sum (2 H_k - 2 gamma) terms.
        y_series = (2 / math.pi) * (log_half * j_series) - (1 / math.pi) * weighted
    else:
        y_series = (
            -2 / (math.pi * small) + (2 / math.pi) * log_half * j_series - (1 / math.pi) * weighted
        )
    big = engine.where(near, 2 * _SERIES_SWITCH, ax)
    p, q = _hankel(big, order)
    cos_x, sin_x = engine.cos(big), engine.sin(big)
    root = math.sqrt(0.5)
    if order == 0:  # chi = x - pi/4
        cos_chi, sin_chi = (cos_x + sin_x) * root, (sin_x - cos_x) * root
    else:  # chi = x - 3 pi/4
        cos_chi, sin_chi = (sin_x - cos_x) * root, -(sin_x + cos_x) * root
    amplitude = engine.sqrt(2 / (math.pi * big))
    j_far = amplitude * (p * cos_chi - q * sin_chi)
    y_far = amplitude * (p * sin_chi + q * cos_chi)
    j = engine.where(near, j_series, j_far)
    y = engine.where(near, y_series, y_far)
    if order == 1:
        j = engine.where(x < 0, -j, j)
        j = engine.where(x == 0, x, j)  # keeps the sign of zero
    else:
        j = engine.where(x == 0, 1.0, j)
    j = engine.where(engine.isinf(x), math.nan, j)
    y = engine.where(x == 0, -math.inf, engine.where(x < 0, math.nan, y))
    y = engine.where(engine.isinf(x), math.nan, y)
    return j, y


def bessel_j0(input, *, out=None):
    """Bessel function of the first kind of order 0."""
    return _no_grad_unary("special_bessel_j0", input, out, lambda x: _bessel_first_second(x, 0)[0])


def bessel_j1(input, *, out=None):
    """Bessel function of the first kind of order 1."""
    return _no_grad_unary("special_bessel_j1", input, out, lambda x: _bessel_first_second(x, 1)[0])


def bessel_y0(input, *, out=None):
    """Bessel function of the second kind of order 0 (nan for negative input, -inf at 0)."""
    return _no_grad_unary("special_bessel_y0", input, out, lambda x: _bessel_first_second(x, 0)[1])


def bessel_y1(input, *, out=None):
    """Bessel function of the second kind of order 1 (nan for negative input, -inf at 0)."""
    return _no_grad_unary("special_bessel_y1", input, out, lambda x: _bessel_first_second(x, 1)[1])


def _modified_first(x, order):
    value = engine.i0(x) if order == 0 else engine._C._special_i1(x)
    return engine.where(engine.isinf(x), math.nan, value)


def modified_bessel_i0(input, *, out=None):
    """Modified Bessel function of the first kind of order 0 (nan at +-inf, as in PyTorch)."""
    return _no_grad_unary("special_modified_bessel_i0", input, out, lambda x: _modified_first(x, 0))


def modified_bessel_i1(input, *, out=None):
    """Modified Bessel function of the first kind of order 1 (nan at +-inf, as in PyTorch)."""
    return _no_grad_unary("special_modified_bessel_i1", input, out, lambda x: _modified_first(x, 1))


def _scaled_k_integral(x, order):
    """``exp(x) K_order(x)`` for x > 0 by the trapezoid rule on the cosh integral; ``x`` must be
    positive and finite. Large inputs go through in chunks so the (elements x nodes) table of the
    integrand stays a few megabytes."""
    flat = x.reshape(-1)
    if flat.numel() <= _QUADRATURE_CHUNK:
        return _scaled_k_integral_flat(flat, order).reshape(x.shape)
    pieces = [_scaled_k_integral_flat(piece, order) for piece in flat.split(_QUADRATURE_CHUNK)]
    return engine.cat(pieces).reshape(x.shape)


def _scaled_k_integral_flat(x, order):
    end = engine.acosh(1 + _QUADRATURE_DEPTH / x)
    step = end / (_QUADRATURE_NODES - 1)
    nodes = step.unsqueeze(-1) * engine.arange(_QUADRATURE_NODES, dtype=x.dtype)
    integrand = engine.exp(-x.unsqueeze(-1) * (engine.cosh(nodes) - 1))
    if order:
        integrand = integrand * engine.cosh(order * nodes)
    weights = engine.ones(_QUADRATURE_NODES, dtype=x.dtype)
    weights[0] = 0.5  # the integrand is even in t: half weight at t = 0 gives the full-line rule
    return step * (integrand * weights).sum(-1)


def _k_series(x, order):
    """K_order(x) from its power series (0 < x <= 2)."""
    quarter_square = x * x / 4
    log_half = engine.log(x / 2)
    if order == 0:
        bessel_i = engine.i0(x)
        term = engine.ones_like(x)
        harmonic = 0.0
        total = engine.zeros_like(x)
        for k in range(1, _SERIES_TERMS):
            term = term * quarter_square / (k * k)
            harmonic += 1.0 / k
            total = total + harmonic * term
        return -(log_half + _EULER_GAMMA) * bessel_i + total
    bessel_i = engine._C._special_i1(x)
    term = engine.ones_like(x)
    total = term * (_digamma_int(1) + _digamma_int(2))
    for k in range(1, _SERIES_TERMS):
        term = term * quarter_square / (k * (k + 1))
        total = total + term * (_digamma_int(k + 1) + _digamma_int(k + 2))
    return 1 / x + log_half * bessel_i - (x / 4) * total


def _modified_second(x, order, scaled):
    near = x <= 2
    small = engine.where(near & (x > 0), x, 1.0)
    series = _k_series(small, order)
    if scaled:
        series = series * engine.exp(small)
    big = engine.where(near | engine.isinf(x) | engine.isnan(x), 3.0, x)
    integral = _scaled_k_integral(big, order)
    if not scaled:
        integral = integral * engine.exp(-big)
    value = engine.where(near, series, integral)
    value = engine.where(x == 0, math.inf, engine.where(x < 0, math.nan, value))
    value = engine.where(x == math.inf, 0.0, value)
    return engine.where(engine.isnan(x), x, value)


def modified_bessel_k0(input, *, out=None):
    """Modified Bessel function of the second kind of order 0 (inf at 0, nan below)."""
    return _no_grad_unary(
        "special_modified_bessel_k0", input, out, lambda x: _modified_second(x, 0, False)
    )


def modified_bessel_k1(input, *, out=None):
    """Modified Bessel function of the second kind of order 1 (inf at 0, nan below)."""
    return _no_grad_unary(
        "special_modified_bessel_k1", input, out, lambda x: _modified_second(x, 1, False)
    )


def scaled_modified_bessel_k0(input, *, out=None):
    """``exp(x) * K0(x)``, finite for large x."""
    return _no_grad_unary(
        "special_scaled_modified_bessel_k0", input, out, lambda x: _modified_second(x, 0, True)
    )


def scaled_modified_bessel_k1(input, *, out=None):
    """``exp(x) * K1(x)``, finite for large x."""
    return _no_grad_unary(
        "special_scaled_modified_bessel_k1", input, out, lambda x: _modified_second(x, 1, True)
    )


def _spherical_j0(x):
    safe = engine.where(x == 0, 1.0, x)
    value = engine.where(x == 0, 1.0, engine.sin(safe) / safe)
    return engine.where(engine.isinf(x), 0.0, value)


def spherical_bessel_j0(input, *, out=None):
    """Spherical Bessel function of the first kind of order 0, ``sin(x)/x``."""
    return _no_grad_unary("special_spherical_bessel_j0", input, out, _spherical_j0)


_AIRY_AI_0 = 1 / (3 ** (2 / 3) * math.gamma(2 / 3))  # Ai(0)
_AIRY_AIP_0 = 1 / (3 ** (1 / 3) * math.gamma(1 / 3))  # -Ai'(0)
_AIRY_SERIES_TERMS = 60


def _airy(x):
    in_series = (x >= -8) & (x <= 2)
    s = engine.where(in_series, x, 0.0)
    cube = s * s * s
    f_term = engine.ones_like(s)
    g_term = s.clone()
    f_sum, g_sum = f_term, g_term
    for k in range(1, _AIRY_SERIES_TERMS):
        f_term = f_term * cube / ((3 * k - 1) * (3 * k))
        g_term = g_term * cube / ((3 * k) * (3 * k + 1))
        f_sum = f_sum + f_term
        g_sum = g_sum + g_term
    series = _AIRY_AI_0 * f_sum - _AIRY_AIP_0 * g_sum

    # x > 2: Ai(x) = sqrt(x/3)/pi * K_{1/3}(zeta), zeta = 2/3 x^(3/2).
    right = x > 2
    r = engine.where(right & ~engine.isinf(x), x, 3.0)
    zeta_r = (2.0 / 3.0) * r * engine.sqrt(r)
    decaying = (
        engine.sqrt(r / 3) / math.pi * engine.exp(-zeta_r) * _scaled_k_integral(zeta_r, 1 / 3)
    )

    # x < -8: Ai(-z) ~ z^(-1/4)/sqrt(pi) (cos(zeta - pi/4) P - ... ) with u_k coefficients.
    left = x < -8
    z = engine.where(left & ~engine.isinf(x), -x, 9.0)
    zeta_l = (2.0 / 3.0) * z * engine.sqrt(z)
    even = engine.ones_like(z)
    odd = engine.zeros_like(z)
    u = 1.0
    power = engine.ones_like(z)
    for k in range(1, 25):
        u *= (6 * k - 5) * (6 * k - 3) * (6 * k - 1) / ((2 * k - 1) * 216 * k)
        power = power / zeta_l
        sign = -1.0 if (k // 2) % 2 else 1.0
        if k % 2:
            odd = odd + sign * u * power
        else:
            even = even + sign * u * power
    phase = zeta_l - math.pi / 4
    oscillating = (engine.cos(phase) * even + engine.sin(phase) * odd) / (
        math.sqrt(math.pi) * engine.sqrt(engine.sqrt(z))
    )
    value = engine.where(in_series, series, engine.where(right, decaying, oscillating))
    return engine.where(engine.isinf(x) | engine.isnan(x), math.nan, value)


def airy_ai(input, *, out=None):
    """Airy function Ai(x) (nan at +-inf, as in PyTorch)."""
    return _no_grad_unary("special_airy_ai", input, out, _airy)


# (2j)! / B_{2j} for j = 1..12, the Euler-Maclaurin correction denominators.
_BERNOULLI = [
    (1, 6), (-1, 30), (1, 42), (-1, 30), (5, 66), (-691, 2730), (7, 6), (-3617, 510),
    (43867, 798), (-174611, 330), (854513, 138), (-236364091, 2730),
]  # fmt: skip
_EM_DENOMINATORS = [
    math.factorial(2 * j + 2) * den / num for j, (num, den) in enumerate(_BERNOULLI)
]
_EM_SHIFT = 10


def _hurwitz_zeta(x, q):
    # Shift far enough that every element's q + shift exceeds 9.
    lowest = (
        float(engine.nan_to_num(q, nan=1.0, posinf=1.0, neginf=1.0).min().item())
        if q.numel()
        else 1.0
    )
    shift = max(_EM_SHIFT, int(math.ceil(9.0 - lowest)) + 1)
    total = engine.zeros_like(q)
    for k in range(shift):
        total = total + engine.pow(q + k, -x)
    a = q + shift
    last = engine.pow(a, -x)
    total = total + a * last / (x - 1) + 0.5 * last
    rising = engine.ones_like(x)
    power = last
    for j in range(12):
        rising = rising * (x + 2 * j) if j == 0 else rising * (x + 2 * j - 1) * (x + 2 * j)
        power = power / a if j == 0 else power / (a * a)
        total = total + rising * power / _EM_DENOMINATORS[j]
    value = total
    integral_pole = (q <= 0) & (q == engine.floor(q))
    non_integral_power = (q <= 0) & (x != engine.floor(x))
    value = engine.where(non_integral_power, math.nan, value)
    value = engine.where(integral_pole | (x == 1), math.inf, value)
    value = engine.where(x < 1, math.nan, value)
    return engine.where(engine.isinf(q), math.nan, value)


class _Zeta(Function):
    @staticmethod
    def forward(ctx, x, q):
        ctx.save_for_backward(x, q)
        return _hurwitz_zeta(x, q)

    @staticmethod
    def backward(ctx, grad):
        x, q = ctx.saved_tensors
        if ctx.needs_input_grad[0]:
            raise NotImplementedError("the derivative for 'zeta' is not implemented.")
        return None, grad * -x * zeta(x + 1, q)


def zeta(input, other, *, out=None):
    """Hurwitz zeta function ``sum_k (k + other)^(-input)``; differentiable in ``other`` only."""
    x, q = float_pair("special_zeta", input, other, BINARY_OVERLOADS, half_ok=False)
    if engine.is_grad_enabled() and (x.requires_grad or q.requires_grad):
        return write_out(_Zeta.apply(x, q), out, "special_zeta")
    with engine.no_grad():
        return write_out(in_layout_of_first(_hurwitz_zeta(x, q), input, other), out, "special_zeta")
