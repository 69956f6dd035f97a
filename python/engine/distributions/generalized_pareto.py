"""Generalized Pareto distribution."""

import math
from numbers import Number, Real

import engine
from engine.distributions import constraints
from engine.distributions.distribution import Distribution
from engine.distributions.utils import broadcast_all

__all__ = ["GeneralizedPareto"]


class GeneralizedPareto(Distribution):
    """A generalized Pareto distribution with location ``loc``, scale ``scale`` and shape
    ``concentration`` (0 gives the exponential tail, negative a bounded support). Sampled by
    inverting the CDF (reparameterised).

    Example::

        >>> m = GeneralizedPareto(torch.tensor([0.1]), torch.tensor([2.0]), torch.tensor([0.4]))
        >>> m.sample()
    """

    arg_constraints = {
        "loc": constraints.real,
        "scale": constraints.positive,
        "concentration": constraints.real,
    }
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        if (
            isinstance(loc, Number)
            and isinstance(scale, Number)
            and isinstance(concentration, Number)
        ):
            batch_shape = engine.Size()
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(GeneralizedPareto, _instance)
        batch_shape = engine.Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        super(GeneralizedPareto, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        u = engine.rand(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.icdf(u)

    def _z(self, x):
        return (x - self.loc) / self.scale

    def _safe_concentration(self):
        # The concentration-0 limit has its own formula; elsewhere divide by the concentration.
        eq_zero = engine.isclose(self.concentration, engine.tensor(0.0))
        return eq_zero, engine.where(
            eq_zero, engine.ones_like(self.concentration), self.concentration
        )

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe_conc = self._safe_concentration()
        y = 1 / safe_conc + engine.ones_like(z)
        where_nonzero = engine.where(y == 0, y, y * engine.log1p(safe_conc * z))
        log_scale = math.log(self.scale) if isinstance(self.scale, Real) else self.scale.log()
        return -log_scale - engine.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value):
        """log(1 - cdf(value))."""
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe_conc = self._safe_concentration()
        return engine.where(eq_zero, -z, -engine.log1p(safe_conc * z) / safe_conc)

    def log_cdf(self, value):
        """log(cdf(value))."""
        return engine.log1p(-engine.exp(self.log_survival_function(value)))

    def cdf(self, value):
        return engine.exp(self.log_cdf(value))

    def icdf(self, value):
        concentration = self.concentration
        eq_zero = engine.isclose(concentration, engine.zeros_like(concentration))
        safe_conc = engine.where(eq_zero, engine.ones_like(concentration), concentration)
        logu = engine.log1p(-value)
        where_nonzero = self.loc + self.scale / safe_conc * engine.expm1(-safe_conc * logu)
        return engine.where(eq_zero, self.loc - self.scale * logu, where_nonzero)

    @property
    def mean(self):
        valid = self.concentration < 1
        safe_conc = engine.where(valid, self.concentration, 0.5)
        return engine.where(valid, self.loc + self.scale / (1 - safe_conc), math.nan)

    @property
    def variance(self):
        valid = self.concentration < 0.5
        safe_conc = engine.where(valid, self.concentration, 0.25)
        result = self.scale**2 / ((1 - safe_conc) ** 2 * (1 - 2 * safe_conc))
        return engine.where(valid, result, math.nan)

    def entropy(self):
        ans = engine.log(self.scale) + self.concentration + 1
        return engine.broadcast_to(ans, self._batch_shape)

    @property
    def mode(self):
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        lower = self.loc
        upper = engine.where(
            self.concentration < 0, lower - self.scale / self.concentration, math.inf
        )
        return constraints.interval(lower, upper)
