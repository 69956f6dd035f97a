"""Probability distributions and sampling functions (``torch.distributions``).

Distributions are parameterised by tensors and batched over their leading dims
(``batch_shape``); ``sample``/``rsample`` draw ``sample_shape + batch_shape + event_shape``
values (``rsample`` is reparameterised so gradients reach the parameters), ``log_prob``
scores values, and ``kl_divergence`` compares two distributions. ``constraints`` describe
parameter and support sets, ``transforms`` map between them and ``biject_to`` /
``transform_to`` find the transform onto a constraint.

Example (REINFORCE)::

    probs = policy_network(state)
    m = Categorical(probs)
    action = m.sample()
    loss = -m.log_prob(action) * reward
"""

from engine.distributions import constraints, transforms
from engine.distributions.bernoulli import Bernoulli
from engine.distributions.beta import Beta
from engine.distributions.binomial import Binomial
from engine.distributions.categorical import Categorical
from engine.distributions.cauchy import Cauchy
from engine.distributions.chi2 import Chi2
from engine.distributions.constraint_registry import biject_to, transform_to
from engine.distributions.continuous_bernoulli import ContinuousBernoulli
from engine.distributions.dirichlet import Dirichlet
from engine.distributions.distribution import Distribution
from engine.distributions.exp_family import ExponentialFamily
from engine.distributions.exponential import Exponential
from engine.distributions.fishersnedecor import FisherSnedecor
from engine.distributions.gamma import Gamma
from engine.distributions.generalized_pareto import GeneralizedPareto
from engine.distributions.geometric import Geometric
from engine.distributions.gumbel import Gumbel
from engine.distributions.half_cauchy import HalfCauchy
from engine.distributions.half_normal import HalfNormal
from engine.distributions.independent import Independent
from engine.distributions.inverse_gamma import InverseGamma
from engine.distributions.kl import kl_divergence, register_kl
from engine.distributions.kumaraswamy import Kumaraswamy
from engine.distributions.laplace import Laplace
from engine.distributions.lkj_cholesky import LKJCholesky
from engine.distributions.log_normal import LogNormal
from engine.distributions.logistic_normal import LogisticNormal
from engine.distributions.lowrank_multivariate_normal import LowRankMultivariateNormal
from engine.distributions.mixture_same_family import MixtureSameFamily
from engine.distributions.multinomial import Multinomial
from engine.distributions.multivariate_normal import MultivariateNormal
from engine.distributions.negative_binomial import NegativeBinomial
from engine.distributions.normal import Normal
from engine.distributions.one_hot_categorical import (
    OneHotCategorical,
    OneHotCategoricalStraightThrough,
)
from engine.distributions.pareto import Pareto
from engine.distributions.poisson import Poisson
from engine.distributions.relaxed_bernoulli import RelaxedBernoulli
from engine.distributions.relaxed_categorical import RelaxedOneHotCategorical
from engine.distributions.studentT import StudentT
from engine.distributions.transformed_distribution import TransformedDistribution
from engine.distributions.transforms import *  # noqa: F403
from engine.distributions.uniform import Uniform
from engine.distributions.von_mises import VonMises
from engine.distributions.weibull import Weibull
from engine.distributions.wishart import Wishart

__all__ = [
    "Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2", "ContinuousBernoulli",
    "Dirichlet", "Distribution", "Exponential", "ExponentialFamily", "FisherSnedecor", "Gamma",
    "GeneralizedPareto", "Geometric", "Gumbel", "HalfCauchy", "HalfNormal", "Independent",
    "InverseGamma", "Kumaraswamy", "LKJCholesky", "Laplace", "LogNormal", "LogisticNormal",
    "LowRankMultivariateNormal", "MixtureSameFamily", "Multinomial", "MultivariateNormal",
    "NegativeBinomial", "Normal", "OneHotCategorical", "OneHotCategoricalStraightThrough",
    "Pareto", "Poisson", "RelaxedBernoulli", "RelaxedOneHotCategorical", "StudentT",
    "TransformedDistribution", "Uniform", "VonMises", "Weibull", "Wishart", "register_kl", "kl_divergence",
    "biject_to", "transform_to", "constraints", "transforms",
]  # fmt: skip
__all__.extend(transforms.__all__)
