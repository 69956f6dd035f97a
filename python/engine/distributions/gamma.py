"""Gamma distribution with shape ``concentration`` and inverse scale ``rate``."""

from numbers import Number

import engine
from engine.distributions import constraints
from engine.distributions._gamma_sampling import _standard_gamma
from engine.distributions.exp_family import ExponentialFamily
from engine.distributions.utils import broadcast_all

__all__ = ["Gamma"]


class Gamma(ExponentialFamily):
    """A gamma distribution with shape ``concentration`` and rate ``rate``.

    Example::

        >>> m = Gamma(torch.tensor([1.0]), torch.tensor([1.0]))
        >>> m.sample()  # Gamma distributed with concentration=1 and rate=1
    """

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        if isinstance(concentration, Number) and isinstance(rate, Number):
            batch_shape = engine.Size()
        else:
            batch_shape = self.concentration.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Gamma, _instance)
        batch_shape = engine.Size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        super(Gamma, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        value = _standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        with engine.no_grad():  # keep draws positive without recording the clamp
            value.clamp_(min=engine.finfo(value.dtype).tiny)
        return value

    def log_prob(self, value):
        value = engine.as_tensor(value, dtype=self.rate.dtype, device=self.rate.device)
        if self._validate_args:
            self._validate_sample(value)
        return (
            engine.xlogy(self.concentration, self.rate)
            + engine.xlogy(self.concentration - 1, value)
            - self.rate * value
            - engine.lgamma(self.concentration)
        )

    def entropy(self):
        return (
            self.concentration
            - engine.log(self.rate)
            + engine.lgamma(self.concentration)
            + (1.0 - self.concentration) * engine.digamma(self.concentration)
        )

    @property
    def _natural_params(self):
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x, y):
        return engine.lgamma(x + 1) + (x + 1) * engine.log(-y.reciprocal())

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return engine.igamma(self.concentration, self.rate * value)
