"""histc / histogram / histogramdd / bincount / unique / unique_consecutive / searchsorted /
bucketize / isin: values against NumPy on random data, edge cases (NaN, empty, equal range, float32
bin edges) recorded from PyTorch 2.13 and kept inline as (expression, result) pairs."""

# ruff: noqa: E501 - the recorded expressions and results are kept one per line

import math

import engine
import numpy as np
import pytest

nan = math.nan


def show(r):
    if isinstance(r, tuple):
        return tuple(show(x) for x in r)
    return (r.tolist(), str(r.dtype))


# (expression, PyTorch 2.13's result as (tolist, dtype)); NaN compared as equal.
RECORDED = [
    ("engine.histc(engine.tensor([1., 2, 1, 5, -1]), bins=4, min=0, max=3)", ([0.0, 2.0, 1.0, 0.0], "torch.float32")),
    ("engine.histc(engine.tensor([1., 2, 1]), bins=4)", ([2.0, 0.0, 0.0, 1.0], "torch.float32")),
    ("engine.histc(engine.tensor([1., 1]), bins=4)", ([0.0, 0.0, 2.0, 0.0], "torch.float32")),
    ("engine.histc(engine.tensor([]), bins=2)", ([0.0, 0.0], "torch.float32")),
    ("engine.histc(engine.tensor([1., nan, 2]), bins=4, min=0, max=3)", ([0.0, 1.0, 1.0, 0.0], "torch.float32")),
    ("engine.histogram(engine.tensor([1., 2, 1]), bins=4, range=(0., 3.), weight=engine.tensor([1., 2., 4.]), density=True)",
     (([0.0, 0.9523809552192688, 0.380952388048172, 0.0], "torch.float32"), ([0.0, 0.75, 1.5, 2.25, 3.0], "torch.float32"))),
    ("engine.histogram(engine.tensor([1., 2, 1]), engine.tensor([0., 1.5, 3]))", (([2.0, 1.0], "torch.float32"), ([0.0, 1.5, 3.0], "torch.float32"))),
    ("engine.histogram(engine.tensor([1., 1]), 2)", (([0.0, 2.0], "torch.float32"), ([0.5, 1.0, 1.5], "torch.float32"))),
    ("engine.histogram(engine.tensor([]), 2)", (([0.0, 0.0], "torch.float32"), ([0.0, 0.5, 1.0], "torch.float32"))),
    ("engine.histogramdd(engine.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.]]), bins=[3, 3], weight=engine.tensor([1., 2., 4., 8.]))",
     (([[0.0, 1.0, 0.0], [2.0, 0.0, 0.0], [4.0, 0.0, 8.0]], "torch.float32"),
      (([0.0, 0.6666666865348816, 1.3333332538604736, 2.0], "torch.float32"), ([0.0, 0.6666666865348816, 1.3333332538604736, 2.0], "torch.float32")))),
    ("engine.histogramdd(engine.tensor([[0., 0.], [1., 1.], [2., 2.]]), bins=[2, 2], range=[0., 1., 0., 1.], density=True)",
     (([[2.0, 0.0], [0.0, 2.0]], "torch.float32"), (([0.0, 0.5, 1.0], "torch.float32"), ([0.0, 0.5, 1.0], "torch.float32")))),
    ("engine.histogramdd(engine.tensor([[0., 0.], [1., 1.], [2., 2.]]), bins=[engine.tensor([0.,1,2]), engine.tensor([0.,2])])",
     (([[1.0], [2.0]], "torch.float32"), (([0.0, 1.0, 2.0], "torch.float32"), ([0.0, 2.0], "torch.float32")))),
    ("engine.bincount(engine.tensor([4, 3]), weights=engine.tensor([1, 2]))", ([0.0, 0.0, 0.0, 2.0, 1.0], "torch.float64")),
    ("engine.bincount(engine.tensor([4, 3]), weights=engine.tensor([0.5, 1.]))", ([0.0, 0.0, 0.0, 1.0, 0.5], "torch.float32")),
    ("engine.unique(engine.tensor([[1, 2], [1, 2], [0, 5]]), dim=1, return_inverse=True, return_counts=True)",
     (([[1, 2], [1, 2], [0, 5]], "torch.int64"), ([0, 1], "torch.int64"), ([1, 1], "torch.int64"))),
    ("engine.unique(engine.tensor([1., nan, nan]))", ([1.0, nan, nan], "torch.float32")),
    ("engine.unique_consecutive(engine.tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_inverse=True, return_counts=True)",
     (([1, 2, 3, 1, 2], "torch.int64"), ([0, 0, 1, 1, 2, 3, 3, 4], "torch.int64"), ([2, 2, 1, 2, 1], "torch.int64"))),
    ("engine.unique_consecutive(engine.tensor([[1, 2], [1, 2], [0, 5], [1,2]]), dim=0, return_inverse=True)",
     (([[1, 2], [0, 5], [1, 2]], "torch.int64"), ([0, 0, 1, 2], "torch.int64"))),
    ("engine.searchsorted(engine.tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]]), engine.tensor([[3, 6, 9, 1], [3, 6, 10, 11]]), right=True)",
     ([[2, 3, 5, 1], [1, 3, 5, 5]], "torch.int64")),
    ("engine.searchsorted(engine.tensor([9, 3, 5, 1, 7]), engine.tensor([3, 6, 9]), sorter=engine.tensor([3,1,2,4,0]))", ([1, 3, 4], "torch.int64")),
    ("engine.searchsorted(engine.tensor([1, 3, 5, 7, 9]), 6)", (3, "torch.int64")),
    ("engine.searchsorted(engine.tensor([1., 3, nan]), engine.tensor([nan, 6]))", ([3, 3], "torch.int64")),
    ("engine.searchsorted(engine.tensor([[1., 3, nan]]), engine.tensor([[nan, 6, 3]]), right=True)", ([[3, 3, 3]], "torch.int64")),
    ("engine.bucketize(3, engine.tensor([1, 3, 5, 7, 9]))", (1, "torch.int64")),
    ("engine.bucketize(engine.tensor([[3, 6], [9, 0]]), engine.tensor([1, 3, 5, 7, 9]), right=True, out_int32=True)", ([[2, 3], [5, 0]], "torch.int32")),
    ("engine.isin(engine.tensor([[1, 2], [3, 4]]), 2)", ([[False, True], [False, False]], "torch.bool")),
    ("engine.isin(2, engine.tensor([2, 3]))", (True, "torch.bool")),
    ("engine.isin(engine.tensor([1., nan]), engine.tensor([nan]))", ([False, False], "torch.bool")),
]  # fmt: skip


