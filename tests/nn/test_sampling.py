"""interpolate (and the deprecated upsample names), grid_sample, affine_grid and the pixel /
channel shuffles: values against NumPy references and PyTorch's recorded values, gradients,
warnings and PyTorch's error messages."""

import math

import engine
import engine.nn.functional as F
import numpy as np
import pytest
from conv_cases import check_recorded
from engine.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(2)


def arr(t):
    return np.array(t.tolist())


def nearest_ref(x, size, exact=False):
    out = x
    for axis, n in enumerate(size, start=2):
        m = x.shape[axis]
        idx = np.minimum(np.floor((np.arange(n) + (0.5 if exact else 0.0)) * (m / n)), m - 1)
        out = np.take(out, idx.astype(np.int64), axis=axis)
    return out


def linear_ref(x, size, align_corners):
    out = x
    for axis, n in enumerate(size, start=2):
        m = x.shape[axis]
        dst = np.arange(n, dtype=np.float64)
        if align_corners:
            src = dst * ((m - 1) / (n - 1) if n > 1 else 0.0)
        else:
            src = np.maximum((dst + 0.5) * (m / n) - 0.5, 0.0)
        i0 = np.minimum(np.floor(src).astype(np.int64), m - 1)
        i1 = np.minimum(i0 + 1, m - 1)
        lam = (src - i0).reshape([-1 if a == axis else 1 for a in range(x.ndim)])
        out = np.take(out, i0, axis=axis) * (1 - lam) + np.take(out, i1, axis=axis) * lam
    return out


@pytest.mark.parametrize("size", [(11, 4), (7, 6), (3, 13), (1, 1)])
@pytest.mark.parametrize("mode", ["nearest", "nearest-exact"])
def test_nearest_modes(size, mode):
    x = RNG.standard_normal((2, 3, 7, 6))
    got = F.interpolate(engine.tensor(x), size=size, mode=mode)
    np.testing.assert_array_equal(arr(got), nearest_ref(x, size, mode == "nearest-exact"))


@pytest.mark.parametrize("size", [(11, 4), (7, 6), (3, 13), (1, 2)])
@pytest.mark.parametrize("align_corners", [False, True])
def test_bilinear_matches_reference(size, align_corners):
    x = RNG.standard_normal((2, 3, 7, 6))
    got = F.interpolate(engine.tensor(x), size=size, mode="bilinear", align_corners=align_corners)
    np.testing.assert_allclose(arr(got), linear_ref(x, size, align_corners), atol=1e-12)


def test_linear_trilinear_and_nearest_in_1d_and_3d():
    x1 = RNG.standard_normal((2, 3, 5))
    got = F.interpolate(engine.tensor(x1), size=9, mode="linear")
    np.testing.assert_allclose(arr(got), linear_ref(x1, (9,), False), atol=1e-12)
    x3 = RNG.standard_normal((1, 2, 3, 4, 5))
    got3 = F.interpolate(engine.tensor(x3), size=(5, 3, 6), mode="trilinear", align_corners=True)
    np.testing.assert_allclose(arr(got3), linear_ref(x3, (5, 3, 6), True), atol=1e-12)
    near3 = F.interpolate(engine.tensor(x3), size=(6, 8, 10))
    np.testing.assert_array_equal(arr(near3), nearest_ref(x3, (6, 8, 10)))


def test_scale_factor_and_recompute():
    x = engine.randn(1, 1, 5, 4, dtype=engine.float64)
    assert tuple(F.interpolate(x, scale_factor=1.7).shape) == (1, 1, 8, 6)
    assert tuple(F.interpolate(x, scale_factor=(2, 0.5), mode="bilinear").shape) == (1, 1, 10, 2)
    # With scale_factor=2 exactly, nearest picks every source pixel twice.
    up = F.interpolate(x, scale_factor=2)
    np.testing.assert_array_equal(arr(up)[0, 0, ::2, ::2], arr(x)[0, 0])
    rec = F.interpolate(x, scale_factor=1.7, mode="bilinear", recompute_scale_factor=True)
    np.testing.assert_allclose(arr(rec), linear_ref(arr(x), (8, 6), False), atol=1e-12)
    area = F.interpolate(x, scale_factor=0.5, mode="area")
    np.testing.assert_allclose(arr(area), arr(F.adaptive_avg_pool2d(x, (2, 2))))


