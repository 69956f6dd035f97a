"""In-place writes and selections recorded as PyTorch records them: copy_ (CopyBackwards), fill_
(FillBackward2 / FillBackward3 for a 0-d tensor value), zero_ (ZeroBackward0), masked_fill and
masked_fill_ (MaskedFillBackward0/1), index_add_ (IndexAddBackward0), scatter_ with a number
(ScatterBackward1), take (TakeBackward0) and reshape of a non-viewable input (a copy shown as
UnsafeViewBackward0, not a view). Values against NumPy, gradients and second derivatives by finite
differences, forward mode and vmap where the ops had them."""

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck, gradgradcheck

_A = np.array([[-1.3, -0.42, 0.17, 0.9], [0.35, 1.7, -0.8, 0.05], [2.2, -2.1, 0.61, -0.26]])
_B = np.array([[0.3, -0.6, 1.1, 0.25], [-0.9, 0.4, 0.75, -1.2], [0.15, 0.5, -0.35, 1.4]])


def _t(a, grad=True):
    return engine.tensor(a, dtype=engine.float64, requires_grad=grad)


def _name(t):
    return type(t.grad_fn).__name__


def _next(t):
    return [type(n).__name__ if n is not None else None for n, _ in t.grad_fn.next_functions]


def test_copy_records_copy_backwards():
    x, src = _t(_A), _t(_B)
    y = (x * 2).copy_(src)
    assert _name(y) == "CopyBackwards" and _next(y) == ["MulBackward0", "AccumulateGrad"]
    np.testing.assert_array_equal(y.detach().numpy(), _B)
    y.backward(engine.tensor(_A))
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((3, 4)))  # zeros, not None
    np.testing.assert_array_equal(src.grad.numpy(), _A)
    # Into a tensor without history, from a row (broadcast) of another dtype.
    row = _t(_B[0]).float().detach().requires_grad_()
    z = engine.zeros(3, 4, dtype=engine.float64).copy_(row)
    assert _next(z) == [None, "AccumulateGrad"]
    z.sum().backward()
    assert row.grad.dtype == engine.float32 and row.grad.tolist() == [3.0] * 4
    assert gradcheck(lambda a, b: (a * 1).copy_(b), (_t(_A), _t(_B[1])))
    assert gradgradcheck(lambda a, b: (a * 1).copy_(b) * a, (_t(_A), _t(_B[1])))


def test_fill_and_zero():
    x = _t(_A)
    y = (x * 2).fill_(1.5)
    assert _name(y) == "FillBackward2" and _next(y) == ["MulBackward0"]
    assert y.detach().numpy().tolist() == [[1.5] * 4] * 3
    y.sum().backward()
    assert x.grad.abs().sum().item() == 0.0
    z = (x * 2).zero_()
    assert _name(z) == "ZeroBackward0" and _next(z) == ["MulBackward0"]
    v = engine.tensor(0.5, dtype=engine.float64, requires_grad=True)
    w = (x * 2).fill_(v)
    assert _name(w) == "FillBackward3" and _next(w) == ["MulBackward0", "AccumulateGrad"]
    (w * engine.tensor(_B)).sum().backward()
    assert v.grad.item() == pytest.approx(_B.sum())  # the value gets the summed gradient
    assert gradcheck(lambda a, b: (a * 1).fill_(b) * a, (_t(_A), _t(0.3)))
    assert gradgradcheck(lambda a, b: (a * 1).fill_(b) * a, (_t(_A), _t(0.3)))
    with pytest.raises(RuntimeError, match="fill_ only supports 0-dimension value tensor"):
        (x * 2).fill_(engine.ones(2))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        x.fill_(1.0)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        x.zero_()


def test_writes_through_a_view_run_inside_copy_slices():
    x = _t(_A)
    y = x * 2
    y[1].zero_()
    assert _name(y) == "CopySlices" and _next(y) == ["MulBackward0"]
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[2] * 4, [0] * 4, [2] * 4])
    x = _t(_A)
    y = x * 2
    y[2] = _t(_B[0])
    assert _next(y) == ["MulBackward0", "AccumulateGrad"]


