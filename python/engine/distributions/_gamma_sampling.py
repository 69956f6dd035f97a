"""Standard gamma draws with an implicit reparameterisation gradient.

The engine has no native gamma sampler, so draws come from a NumPy generator seeded by the
engine generator (reproducible under ``manual_seed``, not PyTorch's stream). The gradient of a
draw x with respect to its concentration a follows from holding the CDF fixed:
``dx/da = -(dF/da)(a, x) / p(x; a)``, with F the regularised lower incomplete gamma function;
dF/da is a central difference of ``igamma`` in float64 (about 1e-8 relative accuracy), so the
gradient is once differentiable."""

import engine
from engine._random_extra import _numpy_rng

__all__ = []


def _sample_standard_gamma(concentration):
    """Gamma(concentration, 1) draws in concentration's dtype, clamped to the dtype's tiny so
    that log(x) stays finite."""
    import numpy as np

    alpha = concentration.detach().to(engine.float64).contiguous().numpy()
    draws = _numpy_rng(None).standard_gamma(alpha) if alpha.size else np.zeros(alpha.shape)
    result = engine.from_numpy(
        np.ascontiguousarray(np.asarray(draws, dtype=np.float64)).reshape(alpha.shape)
    )
    result = result.to(concentration.dtype)
    return result.clamp_(min=engine.finfo(concentration.dtype).tiny)


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