@pytest.mark.parametrize(
    "name",
    ["bicubic", "bicubic_align", "bilinear_scale", "trilinear", "nearest_exact", "area"],
)
def test_interpolate_matches_recorded_pytorch(name):
    check_recorded(name)


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_matches_recorded_pytorch(mode, padding_mode, align_corners):
    check_recorded(f"grid_sample_{mode}_{padding_mode}_{align_corners}")


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "reflection"])
def test_volumetric_grid_sample_matches_recorded_pytorch(mode, padding_mode):
    check_recorded(f"grid_sample_3d_{mode}_{padding_mode}")


def test_grid_sample_identity_grid_reproduces_the_input():
    x = engine.randn(2, 3, 4, 5, dtype=engine.float64)
    theta = engine.tensor([[[1.0, 0, 0], [0, 1.0, 0]]] * 2, dtype=engine.float64)
    for ac in (False, True):
        grid = F.affine_grid(theta, (2, 3, 4, 5), align_corners=ac)
        for mode in ("bilinear", "nearest", "bicubic"):
            out = F.grid_sample(x, grid, mode=mode, align_corners=ac)
            np.testing.assert_allclose(arr(out), arr(x), atol=1e-12)


def test_affine_grid_formula():
    theta = RNG.standard_normal((2, 2, 3))
    grid = F.affine_grid(engine.tensor(theta), (2, 1, 3, 4), align_corners=False)
    xs = (np.arange(4) * 2 + 1) / 4 - 1
    ys = (np.arange(3) * 2 + 1) / 3 - 1
    base = np.stack(list(np.meshgrid(xs, ys)) + [np.ones((3, 4))], -1)
    np.testing.assert_allclose(arr(grid), base @ theta.transpose(0, 2, 1)[:, None], atol=1e-12)
    theta3 = engine.randn(1, 3, 4, dtype=engine.float64)
    assert tuple(F.affine_grid(theta3, (1, 1, 2, 3, 4), align_corners=True).shape) == (
        1,
        2,
        3,
        4,
        3,
    )


def _param(*shape):
    return engine.randn(*shape, dtype=engine.float64, requires_grad=True)


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: F.interpolate(x, size=(5, 3), mode="bilinear"),
        lambda x: F.interpolate(x, scale_factor=1.5, mode="bicubic", align_corners=True),
        lambda x: F.interpolate(x, size=(7, 2), mode="nearest"),
        lambda x: F.interpolate(x, size=(2, 3), mode="area"),
        lambda x: F.pixel_shuffle(x, 2),
        lambda x: F.pixel_unshuffle(x, 2),
        lambda x: F.channel_shuffle(x, 2),
    ],
)
def test_gradients(fn):
    x = _param(1, 4, 4, 4)
    assert gradcheck(fn, [x])
    assert gradgradcheck(fn, [x])


@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_gradients_to_input_and_grid(mode, padding_mode):
    x = _param(1, 2, 3, 4)
    # Sample points away from integer pixel positions, where the interpolants have kinks.
    g = engine.tensor(RNG.uniform(-1.2, 1.2, (1, 2, 3, 2)) * 0.93 + 0.011, dtype=engine.float64)
    g.requires_grad_(mode != "nearest")
    inputs = [x, g] if mode != "nearest" else [x]

    def fn(*args):
        return F.grid_sample(args[0], g if len(args) == 1 else args[1], mode, padding_mode, False)

    assert gradcheck(fn, inputs)


def test_volumetric_grid_sample_gradients():
    x = _param(1, 2, 2, 3, 2)
    g = engine.tensor(RNG.uniform(-1.2, 1.2, (1, 2, 1, 2, 3)) * 0.93 + 0.011, dtype=engine.float64)
    g.requires_grad_()
    assert gradcheck(lambda a, b: F.grid_sample(a, b, "bilinear", "border", True), [x, g])


