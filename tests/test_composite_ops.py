"""Operations composed from native ones (engine/_composite_ops.py): values against NumPy in
float64, gradients by gradcheck (and gradgradcheck), PyTorch's errors."""

import math

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck, gradgradcheck

rng = np.random.default_rng(0)


def T(*shape, requires_grad=True, positive=False):
    a = rng.random(shape) + 0.5 if positive else rng.standard_normal(shape)
    return engine.tensor(a, dtype=engine.float64, requires_grad=requires_grad)


def N(t):
    return t.detach().numpy()


CASES = [
    ("addmm", lambda a, b, c: engine.addmm(a, b, c, beta=0.5, alpha=2.0), (T(2, 4), T(2, 3), T(3, 4)),
     lambda a, b, c: 0.5 * a + 2.0 * (b @ c)),
    ("addmm_broadcast", lambda a, b, c: engine.addmm(a, b, c), (T(4), T(2, 3), T(3, 4)),
     lambda a, b, c: a + b @ c),
    ("addmv", lambda a, b, c: engine.addmv(a, b, c, alpha=3.0), (T(2), T(2, 3), T(3)),
     lambda a, b, c: a + 3 * (b @ c)),
    ("baddbmm", lambda a, b, c: engine.baddbmm(a, b, c, beta=2.0), (T(2, 2, 4), T(2, 2, 3), T(2, 3, 4)),
     lambda a, b, c: 2 * a + b @ c),
    ("addbmm", lambda a, b, c: engine.addbmm(a, b, c), (T(2, 4), T(3, 2, 3), T(3, 3, 4)),
     lambda a, b, c: a + (b @ c).sum(0)),
    ("addcmul", lambda a, b, c: engine.addcmul(a, b, c, value=0.5), (T(2, 3), T(3), T(2, 1)),
     lambda a, b, c: a + 0.5 * b * c),
    ("addcdiv", lambda a, b, c: a.addcdiv(b, c, value=-2), (T(2, 3), T(3), T(2, 1, positive=True)),
     lambda a, b, c: a - 2 * b / c),
    ("trace", engine.trace, (T(3, 4),), lambda a: np.trace(a)),
    ("diff", lambda a: engine.diff(a, n=2, dim=0), (T(5, 3),), lambda a: np.diff(a, n=2, axis=0)),
    ("diff_prepend", lambda a, p: engine.diff(a, prepend=p), (T(2, 3), T(2, 1)),
     lambda a, p: np.diff(a, prepend=p)),
    ("tile", lambda a: engine.tile(a, (2, 1, 3)), (T(2, 3),), lambda a: np.tile(a, (2, 1, 3))),
    ("movedim", lambda a: engine.movedim(a, (0, 1), (2, 0)), (T(2, 3, 4),),
     lambda a: np.moveaxis(a, (0, 1), (2, 0))),
    ("moveaxis", lambda a: a.moveaxis(-1, 0), (T(2, 3, 4),), lambda a: np.moveaxis(a, -1, 0)),
    ("kron", engine.kron, (T(2, 3), T(3, 2)), np.kron),
    ("kron_mixed_dims", engine.kron, (T(2), T(2, 3)), np.kron),
    ("tensordot", lambda a, b: engine.tensordot(a, b, dims=([1, 0], [0, 2])), (T(3, 4, 5), T(4, 2, 3)),
     lambda a, b: np.tensordot(a, b, axes=([1, 0], [0, 2]))),
    ("tensordot_int", lambda a, b: engine.tensordot(a, b, 1), (T(2, 3), T(3, 4)), lambda a, b: a @ b),
    ("hypot", engine.hypot, (T(2, 3), T(3)), np.hypot),
    ("square", engine.square, (T(2, 3),), np.square),
    ("logit", lambda a: engine.logit(a, eps=0.1),
     (engine.tensor([0.05, 0.3, 0.7], dtype=engine.float64, requires_grad=True),),
     lambda a: np.log(np.clip(a, 0.1, 0.9) / (1 - np.clip(a, 0.1, 0.9)))),
    ("xlogy", engine.xlogy, (T(2, 3), T(2, 3, positive=True)), lambda a, b: a * np.log(b)),
    ("rot90", lambda a: engine.rot90(a, 1, (0, 1)), (T(2, 3),), lambda a: np.rot90(a, 1, (0, 1))),
    ("rot90_k3", lambda a: a.rot90(-1, (1, 2)), (T(2, 3, 4),), lambda a: np.rot90(a, -1, (1, 2))),
    ("rot90_k2", lambda a: a.rot90(2), (T(2, 3),), lambda a: np.rot90(a, 2)),
    ("clamp_min", lambda a: engine.clamp_min(a, 0.1), (T(2, 3),), lambda a: np.maximum(a, 0.1)),
    ("clamp_max", lambda a: engine.clamp_max(a, 0.1), (T(2, 3),), lambda a: np.minimum(a, 0.1)),
]  # fmt: skip


