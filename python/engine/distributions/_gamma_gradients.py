"""Reparameterisation gradients of gamma and Dirichlet draws, by ATen's approximations.

``standard_gamma_grad_one`` gives dx/dalpha for a Gamma(alpha, 1) draw x (a Taylor series for
small x, Rice's saddle-point expansion for large alpha, a bivariate rational fit elsewhere);
``dirichlet_grad_one`` gives the gradient of a Dirichlet coordinate through its Beta marginal.
Both are evaluated element by element in double precision, as ATen's CPU kernels do, so
``Gamma.rsample`` and ``Dirichlet.rsample`` backpropagate PyTorch's numbers.
"""

from __future__ import annotations

import math

import engine

__all__: list = []

# Single-precision literals of ATen's code, as the double comparisons see them.
_F08 = 0.800000011920929
_F09 = 0.8999999761581421
_F11 = 1.100000023841858
_F1E17 = 99999998430674944.0

_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (
    8.33333333333333333333e-2,
    -2.10927960927960927961e-2,
    7.57575757575757575758e-3,
    -4.16666666666666666667e-3,
    3.96825396825396825397e-3,
    -8.33333333333333333333e-3,
    8.33333333333333333333e-2,
)


def _digamma(x):
    """ATen's ``digamma_one`` (Cephes) in double."""
    if x == 0:
        return math.inf
    additional = 0.0
    if x < 0:
        if x == math.floor(x):
            return math.inf
        additional = -math.pi / math.tan(math.pi * x)
        x = 1 - x
    result = 0.0
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + _PSI_10 + additional
    y = 0.0
    if x < _F1E17:
        z = 1.0 / (x * x)
        poly = 0.0
        for coefficient in _DIGAMMA_A:
            poly = poly * z + coefficient
        y = z * poly
    return result + math.log(x) - (0.5 / x) - y + additional


_GAMMA_UV = (
    (0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084),
    (0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915,
     -0.00058392623),
    (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326,
     0.00085092367, -1.5247877e-07),
)  # fmt: skip


def _gamma_grad_one(alpha, x):
    """-(d/dalpha cdf(x; alpha)) / pdf(x; alpha) for a standard gamma draw x."""
    if x < _F08:  # Taylor series for small x
        numer = 1.0
        denom = alpha
        series1 = numer / denom
        series2 = numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = math.pow(x, alpha)
        gamma_pdf = math.pow(x, alpha - 1) * math.exp(-x)
        gamma_cdf = pow_x_alpha * series1
        gamma_cdf_alpha = (math.log(x) - _digamma(alpha)) * gamma_cdf - pow_x_alpha * series2
        try:
            result = -gamma_cdf_alpha / gamma_pdf
        except ZeroDivisionError:
            return 0.0
        return 0.0 if math.isnan(result) else result
    if alpha > 8.0:  # Rice saddle-point expansion for large alpha
        if _F09 * alpha <= x <= _F11 * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = (
                1440 * (alpha * alpha)
                + 6 * x * (53 - 120 * x)
                - 65 * x * x / alpha
                + alpha * (107 + 3600 * x)
            )
            denom = 1244160 * (alpha * alpha) * (alpha * alpha)
            return numer_1 * numer_2 / denom
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = math.pow(x - alpha - alpha * math.log(x / alpha), -1.5)
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = math.log(x / alpha) * term23 - math.sqrt(2 / alpha) * (alpha + x) / (
            (alpha - x) * (alpha - x)
        )
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        return -stirling * (x * term1) / denom
    u = math.log(x / alpha)  # bivariate rational approximation
    v = math.log(alpha)
    c = [_GAMMA_UV[0][i] + u * (_GAMMA_UV[1][i] + u * _GAMMA_UV[2][i]) for i in range(8)]
    p = c[0] + v * (c[1] + v * (c[2] + v * c[3]))
    q = c[4] + v * (c[5] + v * (c[6] + v * c[7]))
    return math.exp(p / q)


