"""Kumaraswamy distribution on (0, 1)."""

import math

import engine
from engine.distributions import constraints
from engine.distributions.transformed_distribution import TransformedDistribution
from engine.distributions.transforms import AffineTransform, PowerTransform
from engine.distributions.uniform import Uniform
from engine.distributions.utils import broadcast_all, euler_constant

__all__ = ["Kumaraswamy"]


def _moments(a, b, n):
    """E[X^n] = b * B(1 + n / a, b)."""
    arg1 = 1 + n / a
    log_value = engine.lgamma(arg1) + engine.lgamma(b) - engine.lgamma(arg1 + b)
    return b * engine.exp(log_value)


class Kumaraswamy(TransformedDistribution):
    """A Kumaraswamy distribution, ``(1 - (1 - U)^(1/b))^(1/a)`` for uniform U.

    Example::

        >>> m = Kumaraswamy(torch.tensor([1.0]), torch.tensor([1.0]))
        >>> m.sample()
    """

    arg_constraints = {
        "concentration1": constraints.positive,
        "concentration0": constraints.positive,
    }
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base_dist = Uniform(
            engine.full_like(self.concentration0, 0),
            engine.full_like(self.concentration0, 1),
            validate_args=validate_args,
        )
        transforms = [
            PowerTransform(exponent=self.concentration0.reciprocal()),
            AffineTransform(loc=1.0, scale=-1.0),
            PowerTransform(exponent=self.concentration1.reciprocal()),
        ]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Kumaraswamy, _instance)
        new.concentration1 = self.concentration1.expand(batch_shape)
        new.concentration0 = self.concentration0.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self):
        return _moments(self.concentration1, self.concentration0, 1)

    @property
    def mode(self):
        log_mode = (
            self.concentration0.reciprocal() * (-self.concentration0).log1p()
            - (-self.concentration0 * self.concentration1).log1p()
        )
        log_mode = engine.where(
            (self.concentration0 < 1) | (self.concentration1 < 1), math.nan, log_mode
        )
        return log_mode.exp()

    @property
    def variance(self):
        return _moments(self.concentration1, self.concentration0, 2) - engine.pow(self.mean, 2)

    def entropy(self):
        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        H0 = engine.digamma(self.concentration0 + 1) + euler_constant
        return t0 + t1 * H0 - engine.log(self.concentration1) - engine.log(self.concentration0)
