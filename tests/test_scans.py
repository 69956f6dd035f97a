"""cummax / cummin / logcumsumexp / aminmax / count_nonzero / mode / nanmedian / quantile /
nanquantile: values against NumPy, NaN and tie handling recorded from PyTorch 2.13, gradients
through gradcheck."""

import math

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck

nan = math.nan


def arr(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def T(a, grad=False):
    return engine.tensor(np.asarray(a, dtype=np.float64), requires_grad=grad)


def close(t, a):
    assert tuple(t.shape) == np.shape(a)
    np.testing.assert_allclose(t.detach().numpy(), a, rtol=1e-12, atol=1e-12, equal_nan=True)


def test_cummax_cummin_nan_and_ties_as_pytorch():
    v, i = engine.cummax(engine.tensor([1.0, 3, 2, nan, 5, nan]), 0)
    assert np.array_equal(v.numpy(), [1, 3, 3, nan, nan, nan], equal_nan=True)
    assert i.tolist() == [0, 1, 1, 3, 3, 5]
    assert engine.tensor([1, 3, 3, 2, 3]).cummax(0).indices.tolist() == [0, 1, 2, 2, 4]
    r = engine.cummin(engine.tensor([3.0, 1, 1, 2, 1]), 0)
    assert r.values.tolist() == [3, 1, 1, 1, 1] and r.indices.tolist() == [0, 1, 2, 2, 4]
    assert repr(r).startswith("torch.return_types.cummin(")
    x = arr(3, 4)
    close(engine.cummax(T(x), 1).values, np.maximum.accumulate(x, 1))
    close(engine.cummin(T(x), 0).values, np.minimum.accumulate(x, 0))
    assert engine.cummax(engine.tensor(2.0), 0).indices.item() == 0
    assert engine.cummax(engine.zeros(0), 0).values.shape == (0,)
    assert gradcheck(lambda t: engine.cummax(t, 1).values, (T(x, True),))


def test_logcumsumexp_is_stable_and_differentiable():
    x = arr(3, 5)
    close(engine.logcumsumexp(T(x), 1), np.logaddexp.accumulate(x, 1))
    close(engine.logcumsumexp(T([-1000.0, 0.0, 1000.0]), 0), [-1000.0, 0.0, 1000.0])
    got = engine.logcumsumexp(engine.tensor([1.0, 2, -math.inf]), 0)
    np.testing.assert_allclose(got.numpy(), [1.0, 2.3132617, 2.3132617], rtol=1e-6)
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        engine.logcumsumexp(engine.tensor([1, 2]), 0)
    assert gradcheck(lambda t: engine.logcumsumexp(t, 0), (T(x, True),))
    assert gradcheck(lambda t: t.logcumsumexp(-1), (T(x * 300, True),))


def test_aminmax_and_count_nonzero():
    x = arr(3, 4)
    r = engine.aminmax(T(x))
    assert r.min.item() == x.min() and r.max.item() == x.max()
    r = T(x).aminmax(dim=1, keepdim=True)
    close(r.min, x.min(1, keepdims=True))
    close(r.max, x.max(1, keepdims=True))
    with pytest.raises(RuntimeError, match="cannot compute aminmax over an empty dimension"):
        engine.aminmax(engine.zeros(0))
    with pytest.raises(
        IndexError, match="aminmax: Expected reduction dim 1 to have non-zero size."
    ):
        engine.aminmax(engine.zeros(2, 0), dim=1)
    y = engine.tensor([[1.0, 0], [2, 0]])
    assert engine.count_nonzero(y).item() == 2
    assert engine.count_nonzero(y, 0).tolist() == [2, 0]
    assert y.count_nonzero(dim=(0, 1)).dtype == engine.int64
    with pytest.raises(RuntimeError, match="dim 0 appears multiple times in the list of dims"):
        engine.count_nonzero(y, dim=(0, 0))
    t = engine.tensor([1.0, 3, 3, 2], requires_grad=True)
    engine.aminmax(t).max.backward()
    assert t.grad.tolist() == [0.0, 0.5, 0.5, 0.0]


def test_mode_smallest_most_frequent_last_index():
    r = engine.mode(engine.tensor([2, 1, 1, 2, 2, 1]))
    assert (r.values.item(), r.indices.item()) == (1, 5)
    r = engine.tensor([[1.0, 2, 2], [3, 3, 1]]).mode(1)
    assert r.values.tolist() == [2.0, 3.0] and r.indices.tolist() == [2, 1]
    r = engine.mode(engine.tensor([1.0, nan, nan]))
    assert (r.values.item(), r.indices.item()) == (1.0, 0)
    r = engine.mode(engine.tensor([[1, 2], [1, 3]]), 0, keepdim=True)
    assert r.values.tolist() == [[1, 2]] and r.indices.tolist() == [[1, 0]]
    with pytest.raises(
        IndexError, match=r"mode\(\): Expected reduction dim 0 to have non-zero size."
    ):
        engine.mode(engine.zeros(0))
    t = engine.tensor([1.0, 3, 3, 2], requires_grad=True)
    engine.mode(t).values.backward()
    assert t.grad.tolist() == [0.0, 0.0, 1.0, 0.0]


def test_nanmedian():
    r = engine.nanmedian(engine.tensor([[1.0, nan, 3, 2], [nan, nan, nan, nan]]), 1)
    assert r.values.tolist()[0] == 2.0 and math.isnan(r.values.tolist()[1])
    assert r.indices.tolist()[0] == 3
    assert engine.nanmedian(engine.tensor([1.0, nan, 3, 2, 0])).item() == 1.0
    assert math.isnan(engine.nanmedian(engine.tensor([nan])).item())
    x = arr(4, 5)
    close(engine.nanmedian(T(x), 0).values, np.sort(x, 0)[1])
    assert gradcheck(lambda t: engine.nanmedian(t, 1).values, (T(x, True),))


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile_matches_numpy(interpolation):
    x = arr(4, 7)
    q = [0.0, 0.1, 0.5, 0.75, 1.0]
    got = engine.quantile(T(x), T(q), dim=1, interpolation=interpolation)
    close(got, np.quantile(x, q, axis=1, method=interpolation))
    got = T(x).quantile(0.3, keepdim=True, interpolation=interpolation)
    close(got, np.quantile(x, 0.3, method=interpolation).reshape(1, 1))
    xn = x.copy()
    xn[0, 2] = xn[1, :] = nan
    got = engine.nanquantile(T(xn), T(q), dim=1, keepdim=True, interpolation=interpolation)
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning, match="All-NaN slice"):
        want = np.nanquantile(xn, q, axis=1, keepdims=True, method=interpolation)
    close(got, want)
    assert np.isnan(engine.quantile(T(xn), 0.5, dim=1).numpy()[:2]).all()