def test_theta_gradient_through_affine_grid():
    theta = _param(2, 2, 3)
    assert gradgradcheck(lambda t: F.affine_grid(t, (2, 1, 3, 4), align_corners=False), [theta])


def test_pixel_and_channel_shuffles_match_numpy():
    x = RNG.standard_normal((2, 8, 3, 5))
    got = arr(F.pixel_shuffle(engine.tensor(x), 2))
    want = x.reshape(2, 2, 2, 2, 3, 5).transpose(0, 1, 4, 2, 5, 3).reshape(2, 2, 6, 10)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(arr(F.pixel_unshuffle(engine.tensor(want), 2)), x)
    shuffled = arr(F.channel_shuffle(engine.tensor(x), 2))
    np.testing.assert_array_equal(
        shuffled, x.reshape(2, 2, 4, 3, 5).transpose(0, 2, 1, 3, 4).reshape(x.shape)
    )
    assert engine.equal(
        engine.native_channel_shuffle(engine.tensor(x), 4), F.channel_shuffle(engine.tensor(x), 4)
    )
    assert tuple(engine.pixel_shuffle(engine.randn(3, 9, 2, 2), 3).shape) == (3, 1, 6, 6)
    assert tuple(engine.pixel_unshuffle(engine.randn(2, 1, 4, 6, 6), 3).shape) == (2, 1, 36, 2, 2)


def test_deprecated_names_warn():
    x = engine.randn(1, 1, 3, 3, dtype=engine.float64)
    with pytest.warns(UserWarning, match=r"`nn.functional.upsample` is deprecated"):
        a = F.upsample(x, scale_factor=2, mode="bilinear", align_corners=False)
    assert engine.equal(a, F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False))
    with pytest.warns(UserWarning, match=r"`nn.functional.upsample_nearest` is deprecated"):
        b = F.upsample_nearest(x, size=5)
    assert engine.equal(b, F.interpolate(x, size=5))
    with pytest.warns(UserWarning, match=r"`nn.functional.upsample_bilinear` is deprecated"):
        c = F.upsample_bilinear(x, scale_factor=2)
    assert engine.equal(c, F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True))
    with pytest.warns(UserWarning, match="Default grid_sample and affine_grid behavior"):
        F.grid_sample(x, engine.zeros(1, 2, 2, 2, dtype=engine.float64))
    with pytest.warns(UserWarning, match="Default grid_sample and affine_grid behavior"):
        F.affine_grid(engine.zeros(1, 2, 3), (1, 1, 2, 2))


X4 = engine.randn(1, 1, 5, 5)


