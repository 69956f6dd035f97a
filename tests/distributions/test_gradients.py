"""Gradients: log_prob, cdf, entropy and KL are differentiable in the parameters (gradcheck
and gradgradcheck in float64), rsample is reparameterised (gradcheck with the noise held fixed
by reseeding), and the gamma family's implicit reparameterisation has the right derivative."""

import math

import engine
import engine.distributions as D
import numpy as np
import pytest
from engine.autograd import gradcheck, gradgradcheck


def p(*values):
    """A float64 parameter that requires grad."""
    return engine.tensor(values, dtype=engine.float64, requires_grad=True)


X = engine.tensor([0.3, -0.7, 1.4], dtype=engine.float64)
POS = engine.tensor([0.3, 1.7, 2.4], dtype=engine.float64)
UNIT = engine.tensor([0.2, 0.55, 0.9], dtype=engine.float64)
COUNTS = engine.tensor([0.0, 2.0, 5.0], dtype=engine.float64)

# (name, factory of the distribution from its parameters, parameters, value)
LOG_PROB_CASES = [
    ("normal", D.Normal, (p(0.1, 0.2, -0.5), p(1.0, 0.5, 2.0)), X),
    ("lognormal", D.LogNormal, (p(0.1, 0.2, -0.5), p(1.0, 0.5, 2.0)), POS),
    ("halfnormal", D.HalfNormal, (p(1.0, 0.5, 2.0),), POS),
    ("laplace", D.Laplace, (p(0.1, 0.2, -0.5), p(1.0, 0.5, 2.0)), X),
    ("cauchy", D.Cauchy, (p(0.1, 0.2, -0.5), p(1.0, 0.5, 2.0)), X),
    ("halfcauchy", D.HalfCauchy, (p(1.0, 0.5, 2.0),), POS),
    ("gumbel", D.Gumbel, (p(0.1, 0.2, -0.5), p(1.0, 0.5, 2.0)), X),
    ("exponential", D.Exponential, (p(1.0, 0.5, 2.0),), POS),
    ("gamma", D.Gamma, (p(1.5, 0.5, 2.0), p(1.0, 0.7, 3.0)), POS),
    ("chi2", D.Chi2, (p(1.5, 3.0, 4.0),), POS),
    ("beta", D.Beta, (p(1.5, 0.5, 2.0), p(1.0, 0.7, 3.0)), UNIT),
    ("studentt", D.StudentT, (p(2.5, 4.0, 9.0), p(0.1, 0.2, -0.5), p(1.0, 0.5, 2.0)), X),
    ("weibull", D.Weibull, (p(1.0, 0.5, 2.0), p(1.5, 0.8, 2.0)), POS),
    ("pareto", D.Pareto, (p(0.1, 0.2, 0.25), p(1.5, 0.8, 2.0)), POS),
    ("vonmises", D.VonMises, (p(0.1, 0.2, -0.5), p(1.0, 0.5, 5.0)), X),
    ("bernoulli", lambda q: D.Bernoulli(q), (p(0.2, 0.5, 0.7),), engine.tensor([0.0, 1.0, 1.0], dtype=engine.float64)),
    ("binomial", lambda q: D.Binomial(5, q), (p(0.2, 0.5, 0.7),), COUNTS),
    ("poisson", D.Poisson, (p(1.0, 0.5, 2.0),), COUNTS),
    ("geometric", lambda q: D.Geometric(q), (p(0.2, 0.5, 0.7),), COUNTS),
    ("negative_binomial", lambda n, q: D.NegativeBinomial(n, q), (p(2.0, 0.5, 3.0), p(0.2, 0.5, 0.7)), COUNTS),
    ("continuous_bernoulli", lambda q: D.ContinuousBernoulli(q), (p(0.2, 0.45, 0.7),), UNIT),
    ("relaxed_bernoulli", lambda q: D.RelaxedBernoulli(engine.tensor(0.7).double(), q), (p(0.2, 0.45, 0.7),), UNIT),
    ("categorical", lambda q: D.Categorical(q), (p(0.2, 0.3, 0.5),), engine.tensor([2, 0, 1])),
    ("dirichlet", lambda c: D.Dirichlet(c), (p(0.5, 2.0, 3.0),), engine.tensor([0.2, 0.3, 0.5], dtype=engine.float64)),
    (
        "mvn_tril",
        lambda loc, L: D.MultivariateNormal(loc, scale_tril=L.tril() + 2 * engine.eye(3, dtype=engine.float64)),
        (p(0.1, 0.2, -0.5), engine.randn(3, 3, dtype=engine.float64).requires_grad_()),
        X,
    ),
    (
        "lowrank_mvn",
        lambda loc, W, d: D.LowRankMultivariateNormal(loc, W, d),
        (p(0.1, 0.2, -0.5), engine.randn(3, 2, dtype=engine.float64).requires_grad_(), p(0.5, 1.0, 2.0)),
        X,
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    "name,factory,params,value", LOG_PROB_CASES, ids=[c[0] for c in LOG_PROB_CASES]
)
def test_log_prob_gradcheck(name, factory, params, value):
    assert gradcheck(lambda *ps: factory(*ps).log_prob(value), params)


@pytest.mark.parametrize(
    "name", ["normal", "gamma", "beta", "laplace", "studentt", "dirichlet", "mvn_tril"]
)
def test_log_prob_gradgradcheck(name):
    _, factory, params, value = next(c for c in LOG_PROB_CASES if c[0] == name)
    assert gradgradcheck(lambda *ps: factory(*ps).log_prob(value), params)


ENTROPY_CASES = [
    c
    for c in LOG_PROB_CASES
    if c[0] not in ("poisson", "negative_binomial", "vonmises", "relaxed_bernoulli")
]


@pytest.mark.parametrize(
    "name,factory,params,value", ENTROPY_CASES, ids=[c[0] for c in ENTROPY_CASES]
)
def test_entropy_gradcheck(name, factory, params, value):
    assert gradcheck(lambda *ps: factory(*ps).entropy(), params)


@pytest.mark.parametrize(
    "name", ["normal", "laplace", "cauchy", "exponential", "gamma", "gumbel", "lognormal"]
)
def test_cdf_gradcheck(name):
    _, factory, params, value = next(c for c in LOG_PROB_CASES if c[0] == name)
    if name == "gamma":  # igamma is differentiable in x only (as in PyTorch): vary the rate
        conc = params[0].detach()
        assert gradcheck(lambda rate: D.Gamma(conc, rate).cdf(value), params[1:])
        return
    assert gradcheck(lambda *ps: factory(*ps).cdf(value), params)


KL_CASES = [
    ("normal", lambda a, b, c, d: D.kl_divergence(D.Normal(a, b), D.Normal(c, d))),
    ("gamma", lambda a, b, c, d: D.kl_divergence(D.Gamma(a, b), D.Gamma(c, d))),
    ("beta", lambda a, b, c, d: D.kl_divergence(D.Beta(a, b), D.Beta(c, d))),
    ("laplace", lambda a, b, c, d: D.kl_divergence(D.Laplace(a, b), D.Laplace(c, d))),
    ("gumbel_normal", lambda a, b, c, d: D.kl_divergence(D.Gumbel(a, b), D.Normal(c, d))),
    ("exponential_gamma", lambda a, b, c, d: D.kl_divergence(D.Exponential(a * b), D.Gamma(c, d))),
]


@pytest.mark.parametrize("name,fn", KL_CASES, ids=[c[0] for c in KL_CASES])
def test_kl_gradcheck(name, fn):
    assert gradcheck(fn, (p(0.5, 1.2), p(1.0, 0.7), p(1.5, 0.9), p(0.8, 2.0)))


def _reseeded(fn):
    """fn with the generator reset before each call, so its noise is the same every time."""

    def wrapped(*args):
        engine.manual_seed(7)
        return fn(*args)

    return wrapped


RSAMPLE_CASES = [
    ("normal", lambda a, b: D.Normal(a, b).rsample((4,))),
    ("lognormal", lambda a, b: D.LogNormal(a, b).rsample((4,))),
    ("uniform", lambda a, b: D.Uniform(a, a + b).rsample((4,))),
    ("laplace", lambda a, b: D.Laplace(a, b).rsample((4,))),
    ("cauchy", lambda a, b: D.Cauchy(a, b).rsample((4,))),
    ("gumbel", lambda a, b: D.Gumbel(a, b).rsample((4,))),
    ("exponential", lambda a, b: D.Exponential(b).rsample((4,)) + a),
    ("weibull", lambda a, b: D.Weibull(b, a.exp()).rsample((4,))),
    ("mvn", lambda a, b: D.MultivariateNormal(a, scale_tril=engine.diag_embed(b)).rsample((4,))),
    ("lowrank", lambda a, b: D.LowRankMultivariateNormal(a, b.unsqueeze(-1), b).rsample((4,))),
    ("relaxed_bernoulli", lambda a, b: D.RelaxedBernoulli(b, logits=a).rsample((4,))),
    ("relaxed_onehot", lambda a, b: D.RelaxedOneHotCategorical(b.sum(), logits=a).rsample((4,))),
    ("continuous_bernoulli", lambda a, b: D.ContinuousBernoulli(logits=a).rsample((4,)) * b),
]


@pytest.mark.parametrize("name,fn", RSAMPLE_CASES, ids=[c[0] for c in RSAMPLE_CASES])
def test_rsample_gradcheck(name, fn):
    assert gradcheck(_reseeded(fn), (p(0.3, -0.2), p(1.1, 0.6)))


def test_has_rsample_flags():
    assert (
        D.Normal(0.0, 1.0).has_rsample
        and D.Gamma(1.0, 1.0).has_rsample
        and D.Dirichlet(engine.ones(2)).has_rsample
    )
    assert not D.Poisson(1.0).has_rsample and not D.Bernoulli(0.5).has_rsample
    with pytest.raises(NotImplementedError):
        D.Bernoulli(0.5).rsample()


def test_standard_gamma_implicit_derivative():
    # dx/dalpha = -(dF/dalpha) / pdf, checked against a fine central difference of the CDF
    # computed independently in scipy. The gradient is PyTorch's approximation (series, saddle
    # point and rational fit), accurate to a few parts in 10^4.
    special = pytest.importorskip("scipy.special")
    from engine.distributions._gamma_gradients import standard_gamma_grad

    alpha = np.array([0.3, 1.0, 2.5, 10.0])
    x = np.array([0.05, 0.8, 2.0, 12.0])
    h = 1e-6
    dF = (special.gammainc(alpha + h, x) - special.gammainc(alpha - h, x)) / (2 * h)
    pdf = np.exp((alpha - 1) * np.log(x) - x - special.gammaln(alpha))
    got = standard_gamma_grad(engine.tensor(x), engine.tensor(alpha)).numpy()
    np.testing.assert_allclose(got, -dF / pdf, rtol=1e-3)


@pytest.mark.parametrize(
    "make,expected",
    [
        (
            lambda c: D.Gamma(c, engine.tensor(2.0, dtype=engine.float64)),
            lambda c: 1 / 2.0,
        ),  # d mean / d c
        (
            lambda c: D.Beta(c, engine.tensor(3.0, dtype=engine.float64)),
            lambda c: 3.0 / (c + 3.0) ** 2,
        ),
        (lambda c: D.Chi2(c), lambda c: 1.0),
    ],
)
def test_gamma_family_rsample_gradient_is_unbiased(make, expected):
    # The pathwise gradient averages to the derivative of the mean.
    engine.manual_seed(0)
    c = engine.tensor(1.7, dtype=engine.float64, requires_grad=True)
    samples = make(c).rsample((20000,))
    (grad,) = engine.autograd.grad(samples.mean(), c)
    assert abs(grad.item() - expected(1.7)) < 0.03


def test_dirichlet_rsample_gradient_is_unbiased():
    engine.manual_seed(0)
    conc = engine.tensor([1.0, 2.0, 3.0], dtype=engine.float64, requires_grad=True)
    samples = D.Dirichlet(conc).rsample((20000,))
    (grad,) = engine.autograd.grad(samples[:, 0].mean(), conc)
    total = 6.0  # d(a0 / sum) / d a = (sum - a0) / sum^2 for a0, -a0 / sum^2 otherwise
    expected = np.array([(total - 1.0) / total**2, -1.0 / total**2, -1.0 / total**2])
    np.testing.assert_allclose(grad.numpy(), expected, atol=0.01)


def test_studentt_rsample_is_differentiable():
    df = p(3.0, 5.0)
    loc = p(0.0, 1.0)
    engine.manual_seed(0)
    out = D.StudentT(df, loc, 1.0).rsample((10,)).sum()
    grads = engine.autograd.grad(out, (df, loc))
    assert grads[1].tolist() == [10.0, 10.0]
    assert all(math.isfinite(g) for g in grads[0].tolist())
