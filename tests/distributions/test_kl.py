"""kl_divergence: registered pairs against Monte Carlo estimates, infinite pairs, dispatch to
the most specific registration, and the errors for unregistered pairs."""

import math

import engine
import engine.distributions as D
import numpy as np
import pytest


def t(*values):
    return engine.tensor(values, dtype=engine.float64)


# (name, p, q): p is sampled to estimate E_p[log p - log q].
PAIRS = [
    ("normal_normal", D.Normal(t(0.3, -1.0), t(1.2, 0.5)), D.Normal(t(0.0, 0.5), t(1.0, 2.0))),
    ("gamma_gamma", D.Gamma(t(2.0, 0.7), t(1.5, 3.0)), D.Gamma(t(1.0, 2.0), t(1.0, 2.0))),
    ("beta_beta", D.Beta(t(2.0, 0.7), t(1.5, 3.0)), D.Beta(t(1.0, 2.0), t(1.0, 2.0))),
    ("exponential_exponential", D.Exponential(t(1.0, 3.0)), D.Exponential(t(2.0, 0.5))),
    ("laplace_laplace", D.Laplace(t(0.3, -1.0), t(1.2, 0.5)), D.Laplace(t(0.0, 0.5), t(1.0, 2.0))),
    ("gumbel_gumbel", D.Gumbel(t(0.3, -1.0), t(1.2, 0.5)), D.Gumbel(t(0.0, 0.5), t(1.0, 2.0))),
    ("cauchy_cauchy", D.Cauchy(t(0.3, -1.0), t(1.2, 0.5)), D.Cauchy(t(0.0, 0.5), t(1.0, 2.0))),
    ("poisson_poisson", D.Poisson(t(2.0, 5.0)), D.Poisson(t(3.0, 4.0))),
    ("bernoulli_bernoulli", D.Bernoulli(t(0.3, 0.8)), D.Bernoulli(t(0.6, 0.5))),
    ("geometric_geometric", D.Geometric(t(0.3, 0.8)), D.Geometric(t(0.6, 0.5))),
    ("binomial_binomial", D.Binomial(6, t(0.3, 0.8)), D.Binomial(6, t(0.6, 0.5))),
    ("categorical", D.Categorical(t(0.2, 0.3, 0.5)), D.Categorical(t(0.5, 0.25, 0.25))),
    ("onehot", D.OneHotCategorical(t(0.2, 0.3, 0.5)), D.OneHotCategorical(t(0.5, 0.25, 0.25))),
    ("dirichlet", D.Dirichlet(t(1.0, 2.0, 3.0)), D.Dirichlet(t(2.0, 2.0, 1.0))),
    ("halfnormal", D.HalfNormal(t(1.0, 2.0)), D.HalfNormal(t(1.5, 0.7))),
    ("pareto", D.Pareto(t(1.0, 2.0), t(3.0, 4.0)), D.Pareto(t(0.5, 1.0), t(2.0, 5.0))),
    ("uniform", D.Uniform(t(0.0, 1.0), t(1.0, 2.0)), D.Uniform(t(-1.0, 0.0), t(2.0, 3.0))),
    ("continuous_bernoulli", D.ContinuousBernoulli(t(0.2, 0.7)), D.ContinuousBernoulli(t(0.6, 0.4))),
    ("lognormal_lognormal", D.LogNormal(t(0.3, -1.0), t(1.2, 0.5)), D.LogNormal(t(0.0, 0.5), t(1.0, 2.0))),
    ("gamma_normal", D.Gamma(t(2.0, 3.0), t(1.5, 2.0)), D.Normal(t(1.0, 1.0), t(1.0, 2.0))),
    ("beta_normal", D.Beta(t(2.0, 3.0), t(1.5, 2.0)), D.Normal(t(0.5, 0.0), t(1.0, 2.0))),
    ("beta_gamma", D.Beta(t(2.0, 3.0), t(1.5, 2.0)), D.Gamma(t(2.0, 1.0), t(1.0, 2.0))),
    ("beta_exponential", D.Beta(t(2.0, 3.0), t(1.5, 2.0)), D.Exponential(t(2.0, 1.0))),
    ("beta_uniform", D.Beta(t(2.0, 3.0), t(1.5, 2.0)), D.Uniform(t(-1.0, 0.0), t(2.0, 1.0))),
    ("exponential_gamma", D.Exponential(t(1.0, 3.0)), D.Gamma(t(2.0, 1.0), t(1.0, 2.0))),
    ("exponential_normal", D.Exponential(t(1.0, 3.0)), D.Normal(t(0.5, 0.0), t(1.0, 2.0))),
    ("exponential_gumbel", D.Exponential(t(1.0, 3.0)), D.Gumbel(t(0.5, 0.0), t(1.0, 2.0))),
    ("gamma_exponential", D.Gamma(t(2.0, 3.0), t(1.5, 2.0)), D.Exponential(t(2.0, 1.0))),
    ("gamma_gumbel", D.Gamma(t(2.0, 3.0), t(1.5, 2.0)), D.Gumbel(t(0.5, 0.0), t(1.0, 2.0))),
    ("gumbel_normal", D.Gumbel(t(0.3, -1.0), t(1.2, 0.5)), D.Normal(t(0.0, 0.5), t(1.0, 2.0))),
    ("laplace_normal", D.Laplace(t(0.3, -1.0), t(1.2, 0.5)), D.Normal(t(0.0, 0.5), t(1.0, 2.0))),
    ("normal_gumbel", D.Normal(t(0.3, -1.0), t(1.2, 0.5)), D.Gumbel(t(0.0, 0.5), t(1.0, 2.0))),
    ("normal_laplace", D.Normal(t(0.3, -1.0), t(1.2, 0.5)), D.Laplace(t(0.0, 0.5), t(1.0, 2.0))),
    ("pareto_exponential", D.Pareto(t(1.0, 2.0), t(3.0, 4.0)), D.Exponential(t(2.0, 1.0))),
    ("pareto_gamma", D.Pareto(t(1.0, 2.0), t(3.0, 4.0)), D.Gamma(t(2.0, 1.0), t(1.0, 2.0))),
    ("pareto_normal", D.Pareto(t(1.0, 2.0), t(3.0, 4.0)), D.Normal(t(1.0, 2.0), t(1.0, 2.0))),
    ("uniform_normal", D.Uniform(t(0.0, 1.0), t(1.0, 2.0)), D.Normal(t(0.5, 0.0), t(1.0, 2.0))),
    ("uniform_gumbel", D.Uniform(t(0.0, 1.0), t(1.0, 2.0)), D.Gumbel(t(0.5, 0.0), t(1.0, 2.0))),
    ("uniform_gamma", D.Uniform(t(0.1, 1.0), t(1.0, 2.0)), D.Gamma(t(2.0, 1.0), t(1.0, 2.0))),
    ("uniform_beta", D.Uniform(t(0.1, 0.2), t(0.5, 0.9)), D.Beta(t(2.0, 1.0), t(1.0, 2.0))),
    ("uniform_exponential", D.Uniform(t(0.1, 1.0), t(1.0, 2.0)), D.Exponential(t(2.0, 1.0))),
    ("uniform_pareto", D.Uniform(t(1.5, 2.0), t(2.0, 3.0)), D.Pareto(t(1.0, 1.5), t(2.0, 1.0))),
    ("bernoulli_poisson", D.Bernoulli(t(0.3, 0.8)), D.Poisson(t(2.0, 0.5))),
    (
        "independent",
        D.Independent(D.Normal(t(0.3, -1.0), t(1.2, 0.5)), 1),
        D.Independent(D.Normal(t(0.0, 0.5), t(1.0, 2.0)), 1),
    ),
    (
        "mvn_mvn",
        D.MultivariateNormal(t(0.1, 0.2), engine.tensor([[2.0, 0.3], [0.3, 1.0]], dtype=engine.float64)),
        D.MultivariateNormal(t(-0.3, 0.5), engine.tensor([[1.0, -0.2], [-0.2, 0.5]], dtype=engine.float64)),
    ),
    (
        "lowrank_lowrank",
        D.LowRankMultivariateNormal(t(0.1, 0.2), engine.tensor([[1.0], [0.5]], dtype=engine.float64), t(0.5, 1.0)),
        D.LowRankMultivariateNormal(t(-0.3, 0.5), engine.tensor([[0.2], [-0.5]], dtype=engine.float64), t(1.0, 0.7)),
    ),
    (
        "mvn_lowrank",
        D.MultivariateNormal(t(0.1, 0.2), engine.tensor([[2.0, 0.3], [0.3, 1.0]], dtype=engine.float64)),
        D.LowRankMultivariateNormal(t(-0.3, 0.5), engine.tensor([[0.2], [-0.5]], dtype=engine.float64), t(1.0, 0.7)),
    ),
    (
        "lowrank_mvn",
        D.LowRankMultivariateNormal(t(0.1, 0.2), engine.tensor([[1.0], [0.5]], dtype=engine.float64), t(0.5, 1.0)),
        D.MultivariateNormal(t(-0.3, 0.5), engine.tensor([[1.0, -0.2], [-0.2, 0.5]], dtype=engine.float64)),
    ),
]  # fmt: skip


