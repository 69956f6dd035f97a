"""Dirichlet distribution over the simplex."""

import engine
from engine.distributions import constraints
from engine.distributions._gamma_sampling import _dirichlet
from engine.distributions.exp_family import ExponentialFamily

__all__ = ["Dirichlet"]


class Dirichlet(ExponentialFamily):
    """A Dirichlet distribution with concentration ``concentration`` (last dim: categories).

    Samples are PyTorch's (normalised gamma draws); ``rsample`` is reparameterised through them.

    Example::

        >>> m = Dirichlet(torch.tensor([0.5, 0.5]))
        >>> m.sample()  # Dirichlet distributed with concentration [0.5, 0.5]
    """

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        batch_shape, event_shape = concentration.shape[:-1], concentration.shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Dirichlet, _instance)
        batch_shape = engine.Size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape + self.event_shape)
        super(Dirichlet, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        return _dirichlet(self.concentration.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (
            engine.xlogy(self.concentration - 1.0, value).sum(-1)
            + engine.lgamma(self.concentration.sum(-1))
            - engine.lgamma(self.concentration).sum(-1)
        )

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        concentrationm1 = (self.concentration - 1).clamp(min=0.0)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        # With every concentration below 1 the density peaks at a vertex: the largest one.
        mask = (self.concentration < 1).all(dim=-1, keepdim=True)
        vertex = engine.nn.functional.one_hot(mode.argmax(dim=-1), concentrationm1.shape[-1]).to(
            mode
        )
        return engine.where(mask, vertex, mode)

    @property
    def variance(self):
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self):
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (
            engine.lgamma(self.concentration).sum(-1)
            - engine.lgamma(a0)
            - (k - a0) * engine.digamma(a0)
            - ((self.concentration - 1.0) * engine.digamma(self.concentration)).sum(-1)
        )

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - engine.lgamma(x.sum(-1))
