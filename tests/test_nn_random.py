"""The random nn.functional entries (dropout1d/2d/3d, alpha and feature-alpha dropout, the torch.*
dropout forms, rrelu in training, gumbel_softmax): statistics, mask structure, gradients,
engine.manual_seed reproducibility, and PyTorch's errors and warnings."""

import math

import engine
import engine.nn.functional as F
import numpy as np
import pytest


def _reproducible(fn):
    engine.manual_seed(123)
    first = fn().numpy()
    engine.manual_seed(123)
    second = fn().numpy()
    np.testing.assert_array_equal(first, second)
    return first


def test_channel_dropout_zeroes_whole_channels_and_scales_the_rest():
    x = engine.ones(64, 32, 3, 4, dtype=engine.float64)
    out = _reproducible(lambda: F.dropout2d(x, 0.25))
    per_channel = out.reshape(64, 32, -1)
    # Every channel is either all 0 or all 1 / (1 - p).
    assert np.all((per_channel == 0).all(-1) | (per_channel == 1 / 0.75).all(-1))
    dropped = (per_channel == 0).all(-1).mean()
    assert abs(dropped - 0.25) < 0.05
    for fn, shape in ((F.dropout1d, (40, 30, 5)), (F.dropout3d, (40, 30, 2, 2, 2))):
        out = fn(engine.ones(*shape), 0.5).numpy().reshape(40, 30, -1)
        assert np.all((out == 0).all(-1) | (out == 2).all(-1))
        assert abs((out == 0).all(-1).mean() - 0.5) < 0.06


def test_channel_dropout_without_a_batch_dim():
    out = F.dropout1d(engine.ones(50, 6), 0.5).numpy()
    assert out.shape == (50, 6) and np.all((out == 0).all(1) | (out == 2).all(1))
    out = F.dropout3d(engine.ones(50, 2, 2, 2), 0.5).numpy().reshape(50, -1)
    assert np.all((out == 0).all(1) | (out == 2).all(1))
    y = engine.ones(50, 6)
    assert F.dropout1d(y, 0.5, inplace=True) is y
    assert np.all((y.numpy() == 0).all(1) | (y.numpy() == 2).all(1))


def test_dropout_gradient_is_the_mask():
    x = engine.randn(20, 10, 3, dtype=engine.float64).requires_grad_(True)
    engine.manual_seed(5)
    out = F.dropout1d(x, 0.4)
    (grad,) = engine.autograd.grad(out.sum(), x)
    np.testing.assert_allclose(grad.numpy(), (out.detach().numpy() != 0) / 0.6)


def test_dropout_identities_and_extremes():
    x = engine.randn(4, 5, 6)
    assert F.dropout2d(x.unsqueeze(0), 0.5, training=False).shape == (1, 4, 5, 6)
    assert F.dropout1d(x, 0.5, training=False) is x
    assert F.dropout3d(engine.randn(2, 3, 1, 1, 1), 0.0) is not None
    assert F.alpha_dropout(x, 0.5) is x  # training defaults to False
    assert F.feature_alpha_dropout(x, 0.5) is x
    assert engine.dropout(x, 0.5, False) is x
    assert np.all(F.dropout1d(x, 1.0).numpy() == 0)
    assert np.all(engine.alpha_dropout(x, 1.0, True).numpy() == 0)
    nan = engine.tensor([[math.nan, 1.0]])
    assert math.isnan(engine.dropout(nan, 1.0, True)[0, 0].item())


def test_alpha_dropout_keeps_zero_mean_and_unit_variance():
    engine.manual_seed(0)
    x = engine.randn(200000, dtype=engine.float64)
    out = _reproducible(lambda: F.alpha_dropout(x, 0.2, training=True))
    assert abs(out.mean()) < 0.01 and abs(out.std() - 1.0) < 0.01
    # Dropped elements all take one value: SELU's saturation after the affine correction.
    a = 1.0 / math.sqrt((1.7580993408473766**2 * 0.2 + 1) * 0.8)
    dropped_value = -1.7580993408473766 * a + 1.7580993408473766 * a * 0.2
    xs = x.numpy()
    kept = np.isclose(out, xs * a + 1.7580993408473766 * a * 0.2)
    assert np.allclose(out[~kept], dropped_value)
    assert abs((~kept).mean() - 0.2) < 0.01


def test_feature_alpha_dropout_masks_whole_channels():
    x = engine.zeros(100, 40, 7, dtype=engine.float64)
    out = F.feature_alpha_dropout(x, 0.3, training=True).numpy()
    # With x = 0 each channel is constant: one value where kept, another where dropped.
    assert np.all(out.max(-1) == out.min(-1))
    assert len(np.unique(np.round(out[:, :, 0], 12))) == 2
    out2 = engine.feature_dropout(engine.ones(100, 40, 7), 0.3, True).numpy()
    assert np.all((out2 == 0).all(-1) | np.isclose(out2, 1 / 0.7).all(-1))


