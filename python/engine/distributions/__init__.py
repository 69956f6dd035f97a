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

Each distribution's file loads when its name is first used (engine/_lazy.py), with what it
imports: ``Normal`` does not load the other forty.
"""

from engine import _lazy

# name -> the file that defines it (the distributions' files are named for them).
_HOMES = {
    "Bernoulli": "bernoulli", "Beta": "beta", "Binomial": "binomial", "Categorical": "categorical",
    "Cauchy": "cauchy", "Chi2": "chi2", "ContinuousBernoulli": "continuous_bernoulli",
    "Dirichlet": "dirichlet", "Distribution": "distribution", "ExponentialFamily": "exp_family",
    "Exponential": "exponential", "FisherSnedecor": "fishersnedecor", "Gamma": "gamma",
    "GeneralizedPareto": "generalized_pareto", "Geometric": "geometric", "Gumbel": "gumbel",
    "HalfCauchy": "half_cauchy", "HalfNormal": "half_normal", "Independent": "independent",
    "InverseGamma": "inverse_gamma", "Kumaraswamy": "kumaraswamy", "LKJCholesky": "lkj_cholesky",
    "Laplace": "laplace", "LogNormal": "log_normal", "LogisticNormal": "logistic_normal",
    "LowRankMultivariateNormal": "lowrank_multivariate_normal",
    "MixtureSameFamily": "mixture_same_family", "Multinomial": "multinomial",
    "MultivariateNormal": "multivariate_normal", "NegativeBinomial": "negative_binomial",
    "Normal": "normal", "OneHotCategorical": "one_hot_categorical",
    "OneHotCategoricalStraightThrough": "one_hot_categorical", "Pareto": "pareto",
    "Poisson": "poisson", "RelaxedBernoulli": "relaxed_bernoulli",
    "RelaxedOneHotCategorical": "relaxed_categorical", "StudentT": "studentT",
    "TransformedDistribution": "transformed_distribution", "Uniform": "uniform",
    "VonMises": "von_mises", "Weibull": "weibull", "Wishart": "wishart",
    "biject_to": "constraint_registry", "transform_to": "constraint_registry",
    "kl_divergence": "kl", "register_kl": "kl",
}  # fmt: skip
# transforms.__all__, exported here as well
_TRANSFORMS = (
    "AbsTransform", "AffineTransform", "CatTransform", "ComposeTransform", "CorrCholeskyTransform",
    "CumulativeDistributionTransform", "ExpTransform", "IndependentTransform",
    "LowerCholeskyTransform", "PositiveDefiniteTransform", "PowerTransform", "ReshapeTransform",
    "SigmoidTransform", "SoftplusTransform", "TanhTransform", "SoftmaxTransform", "StackTransform",
    "StickBreakingTransform", "Transform", "identity_transform",
)  # fmt: skip
_HOMES.update(dict.fromkeys(_TRANSFORMS, "transforms"))

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
__all__.extend(_TRANSFORMS)

__getattr__, __dir__ = _lazy.attach(
    __name__,
    submodules=("constraints", "transforms", "utils", *_HOMES.values()),
    attributes={name: (f".{home}", name) for name, home in _HOMES.items()},
)
