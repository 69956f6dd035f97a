"""The distribution cases the fixture recorder and the tests build alike, with PyTorch or with
the engine as ``lib``: each is (name, distribution, value to score, sampled bit for bit)."""

# Distributions whose samplers draw the same random numbers as PyTorch's after manual_seed.
# Gamma-based ones (Gamma, Chi2, Beta, Dirichlet, StudentT, NegativeBinomial, LKJCholesky),
# Poisson and Binomial draw from NumPy generators seeded by the engine generator instead.
SAME_STREAM = {
    "normal", "normal_scalar", "lognormal", "halfnormal", "uniform", "bernoulli_probs",
    "bernoulli_logits", "categorical", "categorical_logits", "onehot", "multinomial",
    "exponential", "laplace", "cauchy", "halfcauchy", "geometric", "gumbel", "weibull", "pareto",
    "vonmises", "mvn_cov", "mvn_tril", "mvn_prec", "lowrank_mvn", "relaxed_bernoulli",
    "relaxed_onehot", "continuous_bernoulli", "mixture", "independent_normal", "transformed",
    "kumaraswamy", "logistic_normal", "generalized_pareto",
}  # fmt: skip
# Of those, the ones whose values also agree to the last bit (the rest apply transcendental
# functions or matrix products whose rounding differs by an ulp or so).
BIT_EXACT = SAME_STREAM - {
    "laplace",
    "lowrank_mvn",
    "mvn_cov",
    "mvn_prec",
    "mvn_tril",
    "relaxed_bernoulli",
    "transformed",
    "vonmises",
    "generalized_pareto",
}


