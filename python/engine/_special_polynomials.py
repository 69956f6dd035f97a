"""Classical orthogonal polynomials of torch.special, evaluated like PyTorch: the degree n is
truncated to an integer, n < 0 gives 0, the endpoint values at |x| == 1 are exact, Chebyshev
polynomials of high degree inside (-1, 1) use their trigonometric forms, and otherwise the
three-term recurrence runs as one vectorised loop up to the largest degree present. PyTorch does
not differentiate these, so neither does the engine (results never require grad)."""

import engine
from engine._special_common import float_pair, in_layout_of_first, write_out


def _recurrence(x, degree, first, second, step, closed_form=None):
    """Value of the degree-th polynomial with p0 = first, p1 = second, p_{k+1} = step(k, p_k,
    p_{k-1}), for every element at once; elements drop out as soon as their degree is reached.
    Elements marked in ``closed_form`` are evaluated elsewhere, so their degrees do not lengthen
    the loop (a huge degree inside (-1, 1) costs nothing, as in PyTorch)."""
    result = engine.where(degree == 0, first, second)
    looped = degree if closed_form is None else engine.where(closed_form, 0.0, degree)
    top = int(engine.nan_to_num(looped, nan=0.0).max().item()) if degree.numel() else 0
    previous, current = first, second
    for k in range(1, top):
        previous, current = current, step(k, current, previous)
        result = engine.where(degree == k + 1, current, result)
    return result


def _polynomial(fname, input, n_arg, out, evaluate):
    x, n = float_pair(fname, input, n_arg, half_ok=False)
    with engine.no_grad():
        degree = engine.trunc(n)
        representable = engine.isfinite(degree) & (engine.abs(degree) < 2.0**63)
        finite_degree = engine.where(representable, degree, -1.0)
        one = engine.ones_like(x)
        value = evaluate(x, finite_degree, one)
        # Degrees outside int64 (inf, nan, |n| >= 2**63) convert to the most negative integer in
        # PyTorch's kernels, so they give 0 too.
        value = engine.where(finite_degree < 0, 0.0, value)
        value = in_layout_of_first(value, input, n_arg)
    return write_out(value, out, fname)


def _odd(degree):
    return engine.remainder(degree, 2) != 0


def _chebyshev_t(x, degree, one):
    inside = (engine.abs(x) < 1) & (degree > 6)
    closed = inside | (engine.abs(x) == 1)
    value = _recurrence(x, degree, one, x, lambda k, q, p: 2 * x * q - p, closed)
    trig = engine.cos(degree * engine.acos(engine.where(inside, x, 0.0)))
    value = engine.where(inside, trig, value)
    edge = engine.where((x > 0) | ~_odd(degree), 1.0, -1.0)
    return engine.where(engine.abs(x) == 1, edge, value)


def _chebyshev_u(x, degree, one):
    inside = (engine.abs(x) < 1) & (degree > 8)
    closed = inside | (engine.abs(x) == 1)
    value = _recurrence(x, degree, one, 2 * x, lambda k, q, p: 2 * x * q - p, closed)
    angle = engine.acos(engine.where(inside, x, 0.5))
    sine = engine.sin(angle)
    safe_sine = engine.where(sine != 0, sine, 1.0)
    trig = engine.where(
        sine != 0,
        engine.sin((degree + 1) * angle) / safe_sine,
        (degree + 1) * engine.cos((degree + 1) * angle) / engine.where(inside, x, 0.5),
    )
    value = engine.where(inside, trig, value)
    edge = engine.where((x > 0) | ~_odd(degree), degree + 1, -(degree + 1))
    return engine.where(engine.abs(x) == 1, edge, value)


def _chebyshev_v(x, degree, one):
    inside = (engine.abs(x) < 1) & (degree > 8)
    closed = inside | (engine.abs(x) == 1)
    value = _recurrence(x, degree, one, 2 * x - 1, lambda k, q, p: 2 * x * q - p, closed)
    angle = engine.acos(engine.where(inside, x, 0.5))
    half = engine.cos(angle / 2)
    trig = engine.cos((degree + 0.5) * angle) / engine.where(half != 0, half, 1.0)
    value = engine.where(inside, trig, value)
    width = 2 * degree + 1
    edge = engine.where(x > 0, 1.0, engine.where(_odd(degree), -width, width))
    return engine.where(engine.abs(x) == 1, edge, value)


