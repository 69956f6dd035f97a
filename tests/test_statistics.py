"""cov / corrcoef / trapezoid / cumulative_trapezoid / gradient / dist / cdist / pdist / renorm:
values against NumPy and SciPy-style float64 references, messages and dtypes recorded from
PyTorch 2.13, gradients through gradcheck (including at zero distance, where PyTorch's
subgradient is 0)."""

# ruff: noqa: E501 - PyTorch's messages are kept whole on one line

import itertools
import warnings

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck, gradgradcheck


def arr(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def T(a, grad=False):
    return engine.tensor(np.asarray(a, dtype=np.float64), requires_grad=grad)


def close(t, a, rtol=1e-12):
    assert tuple(t.shape) == np.shape(a)
    np.testing.assert_allclose(t.detach().numpy(), a, rtol=rtol, atol=1e-12)


def test_cov_and_corrcoef_match_numpy():
    x = arr(3, 6)
    close(engine.cov(T(x)), np.cov(x))
    close(T(x).cov(correction=0), np.cov(x, ddof=0))
    fw, aw = np.array([1, 2, 1, 3, 1, 2]), np.random.default_rng(1).random(6)
    got = engine.cov(T(x), fweights=engine.tensor(fw.tolist()), aweights=T(aw))
    close(got, np.cov(x, fweights=fw, aweights=aw))
    close(engine.cov(T(x[0])), np.cov(x[0]))
    close(engine.corrcoef(T(x)), np.corrcoef(x))
    assert engine.cov(engine.tensor([[0, 1, 2], [2, 1, 0]])).dtype == engine.float32
    assert gradcheck(lambda t: engine.cov(t, aweights=T(aw)), (T(x, True),))
    assert gradcheck(engine.corrcoef, (T(x, True),))
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        assert engine.cov(engine.tensor([[0.0, 1.0]]), correction=3).item() == float("inf")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"fweights": engine.tensor([1.0, 2, 1])}, "expected fweights to have integral dtype but got fweights with Float dtype"),
        ({"fweights": engine.tensor([1, -2, 1])}, "fweights cannot be negative"),
        ({"aweights": engine.tensor([1, 2])}, "expected aweights to have floating point dtype but got aweights with Long dtype"),
        ({"aweights": engine.tensor([1.0, 2])}, "same numel as there are observations in the input but got 2 != 3"),
    ],
)  # fmt: skip
def test_cov_weight_errors(kwargs, message):
    with pytest.raises(RuntimeError, match=message):
        engine.cov(engine.tensor([[0.0, 1, 2]]), **kwargs)


def test_trapezoid_family_matches_numpy():
    y, x = arr(3, 5), np.sort(arr(5, seed=1))
    close(engine.trapezoid(T(y)), np.trapezoid(y) if hasattr(np, "trapezoid") else np.trapz(y))
    integrate = getattr(np, "trapezoid", None) or np.trapz
    close(engine.trapezoid(T(y), T(x)), integrate(y, x))
    close(engine.trapezoid(T(y), dx=0.5, dim=0), integrate(y, dx=0.5, axis=0))
    close(engine.trapz(T(y), T(x)), integrate(y, x))
    close(engine.trapz(T(y), dx=3), integrate(y, dx=3))
    steps = np.diff(x) * (y[:, 1:] + y[:, :-1]) / 2
    close(engine.cumulative_trapezoid(T(y), T(x)), np.cumsum(steps, 1))
    close(engine.cumulative_trapezoid(T(y), dx=2), np.cumsum((y[:, 1:] + y[:, :-1]), 1))
    assert engine.trapezoid(engine.tensor([1, 2, 4])).item() == 4.5
    assert engine.trapezoid(engine.zeros(0)).item() == 0.0
    assert engine.cumulative_trapezoid(engine.tensor([1.0])).shape == (0,)
    with pytest.raises(
        RuntimeError, match="trapezoid: There must be one `x` value for each sample point"
    ):
        engine.trapezoid(engine.tensor([1.0, 2, 4]), engine.tensor([0.0, 1]))
    assert gradcheck(lambda a, b: engine.trapezoid(a, b), (T(y, True), T(x, True)))
    assert gradcheck(lambda a: engine.cumulative_trapezoid(a, dx=0.3), (T(y, True),))


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_matches_numpy(edge_order):
    f = arr(5, 6)
    coords = np.cumsum(np.random.default_rng(2).random(6) + 0.1)
    got = engine.gradient(T(f), edge_order=edge_order)
    for g, w in zip(got, np.gradient(f, edge_order=edge_order)):
        close(g, w)
    got = engine.gradient(T(f), spacing=[2.0, 0.5], edge_order=edge_order)
    for g, w in zip(got, np.gradient(f, 2.0, 0.5, edge_order=edge_order)):
        close(g, w)
    (got,) = engine.gradient(T(f), spacing=(T(coords),), dim=1, edge_order=edge_order)
    close(got, np.gradient(f, coords, axis=1, edge_order=edge_order), rtol=1e-10)
    assert gradcheck(
        lambda t: engine.gradient(t, spacing=(T(coords),), dim=1, edge_order=edge_order)[0],
        (T(f, True),),
    )


