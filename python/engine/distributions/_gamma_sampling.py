"""Standard gamma and Dirichlet draws as PyTorch's CPU samplers make them, with an implicit
reparameterisation gradient.

The draws follow ATen's ``sample_gamma`` (Marsaglia and Tsang's method, alpha < 1 boosted by a
uniform power) element by element in row-major order, taking each uniform and normal from the
engine generator exactly as ATen's ``uniform_real_distribution<double>`` and cached Box-Muller
``normal_distribution<double>`` do; float32 concentrations keep ATen's float arithmetic where it
has it (``alpha - 1.0f / 3.0f``). So a seeded ``Gamma``, ``Dirichlet``, ``Beta`` or
``LKJCholesky`` draws PyTorch's values, and the generator is left where PyTorch leaves it.

Their reparameterisation gradients are ATen's approximations (``_gamma_gradients``)."""

import math

import engine
from engine.distributions._gamma_gradients import dirichlet_grad, standard_gamma_grad

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
    the last dim in double, kept inside [tiny, 1) of concentration's dtype."""
    gammas = engine.tensor(_draws(concentration, single=False), dtype=engine.float64)
    gammas = gammas.reshape(concentration.shape).clamp_(min=engine.finfo(engine.float64).tiny)
    ratio = gammas / gammas.sum(-1, keepdim=True)
    info = engine.finfo(concentration.dtype)
    below_one = 1.0 - info.eps / 2  # nexttoward(1, 0) in that dtype
    return ratio.clamp_(min=info.tiny, max=below_one).to(concentration.dtype)


class _StandardGamma(engine.autograd.Function):
    @staticmethod
    def forward(ctx, concentration):
        x = _sample_standard_gamma(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        x, concentration = ctx.saved_tensors
        return grad_output * standard_gamma_grad(x, concentration)


def _standard_gamma(concentration):
    """Gamma(concentration, 1) draws, differentiable in concentration."""
    if concentration.requires_grad:
        return _StandardGamma.apply(concentration)
    return _sample_standard_gamma(concentration)


class _Dirichlet(engine.autograd.Function):
    """Dirichlet draws, differentiable in their concentration through ATen's Beta-marginal
    gradient (``torch.distributions.dirichlet._Dirichlet``)."""

    @staticmethod
    def forward(ctx, concentration):
        x = _sample_dirichlet(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    @engine.autograd.function.once_differentiable
    def backward(ctx, grad_output):
        x, concentration = ctx.saved_tensors
        total = concentration.sum(-1, True).expand_as(concentration)
        grad = dirichlet_grad(x, concentration, total)
        return grad * (grad_output - (x * grad_output).sum(-1, True))


def _dirichlet(concentration):
    """Dirichlet draws with PyTorch's values, differentiable in concentration."""
    return _Dirichlet.apply(concentration)
