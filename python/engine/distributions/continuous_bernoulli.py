"""Continuous Bernoulli distribution on [0, 1] (Loaiza-Ganem & Cunningham, 2019)."""

import math
from numbers import Number

import engine
from engine.distributions import constraints
from engine.distributions.exp_family import ExponentialFamily
from engine.distributions.utils import (
    broadcast_all,
    clamp_probs,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)

__all__ = ["ContinuousBernoulli"]


class ContinuousBernoulli(ExponentialFamily):
    """A continuous Bernoulli with density proportional to ``p^x (1-p)^(1-x)`` on [0, 1].

    Near p = 1/2 the closed forms cancel catastrophically; within ``lims`` Taylor expansions
    are used instead, as PyTorch does.

    Example::

        >>> m = ContinuousBernoulli(torch.tensor([0.3]))
        >>> m.sample()
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            is_scalar = isinstance(probs, Number)
            (self.probs,) = broadcast_all(probs)
            # Checked before the clamp below would hide invalid values.
            if validate_args is not None:
                if not self.arg_constraints["probs"].check(self.probs).all():
                    raise ValueError("The parameter probs has invalid values")
            self.probs = clamp_probs(self.probs)
        else:
            is_scalar = isinstance(logits, Number)
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        batch_shape = engine.Size() if is_scalar else self._param.size()
        self._lims = lims
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(ContinuousBernoulli, _instance)
        new._lims = self._lims
        batch_shape = engine.Size(batch_shape)
        if "probs" in self.__dict__:
            new.probs = self.probs.expand(batch_shape)
            new._param = new.probs
        if "logits" in self.__dict__:
            new.logits = self.logits.expand(batch_shape)
            new._param = new.logits
        super(ContinuousBernoulli, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    def _outside_unstable_region(self):
        return engine.le(self.probs, self._lims[0]) | engine.gt(self.probs, self._lims[1])

    def _cut_probs(self):
        return engine.where(
            self._outside_unstable_region(),
            self.probs,
            self._lims[0] * engine.ones_like(self.probs),
        )

    def _cont_bern_log_norm(self):
        """log of the normalising constant C(p)."""
        cut_probs = self._cut_probs()
        below_half = engine.where(
            engine.le(cut_probs, 0.5), cut_probs, engine.zeros_like(cut_probs)
        )
        above_half = engine.where(engine.ge(cut_probs, 0.5), cut_probs, engine.ones_like(cut_probs))
        log_norm = engine.log(
            engine.abs(engine.log1p(-cut_probs) - engine.log(cut_probs))
        ) - engine.where(
            engine.le(cut_probs, 0.5),
            engine.log1p(-2.0 * below_half),
            engine.log(2.0 * above_half - 1.0),
        )
        x = engine.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return engine.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self):
        cut_probs = self._cut_probs()
        mus = cut_probs / (2.0 * cut_probs - 1.0) + 1.0 / (
            engine.log1p(-cut_probs) - engine.log(cut_probs)
        )
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * engine.pow(x, 2)) * x
        return engine.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self):
        return engine.sqrt(self.variance)

    @property
    def variance(self):
        cut_probs = self._cut_probs()
        variances = cut_probs * (cut_probs - 1.0) / engine.pow(
            1.0 - 2.0 * cut_probs, 2
        ) + 1.0 / engine.pow(engine.log1p(-cut_probs) - engine.log(cut_probs), 2)
        x = engine.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return engine.where(self._outside_unstable_region(), variances, taylor)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self):
        return self._param.size()

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        u = engine.rand(shape, dtype=self.probs.dtype, device=self.probs.device)
        with engine.no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        u = engine.rand(shape, dtype=self.probs.dtype, device=self.probs.device)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        bce = engine.nn.functional.binary_cross_entropy_with_logits(logits, value, reduction="none")
        return -bce + self._cont_bern_log_norm()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        cut_probs = self._cut_probs()
        cdfs = (
            engine.pow(cut_probs, value) * engine.pow(1.0 - cut_probs, 1.0 - value)
            + cut_probs
            - 1.0
        ) / (2.0 * cut_probs - 1.0)
        unbounded_cdfs = engine.where(self._outside_unstable_region(), cdfs, value)
        return engine.where(
            engine.le(value, 0.0),
            engine.zeros_like(value),
            engine.where(engine.ge(value, 1.0), engine.ones_like(value), unbounded_cdfs),
        )

    def icdf(self, value):
        cut_probs = self._cut_probs()
        return engine.where(
            self._outside_unstable_region(),
            (engine.log1p(-cut_probs + value * (2.0 * cut_probs - 1.0)) - engine.log1p(-cut_probs))
            / (engine.log(cut_probs) - engine.log1p(-cut_probs)),
            value,
        )

    def entropy(self):
        log_probs0 = engine.log1p(-self.probs)
        log_probs1 = engine.log(self.probs)
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0

    @property
    def _natural_params(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        out_unst_reg = engine.le(x, self._lims[0] - 0.5) | engine.gt(x, self._lims[1] - 0.5)
        cut_nat_params = engine.where(out_unst_reg, x, (self._lims[0] - 0.5) * engine.ones_like(x))
        log_norm = engine.log(engine.abs(engine.expm1(cut_nat_params))) - engine.log(
            engine.abs(cut_nat_params)
        )
        taylor = 0.5 * x + engine.pow(x, 2) / 24.0 - engine.pow(x, 4) / 2880.0
        return engine.where(out_unst_reg, log_norm, taylor)