@pytest.mark.parametrize("name,p,q", PAIRS, ids=[c[0] for c in PAIRS])
def test_kl_matches_monte_carlo(name, p, q):
    engine.manual_seed(0)
    n = 40000
    samples = p.sample((n,))
    log_ratio = (p.log_prob(samples) - q.log_prob(samples)).numpy()
    estimate = log_ratio.mean(0)
    stderr = log_ratio.std(0) / math.sqrt(n)
    kl = D.kl_divergence(p, q).detach().numpy()
    assert kl.shape == estimate.shape
    assert np.all(np.abs(kl - estimate) <= 5 * stderr + 1e-9), (kl, estimate, stderr)


@pytest.mark.parametrize(
    "p,q",
    [
        (D.Normal(t(0.0), t(1.0)), D.Uniform(t(0.0), t(1.0))),
        (D.Normal(t(0.0), t(1.0)), D.Exponential(t(1.0))),
        (D.Gamma(t(2.0), t(1.0)), D.Beta(t(2.0), t(1.0))),
        (D.Exponential(t(1.0)), D.Pareto(t(1.0), t(2.0))),
        (D.Uniform(t(0.0), t(2.0)), D.Uniform(t(0.5), t(1.0))),
        (D.Categorical(t(0.5, 0.5)), D.Categorical(t(1.0, 0.0))),
        (D.Bernoulli(t(0.5)), D.Bernoulli(t(1.0))),
        (D.Binomial(5, t(0.5)), D.Binomial(3, t(0.5))),
        (D.Pareto(t(1.0), t(0.8)), D.Exponential(t(1.0))),
    ],
)
def test_infinite_kl(p, q):
    assert D.kl_divergence(p, q).isinf().all().item()


