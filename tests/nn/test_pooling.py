"""Max, average, adaptive and power-average pooling and max_unpool: values and indices against
direct NumPy loops, PyTorch's recorded values for ceil_mode / count_include_pad / divisor_override,
gradients of first and second order, and PyTorch's error messages."""

import itertools
import math

import engine
import engine.nn.functional as F
import numpy as np
import pytest
from conv_cases import check_recorded
from engine.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(1)


def arr(t):
    return np.array(t.tolist())


def out_size(n, k, s, p, d, ceil_mode):
    num = n + 2 * p - d * (k - 1) - 1
    o = (-(-num // s) if ceil_mode else num // s) + 1
    if ceil_mode and (o - 1) * s >= n + p:
        o -= 1
    return o


def pool2d_ref(x, k, s, p, d, ceil_mode, kind, count_include_pad=True, divisor=None):
    """Direct 2-D max (value, flat index) or average pooling over (N, C, H, W)."""
    n, c, h, w = x.shape
    oh, ow = (out_size(x.shape[2 + i], k[i], s[i], p[i], d[i], ceil_mode) for i in range(2))
    vals, idxs = np.zeros((n, c, oh, ow)), np.zeros((n, c, oh, ow), dtype=np.int64)
    for i, j in itertools.product(range(oh), range(ow)):
        y0, x0 = i * s[0] - p[0], j * s[1] - p[1]
        pts = [
            (y0 + a * d[0], x0 + b * d[1])
            for a in range(k[0])
            for b in range(k[1])
            if 0 <= y0 + a * d[0] < h and 0 <= x0 + b * d[1] < w
        ]
        window = np.stack([x[:, :, yy, xx] for yy, xx in pts], -1)
        if kind == "max":
            arg = window.argmax(-1)
            vals[:, :, i, j] = window.max(-1)
            flat = np.array([yy * w + xx for yy, xx in pts])
            idxs[:, :, i, j] = flat[arg]
        else:
            if divisor is not None:
                div = divisor
            elif count_include_pad:
                div = (min(y0 + k[0], h + p[0]) - y0) * (min(x0 + k[1], w + p[1]) - x0)
            else:
                div = len(pts)
            vals[:, :, i, j] = window.sum(-1) / div
    return vals, idxs


def adaptive_ref(x, size, kind):
    spatial = x.shape[2:]
    out = np.zeros(x.shape[:2] + tuple(size))
    for pos in itertools.product(*[range(s) for s in size]):
        sl = tuple(
            slice(math.floor(o * n / s), math.ceil((o + 1) * n / s))
            for o, n, s in zip(pos, spatial, size)
        )
        window = x[(slice(None), slice(None)) + sl].reshape(x.shape[:2] + (-1,))
        out[(slice(None), slice(None)) + pos] = window.max(-1) if kind == "max" else window.mean(-1)
    return out


MAX_CASES = [
    ((2, 2), (2, 2), (0, 0), (1, 1), False),
    ((3, 3), (2, 2), (1, 1), (1, 1), True),
    ((2, 3), (1, 2), (1, 1), (2, 1), False),
    ((3, 2), (2, 3), (1, 0), (1, 2), True),
]


@pytest.mark.parametrize("k, s, p, d, ceil_mode", MAX_CASES)
def test_max_pool2d_values_and_indices(k, s, p, d, ceil_mode):
    x = RNG.standard_normal((2, 3, 7, 6))
    vals, idx = F.max_pool2d(engine.tensor(x), k, s, p, d, ceil_mode, return_indices=True)
    want_v, want_i = pool2d_ref(x, k, s, p, d, ceil_mode, "max")
    np.testing.assert_allclose(arr(vals), want_v)
    np.testing.assert_array_equal(arr(idx), want_i)
    assert idx.dtype == engine.int64


@pytest.mark.parametrize("ceil_mode", [False, True])
@pytest.mark.parametrize("count_include_pad", [False, True])
@pytest.mark.parametrize("divisor", [None, 4])
def test_avg_pool2d_matches_loops(ceil_mode, count_include_pad, divisor):
    x = RNG.standard_normal((2, 3, 7, 6))
    got = F.avg_pool2d(engine.tensor(x), 3, 2, 1, ceil_mode, count_include_pad, divisor)
    want, _ = pool2d_ref(
        x, (3, 3), (2, 2), (1, 1), (1, 1), ceil_mode, "avg", count_include_pad, divisor
    )
    np.testing.assert_allclose(arr(got), want, atol=1e-12)


def test_one_and_three_dim_pooling_agree_with_the_2d_form():
    x = RNG.standard_normal((2, 3, 9))
    as2d = engine.tensor(x[:, :, None, :])
    np.testing.assert_allclose(
        arr(F.max_pool1d(engine.tensor(x), 3, 2, 1)),
        arr(F.max_pool2d(as2d, (1, 3), (1, 2), (0, 1)))[:, :, 0],
    )
    np.testing.assert_allclose(
        arr(F.avg_pool1d(engine.tensor(x), 4, 3, 2, True)),
        arr(F.avg_pool2d(as2d, (1, 4), (1, 3), (0, 2), True))[:, :, 0],
    )
    x3 = RNG.standard_normal((1, 2, 4, 4, 4))
    v, i = F.max_pool3d(engine.tensor(x3), 2, return_indices=True)
    want = x3.reshape(1, 2, 2, 2, 2, 2, 2, 2).max(axis=(3, 5, 7))
    np.testing.assert_allclose(arr(v), want)
    np.testing.assert_allclose(
        arr(F.avg_pool3d(engine.tensor(x3), 2)),
        x3.reshape(1, 2, 2, 2, 2, 2, 2, 2).mean(axis=(3, 5, 7)),
    )
    flat = x3.reshape(1, 2, -1)
    np.testing.assert_allclose(
        np.take_along_axis(flat, arr(i).astype(np.int64).reshape(1, 2, -1), 2).reshape(want.shape),
        want,
    )


@pytest.mark.parametrize("size", [(3, 4), (5, 4), (1, 1), (7, 6), (None, 2)])
@pytest.mark.parametrize("kind", ["avg", "max"])
def test_adaptive_pool2d(size, kind):
    x = RNG.standard_normal((2, 3, 7, 6))
    fn = F.adaptive_avg_pool2d if kind == "avg" else F.adaptive_max_pool2d
    full = tuple(7 if s is None else s for s in size)
    np.testing.assert_allclose(
        arr(fn(engine.tensor(x), size)), adaptive_ref(x, full, kind), atol=1e-12
    )


def test_adaptive_1d_3d_and_unbatched():
    x = RNG.standard_normal((3, 10))
    np.testing.assert_allclose(
        arr(F.adaptive_avg_pool1d(engine.tensor(x), 4)), adaptive_ref(x[None], (4,), "avg")[0]
    )
    v, i = F.adaptive_max_pool1d(engine.tensor(x), 4, return_indices=True)
    np.testing.assert_allclose(arr(v), adaptive_ref(x[None], (4,), "max")[0])
    x3 = RNG.standard_normal((1, 2, 5, 4, 6))
    np.testing.assert_allclose(
        arr(F.adaptive_avg_pool3d(engine.tensor(x3), (2, 3, 4))), adaptive_ref(x3, (2, 3, 4), "avg")
    )
    np.testing.assert_allclose(
        arr(F.adaptive_max_pool3d(engine.tensor(x3), 2)), adaptive_ref(x3, (2, 2, 2), "max")
    )
    values, indices = engine.adaptive_max_pool1d(engine.tensor(x), 4)
    assert engine.equal(values, v) and engine.equal(indices, i)


@pytest.mark.parametrize(
    "name",
    [
        "max_pool2d_ceil", "max_pool2d_dilation", "avg_pool2d_ceil_excl", "avg_pool2d_ceil_incl",
        "avg_pool2d_divisor", "avg_pool1d_ceil", "avg_pool3d", "adaptive_avg_pool2d",
        "adaptive_max_pool2d", "lp_pool2d",
    ],
)  # fmt: skip
def test_pooling_matches_recorded_pytorch(name):
    check_recorded(name)


def test_lp_pool_is_the_power_mean():
    x = np.abs(RNG.standard_normal((2, 3, 8))) + 0.1
    got = F.lp_pool1d(engine.tensor(x), 3, 2)
    want = (x.reshape(2, 3, 4, 2) ** 3).sum(-1) ** (1 / 3)
    np.testing.assert_allclose(arr(got), want, rtol=1e-12)
    x2 = np.abs(RNG.standard_normal((1, 2, 4, 4))) + 0.1
    got2 = F.lp_pool2d(engine.tensor(x2), 2, 2)
    want2 = np.sqrt((x2.reshape(1, 2, 2, 2, 2, 2) ** 2).sum(axis=(3, 5)))
    np.testing.assert_allclose(arr(got2), want2, rtol=1e-12)
    x3 = engine.tensor(np.abs(RNG.standard_normal((1, 1, 2, 2, 2))) + 0.1)
    assert tuple(F.lp_pool3d(x3, 1, 2).shape) == (1, 1, 1, 1, 1)


def test_max_unpool_inverts_max_pool_positions():
    x = RNG.standard_normal((2, 3, 6, 6))
    v, i = F.max_pool2d(engine.tensor(x), 2, return_indices=True)
    up = arr(F.max_unpool2d(v, i, 2))
    mask = np.zeros_like(x, dtype=bool)
    np.put_along_axis(mask.reshape(2, 3, -1), arr(i).astype(np.int64).reshape(2, 3, -1), True, 2)
    np.testing.assert_allclose(up[mask], x[mask])
    assert np.all(up[~mask] == 0)
    v1, i1 = F.max_pool1d(engine.tensor(x[:, :, 0]), 2, return_indices=True)
    assert tuple(F.max_unpool1d(v1, i1, 2, output_size=[7]).shape) == (2, 3, 7)
    v3, i3 = F.max_pool3d(engine.tensor(x[:, :, None, :4, :4].repeat(2, 2)), 2, return_indices=True)
    assert tuple(F.max_unpool3d(v3, i3, 2).shape) == (2, 3, 2, 4, 4)
    with pytest.raises(RuntimeError, match="Found an invalid max index"):
        F.max_unpool2d(v, i * 100, 2)


def test_nan_wins_the_maximum():
    x = engine.tensor([[[1.0, float("nan"), 3.0, 2.0]]])
    v, i = F.max_pool1d(x, 2, return_indices=True)
    assert math.isnan(v[0, 0, 0].item()) and i.tolist() == [[[1, 2]]]
    # The last NaN of a window, and the first position of an all -inf window (PyTorch's indices).
    y = engine.tensor([[[1.0, float("nan"), float("nan"), 2.0, -math.inf, -math.inf]]])
    for pooled in (F.max_pool1d(y, 3, return_indices=True), F.adaptive_max_pool1d(y, 2, True)):
        assert pooled[1].tolist() == [[[2, 3]]]
    z = engine.full((1, 1, 4), -math.inf)
    assert F.max_pool1d(z, 2, return_indices=True)[1].tolist() == [[[0, 2]]]


def _param(*shape):
    return engine.randn(*shape, dtype=engine.float64, requires_grad=True)


@pytest.mark.parametrize(
    "fn, shape",
    [
        (lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True), (2, 2, 5, 5)),
        (lambda x: F.max_pool1d(x, 2, dilation=2), (2, 3, 7)),
        (lambda x: F.max_pool3d(x, 2, 1), (1, 2, 3, 3, 3)),
        (lambda x: F.avg_pool2d(x, 3, 2, 1, True, False), (2, 2, 5, 5)),
        (lambda x: F.avg_pool2d(x, 2, divisor_override=3), (1, 2, 4, 4)),
        (lambda x: F.avg_pool1d(x, 3, 2, 1), (2, 2, 7)),
        (lambda x: F.avg_pool3d(x, 2, 1, 1), (1, 1, 3, 3, 3)),
        (lambda x: F.adaptive_avg_pool2d(x, (3, 2)), (2, 2, 5, 4)),
        (lambda x: F.adaptive_max_pool2d(x, (3, 2)), (2, 2, 5, 4)),
        (lambda x: F.adaptive_avg_pool1d(x, 3), (2, 7)),
        (lambda x: F.lp_pool2d(x * x + 0.5, 2, 2), (1, 2, 4, 4)),
    ],
)
def test_pool_gradients_first_and_second_order(fn, shape):
    x = _param(*shape)
    assert gradcheck(fn, [x])
    assert gradgradcheck(fn, [x])


def test_max_unpool_gradient():
    x = engine.randn(1, 2, 4, 4, dtype=engine.float64)
    _, i = F.max_pool2d(x, 2, return_indices=True)
    v = _param(1, 2, 2, 2)
    assert gradgradcheck(lambda t: F.max_unpool2d(t, i, 2), [v])


def test_float32_and_non_contiguous():
    x = RNG.standard_normal((2, 3, 6, 7))
    xt = engine.tensor(x.transpose(0, 1, 3, 2).copy(), dtype=engine.float32).transpose(2, 3)
    assert not xt.is_contiguous()
    got = F.avg_pool2d(xt, 2)
    assert got.dtype == engine.float32
    np.testing.assert_allclose(
        arr(got), pool2d_ref(x, (2, 2), (2, 2), (0, 0), (1, 1), False, "avg")[0], atol=1e-5
    )
    np.testing.assert_allclose(
        arr(F.max_pool2d(xt, 2)),
        pool2d_ref(x, (2, 2), (2, 2), (0, 0), (1, 1), False, "max")[0],
        atol=1e-6,
    )


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: F.max_pool2d(engine.randn(1, 3, 5, 5), 3, padding=2),
         "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1"),
        (lambda: F.max_pool2d(engine.randn(1, 3, 2, 2), 3),
         "Given input size: (3x2x2). Calculated output size: (3x0x0). Output size is too small"),
        (lambda: F.avg_pool2d(engine.randn(1, 3, 2, 2), 3),
         "Given input size: (3x2x2). Calculated output size: (3x0x0). Output size is too small"),
        (lambda: F.max_pool2d(engine.randn(5, 5), 3),
         "non-empty 3D or 4D (batch mode) tensor expected for input"),
        (lambda: F.max_pool1d(engine.randn(5), 3),
         "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:[5]"),
        (lambda: F.adaptive_avg_pool2d(engine.randn(5, 5), 3),
         "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [5, 5]"),
        (lambda: F.adaptive_max_pool2d(engine.randn(5, 5), 3),
         "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [5, 5]"),
        (lambda: F.adaptive_avg_pool2d(engine.randn(1, 2, 5, 5), (3, 3, 3)),
         "adaptive_avg_pool2d: output_size must be 2"),
        (lambda: F.max_pool2d(engine.randn(1, 1, 5, 5), 3, stride=0), "stride should not be zero"),
        (lambda: F.max_pool2d(engine.randn(1, 1, 5, 5), 3, dilation=0), "dilation should be greater than zero"),
        (lambda: F.avg_pool2d(engine.randn(1, 1, 5, 5), 3, divisor_override=0), "divisor must be not zero"),
    ],
)  # fmt: skip
def test_errors_match_pytorch(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert message in str(info.value)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda x: F.max_pool2d(x, 2), "not implemented for 'Long'"),
        (
            lambda x: F.adaptive_max_pool2d(x, 2),
            "\"adaptive_max_pool2d\" not implemented for 'Long'",
        ),
        (
            lambda x: F.adaptive_avg_pool2d(x, 2),
            "\"adaptive_avg_pool2d\" not implemented for 'Long'",
        ),
        (lambda x: F.interpolate(x, scale_factor=2), "not implemented for 'Long'"),
        (lambda x: F.unfold(x, 2), "not implemented for 'Long'"),
    ],
)
def test_integer_inputs_are_not_implemented(call, message):
    with pytest.raises(NotImplementedError) as info:
        call(engine.ones(1, 1, 4, 4, dtype=engine.int64))
    assert message in str(info.value)