def build(lib):
    """Returns a list of (name, distribution, value) built with ``lib`` (torch or engine)."""
    D = lib.distributions
    f64 = lib.float64

    def t(x):
        return lib.tensor(x, dtype=f64)

    loc = t([[0.3, -1.2, 2.0], [0.0, 0.5, -0.7]])
    scale = t([[1.0, 0.5, 2.5], [0.3, 1.7, 0.9]])
    x = t([[0.1, -0.4, 3.0], [1.2, 0.0, -2.0]])
    pos = t([[0.2, 1.5, 3.0], [0.7, 0.05, 2.2]])
    unit = t([[0.1, 0.45, 0.9], [0.3, 0.7, 0.999]])
    probs = t([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]])
    conc = t([[0.5, 2.0, 3.5], [1.0, 1.2, 7.0]])
    rate = t([[1.0, 0.3, 2.0], [4.0, 1.5, 0.8]])
    counts = t([[0.0, 2.0, 5.0], [3.0, 1.0, 0.0]])
    cov = t([[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 0.5]])
    tril = lib.linalg.cholesky(cov)
    mloc = t([[0.1, 0.2, -0.3], [1.0, -1.0, 0.0]])
    cases = [
        ("normal", D.Normal(loc, scale), x),
        ("normal_scalar", D.Normal(0.5, 2.0), t([0.1, -3.0]).float()),
        ("lognormal", D.LogNormal(loc, scale), pos),
        ("halfnormal", D.HalfNormal(scale), pos),
        ("uniform", D.Uniform(loc - 1, loc + 3), loc + 0.5),
        ("bernoulli_probs", D.Bernoulli(unit), t([[0.0, 1.0, 1.0], [0.0, 0.0, 1.0]])),
        ("bernoulli_logits", D.Bernoulli(logits=x), t([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0]])),
        ("binomial", D.Binomial(t(5.0), unit), t([[0.0, 2.0, 5.0], [3.0, 1.0, 4.0]])),
        ("categorical", D.Categorical(probs), lib.tensor([2, 0])),
        ("categorical_logits", D.Categorical(logits=x), lib.tensor([1, 2])),
        ("onehot", D.OneHotCategorical(probs), t([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])),
        ("multinomial", D.Multinomial(7, probs), t([[1.0, 2.0, 4.0], [0.0, 7.0, 0.0]])),
        ("beta", D.Beta(conc, rate), unit),
        ("gamma", D.Gamma(conc, rate), pos),
        ("chi2", D.Chi2(conc * 2), pos),
        ("dirichlet", D.Dirichlet(conc), probs),
        ("exponential", D.Exponential(rate), pos),
        ("laplace", D.Laplace(loc, scale), x),
        ("cauchy", D.Cauchy(loc, scale), x),
        ("halfcauchy", D.HalfCauchy(scale), pos),
        ("studentt", D.StudentT(conc * 3, loc, scale), x),
        ("poisson", D.Poisson(rate), counts),
        ("geometric", D.Geometric(unit), counts),
        ("negative_binomial", D.NegativeBinomial(conc, unit * 0.9), counts),
        ("gumbel", D.Gumbel(loc, scale), x),
        ("weibull", D.Weibull(scale, conc), pos),
        ("pareto", D.Pareto(scale * 0.1, conc + 0.5), pos + 1),
        ("vonmises", D.VonMises(loc, conc), x),
        ("mvn_cov", D.MultivariateNormal(mloc, covariance_matrix=cov), x),
        ("mvn_tril", D.MultivariateNormal(mloc, scale_tril=tril), x),
        ("mvn_prec", D.MultivariateNormal(mloc, precision_matrix=lib.linalg.inv(cov)), x),
        (
            "lowrank_mvn",
            D.LowRankMultivariateNormal(
                mloc, t([[1.0, 0.0], [0.5, -0.3], [0.2, 0.8]]), t([0.5, 1.0, 0.7])
            ),
            x,
        ),
        ("relaxed_bernoulli", D.RelaxedBernoulli(t(0.7), unit), unit.flip(-1)),
        ("relaxed_onehot", D.RelaxedOneHotCategorical(t(0.6), probs), probs.flip(-1)),
        (
            "continuous_bernoulli",
            D.ContinuousBernoulli(t([[0.2, 0.4995, 0.8], [0.01, 0.5, 0.95]])),
            unit,
        ),
        (
            "mixture",
            D.MixtureSameFamily(D.Categorical(probs), D.Normal(loc, scale)),
            t([0.4, -1.0]),
        ),
        ("independent_normal", D.Independent(D.Normal(loc, scale), 1), x),
        (
            "transformed",
            D.TransformedDistribution(
                D.Normal(loc, scale),
                [D.transforms.TanhTransform(), D.transforms.AffineTransform(1.0, 2.0)],
            ),
            unit * 2 - 0.5,
        ),
        ("lkj", D.LKJCholesky(3, t([0.5, 2.0])), tril / tril.norm(dim=-1, keepdim=True)),
        ("fisher_snedecor", D.FisherSnedecor(conc * 2, conc * 3 + 2), pos),
        ("inverse_gamma", D.InverseGamma(conc + 0.5, rate), pos),
        ("kumaraswamy", D.Kumaraswamy(conc, rate), unit),
        (
            "logistic_normal",
            D.LogisticNormal(loc, scale),
            t([[0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.25, 0.25]]),
        ),
        (
            "generalized_pareto",
            # float32: PyTorch's log_prob compares with a float32 zero and rejects float64
            D.GeneralizedPareto(
                loc.float(), scale.float(), t([[0.3, -0.2, 0.0], [0.1, 0.5, -0.4]]).float()
            ),
            (loc + 0.5 * scale).float(),
        ),
        (
            "wishart",
            D.Wishart(t([4.0, 6.5]), covariance_matrix=cov),
            lib.stack([cov * 3, cov @ cov + lib.eye(3)]),
        ),
    ]
    return cases


# The quantities compared, each a function of (distribution, value); cdf/icdf/entropy and the
# moments raise NotImplementedError where PyTorch's do (recorded as None).
def quantities(lib):
    """The (name, function) pairs evaluated for each case."""
    probs_in = 0.3

    def icdf(d, v):
        return d.icdf(lib.full_like(v, probs_in) if v.is_floating_point() else None)

    return [
        ("log_prob", lambda d, v: d.log_prob(v)),
        ("cdf", lambda d, v: d.cdf(v)),
        ("icdf", icdf),
        ("entropy", lambda d, v: d.entropy()),
        ("mean", lambda d, v: d.mean),
        ("variance", lambda d, v: d.variance),
        ("stddev", lambda d, v: d.stddev),
        ("mode", lambda d, v: d.mode),
    ]


