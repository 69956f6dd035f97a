"""engine.nn.functional against values recorded from PyTorch 2.13 (tests/fixtures/nn_functional.json)
and NumPy references; gradients through gradcheck in float64; PyTorch's error messages."""

from __future__ import annotations

import json
import pathlib

import engine
import engine.nn.functional as F
import numpy as np
import pytest
from engine.autograd import gradcheck

FIX = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nn_functional.json").read_text())


def t(name, dtype=engine.float64):
    return engine.tensor(FIX[name], dtype=dtype)


def close(got, want, tol=1e-10):
    np.testing.assert_allclose(np.asarray(got.tolist()), np.asarray(want), rtol=tol, atol=tol)


@pytest.mark.parametrize(
    "key,fn",
    [
        ("ce", lambda: F.cross_entropy(t("x"), t("t", engine.int64))),
        (
            "ce_sum_w",
            lambda: F.cross_entropy(t("x"), t("t", engine.int64), weight=t("w"), reduction="sum"),
        ),
        ("ce_w_mean", lambda: F.cross_entropy(t("x"), t("t", engine.int64), weight=t("w"))),
        ("ce_ls", lambda: F.cross_entropy(t("x"), t("t", engine.int64), label_smoothing=0.2)),
        (
            "ce_ls_w",
            lambda: F.cross_entropy(
                t("x"), t("t", engine.int64), weight=t("w"), label_smoothing=0.1
            ),
        ),
        ("ce_prob", lambda: F.cross_entropy(t("x"), t("p"))),
        (
            "ce_prob_ls",
            lambda: F.cross_entropy(t("x"), t("p"), label_smoothing=0.3, reduction="none"),
        ),
        ("ce_3d_ignore", lambda: F.cross_entropy(t("x3"), t("t3", engine.int64))),
        (
            "nll_none",
            lambda: F.nll_loss(F.log_softmax(t("x"), 1), t("t", engine.int64), reduction="none"),
        ),
        ("bce", lambda: F.binary_cross_entropy(t("u"), t("y"))),
        ("bce_logits", lambda: F.binary_cross_entropy_with_logits(t("z"), t("y"))),
        (
            "bce_logits_pw",
            lambda: F.binary_cross_entropy_with_logits(
                t("z"),
                t("y"),
                pos_weight=engine.tensor(2.5, dtype=engine.float64),
                reduction="none",
            ),
        ),
        ("gelu", lambda: F.gelu(t("z"))),
        ("gelu_tanh", lambda: F.gelu(t("z"), approximate="tanh")),
        ("silu", lambda: F.silu(t("z"))),
        ("ls_3d", lambda: F.log_softmax(t("x3"), 1)),
    ],
)
def test_matches_recorded_pytorch_values(key, fn):
    close(fn(), FIX[key])


def test_softmax_is_stable_and_matches_numpy():
    x = np.array([[1000.0, 1001.0, 999.0], [-5.0, 0.0, 5.0]])
    e = np.exp(x - x.max(1, keepdims=True))
    close(
        F.softmax(engine.tensor(x.tolist(), dtype=engine.float64), 1), e / e.sum(1, keepdims=True)
    )
    close(
        F.log_softmax(engine.tensor(x.tolist(), dtype=engine.float64), -1),
        np.log(e / e.sum(1, keepdims=True)),
    )