@pytest.mark.parametrize("name, fn, args, ref", CASES, ids=[c[0] for c in CASES])
def test_values_against_numpy_and_gradients(name, fn, args, ref):
    out = fn(*args)
    want = ref(*[N(a) for a in args])
    assert tuple(out.shape) == np.shape(want)
    np.testing.assert_allclose(N(out), want, rtol=1e-12, atol=1e-12)
    assert gradcheck(fn, args)
    assert gradgradcheck(fn, args)


def test_beta_zero_ignores_nan_in_input():
    out = engine.addmm(engine.full((2, 2), math.nan), engine.eye(2), engine.eye(2), beta=0)
    assert out.tolist() == [[1.0, 0.0], [0.0, 1.0]]


def test_var_mean_std_mean():
    a = T(3, 4, requires_grad=False)
    v, m = engine.var_mean(a, 1)
    np.testing.assert_allclose(N(v), np.var(N(a), axis=1, ddof=1), rtol=1e-12)
    np.testing.assert_allclose(N(m), np.mean(N(a), axis=1), rtol=1e-12)
    s, m = engine.std_mean(a, correction=0)
    np.testing.assert_allclose(s.item(), np.std(N(a)), rtol=1e-12)
    np.testing.assert_allclose(m.item(), np.mean(N(a)), rtol=1e-12)


def test_nan_aware_reductions_and_nan_to_num():
    a = engine.tensor([[1.0, math.nan, 3.0], [math.nan, math.nan, math.nan]], dtype=engine.float64)
    assert engine.nansum(a).item() == 4.0
    assert engine.nansum(a, 1).tolist() == [4.0, 0.0]
    mean = engine.nanmean(a, 1).tolist()
    assert mean[0] == 2.0 and math.isnan(mean[1])
    b = engine.tensor([math.nan, math.inf, -math.inf, 1.0])
    assert engine.nan_to_num(b).tolist() == [
        0.0,
        3.4028234663852886e38,
        -3.4028234663852886e38,
        1.0,
    ]
    assert engine.nan_to_num(b, nan=2.0, posinf=1.0, neginf=-1.0).tolist() == [2.0, 1.0, -1.0, 1.0]
    with pytest.raises(
        RuntimeError,
        match="^nanmean\\(\\): expected input to have floating point or complex dtype but got Long$",
    ):
        engine.nanmean(engine.tensor([1, 2]))


def test_xlogy_at_zero_has_exact_value_and_gradient():
    x = engine.tensor([0.0, 0.0, 2.0], dtype=engine.float64, requires_grad=True)
    y = engine.tensor([0.0, math.nan, 3.0], dtype=engine.float64, requires_grad=True)
    out = engine.xlogy(x, y)
    assert out.tolist()[0] == 0.0 and math.isnan(out.tolist()[1])
    engine.xlogy(x, y)[[0, 2]].sum().backward()
    # d/dy = x / y is 0 / 0 at (0, 0): NaN, as PyTorch gives it.
    assert x.grad.tolist()[2] == pytest.approx(math.log(3.0)) and math.isnan(y.grad.tolist()[0])


def test_diff_of_bools_and_trace_of_integers():
    assert engine.diff(engine.tensor([True, True, False])).tolist() == [False, True]
    t = engine.trace(engine.arange(9).reshape(3, 3))
    assert t.item() == 12 and t.dtype == engine.int64


@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda: engine.addmm(engine.ones(2), engine.ones(2), engine.ones(2, 2)),
            RuntimeError,
            "^mat1 must be a matrix, got 1-D tensor$",
        ),
        (
            lambda: engine.baddbmm(engine.ones(2), engine.ones(2, 2), engine.ones(2, 2, 2)),
            RuntimeError,
            "^batch1 must be a 3D tensor$",
        ),
        (
            lambda: engine.trace(engine.ones(3)),
            RuntimeError,
            "^trace: expected a matrix, but got tensor with dim 1$",
        ),
        (
            lambda: engine.addcdiv(engine.ones(2), engine.tensor([1, 2]), engine.tensor([1, 2])),
            RuntimeError,
            "^Integer division with addcdiv",
        ),
        (
            lambda: engine.movedim(engine.ones(2, 3), (0, 1), 0),
            RuntimeError,
            "^movedim: Invalid source or destination dims",
        ),
        (lambda: engine.movedim(engine.ones(2, 3), 2, 0), IndexError, "^Dimension out of range"),
        (
            lambda: engine.tensordot(engine.ones(2, 3), engine.ones(2, 3), 1),
            RuntimeError,
            "^contracted dimensions need to match",
        ),
        (
            lambda: engine.rot90(engine.ones(2, 2), 1, (0, 0)),
            RuntimeError,
            "^expected rotation dims to be different",
        ),
        (
            lambda: engine.addmm(engine.ones(2, 2), 3, engine.ones(2, 2)),
            TypeError,
            "^addmm\\(\\): argument 'mat1' \\(position 2\\) must be Tensor, not int$",
        ),
    ],
)
def test_errors_follow_pytorch(call, error, message):
    with pytest.raises(error, match=message):
        call()
