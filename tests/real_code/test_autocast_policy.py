"""CPU autocast's per-op policy: inside ``autocast("cpu")`` matrix products and convolutions run
in bfloat16 (or the region's float16), losses and accuracy-sensitive ops in float32, joins in the
widest input dtype; float64 is never cast, unlisted ops keep their inputs' dtype, and float32
parameters are cast once per outermost region (cached until it closes).

Recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import warnings

import pytest

BF16_FROM_FLOAT32 = {
    "matmul": lambda t, a, b, v, x4, w4: t.matmul(a, b),
    "@": lambda t, a, b, v, x4, w4: a @ b,
    "mm method": lambda t, a, b, v, x4, w4: a.mm(b),
    "bmm": lambda t, a, b, v, x4, w4: t.bmm(a.unsqueeze(0), b.unsqueeze(0)),
    "addmm": lambda t, a, b, v, x4, w4: t.addmm(a, a, b),
    "baddbmm": lambda t, a, b, v, x4, w4: t.baddbmm(a[None], a[None], b[None]),
    "addbmm": lambda t, a, b, v, x4, w4: t.addbmm(a, a[None], b[None]),
    "linear": lambda t, a, b, v, x4, w4: t.nn.functional.linear(a, b, v),
    "conv2d": lambda t, a, b, v, x4, w4: t.nn.functional.conv2d(x4, w4),
    "conv_transpose2d": lambda t, a, b, v, x4, w4: t.nn.functional.conv_transpose2d(
        x4, w4.transpose(0, 1)
    ),
    "prelu": lambda t, a, b, v, x4, w4: t.nn.functional.prelu(a, t.tensor([0.25])),
    "einsum": lambda t, a, b, v, x4, w4: t.einsum("ij,jk->ik", a, b),
    "matmul 1-d": lambda t, a, b, v, x4, w4: v @ v,
}

FLOAT32_FROM_FLOAT32 = {
    "mv": lambda t, a, b, v, x4, w4: t.mv(a, v),
    "dot": lambda t, a, b, v, x4, w4: t.dot(v, v),
    "outer": lambda t, a, b, v, x4, w4: t.outer(v, v),
    "softmax": lambda t, a, b, v, x4, w4: t.softmax(a, -1),
    "exp": lambda t, a, b, v, x4, w4: a.exp(),
    "sum": lambda t, a, b, v, x4, w4: a.sum(),
    "layer_norm": lambda t, a, b, v, x4, w4: t.nn.functional.layer_norm(a, (4,)),
    "max_pool2d": lambda t, a, b, v, x4, w4: t.nn.functional.max_pool2d(x4, 2),
    "bilinear": lambda t, a, b, v, x4, w4: t.nn.functional.bilinear(a, a, t.ones(3, 4, 4)),
}

FLOAT32_FROM_BFLOAT16 = {
    "mse_loss": lambda t, h, target: t.nn.functional.mse_loss(h, h),
    "l1_loss": lambda t, h, target: t.nn.functional.l1_loss(h, h),
    "cross_entropy": lambda t, h, target: t.nn.functional.cross_entropy(h, target),
    "nll_loss": lambda t, h, target: t.nn.functional.nll_loss(h, target),
    "bce_with_logits": lambda t, h, target: t.nn.functional.binary_cross_entropy_with_logits(
        h, h.sigmoid()
    ),
    "smooth_l1_loss": lambda t, h, target: t.nn.functional.smooth_l1_loss(h, h),
    "prod": lambda t, h, target: h.prod(),
    "trace": lambda t, h, target: t.trace(h),
    "pad reflect": lambda t, h, target: t.nn.functional.pad(h[None], (1, 1), mode="reflect"),
    "svd": lambda t, h, target: t.linalg.svd(h)[1],
}


def _inputs(lib):
    gen = lib.Generator().manual_seed(0)
    a, b = lib.randn(4, 4, generator=gen), lib.randn(4, 4, generator=gen)
    v = lib.randn(4, generator=gen)
    x4, w4 = lib.randn(1, 2, 6, 6, generator=gen), lib.randn(3, 2, 3, 3, generator=gen)
    return a, b, v, x4, w4


@pytest.mark.parametrize("name", sorted(BF16_FROM_FLOAT32))
def test_lower_precision_ops_run_in_bfloat16(lib, name):
    with lib.autocast("cpu"):
        out = BF16_FROM_FLOAT32[name](lib, *_inputs(lib))
    assert out.dtype == lib.bfloat16


@pytest.mark.parametrize("name", sorted(FLOAT32_FROM_FLOAT32))
def test_unlisted_ops_keep_float32(lib, name):
    with lib.autocast("cpu"):
        out = FLOAT32_FROM_FLOAT32[name](lib, *_inputs(lib))
    assert out.dtype == lib.float32


@pytest.mark.parametrize("name", sorted(FLOAT32_FROM_BFLOAT16))
def test_fp32_ops_run_in_float32(lib, name):
    h = _inputs(lib)[0].bfloat16()
    with lib.autocast("cpu"):
        out = FLOAT32_FROM_BFLOAT16[name](lib, h, lib.tensor([0, 1, 2, 3]))
    assert out.dtype == lib.float32


def test_pad_constant_is_not_cast(lib):
    h = lib.ones(1, 4, dtype=lib.bfloat16)
    with lib.autocast("cpu"):
        assert lib.nn.functional.pad(h, (1, 1)).dtype == lib.bfloat16


def test_float64_is_never_cast(lib):
    a = lib.ones(3, 3, dtype=lib.float64)
    with lib.autocast("cpu"):
        assert (a @ a).dtype == lib.float64
        assert lib.nn.functional.linear(a, a).dtype == lib.float64


def test_promote_ops_take_the_widest_dtype(lib):
    a = lib.ones(2, 2)
    with lib.autocast("cpu"):
        assert lib.cat([a, a.bfloat16()]).dtype == lib.float32
        assert lib.stack([a.bfloat16(), a.bfloat16()]).dtype == lib.bfloat16
        assert a.index_copy(0, lib.tensor([0]), a[:1].bfloat16()).dtype == lib.float32


def test_region_dtype_nesting_and_disabling(lib):
    a = lib.ones(2, 2)
    with lib.autocast("cpu"):
        with lib.autocast("cpu", dtype=lib.float16):
            assert (a @ a).dtype == lib.float16
        with lib.autocast("cpu", enabled=False):
            assert (a @ a).dtype == lib.float32
            assert lib.is_autocast_enabled("cpu") is False
        assert (a @ a).dtype == lib.bfloat16
    assert (a @ a).dtype == lib.float32


def test_decorator_and_deprecated_cpu_spelling(lib):
    a = lib.ones(2, 2)

    @lib.autocast("cpu")
    def product(x):
        return x @ x

    assert product(a).dtype == lib.bfloat16
    with pytest.warns(FutureWarning, match=r"torch.cpu.amp.autocast\(args...\)` is deprecated"):
        region = lib.cpu.amp.autocast()
    with region:
        assert (a @ a).dtype == lib.bfloat16


def test_unsupported_cpu_dtype_disables_the_region(lib):
    with pytest.warns(UserWarning, match="CPU Autocast only supports dtypes of torch.bfloat16"):
        region = lib.autocast("cpu", dtype=lib.float32)
    with region:
        assert lib.is_autocast_enabled("cpu") is False


def test_parameter_casts_are_cached_per_outermost_region(lib):
    w = lib.nn.Parameter(lib.ones(2, 2))
    x = lib.ones(2, 2)

    def cast_node(y):
        return y.grad_fn.next_functions[1][0]

    with lib.autocast("cpu"):
        first, second = x @ w, x @ w
        assert cast_node(first) is cast_node(second)
        with lib.autocast("cpu", cache_enabled=False):
            assert cast_node(x @ w) is not cast_node(first)
    with lib.autocast("cpu"):
        assert cast_node(x @ w) is not cast_node(first)


def test_training_step_under_autocast(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.ReLU(), lib.nn.Linear(8, 3))
    x, target = lib.randn(5, 4), lib.tensor([0, 1, 2, 0, 1])
    with lib.autocast("cpu"):
        logits = model(x)
        loss = lib.nn.functional.cross_entropy(logits, target)
    assert (logits.dtype, loss.dtype) == (lib.bfloat16, lib.float32)
    loss.backward()
    assert model[0].weight.grad.dtype == lib.float32


def test_lstm_runs_in_bfloat16_gru_in_float32(lib):
    lib.manual_seed(0)
    x = lib.randn(3, 1, 4)
    with lib.autocast("cpu"):
        out, (h, c) = lib.nn.LSTM(4, 4)(x)
        assert (out.dtype, h.dtype, c.dtype) == (lib.bfloat16,) * 3
        assert lib.nn.GRU(4, 4)(x)[0].dtype == lib.float32
        assert lib.nn.RNN(4, 4)(x)[0].dtype == lib.bfloat16


def test_state_setters(lib):
    a = lib.ones(2, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert lib.is_autocast_cache_enabled() is True
        lib.set_autocast_enabled("cpu", True)
        try:
            assert (a @ a).dtype == lib.bfloat16
        finally:
            lib.set_autocast_enabled("cpu", False)
    assert (a @ a).dtype == lib.float32