@pytest.mark.parametrize("expr, want", RECORDED, ids=[r[0][7:40] for r in RECORDED])
def test_recorded_from_pytorch(expr, want):
    assert repr(show(eval(expr))) == repr(want)  # repr: NaN equals NaN


def test_histograms_match_numpy():
    a = np.random.default_rng(0).standard_normal(1000)
    w = np.random.default_rng(1).random(1000)
    hist, edges = engine.histogram(engine.tensor(a), 7, weight=engine.tensor(w), density=True)
    want, want_edges = np.histogram(a, 7, weights=w, density=True)
    np.testing.assert_allclose(hist.numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(edges.numpy(), want_edges, rtol=1e-12)
    pts = np.random.default_rng(2).standard_normal((500, 3))
    hist, edges = engine.histogramdd(engine.tensor(pts), [3, 4, 5])
    want, want_edges = np.histogramdd(pts, [3, 4, 5])
    np.testing.assert_array_equal(hist.numpy(), want)
    assert engine.tensor(a).histc(10, -1, 1).sum().item() == ((a >= -1) & (a <= 1)).sum()


def test_histogram_errors():
    x = engine.tensor([1.0, 2.0])
    with pytest.raises(NotImplementedError, match="\"histogram_cpu\" not implemented for 'Long'"):
        engine.histc(engine.tensor([1, 2]))
    with pytest.raises(RuntimeError, match="bins must be > 0, but got 0 for dimension 0"):
        engine.histc(x, bins=0)
    with pytest.raises(RuntimeError, match="torch.histc: max must be larger than min"):
        engine.histc(x, bins=4, min=3, max=1)
    with pytest.raises(RuntimeError, match="is not finite"):
        engine.histc(engine.tensor([1.0, nan]))
    with pytest.raises(
        RuntimeError, match="min should not exceed max, but got min 2 max 1 for dimension 0"
    ):
        engine.histogram(x, 2, range=(2.0, 1.0))
    with pytest.raises(
        RuntimeError, match="The size of bins must be equal to the innermost dimension"
    ):
        engine.histogramdd(engine.tensor([[1.0, 2.0]]), bins=[2])


def test_bincount_unique_match_numpy():
    v = np.random.default_rng(3).integers(0, 9, 50)
    assert (
        engine.bincount(engine.tensor(v), minlength=12).tolist()
        == np.bincount(v, minlength=12).tolist()
    )
    assert engine.bincount(engine.tensor([], dtype=engine.int64)).tolist() == []
    for bad, message in (([-1], "non-negative integral"), ([[1]], "non-negative integral")):
        with pytest.raises(RuntimeError, match=message):
            engine.bincount(engine.tensor(bad))
    with pytest.raises(RuntimeError, match="minlength should be >= 0"):
        engine.bincount(engine.tensor([1]), minlength=-1)
    with pytest.raises(
        RuntimeError, match="weights should be 1-d and have the same length as input"
    ):
        engine.bincount(engine.tensor([1, 2]), weights=engine.tensor([1.0]))
    m = np.random.default_rng(4).integers(0, 3, (6, 4))
    values, inverse, counts = engine.tensor(m).unique(return_inverse=True, return_counts=True)
    want = np.unique(m, return_inverse=True, return_counts=True)
    assert values.tolist() == want[0].tolist() and counts.tolist() == want[2].tolist()
    assert inverse.tolist() == want[1].reshape(m.shape).tolist()
    rows = engine.unique(engine.tensor(m), dim=0)
    assert rows.tolist() == np.unique(m, axis=0).tolist()
    assert engine.unique(engine.tensor([3, 1, 3])).tolist() == [1, 3]


def test_searchsorted_matches_numpy_and_errors():
    rng = np.random.default_rng(5)
    b = np.sort(rng.integers(0, 20, (4, 9)), axis=1)
    v = rng.integers(-2, 22, (4, 6))
    for side in ("left", "right"):
        got = engine.searchsorted(engine.tensor(b), engine.tensor(v), side=side)
        assert got.tolist() == [np.searchsorted(b[i], v[i], side).tolist() for i in range(4)]
        got = engine.bucketize(engine.tensor(v), engine.tensor(b[0]), right=side == "right")
        assert got.tolist() == np.searchsorted(b[0], v, side).tolist()
    with pytest.raises(RuntimeError, match="side and right can't be set to opposites"):
        engine.searchsorted(engine.tensor([1]), engine.tensor([1]), side="left", right=True)
    with pytest.raises(RuntimeError, match="side can only be 'left' or 'right' but got foo"):
        engine.searchsorted(engine.tensor([1]), engine.tensor([1]), side="foo")
    with pytest.raises(
        RuntimeError, match=r"boundaries tensor \[2, 5\] and input value tensor \[3\]"
    ):
        engine.searchsorted(engine.zeros(2, 5), engine.zeros(3))
    with pytest.raises(
        RuntimeError, match=r"boundaries tensor must be 1 dimension, but got dim\(2\)"
    ):
        engine.bucketize(engine.zeros(3), engine.zeros(1, 5))


def test_isin_matches_numpy():
    a = np.random.default_rng(6).integers(0, 10, (3, 5))
    t = [1, 4, 7]
    assert engine.isin(engine.tensor(a), engine.tensor(t)).tolist() == np.isin(a, t).tolist()
    assert (
        engine.isin(engine.tensor(a), engine.tensor(t), invert=True).tolist()
        == np.isin(a, t, invert=True).tolist()
    )
