"""sort / argsort / msort / topk / kthvalue / median: values and indices recorded from PyTorch 2.13
(ties in topk and kthvalue are left out: PyTorch's index among equal elements is unspecified),
gradients through the gathered values."""

import math

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck

nan = math.nan
X = [[3.0, 1.0, nan, 1.0, 2.0], [5.0, 5.0, 4.0, -1.0, 0.0]]
XI = [[3, 1, 1, 2], [0, 0, -5, 7]]


def pair(r):
    return [r[0].tolist(), r[1].tolist()]


def same(a, b):
    return np.array_equal(np.array(a, dtype=float), np.array(b, dtype=float), equal_nan=True)


@pytest.mark.parametrize(
    "call, want",
    [
        (lambda: engine.sort(engine.tensor(X), stable=True),
         [[[1.0, 1.0, 2.0, 3.0, nan], [-1.0, 0.0, 4.0, 5.0, 5.0]], [[1, 3, 4, 0, 2], [3, 4, 2, 0, 1]]]),
        (lambda: engine.sort(engine.tensor(X), descending=True, stable=True),
         [[[nan, 3.0, 2.0, 1.0, 1.0], [5.0, 5.0, 4.0, 0.0, -1.0]], [[2, 0, 4, 1, 3], [0, 1, 2, 4, 3]]]),
        (lambda: engine.tensor(X).sort(dim=0),
         [[[3.0, 1.0, 4.0, -1.0, 0.0], [5.0, 5.0, nan, 1.0, 2.0]], [[0, 0, 1, 1, 1], [1, 1, 0, 0, 0]]]),
        (lambda: engine.topk(engine.tensor([1.0, nan, 3.0]), 1), [[nan], [1]]),
        (lambda: engine.tensor(XI).kthvalue(2, 0, True), [[[3, 1, 1, 7]], [[0, 0, 0, 1]]]),
        (lambda: engine.median(engine.tensor(XI), 1), [[1, 0], [2, 0]]),
        (lambda: engine.median(engine.tensor(X), 1), [[nan, 4.0], [2, 2]]),
    ],
)  # fmt: skip
def test_values_and_indices_match_pytorch(call, want):
    got = pair(call())
    assert same(got[0], want[0]) and got[1] == want[1]


def test_argsort_msort_median_of_all():
    xi = engine.tensor(XI)
    assert engine.argsort(xi, stable=True).tolist() == [[1, 2, 3, 0], [2, 0, 1, 3]]
    assert engine.argsort(xi, descending=True, stable=True).tolist() == [[0, 3, 1, 2], [3, 0, 1, 2]]
    assert engine.msort(xi).tolist() == [[0, 0, -5, 2], [3, 1, 1, 7]]
    assert engine.median(xi).item() == 1
    assert math.isnan(engine.median(engine.tensor(X)).item())
    assert math.isnan(engine.median(engine.tensor([])).item())
    assert pair(engine.sort(engine.tensor(3.0))) == [3.0, 0]


def test_topk_largest_and_smallest_without_ties():
    x = engine.tensor([[4.0, 9.0, 1.0, 7.0], [2.0, -3.0, 8.0, 5.0]])
    assert pair(engine.topk(x, 2)) == [[[9.0, 7.0], [8.0, 5.0]], [[1, 3], [2, 3]]]
    assert pair(x.topk(3, largest=False)) == [
        [[1.0, 4.0, 7.0], [-3.0, 2.0, 5.0]],
        [[2, 0, 3], [1, 0, 3]],
    ]


def test_gradients_flow_through_the_sorted_values():
    y = engine.tensor([2.0, 1.0, 3.0], requires_grad=True)
    values, _ = engine.sort(y, descending=True)
    (values * engine.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert y.grad.tolist() == [2.0, 3.0, 1.0]
    x = engine.tensor(np.random.default_rng(0).standard_normal((3, 4)), requires_grad=True)
    assert gradcheck(lambda t: engine.sort(t, 1).values, (x,))
    assert gradcheck(lambda t: engine.topk(t, 2, 0).values, (x,))
    assert gradcheck(lambda t: engine.median(t, 1).values, (x,))


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: engine.topk(engine.tensor(XI), 5), RuntimeError, "^selected index k out of range$"),
        (lambda: engine.kthvalue(engine.tensor(XI), 0), RuntimeError,
         "^kthvalue\\(\\): selected number k out of range for dimension 1$"),
        (lambda: engine.median(engine.ones(2, 0), 1), IndexError,
         "^median\\(\\): Expected reduction dim 1 to have non-zero size.$"),
        (lambda: engine.sort(engine.ones(2), 3), IndexError, "^Dimension out of range"),
    ],
)  # fmt: skip
def test_errors_follow_pytorch(call, error, message):
    with pytest.raises(error, match=message):
        call()