def test_gradient_errors_and_int_input():
    assert engine.gradient(engine.tensor([1, 2, 4, 8]))[0].tolist() == [1.0, 1.5, 3.0, 4.0]
    with pytest.raises(
        RuntimeError, match=r"expected each dimension size to be at least edge_order\+1"
    ):
        engine.gradient(engine.tensor([1.0, 2]), edge_order=2)
    with pytest.raises(RuntimeError, match="only supports edge_order=1 and edge_order=2."):
        engine.gradient(engine.tensor([1.0, 2, 4]), edge_order=3)


@pytest.mark.parametrize("p", [0, 1, 2, 3.5, 0.5, float("inf")])
def test_cdist_pdist_dist_match_numpy(p):
    a, b = arr(2, 4, 3), arr(5, 3, seed=1)
    diff = a[:, :, None, :] - b[None, None, :, :]
    if p == 0:
        want = (diff != 0).sum(-1).astype(float)
    elif p == float("inf"):
        want = np.abs(diff).max(-1)
    else:
        want = (np.abs(diff) ** p).sum(-1) ** (1 / p)
    close(engine.cdist(T(a), T(b), p=p), want, rtol=1e-10)
    x = arr(4, 3, seed=3)
    pairs = list(itertools.combinations(range(4), 2))
    want = [np.linalg.norm(x[i] - x[j], ord=p) for i, j in pairs]
    close(engine.pdist(T(x), p), np.array(want), rtol=1e-10)
    close(engine.dist(T(x[0]), T(x[1]), p), np.linalg.norm(x[0] - x[1], ord=p), rtol=1e-10)
    if p not in (0, float("inf")):
        assert gradcheck(lambda u, v: engine.cdist(u, v, p=p), (T(a, True), T(b, True)))


def test_distances_have_zero_gradient_at_zero_distance():
    x = T([[1.0, 2.0], [1.0, 2.0], [3.0, 1.0]], True)
    engine.pdist(x).sum().backward()
    assert np.isfinite(x.grad.numpy()).all()
    assert gradgradcheck(
        lambda u, v: engine.cdist(u, v), (T(arr(3, 2), True), T(arr(2, 2, seed=5), True))
    )
    y = T([1.0, 2.0], True)
    engine.dist(y, T([1.0, 2.0])).backward()
    assert y.grad.tolist() == [0.0, 0.0]


def test_distance_errors():
    m = engine.tensor([[0.0, 0], [1, 1]])
    with pytest.raises(RuntimeError, match="cdist only supports non-negative p values"):
        engine.cdist(m, m, p=-1)
    with pytest.raises(
        RuntimeError, match="X1 and X2 must have the same number of columns. X1: 2 X2: 3"
    ):
        engine.cdist(m, engine.zeros(1, 3))
    with pytest.raises(RuntimeError, match="cdist only supports at least 2D tensors, X1 got: 1D"):
        engine.cdist(engine.zeros(2), m)
    with pytest.raises(ValueError, match="foo is not a valid value for compute_mode"):
        engine.cdist(m, m, compute_mode="foo")
    with pytest.raises(RuntimeError, match="pdist only supports 2D tensors, got: 1D"):
        engine.pdist(engine.zeros(2))
    with pytest.raises(
        RuntimeError,
        match="norm\\(\\): input dtype should be either floating point or complex. Got Long instead.",
    ):
        engine.dist(engine.tensor([1]), engine.tensor([2]))
    assert engine.pdist(engine.zeros(1, 2)).shape == (0,)
    assert engine.cdist(engine.zeros(2, 1, 2), engine.zeros(3, 2)).shape == (2, 1, 3)


def test_renorm():
    x = arr(3, 4) * 3
    for p, dim, maxnorm in ((2, 0, 2.0), (1, 1, 3.0), (3, 1, 1.0)):
        moved = np.moveaxis(x, dim, 0).reshape(x.shape[dim], -1)
        norms = (np.abs(moved) ** p).sum(1) ** (1 / p)
        scale = np.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)
        view = [1, 1]
        view[dim] = -1
        close(engine.renorm(T(x), p, dim, maxnorm), x * scale.reshape(view))
        assert gradcheck(lambda t, p=p, dim=dim, m=maxnorm: t.renorm(p, dim, m), (T(x, True),))
    with pytest.raises(RuntimeError, match="renorm: non-positive-norm not supported"):
        engine.renorm(T(x), -1, 1, 5)
    with pytest.raises(RuntimeError, match="renorm: expected maxnorm to be >= 0 but got -5"):
        engine.renorm(T(x), 2, 1, -5)
    with pytest.raises(
        RuntimeError, match="renorm: input needs at least 2 dimensions, got 1 dimensions"
    ):
        engine.renorm(T([1.0, 2.0]), 2, 0, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        engine.renorm(T(x), 2, 0, 1.0)