def test_simple_losses_and_linear_match_numpy():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    w, bias = rng.normal(size=(2, 4)), rng.normal(size=2)
    A, B = (engine.tensor(v.tolist(), dtype=engine.float64) for v in (a, b))
    close(F.mse_loss(A, B), np.mean((a - b) ** 2))
    close(F.l1_loss(A, B, reduction="sum"), np.sum(np.abs(a - b)))
    W, Bi = (
        engine.tensor(w.tolist(), dtype=engine.float64),
        engine.tensor(bias.tolist(), dtype=engine.float64),
    )
    close(F.linear(A, W, Bi), a @ w.T + bias)
    close(F.relu(A), np.maximum(a, 0))
    close(F.one_hot(engine.tensor([0, 2, 1])), np.eye(3)[[0, 2, 1]])
    assert F.one_hot(engine.tensor([1]), 4).dtype == engine.int64


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: F.softmax(x, 1),
        lambda x: F.log_softmax(x, 0),
        lambda x: F.gelu(x),
        lambda x: F.gelu(x, approximate="tanh"),
        lambda x: F.silu(x),
        lambda x: F.cross_entropy(x, engine.tensor([1, 0, 3]), label_smoothing=0.1),
        lambda x: F.cross_entropy(
            x,
            engine.tensor([1, -100, 3]),
            weight=engine.tensor([1.0, 2.0, 0.5, 1.0], dtype=engine.float64),
        ),
        lambda x: F.cross_entropy(x, F.softmax(engine.arange(12.0).reshape(3, 4).double() / 5, 1)),
        lambda x: F.binary_cross_entropy(engine.sigmoid(x), (x.detach() > 0).double()),
        lambda x: F.binary_cross_entropy_with_logits(
            x, (x.detach() > 0).double(), pos_weight=engine.tensor(2.0, dtype=engine.float64)
        ),
        lambda x: F.mse_loss(x, engine.ones(3, 4, dtype=engine.float64)),
        lambda x: F.linear(x, x * 2, x[:, 0]),
    ],
)
def test_gradients(fn):
    x = engine.tensor(
        np.random.default_rng(3).normal(size=(3, 4)).tolist(),
        dtype=engine.float64,
        requires_grad=True,
    )
    assert gradcheck(fn, [x])


def test_dropout_scales_and_is_seeded():
    x = engine.ones(1000, dtype=engine.float64)
    engine.manual_seed(1)
    a = F.dropout(x, 0.3)
    engine.manual_seed(1)
    b = F.dropout(x, 0.3)
    assert a.tolist() == b.tolist()
    vals = set(np.round(a.numpy(), 6).tolist())
    assert vals <= {0.0, round(1 / 0.7, 6)}
    assert 0.2 < float((a == 0).numpy().mean()) < 0.4
    assert F.dropout(x, 0.3, training=False) is x


def test_errors_match_pytorch():
    x = engine.zeros(2, 3)
    with pytest.raises(
        ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"
    ):
        F.dropout(x, 1.5)
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes."):
        F.one_hot(engine.tensor([1, 5]), 3)
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(x + 2, x)
    with pytest.raises(ValueError, match="foo is not a valid value for reduction"):
        F.mse_loss(x, x, reduction="foo")
    with pytest.raises(IndexError, match="Target 7 is out of bounds."):
        F.cross_entropy(x, engine.tensor([0, 7]))


def test_bce_with_logits_derivatives_at_zero_and_at_large_logits():
    # d/dx of log(1 + exp(-x)) is -sigmoid(-x): -0.5 at 0 (a relu/abs form gives 0 there), and the
    # second derivative is sigmoid'(0) = 0.25; large logits stay finite.
    x = engine.tensor([0.0, 2.0, -3.0, 100.0, -100.0], dtype=engine.float64, requires_grad=True)
    t = engine.tensor([0.0, 1.0, 0.5, 0.0, 1.0], dtype=engine.float64)
    loss = F.binary_cross_entropy_with_logits(x, t, reduction="sum")
    (g,) = engine.autograd.grad(loss, x, create_graph=True)
    xs = np.array([0.0, 2.0, -3.0, 100.0, -100.0])
    sig = 1 / (1 + np.exp(-xs))
    np.testing.assert_allclose(g.detach().numpy(), sig - t.numpy(), rtol=1e-12, atol=1e-12)
    (h,) = engine.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), sig * (1 - sig), rtol=1e-12, atol=1e-12)
    assert engine.autograd.gradgradcheck(lambda v: F.binary_cross_entropy_with_logits(v, t), (x,))
