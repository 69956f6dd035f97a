"""LKJ distribution over Cholesky factors of correlation matrices."""

import math

import engine
from engine.distributions import constraints
from engine.distributions.beta import Beta
from engine.distributions.distribution import Distribution
from engine.distributions.utils import broadcast_all

__all__ = ["LKJCholesky"]


class LKJCholesky(Distribution):
    """The LKJ distribution of the lower Cholesky factor of a ``dim`` x ``dim`` correlation
    matrix, with shape ``concentration`` (1 is uniform over correlation matrices). Sampled by
    the onion method.

    Example::

        >>> l = LKJCholesky(3, 0.5)
        >>> l.sample()  # l @ l.T is a sample of a correlation 3x3 matrix
    """

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        if dim < 2:
            raise ValueError(
                f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}."
            )
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        batch_shape = self.concentration.size()
        event_shape = engine.Size((dim, dim))
        # Beta marginals of the squared row norms (onion method).
        marginal_conc = self.concentration + 0.5 * (self.dim - 2)
        offset = engine.arange(
            self.dim - 1, dtype=self.concentration.dtype, device=self.concentration.device
        )
        offset = engine.cat([offset.new_zeros((1,)), offset])
        beta_conc1 = offset + 0.5
        beta_conc0 = marginal_conc.unsqueeze(-1) - 0.5 * offset
        self._beta = Beta(beta_conc1, beta_conc0)
        super().__init__(batch_shape, event_shape, validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(LKJCholesky, _instance)
        batch_shape = engine.Size(batch_shape)
        new.dim = self.dim
        new.concentration = self.concentration.expand(batch_shape)
        new._beta = self._beta.expand(batch_shape + (self.dim,))
        super(LKJCholesky, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=()):
        with engine.no_grad():
            y = self._beta.sample(sample_shape).unsqueeze(-1)
            u_normal = engine.randn(
                self._extended_shape(sample_shape), dtype=y.dtype, device=y.device
            ).tril(-1)
            norms = u_normal.norm(dim=-1, keepdim=True)
            u_hypersphere = u_normal / norms
            # The first row is all zero (0/0 above): its off-diagonal part is zero.
            first_row = engine.arange(self.dim, device=y.device) == 0
            u_hypersphere = engine.where(first_row.unsqueeze(-1), 0.0, u_hypersphere)
            w = engine.sqrt(y) * u_hypersphere
            eps = engine.finfo(w.dtype).tiny
            diag_elems = engine.clamp(1 - engine.sum(w**2, dim=-1), min=eps).sqrt()
            return w + engine.diag_embed(diag_elems)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diag_elems = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = engine.arange(2, self.dim + 1, device=self.concentration.device)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized_log_pdf = engine.sum(order * diag_elems.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = engine.lgamma(alpha) * dm1
        numerator = engine.mvlgamma(alpha - 0.5, dm1)
        pi_constant = 0.5 * dm1 * math.log(math.pi)
        return unnormalized_log_pdf - (pi_constant + numerator - denominator)
