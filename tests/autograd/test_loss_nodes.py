"""The losses of nn.functional as one native node each (MseLossBackward0, SmoothL1LossBackward0,
BinaryCrossEntropyBackward0, BinaryCrossEntropyWithLogitsBackward0, NllLossBackward0 and
cross_entropy's LogSoftmaxBackward0 -> NllLossBackward0): values against NumPy in float64 for
every reduction, gradients and second derivatives by finite differences, the saved attributes
PyTorch shows, and forward mode / vmap, which differentiate the composed form."""

import engine
import engine.nn.functional as F
import numpy as np
import pytest
from engine.autograd import gradcheck, gradgradcheck

_X = np.array([[-1.3, -0.42, 0.17, 0.9], [0.35, 1.7, -0.8, 0.05], [2.2, -2.1, 0.61, -0.26]])
_T = np.array([[-0.2, 0.33, 0.8, -0.7], [1.1, 0.2, -0.1, 0.45], [0.3, -1.5, 0.1, 0.9]])
_P = 1 / (1 + np.exp(-_X))  # probabilities for binary_cross_entropy
_Q = np.array([[0.1, 0.9, 0.35, 0.5], [0.7, 0.2, 1.0, 0.0], [0.45, 0.6, 0.3, 0.8]])
_W = np.array([0.5, 1.5, 2.0, 0.7])
_CLASSES = np.array([0, 3, 2])


def _t(a, grad=True):
    return engine.tensor(a, dtype=engine.float64, requires_grad=grad)


def _reduce(loss, reduction):
    return {"none": loss, "sum": loss.sum(), "mean": loss.mean()}[reduction]


def _smooth_l1(d, beta):
    a = np.abs(d)
    return np.where(a < beta, 0.5 * d * d / beta, a - 0.5 * beta)


def _softplus(x):
    return np.logaddexp(0, x)


def _nll(logp, target, weight, reduction, ignore_index=-100):
    w = np.ones(logp.shape[1]) if weight is None else weight
    valid = target != ignore_index
    safe = np.where(valid, target, 0)
    wt = w[safe] * valid
    loss = -logp[np.arange(len(target)), safe] * wt
    return {"none": loss, "sum": loss.sum(), "mean": loss.sum() / wt.sum()}[reduction]


def _log_softmax(x):
    m = x.max(1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(1, keepdims=True))