def errors(lib):
    """(name, thunk) pairs that PyTorch rejects; the recorder stores the exception type and
    message of each."""
    D = lib.distributions
    t = lib.tensor
    return [
        ("normal_negative_scale", lambda: D.Normal(t([0.0, 1.0]), t([1.0, -1.0]))),
        ("normal_nan_loc", lambda: D.Normal(t(float("nan")), t(1.0))),
        ("normal_value_not_tensor", lambda: D.Normal(t(0.0), t(1.0)).log_prob(0.5)),
        (
            "normal_value_shape",
            lambda: D.Normal(t([0.0, 1.0]), t([1.0, 1.0])).log_prob(t([0.0, 1.0, 2.0])),
        ),
        (
            "mvn_event_shape",
            lambda: D.MultivariateNormal(t([0.0, 0.0]), lib.eye(2)).log_prob(t([0.0, 1.0, 2.0])),
        ),
        ("exponential_support", lambda: D.Exponential(t([1.0, 2.0])).log_prob(t([-1.0, 1.0]))),
        ("bernoulli_both", lambda: D.Bernoulli(probs=t(0.5), logits=t(0.0))),
        ("bernoulli_neither", lambda: D.Bernoulli()),
        ("bernoulli_probs_range", lambda: D.Bernoulli(t([0.5, 1.5]))),
        ("bernoulli_support", lambda: D.Bernoulli(t([0.5, 0.5])).log_prob(t([0.5, 1.0]))),
        ("categorical_scalar_probs", lambda: D.Categorical(t(0.5))),
        ("categorical_simplex", lambda: D.Categorical(probs=t([0.5, -0.5]))),
        ("categorical_support", lambda: D.Categorical(t([0.5, 0.5])).log_prob(t(2))),
        ("uniform_low_high", lambda: D.Uniform(t(2.0), t(1.0))),
        ("gamma_concentration", lambda: D.Gamma(t(0.0), t(1.0))),
        ("beta_support", lambda: D.Beta(t(2.0), t(2.0)).log_prob(t(1.5))),
        ("dirichlet_scalar", lambda: D.Dirichlet(t(1.0))),
        ("mvn_no_matrix", lambda: D.MultivariateNormal(t([0.0, 0.0]))),
        (
            "mvn_two_matrices",
            lambda: D.MultivariateNormal(t([0.0]), lib.eye(1), scale_tril=lib.eye(1)),
        ),
        ("mvn_scalar_loc", lambda: D.MultivariateNormal(t(0.0), lib.eye(1))),
        ("mvn_not_pd", lambda: D.MultivariateNormal(t([0.0, 0.0]), t([[1.0, 2.0], [2.0, 1.0]]))),
        (
            "lowrank_factor_shape",
            lambda: D.LowRankMultivariateNormal(t([0.0, 0.0]), t([[1.0, 0.0]]), t([1.0, 1.0])),
        ),
        ("independent_too_many", lambda: D.Independent(D.Normal(t([0.0]), t([1.0])), 2)),
        ("geometric_zero", lambda: D.Geometric(t([0.0, 0.5]))),
        ("multinomial_count", lambda: D.Multinomial(t(3), t([0.5, 0.5]))),
        ("transformed_bad", lambda: D.TransformedDistribution(D.Normal(t(0.0), t(1.0)), "exp")),
        ("lkj_dim", lambda: D.LKJCholesky(1)),
        (
            "mixture_not_categorical",
            lambda: D.MixtureSameFamily(D.Normal(t(0.0), t(1.0)), D.Normal(t(0.0), t(1.0))),
        ),
        ("kl_unregistered", lambda: D.kl_divergence(D.Normal(t(0.0), t(1.0)), D.Poisson(t(1.0)))),
        ("transform_cache_size", lambda: D.transforms.ExpTransform(cache_size=2)),
        ("biject_to_unknown", lambda: D.biject_to(D.constraints.boolean)),
        ("default_validate_args", lambda: D.Distribution.set_default_validate_args(2)),
    ]