def _chebyshev_w(x, degree, one):
    inside = (engine.abs(x) < 1) & (degree > 8)
    closed = inside | (engine.abs(x) == 1)
    value = _recurrence(x, degree, one, 2 * x + 1, lambda k, q, p: 2 * x * q - p, closed)
    angle = engine.acos(engine.where(inside, x, 0.5))
    half = engine.sin(angle / 2)
    trig = engine.sin((degree + 0.5) * angle) / engine.where(half != 0, half, 1.0)
    value = engine.where(inside, trig, value)
    edge = engine.where(x > 0, 2 * degree + 1, engine.where(_odd(degree), -1.0, 1.0))
    return engine.where(engine.abs(x) == 1, edge, value)


def _hermite_h(x, degree, one):
    return _recurrence(x, degree, one, 2 * x, lambda k, q, p: 2 * x * q - (2 * k) * p)


def _hermite_he(x, degree, one):
    return _recurrence(x, degree, one, x, lambda k, q, p: x * q - k * p)


def _laguerre_l(x, degree, one):
    value = _recurrence(
        x, degree, one, 1 - x, lambda k, q, p: ((2 * k + 1 - x) * q - k * p) / (k + 1)
    )
    return engine.where(x == 0, 1.0, value)


def _legendre_p(x, degree, one):
    value = _recurrence(x, degree, one, x, lambda k, q, p: ((2 * k + 1) * x * q - k * p) / (k + 1))
    edge = engine.where((x > 0) | ~_odd(degree), 1.0, -1.0)
    return engine.where(engine.abs(x) == 1, edge, value)


def _shifted(evaluate):
    return lambda x, degree, one: evaluate(x + x - 1, degree, one)


def chebyshev_polynomial_t(input, n, *, out=None):
    """Chebyshev polynomial of the first kind T_n(input)."""
    return _polynomial("special_chebyshev_polynomial_t", input, n, out, _chebyshev_t)


def chebyshev_polynomial_u(input, n, *, out=None):
    """Chebyshev polynomial of the second kind U_n(input)."""
    return _polynomial("special_chebyshev_polynomial_u", input, n, out, _chebyshev_u)


def chebyshev_polynomial_v(input, n, *, out=None):
    """Chebyshev polynomial of the third kind V_n(input)."""
    return _polynomial("special_chebyshev_polynomial_v", input, n, out, _chebyshev_v)


def chebyshev_polynomial_w(input, n, *, out=None):
    """Chebyshev polynomial of the fourth kind W_n(input)."""
    return _polynomial("special_chebyshev_polynomial_w", input, n, out, _chebyshev_w)


def shifted_chebyshev_polynomial_t(input, n, *, out=None):
    """Shifted Chebyshev polynomial of the first kind T*_n(input) = T_n(2 input - 1)."""
    name = "special_shifted_chebyshev_polynomial_t"
    return _polynomial(name, input, n, out, _shifted(_chebyshev_t))


def shifted_chebyshev_polynomial_u(input, n, *, out=None):
    """Shifted Chebyshev polynomial of the second kind U*_n(input) = U_n(2 input - 1)."""
    name = "special_shifted_chebyshev_polynomial_u"
    return _polynomial(name, input, n, out, _shifted(_chebyshev_u))


def shifted_chebyshev_polynomial_v(input, n, *, out=None):
    """Shifted Chebyshev polynomial of the third kind V*_n(input) = V_n(2 input - 1)."""
    name = "special_shifted_chebyshev_polynomial_v"
    return _polynomial(name, input, n, out, _shifted(_chebyshev_v))


def shifted_chebyshev_polynomial_w(input, n, *, out=None):
    """Shifted Chebyshev polynomial of the fourth kind W*_n(input) = W_n(2 input - 1)."""
    name = "special_shifted_chebyshev_polynomial_w"
    return _polynomial(name, input, n, out, _shifted(_chebyshev_w))


def hermite_polynomial_h(input, n, *, out=None):
    """Physicists' Hermite polynomial H_n(input)."""
    return _polynomial("special_hermite_polynomial_h", input, n, out, _hermite_h)


def hermite_polynomial_he(input, n, *, out=None):
    """Probabilists' Hermite polynomial He_n(input)."""
    return _polynomial("special_hermite_polynomial_he", input, n, out, _hermite_he)


def laguerre_polynomial_l(input, n, *, out=None):
    """Laguerre polynomial L_n(input)."""
    return _polynomial("special_laguerre_polynomial_l", input, n, out, _laguerre_l)


def legendre_polynomial_p(input, n, *, out=None):
    """Legendre polynomial P_n(input)."""
    return _polynomial("special_legendre_polynomial_p", input, n, out, _legendre_p)
