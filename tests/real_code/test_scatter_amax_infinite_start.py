"""``scatter_reduce(..., "amax")`` into a tensor filled with ``-inf`` (graph nets' segment max and
global max pooling start that way): the forward keeps ``-inf`` in slots nothing is scattered to
and the gradient reaches the maximal sources, with or without history on the inputs. It gave
NaN everywhere once the sources required grad. Recorded from PyTorch 2.13."""

from __future__ import annotations


def test_amax_from_negative_infinity(lib):
    src = lib.tensor([1.0, 2.0, 3.0, 0.5], requires_grad=True)
    index = lib.tensor([0, 0, 1, 1])
    out = lib.full((3,), float("-inf")).scatter_reduce(0, index, src, "amax", include_self=True)
    assert out.detach().tolist() == [2.0, 3.0, float("-inf")]
    out[:2].sum().backward()
    assert src.grad.tolist() == [0.0, 1.0, 1.0, 0.0]


def test_amin_from_positive_infinity_with_ties(lib):
    src = lib.tensor([[1.0, 5.0], [1.0, 2.0], [4.0, 2.0]], requires_grad=True)
    index = lib.tensor([[0, 0], [0, 0], [1, 1]])
    start = lib.full((3, 2), float("inf"))
    out = start.scatter_reduce(0, index, src, "amin", include_self=True)
    assert out.detach().tolist() == [[1.0, 2.0], [4.0, 2.0], [float("inf")] * 2]
    out[:2].sum().backward()
    assert src.grad.tolist() == [[0.5, 0.0], [0.5, 1.0], [1.0, 1.0]]


def test_segment_softmax_gradient_is_finite(lib):
    scores = lib.tensor([1.0, 2.0, 3.0, 0.5], requires_grad=True)
    index = lib.tensor([0, 0, 1, 1])
    smax = lib.full((2,), float("-inf")).scatter_reduce(0, index, scores, "amax")
    e = (scores - smax.index_select(0, index)).exp()
    alpha = e / lib.zeros(2).index_add(0, index, e).index_select(0, index)
    (alpha * lib.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    assert bool(lib.isfinite(scores.grad).all())
    assert abs(alpha.sum().item() - 2.0) < 1e-6