@pytest.mark.parametrize(
    "call, exc, message",
    [
        (lambda: F.interpolate(X4), ValueError, "either size or scale_factor should be defined"),
        (lambda: F.interpolate(X4, size=3, scale_factor=2), ValueError,
         "only one of size or scale_factor should be defined"),
        (lambda: F.interpolate(X4, size=3, align_corners=True), ValueError,
         "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear"),
        (lambda: F.interpolate(X4, size=3, mode="linear"), NotImplementedError,
         "Got 4D input, but linear mode needs 3D input"),
        (lambda: F.interpolate(X4, size=3, mode="foo"), NotImplementedError,
         "Input Error: Only 3D, 4D and 5D input Tensors supported (got 4D) for the modes"),
        (lambda: F.interpolate(X4, size=(3, 3, 3)), ValueError,
         "Input and output must have the same number of spatial dimensions, but got input with spatial "
         "dimensions of [5, 5] and output size of (3, 3, 3)."),
        (lambda: F.interpolate(X4, scale_factor=(2, 2, 2)), ValueError,
         "Input and scale_factor must have the same number of spatial dimensions"),
        (lambda: F.interpolate(X4, size=0), RuntimeError,
         "Input and output sizes should be greater than 0, but got input (H: 5, W: 5) output (H: 0, W: 0)"),
        (lambda: F.interpolate(X4, size=3, recompute_scale_factor=True), ValueError,
         "recompute_scale_factor is not meaningful with an explicit size."),
        (lambda: F.pixel_shuffle(engine.randn(1, 5, 5, 5), 2), RuntimeError,
         "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
         "upscale_factor, but input.size(-3)=5 is not divisible by 4"),
        (lambda: F.pixel_shuffle(engine.randn(2, 2), 2), RuntimeError,
         "pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 dimension(s)"),
        (lambda: F.pixel_unshuffle(engine.randn(1, 5, 5, 5), 2), RuntimeError,
         "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=5 is "
         "not divisible by 2"),
        (lambda: F.channel_shuffle(engine.randn(1, 5, 2), 2), RuntimeError,
         "Number of channels must be divisible by groups. Got 5 channels and 2 groups."),
        (lambda: F.grid_sample(X4, engine.zeros(1, 2, 2, 3), align_corners=False), RuntimeError,
         "grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes [1, 2, 2, 3]"),
        (lambda: F.grid_sample(X4, engine.zeros(1, 2, 2, 2), mode="foo"), ValueError,
         "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: 'foo'"),
        (lambda: F.grid_sample(X4, engine.zeros(1, 2, 2, 2), padding_mode="foo"), ValueError,
         "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', "
         "but got: 'foo'"),
        (lambda: F.grid_sample(engine.randn(1, 1, 2, 2, 2), engine.zeros(1, 2, 2, 2, 3), "bicubic",
                               align_corners=False), RuntimeError,
         "grid_sampler(): bicubic interpolation only supports 4D input"),
        (lambda: F.grid_sample(engine.randn(2, 1, 2, 2), engine.zeros(1, 2, 2, 2), align_corners=False),
         RuntimeError, "grid_sampler(): expected grid and input to have same batch size"),
        (lambda: F.affine_grid(engine.zeros(1, 2, 4), (1, 1, 2, 2), align_corners=False), ValueError,
         "Expected a batch of 2D affine matrices of shape Nx2x3 for size (1, 1, 2, 2). Got torch.Size([1, 2, 4])."),
    ],
)  # fmt: skip
def test_errors_match_pytorch(call, exc, message):
    with pytest.raises(exc) as info:
        call()
    assert message in str(info.value)


def test_bicubic_weights_sum_to_one():
    x = engine.ones(1, 1, 4, 4, dtype=engine.float64)
    out = F.interpolate(x, size=(9, 7), mode="bicubic")
    assert math.isclose(out.min().item(), 1.0) and math.isclose(out.max().item(), 1.0)


def test_torch_level_grid_names():
    x = engine.randn(1, 2, 3, 4, dtype=engine.float64)
    g = engine.rand(1, 2, 2, 2, dtype=engine.float64) * 2 - 1
    for i, mode in enumerate(("bilinear", "nearest", "bicubic")):
        for j, pad in enumerate(("zeros", "border", "reflection")):
            want = F.grid_sample(x, g, mode, pad, True)
            assert engine.equal(engine.grid_sampler(x, g, i, j, True), want)
    theta = engine.randn(1, 2, 3, dtype=engine.float64)
    assert engine.equal(
        engine.affine_grid_generator(theta, [1, 2, 3, 4], False),
        F.affine_grid(theta, (1, 2, 3, 4), align_corners=False),
    )


def test_nearest_shortcuts_follow_pytorchs_kernels():
    # PyTorch's 2-D kernel copies a dim whose size is unchanged (and doubles one whose size doubles)
    # whatever scale_factor says; its 1-D kernel uses the scale; linear modes copy unchanged dims.
    row = engine.arange(4.0, dtype=engine.float64)
    x1, x2 = row.reshape(1, 1, 4), row.expand(1, 1, 4, 4)
    assert F.interpolate(x1, scale_factor=1.07).tolist() == [[[0.0, 0.0, 1.0, 2.0]]]
    assert F.interpolate(x2, scale_factor=1.07)[0, 0, 0].tolist() == [0.0, 1.0, 2.0, 3.0]
    assert F.interpolate(x2, scale_factor=(2.0, 2.1))[0, 0, 0].tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    assert F.interpolate(x1, scale_factor=1.07, mode="linear").tolist() == [[[0.0, 1.0, 2.0, 3.0]]]
    # area mode accepts an empty output, as adaptive pooling does
    assert tuple(F.interpolate(x2, scale_factor=0.2, mode="area").shape) == (1, 1, 0, 0)