def test_quantile_values_gradient_and_errors():
    assert engine.quantile(engine.tensor([1.0, 2, 3, 4]), 0.4).item() == pytest.approx(2.2)
    assert engine.quantile(engine.tensor([1.0, 2, 3, 4]), 0.5, interpolation="nearest").item() == 3
    assert gradcheck(lambda t: engine.quantile(t, T([0.2, 0.9]), dim=0), (T(arr(5, 2), True),))
    t = engine.tensor([1.0, 3, 3, 2], requires_grad=True)
    engine.quantile(t, 0.5).backward()
    assert t.grad.tolist() == [0.0, 0.5, 0.0, 0.5]
    x = engine.tensor([1.0, 2, 3, 4])
    cases = [
        ((x, engine.tensor([[0.4]])), "quantile\\(\\) q must be a scalar or 1D tensor"),
        ((x, 1.5), "q must be in the range \\[0, 1\\] but got 1.5"),
        ((engine.tensor([1, 2]), 0.5), "input tensor must be either float or double dtype"),
        ((x, T([0.5])), "q tensor must be same dtype as the input tensor"),
        ((engine.zeros(0), 0.5), "input tensor must be non-empty"),
    ]
    for args, message in cases:
        with pytest.raises(RuntimeError, match=message):
            engine.quantile(*args)
    with pytest.raises(
        RuntimeError,
        match="interpolation must be one of linear, lower, higher, midpoint or nearest, but got foo",
    ):
        engine.quantile(x, 0.5, interpolation="foo")
