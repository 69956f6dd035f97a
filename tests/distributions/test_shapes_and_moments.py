"""Shapes (sample_shape + batch_shape + event_shape, expand, enumerate_support), dtypes, sample
moments against the distributions' means and variances, and log densities against SciPy's
closed forms in float64."""

import math

import engine
import engine.distributions as D
import numpy as np
import pytest
from distribution_cases import build

CASES = build(engine)
HEAVY_TAILED = {"cauchy", "halfcauchy"}


@pytest.mark.parametrize("name,dist,value", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("sample_shape", [(), (5,), (2, 3)], ids=str)
def test_sample_shapes(name, dist, value, sample_shape):
    engine.manual_seed(0)
    x = dist.sample(sample_shape)
    assert tuple(x.shape) == tuple(sample_shape) + tuple(dist.batch_shape) + tuple(dist.event_shape)
    assert not x.requires_grad
    assert tuple(dist.log_prob(x).shape) == tuple(sample_shape) + tuple(dist.batch_shape)
    if dist.has_rsample:
        assert dist.rsample(sample_shape).shape == x.shape


@pytest.mark.parametrize("name,dist,value", CASES, ids=[c[0] for c in CASES])
def test_expand(name, dist, value):
    new_batch = (4,) + tuple(dist.batch_shape)
    expanded = dist.expand(new_batch)
    assert type(expanded) is type(dist)
    assert tuple(expanded.batch_shape) == new_batch and expanded.event_shape == dist.event_shape
    engine.manual_seed(0)
    assert tuple(expanded.sample((2,)).shape) == (2,) + new_batch + tuple(dist.event_shape)
    if tuple(value.shape) != tuple(dist.batch_shape + dist.event_shape):
        return  # a value with its own sample dims: the shape check above is the point
    np.testing.assert_allclose(
        expanded.log_prob(value).numpy(),
        np.broadcast_to(dist.log_prob(value).numpy(), (4,) + tuple(dist.batch_shape)),
    )


MOMENT_CASES = [c for c in CASES if c[0] not in HEAVY_TAILED and c[0] not in ("vonmises", "lkj")]


@pytest.mark.parametrize("name,dist,value", MOMENT_CASES, ids=[c[0] for c in MOMENT_CASES])
def test_sample_moments(name, dist, value):
    engine.manual_seed(1)
    n = 20000
    samples = dist.sample((n,)).double().numpy()
    try:
        mean, variance = dist.mean.double().numpy(), dist.variance.double().numpy()
    except NotImplementedError:
        pytest.skip("no closed-form moments")
    finite = np.isfinite(mean) & np.isfinite(variance)
    sample_mean = samples.mean(0)
    bound = 5 * np.sqrt(np.where(finite, variance, 0) / n) + 1e-9
    assert np.all(np.abs(sample_mean - mean)[finite] <= bound[finite]), (sample_mean, mean)
    heavy = name in (
        "pareto",
        "studentt",
        "lognormal",
        "fisher_snedecor",
        "generalized_pareto",
        "inverse_gamma",
    )  # sample variance converges slowly
    if not heavy:
        np.testing.assert_allclose(samples.var(0)[finite], variance[finite], rtol=0.1, atol=1e-3)


def test_vonmises_samples_circular_mean():
    loc, conc = (
        engine.tensor([0.5, -2.5], dtype=engine.float64),
        engine.tensor([2.0, 8.0], dtype=engine.float64),
    )
    d = D.VonMises(loc, conc)
    engine.manual_seed(0)
    x = d.sample((20000,)).numpy()
    assert np.all(np.abs(x) <= math.pi)
    np.testing.assert_allclose(np.angle(np.exp(1j * x).mean(0)), loc.numpy(), atol=0.03)
    np.testing.assert_allclose(1 - np.abs(np.exp(1j * x).mean(0)), d.variance.numpy(), atol=0.01)


def test_lkj_samples_are_correlation_cholesky_factors():
    engine.manual_seed(0)
    d = D.LKJCholesky(4, engine.tensor([0.5, 3.0]))
    L = d.sample((50,))
    assert D.constraints.corr_cholesky.check(L).all()
    corr = (L @ L.mT).numpy()
    np.testing.assert_allclose(np.diagonal(corr, axis1=-2, axis2=-1), 1.0, atol=1e-5)
    # Larger concentration concentrates the correlations near zero.
    off = np.abs(corr[..., 1, 0])
    assert off[:, 1].mean() < off[:, 0].mean()


def test_enumerate_support():
    b = D.Bernoulli(engine.tensor([0.2, 0.7]))
    assert b.enumerate_support().tolist() == [[0.0, 0.0], [1.0, 1.0]]
    assert b.enumerate_support(expand=False).shape == (2, 1)
    assert D.Binomial(3, engine.tensor([0.5])).enumerate_support().squeeze(-1).tolist() == [
        0.0,
        1.0,
        2.0,
        3.0,
    ]
    assert D.Categorical(engine.ones(2, 3)).enumerate_support().shape == (3, 2)
    assert D.OneHotCategorical(engine.ones(3)).enumerate_support().tolist() == np.eye(3).tolist()
    with pytest.raises(NotImplementedError, match="Inhomogeneous total count"):
        D.Binomial(engine.tensor([2.0, 3.0]), engine.tensor([0.5, 0.5])).enumerate_support()


def test_dtypes_follow_parameters():
    assert D.Normal(0.0, 1.0).sample().dtype == engine.float32
    assert D.Normal(engine.tensor(0.0, dtype=engine.float64), 1.0).sample().dtype == engine.float64
    assert D.Categorical(engine.ones(3)).sample().dtype == engine.int64
    assert D.Bernoulli(0.5).sample().dtype == engine.float32
    assert D.Poisson(engine.tensor([2.0], dtype=engine.float64)).sample().dtype == engine.float64
    assert D.Gamma(2.0, 1.0).rsample().dtype == engine.float32


def test_scalar_parameters_give_empty_batch_shape():
    for d in (
        D.Normal(0.0, 1.0),
        D.Exponential(1.0),
        D.Bernoulli(0.3),
        D.Gamma(1.0, 2.0),
        D.Beta(1.0, 2.0),
    ):
        assert d.batch_shape == engine.Size() and d.sample().shape == ()


def test_perplexity_and_stddev():
    d = D.Normal(engine.tensor([0.0, 1.0]), engine.tensor([2.0, 0.5]))
    np.testing.assert_allclose(d.perplexity().numpy(), np.exp(d.entropy().numpy()), rtol=1e-6)
    np.testing.assert_allclose(D.Gamma(engine.tensor(4.0), engine.tensor(2.0)).stddev.item(), 1.0)


def test_lazy_probs_logits():
    b = D.Bernoulli(logits=engine.tensor([0.0, 2.0]))
    assert "probs" not in b.__dict__
    np.testing.assert_allclose(b.probs.numpy(), 1 / (1 + np.exp(-np.array([0.0, 2.0]))), rtol=1e-6)
    assert "probs" in b.__dict__
    c = D.Categorical(probs=engine.tensor([1.0, 3.0]))
    np.testing.assert_allclose(c.probs.numpy(), [0.25, 0.75])
    np.testing.assert_allclose(c.logits.exp().numpy(), [0.25, 0.75], rtol=1e-6)


def test_straight_through_onehot_gradient():
    probs = engine.tensor([0.2, 0.3, 0.5], requires_grad=True)
    d = D.OneHotCategoricalStraightThrough(probs)
    engine.manual_seed(0)
    s = d.rsample()
    assert sorted(s.detach().tolist()) == [0.0, 0.0, 1.0]
    (g,) = engine.autograd.grad((s * engine.tensor([1.0, 2.0, 3.0])).sum(), probs)
    assert g.abs().sum().item() > 0


def test_mixture_log_prob_is_weighted_density():
    mix = D.Categorical(engine.tensor([0.3, 0.7], dtype=engine.float64))
    comp = D.Normal(
        engine.tensor([-1.0, 2.0], dtype=engine.float64),
        engine.tensor([0.5, 1.5], dtype=engine.float64),
    )
    gmm = D.MixtureSameFamily(mix, comp)
    x = engine.tensor([0.3, -1.0], dtype=engine.float64)
    dens = (mix.probs * comp.log_prob(x.unsqueeze(-1)).exp()).sum(-1)
    np.testing.assert_allclose(gmm.log_prob(x).numpy(), np.log(dens.numpy()))
    np.testing.assert_allclose(
        gmm.cdf(x).numpy(), (mix.probs * comp.cdf(x.unsqueeze(-1))).sum(-1).numpy()
    )


def _t(values):
    return engine.tensor(values, dtype=engine.float64)


SCIPY_CASES = [
    ("norm", lambda: D.Normal(_t(0.3), _t(1.7)), {"loc": 0.3, "scale": 1.7}, [-1.0, 0.2, 3.0]),
    ("gamma", lambda: D.Gamma(_t(2.5), _t(1.5)), {"a": 2.5, "scale": 1 / 1.5}, [0.1, 1.0, 4.0]),
    ("beta", lambda: D.Beta(_t(0.7), _t(2.5)), {"a": 0.7, "b": 2.5}, [0.05, 0.5, 0.9]),
    (
        "t",
        lambda: D.StudentT(_t(3.5), _t(0.2), _t(2.0)),
        {"df": 3.5, "loc": 0.2, "scale": 2.0},
        [-3.0, 0.0, 5.0],
    ),
    ("laplace", lambda: D.Laplace(_t(0.2), _t(2.0)), {"loc": 0.2, "scale": 2.0}, [-3.0, 0.0, 5.0]),
    ("gumbel_r", lambda: D.Gumbel(_t(0.2), _t(2.0)), {"loc": 0.2, "scale": 2.0}, [-3.0, 0.0, 5.0]),
    (
        "lognorm",
        lambda: D.LogNormal(_t(0.2), _t(0.8)),
        {"s": 0.8, "scale": math.exp(0.2)},
        [0.3, 1.0, 5.0],
    ),
    ("weibull_min", lambda: D.Weibull(_t(2.0), _t(1.5)), {"c": 1.5, "scale": 2.0}, [0.3, 1.0, 5.0]),
    ("pareto", lambda: D.Pareto(_t(1.5), _t(2.5)), {"b": 2.5, "scale": 1.5}, [1.6, 2.0, 9.0]),
    (
        "vonmises",
        lambda: D.VonMises(_t(0.3), _t(2.0)),
        {"kappa": 2.0, "loc": 0.3},
        [-1.0, 0.3, 2.0],
    ),
    ("chi2", lambda: D.Chi2(_t(3.0)), {"df": 3.0}, [0.3, 1.0, 5.0]),
    ("halfnorm", lambda: D.HalfNormal(_t(1.5)), {"scale": 1.5}, [0.3, 1.0, 5.0]),
    ("halfcauchy", lambda: D.HalfCauchy(_t(1.5)), {"scale": 1.5}, [0.3, 1.0, 5.0]),
    ("expon", lambda: D.Exponential(_t(2.0)), {"scale": 0.5}, [0.3, 1.0, 5.0]),
]


@pytest.mark.parametrize("scipy_name,make,kwargs,xs", SCIPY_CASES, ids=[c[0] for c in SCIPY_CASES])
def test_continuous_log_prob_against_scipy(scipy_name, make, kwargs, xs):
    stats = pytest.importorskip("scipy.stats")
    d = make()
    x = _t(xs)
    ref = getattr(stats, scipy_name)(**kwargs)
    rtol = 1e-6 if scipy_name == "vonmises" else 1e-10  # PyTorch's Bessel polynomial approximation
    np.testing.assert_allclose(d.log_prob(x).numpy(), ref.logpdf(xs), rtol=rtol)
    if scipy_name not in ("vonmises", "t", "beta", "chi2"):
        np.testing.assert_allclose(d.cdf(x).numpy(), ref.cdf(xs), rtol=1e-9)
    if scipy_name not in ("vonmises",):
        np.testing.assert_allclose(d.entropy().item(), ref.entropy(), rtol=1e-9)


def test_discrete_log_prob_against_scipy():
    stats = pytest.importorskip("scipy.stats")
    k = np.array([0.0, 2.0, 7.0])
    np.testing.assert_allclose(
        D.Poisson(_t(3.0)).log_prob(_t(k)).numpy(), stats.poisson(3.0).logpmf(k)
    )
    np.testing.assert_allclose(
        D.Binomial(9, _t(0.3)).log_prob(_t(k)).numpy(), stats.binom(9, 0.3).logpmf(k)
    )
    np.testing.assert_allclose(
        D.Geometric(_t(0.3)).log_prob(_t(k)).numpy(), stats.geom(0.3, loc=-1).logpmf(k)
    )
    # engine's NegativeBinomial counts successes before total_count failures (probs = success).
    np.testing.assert_allclose(
        D.NegativeBinomial(_t(2.5), _t(0.4)).log_prob(_t(k)).numpy(),
        stats.nbinom(2.5, 0.6).logpmf(k),
    )
    counts = np.array([2.0, 0.0, 3.0])
    p = np.array([0.2, 0.3, 0.5])
    np.testing.assert_allclose(
        D.Multinomial(5, _t(p)).log_prob(_t(counts)).item(), stats.multinomial(5, p).logpmf(counts)
    )
    a = np.array([0.5, 2.0, 3.0])
    np.testing.assert_allclose(
        D.Dirichlet(_t(a)).log_prob(_t(p)).item(), stats.dirichlet(a).logpdf(p)
    )
    np.testing.assert_allclose(D.Dirichlet(_t(a)).entropy().item(), stats.dirichlet(a).entropy())
    cov = np.array([[2.0, 0.3], [0.3, 1.0]])
    mvn = D.MultivariateNormal(_t([0.1, -0.2]), _t(cov.tolist()))
    x = np.array([[0.5, 0.5], [-1.0, 2.0]])
    np.testing.assert_allclose(
        mvn.log_prob(_t(x)).numpy(), stats.multivariate_normal([0.1, -0.2], cov).logpdf(x)
    )
    np.testing.assert_allclose(
        mvn.entropy().item(), stats.multivariate_normal([0.1, -0.2], cov).entropy()
    )