def standard_gamma_grad(x, alpha):
    """d x / d alpha for Gamma(alpha, 1) draws ``x`` (elementwise, alpha broadcast to x)."""
    alpha = alpha.expand(x.shape)
    pairs = zip(alpha.detach().reshape(-1).tolist(), x.detach().reshape(-1).tolist())
    values = [_gamma_grad_one(a, v) for a, v in pairs]
    return engine.tensor(values, dtype=engine.float64).reshape(x.shape).to(x.dtype)


def _beta_grad_alpha_small(x, alpha, beta):
    factor = _digamma(alpha) - _digamma(alpha + beta) - math.log(x)
    numer = 1.0
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer *= (i - beta) * x / i
        denom = alpha + i
        series += numer / denom * (factor + 1 / denom)
    result = x * math.pow(1 - x, -beta) * series
    return 0.0 if math.isnan(result) else result


def _beta_grad_beta_small(x, alpha, beta):
    factor = _digamma(alpha + beta) - _digamma(beta)
    numer, betas, dbetas, series = 1.0, 1.0, 0.0, factor / alpha
    for i in range(1, 9):
        numer *= -x / i
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series += numer / (alpha + i) * (dbetas + factor * betas)
    result = -math.pow(1 - x, 1 - beta) * series
    return 0.0 if math.isnan(result) else result


def _beta_grad_alpha_mid(x, alpha, beta):
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:  # avoid the singularity at x = mean
        bb = beta * beta
        poly = 47 * x * bb * bb + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * bb * beta
            + alpha
            * (
                3 * (59 + 180 * beta - 90 * x) * bb
                + alpha
                * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta
                    + alpha * (8 * (1 - x) * (135 * beta - 11))
                )
            )
        )
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = (
        (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
        * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
        / (1 + 1 / (12 * total) + 1 / (288 * total * total))
    )
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1_den = math.sqrt(2 * alpha / beta) * math.pow(total, 1.5) * axbx * axbx
    term1 = term1_num / term1_den
    term2 = 0.5 * math.log(alpha / (total * x))
    term3 = math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4_base = beta * math.log(beta / (total * (1 - x))) + alpha * math.log(alpha / (total * x))
    term4 = math.pow(term4_base, -1.5)
    term1234 = term1 + term2 * (term3 + (term4 if x < mean else -term4))
    return stirling * prefactor * term1234


_DIRICHLET_C = (
    (((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
      (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
      (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
     ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
      (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
      (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
     ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
      (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
      (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
    (((1, -0.02924021934, -0.04438342661, 0.007285809825),
      (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
      (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
     ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
      (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
      (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
     ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
      (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
      (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))),
)  # fmt: skip


def _dirichlet_grad_one(x, alpha, total):
    """-(d/dalpha cdf(x; alpha, total - alpha)) / pdf / (1 - x) of a Beta marginal."""
    beta = total - alpha
    boundary = total * x * (1 - x)
    if x <= 0.5 and boundary < 2.5:  # x close to 0
        return _beta_grad_alpha_small(x, alpha, beta)
    if x >= 0.5 and boundary < 0.75:  # x close to 1
        return -_beta_grad_beta_small(1 - x, beta, alpha)
    if alpha > 6 and beta > 6:  # both concentrations large
        return _beta_grad_alpha_mid(x, alpha, beta)
    u = math.log(x)  # a rational correction to an analytic approximation
    a = math.log(alpha) - u
    b = math.log(total) - a
    pow_u = (1.0, u, u * u)
    pow_a = (1.0, a, a * a)
    p = q = 0.0
    for i in range(3):
        for j in range(3):
            ua = pow_u[i] * pow_a[j]
            cp, cq = _DIRICHLET_C[0][i][j], _DIRICHLET_C[1][i][j]
            p += ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
            q += ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
    approx = x * (_digamma(total) - _digamma(alpha)) / beta
    return p / q * approx


def dirichlet_grad(x, alpha, total):
    """ATen's ``_dirichlet_grad``, elementwise over equally shaped tensors."""
    triples = zip(
        x.detach().reshape(-1).tolist(),
        alpha.detach().reshape(-1).tolist(),
        total.detach().reshape(-1).tolist(),
    )
    values = [_dirichlet_grad_one(*t) for t in triples]
    return engine.tensor(values, dtype=engine.float64).reshape(x.shape).to(x.dtype)
