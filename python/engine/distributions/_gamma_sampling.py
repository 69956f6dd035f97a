"""Standard gamma and Dirichlet draws as PyTorch's CPU samplers make them, with an implicit
reparameterisation gradient.

The draws follow ATen's ``sample_gamma`` (Marsaglia and Tsang's method, alpha < 1 boosted by a
uniform power) element by element in row-major order, taking each uniform and normal from the
engine generator exactly as ATen's ``uniform_real_distribution<double>`` and cached Box-Muller
``normal_distribution<double>`` do; float32 concentrations keep ATen's float arithmetic where it
has it (``alpha - 1.0f / 3.0f``). So a seeded ``Gamma``, ``Dirichlet``, ``Beta`` or
``LKJCholesky`` draws PyTorch's values, and the generator is left where PyTorch leaves it.

The gradient of a draw x with respect to its concentration a follows from holding the CDF fixed:
``dx/da = -(dF/da)(a, x) / p(x; a)``, with F the regularised lower incomplete gamma function;
dF/da is a central difference of ``igamma`` in float64 (about 1e-8 relative accuracy), so the
gradient is once differentiable."""

import math

import engine

__all__ = []


_ONE_THIRD_F = 0.3333333432674408  # 1.0f / 3.0f, as ATen's sampler subtracts it
_SQUEEZE_F = 0.033100001513957977  # 0.0331f


def _constants(alpha, f32):
    """ATen's per-alpha constants: (power of the boosting uniform or None, d, c). ``f32`` is
    NumPy's float32 where alpha is a float32 (its arithmetic then rounds to float32), None for
    a double."""
    power = None
    if alpha < 1.0:
        if f32 is not None:
            power = float(f32(1.0) / f32(alpha))
            alpha = float(f32(alpha) + f32(1.0))
        else:
            power = 1.0 / alpha
            alpha = alpha + 1.0
    d = float(f32(alpha) - f32(_ONE_THIRD_F)) if f32 is not None else alpha - _ONE_THIRD_F
    return power, d, 1.0 / math.sqrt(9.0 * d)


def _draw_gamma(power, d, c, uniform, normal):
    """One Gamma(alpha, 1) draw by ATen's ``sample_gamma`` (Marsaglia and Tsang), from the
    constants of :func:`_constants`."""
    scale = 1.0
    if power is not None:
        scale *= math.pow(1 - uniform(), power)
    while True:
        x = normal()
        y = 1.0 + c * x
        while y <= 0:
            x = normal()
            y = 1.0 + c * x
        v = y * y * y
        u = 1 - uniform()
        xx = x * x
        if u < 1.0 - _SQUEEZE_F * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def _draws(concentration, single, generator=None):
    """Gamma draws (Python floats) for every element of ``concentration``, in row-major order."""
    # One-element float64 buffer: uniform_ draws one uniform_real_distribution<double>, and
    # normal_ on fewer than 16 elements takes the scalar Box-Muller path with its cache.
    buffer = engine.empty(1, dtype=engine.float64)

    def uniform():
        return buffer.uniform_(generator=generator).item()

    def normal():
        return buffer.normal_(generator=generator).item()

    f32 = None
    if single:
        import numpy

        f32 = numpy.float32
    constants: dict = {}
    draws = []
    for alpha in concentration.detach().reshape(-1).tolist():
        if alpha == 0.0:
            draws.append(0.0)
            continue
        found = constants.get(alpha)
        if found is None:
            found = constants[alpha] = _constants(alpha, f32)
        draws.append(_draw_gamma(*found, uniform, normal))
    return draws


def _sample_standard_gamma(concentration):
    """Gamma(concentration, 1) draws in concentration's dtype (ATen's ``_standard_gamma``),
    at least the dtype's tiny so that log(x) stays finite."""
    single = concentration.dtype != engine.float64
    draws = _draws(concentration, single)
    result = engine.tensor(draws, dtype=engine.float64).reshape(concentration.shape)
    result = result.to(concentration.dtype)
    return result.clamp_(min=engine.finfo(concentration.dtype).tiny)


def _sample_dirichlet(concentration):
    """Dirichlet draws as ATen's ``_sample_dirichlet``: gamma draws in double, normalised over
    the last dim in double, kept inside [tiny, 1) of concentration's dtype. Also returns the
    double gamma draws (for the gradient)."""
    gammas = engine.tensor(_draws(concentration, single=False), dtype=engine.float64)
    gammas = gammas.reshape(concentration.shape).clamp_(min=engine.finfo(engine.float64).tiny)
    ratio = gammas / gammas.sum(-1, keepdim=True)
    info = engine.finfo(concentration.dtype)
    below_one = 1.0 - info.eps / 2  # nexttoward(1, 0) in that dtype
    result = ratio.clamp_(min=info.tiny, max=below_one).to(concentration.dtype)
    return result, gammas


def _standard_gamma_grad(x, alpha):
    """d x / d alpha for a Gamma(alpha, 1) draw x (elementwise), computed in float64."""
    a = alpha.detach().to(engine.float64)
    v = x.detach().to(engine.float64)
    step = 1e-5 * a.clamp(min=1.0)
    step = engine.minimum(step, a / 2)  # stay inside alpha > 0
    dcdf = (engine.igamma(a + step, v) - engine.igamma(a - step, v)) / (2 * step)
    log_pdf = (a - 1) * engine.log(v) - v - engine.lgamma(a)
    return (-dcdf / engine.exp(log_pdf)).to(alpha.dtype)


class _StandardGamma(engine.autograd.Function):
    @staticmethod
    def forward(ctx, concentration):
        x = _sample_standard_gamma(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        x, concentration = ctx.saved_tensors
        return grad_output * _standard_gamma_grad(x, concentration)


def _standard_gamma(concentration):
    """Gamma(concentration, 1) draws, differentiable in concentration."""
    if concentration.requires_grad:
        return _StandardGamma.apply(concentration)
    return _sample_standard_gamma(concentration)


class _GivenGamma(engine.autograd.Function):
    """The given gamma draws, differentiable in their concentration (implicit gradient)."""

    @staticmethod
    def forward(ctx, concentration, gammas):
        ctx.save_for_backward(gammas, concentration)
        return gammas.to(concentration.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        gammas, concentration = ctx.saved_tensors
        return grad_output * _standard_gamma_grad(gammas, concentration), None


def _dirichlet(concentration):
    """Dirichlet draws with PyTorch's values; differentiable in concentration through the
    normalised gamma draws (their values replaced by the sampler's exact ones)."""
    result, gammas = _sample_dirichlet(concentration)
    if not concentration.requires_grad:
        return result
    g = _GivenGamma.apply(concentration, gammas)
    path = g / g.sum(-1, keepdim=True)
    return result + (path - path.detach())