def test_masked_fill():
    mask = engine.tensor(_A > 0)
    x = _t(_A)
    y = x.masked_fill(mask, -1.0)
    assert _name(y) == "MaskedFillBackward0" and _next(y) == ["AccumulateGrad"]
    assert y.grad_fn._saved_mask is mask
    np.testing.assert_array_equal(y.detach().numpy(), np.where(_A > 0, -1.0, _A))
    z = (x * 2).masked_fill_(mask, 0.0)
    assert _name(z) == "MaskedFillBackward0" and _next(z) == ["MulBackward0"]
    assert x.t().masked_fill(mask.t(), 0.0).stride() == (3, 1)  # a row-major result, as PyTorch's
    v = _t(0.25)
    w = x.t().masked_fill(mask.t(), v)
    assert _name(w) == "MaskedFillBackward1" and _next(w) == ["TBackward0", "AccumulateGrad"]
    w.sum().backward()
    assert v.grad.item() == float((_A > 0).sum())
    assert gradcheck(lambda a, b: a.masked_fill(mask, b), (_t(_A), _t(0.25)))
    assert gradgradcheck(lambda a, b: a.masked_fill(mask, b) * a, (_t(_A), _t(0.25)))
    _, tangent = engine.func.jvp(
        lambda a: a.masked_fill(mask, 2.0), (engine.tensor(_A),), (engine.tensor(_B),)
    )
    np.testing.assert_array_equal(tangent.numpy(), np.where(_A > 0, 0.0, _B))
    got = engine.func.vmap(lambda a: a.masked_fill(mask, 2.0))(engine.tensor(np.stack([_A, _B])))
    np.testing.assert_array_equal(got[1].numpy(), np.where(_A > 0, 2.0, _B))


def test_index_add_and_scatter_in_place():
    x, src = _t(_A), _t(_B[:1])
    y = (x * 2).index_add_(0, engine.tensor([2]), src, alpha=3)
    assert _name(y) == "IndexAddBackward0" and _next(y) == ["MulBackward0", "AccumulateGrad"]
    fn = y.grad_fn
    assert (fn._saved_alpha, fn._saved_dim, fn._saved_source_dim) == (3, 0, 2)
    assert fn._saved_source is src
    ref = _A * 2
    ref[2] += 3 * _B[0]
    np.testing.assert_allclose(y.detach().numpy(), ref)
    s = (x * 2).scatter_(1, engine.tensor([[0], [1], [2]]), 1.0)
    assert _name(s) == "ScatterBackward1" and _next(s) == ["MulBackward0"]
    assert gradcheck(lambda a: (a * 1).scatter_(1, engine.tensor([[3], [1], [0]]), 0.5), (_t(_A),))
    assert gradgradcheck(
        lambda a, b: (a * 1).index_add_(1, engine.tensor([0, 2]), b) * a,
        (_t(_A), _t(_B[:, :2])),
    )


def test_take():
    x = _t(_A)
    index = engine.tensor([[0, -1], [5, 5]])
    y = x.take(index)
    assert _name(y) == "TakeBackward0" and _next(y) == ["AccumulateGrad"]
    assert y.grad_fn._saved_index is index and y.grad_fn._saved_self is x
    np.testing.assert_array_equal(y.detach().numpy(), _A.reshape(-1)[[[0, -1], [5, 5]]])
    y.sum().backward()
    expected = np.zeros(12)
    np.add.at(expected, [0, 11, 5, 5], 1.0)
    np.testing.assert_array_equal(x.grad.numpy().reshape(-1), expected)  # repeats accumulate
    assert gradcheck(lambda a: a.take(index), (_t(_A),))
    assert gradgradcheck(lambda a: a.take(index) ** 2, (_t(_A),))
    _, tangent = engine.func.jvp(
        lambda a: a.take(index), (engine.tensor(_A),), (engine.tensor(_B),)
    )
    np.testing.assert_array_equal(tangent.numpy(), _B.reshape(-1)[[[0, -1], [5, 5]]])


def test_reshape_of_a_non_viewable_input_is_a_copy():
    x = _t(_A)
    y = x.t().reshape(12)
    assert _name(y) == "UnsafeViewBackward0" and _next(y) == ["CloneBackward0"]
    assert y.grad_fn._saved_self_sym_sizes == (4, 3)
    assert not y._is_view() and y._base is None
    np.testing.assert_array_equal(y.detach().numpy(), _A.T.reshape(12))
    y.mul_(2)  # not a view: writing it is an ordinary in-place op
    assert gradcheck(lambda a: a.t().reshape(2, 6), (_t(_A),))
    assert gradgradcheck(lambda a: a.t().reshape(2, 6) ** 2, (_t(_A),))