def test_dropout_errors_and_warnings_match_pytorch():
    x = engine.ones(2, 3, 4, 5)
    with pytest.raises(
        ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"
    ):
        F.dropout2d(x, 1.5)
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        F.alpha_dropout(x, -0.1)
    with pytest.raises(
        RuntimeError, match="dropout probability has to be between 0 and 1, but got 1.5"
    ):
        engine.dropout(x, 1.5, True)
    with pytest.raises(
        RuntimeError, match="dropout1d: Expected 2D or 3D input, but received a 4D input"
    ):
        F.dropout1d(x)
    with pytest.raises(RuntimeError, match="Feature dropout requires at least 2 dimensions"):
        engine.feature_dropout(engine.ones(3), 0.5, True)
    with pytest.warns(
        UserWarning, match="dropout2d: Received a 3D input to dropout2d and assuming"
    ):
        F.dropout2d(engine.ones(2, 3, 4))
    with pytest.warns(
        UserWarning, match="dropout2d: Received a 2-D input to dropout2d, which is deprecated"
    ):
        F.dropout2d(engine.ones(2, 3))
    with pytest.warns(
        UserWarning, match="dropout3d: Received a 3-D input to dropout3d, which is deprecated"
    ):
        F.dropout3d(engine.ones(2, 3, 4))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        engine.dropout_(engine.ones(3, requires_grad=True), 0.5, True)


def test_torch_in_place_dropouts_modify_their_input():
    for fn in (engine.dropout_, engine.feature_dropout_, engine.alpha_dropout_,
               engine.feature_alpha_dropout_):  # fmt: skip
        y = engine.ones(30, 20)
        assert fn(y, 0.5, True) is y
        assert not np.all(y.numpy() == 1)


def test_rrelu_training_draws_slopes_in_range():
    x = engine.full([20000], -2.0, dtype=engine.float64).requires_grad_(True)
    engine.manual_seed(1)
    out = F.rrelu(x, 0.1, 0.3, training=True)
    slopes = out.detach().numpy() / -2.0
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3 and abs(slopes.mean() - 0.2) < 0.005
    (grad,) = engine.autograd.grad(out.sum(), x)
    np.testing.assert_allclose(grad.numpy(), slopes)
    positive = engine.tensor([0.5, 3.0])
    assert F.rrelu(positive, training=True).tolist() == [0.5, 3.0]
    engine.manual_seed(9)
    a = F.rrelu(x.detach(), training=True).numpy()
    engine.manual_seed(9)
    b = engine.rrelu(x.detach(), 1.0 / 8, 1.0 / 3, True).numpy()
    np.testing.assert_array_equal(a, b)
    y = x.detach().clone()
    assert engine.rrelu_(y, 0.1, 0.3, True) is y and y.numpy().max() < 0
    g1, g2 = engine.Generator().manual_seed(4), engine.Generator().manual_seed(4)
    a = engine.rrelu(x.detach(), 0.1, 0.3, True, generator=g1).numpy()
    np.testing.assert_array_equal(a, engine.rrelu(x.detach(), 0.1, 0.3, True, generator=g2).numpy())


def test_gumbel_softmax_soft_and_hard():
    logits = engine.tensor([[1.0, 2.0, 0.5, -1.0]] * 4000, dtype=engine.float64)
    soft = _reproducible(lambda: F.gumbel_softmax(logits, tau=0.5))
    np.testing.assert_allclose(soft.sum(1), 1.0)
    hard = F.gumbel_softmax(logits, hard=True).numpy()
    assert np.all(hard.sum(1) == 1) and set(np.unique(hard)) == {0.0, 1.0}
    # Gumbel-max: the argmax frequencies follow softmax(logits).
    freq = hard.mean(0)
    p = np.exp([1.0, 2.0, 0.5, -1.0])
    np.testing.assert_allclose(freq, p / p.sum(), atol=0.03)
    x = logits[:2].clone().requires_grad_(True)
    engine.manual_seed(3)
    out = F.gumbel_softmax(x, hard=True, dim=1)
    (grad_hard,) = engine.autograd.grad((out * engine.arange(4.0)).sum(), x)
    engine.manual_seed(3)
    soft = F.gumbel_softmax(x, hard=False, dim=1)
    (grad_soft,) = engine.autograd.grad((soft * engine.arange(4.0)).sum(), x)
    np.testing.assert_allclose(grad_hard.numpy(), grad_soft.numpy(), atol=1e-12)
    with pytest.warns(UserWarning, match="`eps` parameter is deprecated and has no effect."):
        F.gumbel_softmax(logits[:1], eps=1e-5)


def test_same_seed_draws_what_pytorch_draws():
    # Recorded from PyTorch 2.13 (tests/fixtures/record_random_nn_draws.py): with the same seed,
    # dropout drops the same elements, rrelu and gumbel_softmax draw the same numbers, and the
    # generator is left where PyTorch leaves it.
    import json
    import pathlib

    want = json.loads(
        (pathlib.Path(__file__).parent / "fixtures" / "torch_random_nn_draws.json").read_text()
    )
    engine.manual_seed(7)
    got = {
        "dropout": F.dropout(engine.ones(40), 0.3),
        "dropout2d": F.dropout2d(engine.ones(3, 5, 2, 2), 0.5)[:, :, 0, 0],
        "alpha_dropout": F.alpha_dropout(engine.ones(12, dtype=engine.float64), 0.3, True),
        "rrelu": F.rrelu(engine.linspace(-2, 2, 13), training=True),
        "gumbel": F.gumbel_softmax(engine.zeros(2, 4, dtype=engine.float64), tau=0.7),
        "after": engine.rand(3, dtype=engine.float64),
    }
    for name, value in got.items():
        np.testing.assert_allclose(value.numpy(), np.array(want[name]), rtol=1e-6, err_msg=name)