def test_torch_level_names():
    x = engine.randn(1, 2, 6)
    assert engine.equal(engine.max_pool1d(x, 2), F.max_pool1d(x, 2))
    assert engine.equal(engine.avg_pool1d(x, 2), F.avg_pool1d(x, 2))
    assert engine.equal(engine.max_pool2d(x.unsqueeze(0), 2), F.max_pool2d(x.unsqueeze(0), 2))
    v, i = engine.max_pool1d_with_indices(x, 2)
    assert i.dtype == engine.int64


def test_empty_adaptive_output_has_a_zero_gradient():
    x = engine.randn(1, 2, 3, 3, dtype=engine.float64, requires_grad=True)
    out = F.adaptive_avg_pool2d(x, (0, 2))
    assert tuple(out.shape) == (1, 2, 0, 2)
    (grad,) = engine.autograd.grad(out.sum(), [x])
    assert engine.equal(grad, engine.zeros_like(x))


def test_windows_wholly_in_the_padding():
    # ceil_mode with dilation can leave a window with no input element: -inf, no gradient.
    x = engine.tensor([[[3.0]]], dtype=engine.float64, requires_grad=True)
    v, i = F.max_pool1d(x, 2, 2, 1, 2, True, True)
    assert v.tolist() == [[[-math.inf]]] and i.tolist() == [[[1]]]
    (g,) = engine.autograd.grad(v.sum(), [x])
    assert g.tolist() == [[[0.0]]]
    y = engine.randn(2, 2, 6, 1, dtype=engine.float64, requires_grad=True)
    assert gradcheck(lambda t: F.max_pool2d(t, (3, 2), (2, 1), 1, (1, 2), True).clamp(-50, 50), [y])


def test_avg_pool3d_refuses_kernels_larger_than_the_input():
    with pytest.raises(
        RuntimeError, match=r"input image \(T: 1 H: 1 W: 5\) smaller than kernel size"
    ):
        F.avg_pool3d(engine.randn(1, 1, 1, 1, 5), (2, 1, 1), padding=(1, 0, 0))