def test_zero_probability_terms_are_zero():
    p = D.Categorical(t(0.0, 1.0))
    assert D.kl_divergence(p, D.Categorical(t(0.5, 0.5))).item() == pytest.approx(math.log(2))
    assert D.kl_divergence(D.Bernoulli(t(1.0)), D.Bernoulli(t(0.5))).item() == pytest.approx(
        math.log(2)
    )


def test_kl_of_a_distribution_with_itself_is_zero():
    for d in (
        D.Normal(t(0.3), t(2.0)),
        D.Gamma(t(2.0), t(3.0)),
        D.Dirichlet(t(1.0, 2.0)),
        D.VonMises(t(0.1), t(2.0)),
    ):
        if type(d) is D.VonMises:
            with pytest.raises(NotImplementedError, match="No KL"):
                D.kl_divergence(d, d)
            continue
        assert D.kl_divergence(d, d).abs().max().item() < 1e-12


def test_exponential_family_bregman_fallback():
    # Registered only as (ExponentialFamily, ExponentialFamily): the Bregman divergence.
    p, q = D.Poisson(t(2.0, 5.0)), D.Poisson(t(3.0, 4.0))
    expected = D.kl_divergence(p, q)
    got = D.kl._kl_expfamily_expfamily(p, q)
    np.testing.assert_allclose(got.detach().numpy(), expected.numpy(), rtol=1e-10)


def test_register_kl_prefers_most_specific_and_warns_on_ambiguity():
    class MyNormal(D.Normal):
        pass

    class MyLaplace(D.Laplace):
        pass

    @D.register_kl(MyNormal, D.Normal)
    def _kl_mine(p, q):
        return engine.tensor(123.0)

    try:
        assert D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(0.0, 1.0)).item() == 123.0

        @D.register_kl(D.Normal, MyLaplace)
        def _kl_other(p, q):
            return engine.tensor(7.0)

        @D.register_kl(MyNormal, D.Laplace)
        def _kl_other2(p, q):
            return engine.tensor(8.0)

        with pytest.warns(RuntimeWarning, match="Ambiguous kl_divergence"):
            D.kl_divergence(MyNormal(0.0, 1.0), MyLaplace(0.0, 1.0))
    finally:
        for key in [(MyNormal, D.Normal), (D.Normal, MyLaplace), (MyNormal, D.Laplace)]:
            D.kl._KL_REGISTRY.pop(key, None)
        D.kl._KL_MEMOIZE.clear()


def test_unregistered_pair_message():
    with pytest.raises(
        NotImplementedError, match="No KL\\(p \\|\\| q\\) is implemented for p type VonMises"
    ):
        D.kl_divergence(D.VonMises(t(0.0), t(1.0)), D.Normal(t(0.0), t(1.0)))


def test_event_shape_mismatch():
    p = D.MultivariateNormal(engine.zeros(2), engine.eye(2))
    q = D.MultivariateNormal(engine.zeros(3), engine.eye(3))
    with pytest.raises(ValueError, match="different event shapes"):
        D.kl_divergence(p, q)