# name: (engine call on (input, target), input, target, NumPy reference of (input, target, reduction))
CASES = {
    "mse": (
        lambda x, t, r: F.mse_loss(x, t, reduction=r),
        _X,
        _T,
        lambda x, t, r: _reduce((x - t) ** 2, r),
    ),
    "smooth_l1": (
        lambda x, t, r: F.smooth_l1_loss(x, t, reduction=r, beta=0.55),
        _X,
        _T,
        lambda x, t, r: _reduce(_smooth_l1(x - t, 0.55), r),
    ),
    "bce": (
        lambda x, t, r: F.binary_cross_entropy(x, t, reduction=r),
        _P,
        _Q,
        lambda x, t, r: _reduce(-(t * np.log(x) + (1 - t) * np.log1p(-x)), r),
    ),
    "bce_weight": (
        lambda x, t, r: F.binary_cross_entropy(x, t, engine.tensor(_W), reduction=r),
        _P,
        _Q,
        lambda x, t, r: _reduce(-(t * np.log(x) + (1 - t) * np.log1p(-x)) * _W, r),
    ),
    "bce_logits": (
        lambda x, t, r: F.binary_cross_entropy_with_logits(x, t, reduction=r),
        _X,
        _Q,
        lambda x, t, r: _reduce((1 - t) * x + _softplus(-x), r),
    ),
    "bce_logits_weights": (
        lambda x, t, r: F.binary_cross_entropy_with_logits(
            x, t, engine.tensor(_W[::-1].copy()), reduction=r, pos_weight=engine.tensor(_W)
        ),
        _X,
        _Q,
        lambda x, t, r: _reduce((_W * t * _softplus(-x) + (1 - t) * _softplus(x)) * _W[::-1], r),
    ),
}
_NAMES = {
    "mse": "MseLossBackward0",
    "smooth_l1": "SmoothL1LossBackward0",
    "bce": "BinaryCrossEntropyBackward0",
    "bce_weight": "BinaryCrossEntropyBackward0",
    "bce_logits": "BinaryCrossEntropyWithLogitsBackward0",
    "bce_logits_weights": "BinaryCrossEntropyWithLogitsBackward0",
}
REDUCTIONS = ("none", "mean", "sum")


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_values_match_numpy_float64(name, reduction):
    fn, x, t, ref = CASES[name]
    got = fn(_t(x), _t(t), reduction)
    assert type(got.grad_fn).__name__ == _NAMES[name]
    assert got.dtype == engine.float64
    np.testing.assert_allclose(got.detach().numpy(), ref(x, t, reduction), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_and_second_derivatives(name, reduction):
    fn, x, t, _ = CASES[name]
    # bce's target gradient exists too (log(1 - x) - log(x)); its second derivatives as well.
    args = (_t(x), _t(t))
    assert gradcheck(lambda a, b: fn(a, b, reduction), args)
    assert gradgradcheck(lambda a, b: fn(a, b, reduction), args)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_and_cross_entropy(reduction, weighted):
    weight = engine.tensor(_W) if weighted else None
    target = engine.tensor([0, -100, 2])  # one ignored target
    tnp = np.array([0, -100, 2])
    x = _t(_X)
    logp = F.log_softmax(x, 1)
    got = F.nll_loss(logp, target, weight, reduction=reduction)
    ref = _nll(_log_softmax(_X), tnp, _W if weighted else None, reduction)
    np.testing.assert_allclose(got.detach().numpy(), ref, rtol=1e-12, atol=1e-14)
    assert type(got.grad_fn).__name__ == "NllLossBackward0"
    ce = F.cross_entropy(x, target, weight, reduction=reduction)
    np.testing.assert_allclose(ce.detach().numpy(), ref, rtol=1e-12, atol=1e-14)
    assert [type(n).__name__ for n, _ in ce.grad_fn.next_functions] == ["LogSoftmaxBackward0"]
    assert gradcheck(lambda a: F.nll_loss(a, target, weight, reduction=reduction), (_t(_X),))
    assert gradgradcheck(
        lambda a: F.cross_entropy(a, target, weight, reduction=reduction), (_t(_X),)
    )


def test_nll_one_sample_and_saved_attributes():
    x = _t(_X[0])
    got = F.nll_loss(x, engine.tensor(3))
    assert got.item() == pytest.approx(-_X[0, 3])
    assert gradgradcheck(lambda a: F.nll_loss(a, engine.tensor(3)), (_t(_X[0]),))
    x = _t(_X)
    fn = F.nll_loss(x, engine.tensor(_CLASSES), engine.tensor(_W), ignore_index=3).grad_fn
    assert fn._saved_self is x and fn._saved_ignore_index == 3 and fn._saved_reduction == 1
    assert fn._saved_total_weight.item() == pytest.approx(_W[0] + _W[2])
    assert fn._saved_weight.tolist() == _W.tolist()
    assert F.nll_loss(x, engine.tensor(_CLASSES)).grad_fn._saved_weight is None


def test_saved_attributes():
    x, t = _t(_X), _t(_T)
    fn = F.mse_loss(x, t, reduction="sum").grad_fn
    assert fn._saved_self is x and fn._saved_target is t and fn._saved_reduction == 2
    fn = F.smooth_l1_loss(x, t, beta=2).grad_fn
    assert fn._saved_beta == 2.0 and type(fn._saved_beta) is float
    fn = F.binary_cross_entropy_with_logits(x, t).grad_fn
    assert fn._saved_weight is None and fn._saved_pos_weight is None
    # Only the input records: the target's edge is None, as PyTorch's.
    fn = F.mse_loss(x, engine.tensor(_T)).grad_fn
    assert [type(n).__name__ if n else None for n, _ in fn.next_functions] == [
        "AccumulateGrad",
        None,
    ]


def test_broadcast_target_gradient_sums_back():
    x, t = _t(_X), _t(_T[0])
    with pytest.warns(UserWarning, match="different to the input size"):
        loss = F.mse_loss(x, t)
    loss.backward()
    np.testing.assert_allclose(t.grad.numpy(), (-2 * (_X - _T[0]) / 12).sum(0), rtol=1e-12)


def test_errors_are_unchanged():
    with pytest.raises(ValueError, match="is not a valid value for reduction"):
        F.mse_loss(_t(_X), _t(_T), reduction="avg")
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(_t(_X), _t(_Q))
    with pytest.raises(IndexError, match="Target 7 is out of bounds"):
        F.nll_loss(_t(_X), engine.tensor([0, 7, 1]))
    with pytest.raises(RuntimeError, match="smooth_l1_loss does not support negative values"):
        F.smooth_l1_loss(_t(_X), _t(_T), beta=-1.0)


@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_mode_and_vmap(name):
    fn, x, t, _ = CASES[name]
    xs, ts = engine.tensor(x), engine.tensor(t)
    direction = engine.tensor(np.linspace(-1, 1, 12).reshape(3, 4))
    _, tangent = engine.func.jvp(lambda a: fn(a, ts, "sum"), (xs,), (direction,))
    xr = _t(x)
    (g,) = engine.autograd.grad(fn(xr, ts, "sum"), [xr])
    assert tangent.item() == pytest.approx((g * direction).sum().item(), rel=1e-10)
    batched = engine.func.vmap(lambda a, b: fn(a, b, "mean"))(
        engine.stack([xs, xs * 0.5]), engine.stack([ts, ts])
    )
    for i, scale in enumerate((1.0, 0.5)):
        assert batched[i].item() == pytest.approx(fn(xs * scale, ts, "mean").item(), rel=1e-12)
