"""Resampling for engine.nn.functional: interpolate (and the deprecated upsample names),
grid_sample, affine_grid, pixel_shuffle / pixel_unshuffle and channel_shuffle.

Everything is separable or a gather, so it is composed from vectorised native ops: interpolation
selects source rows along one spatial dim at a time (index_select) and blends them with weights
computed once per dim; grid_sample gathers the corner values of every sample point. Gradients
(to the input, and for grid_sample to the grid) come from those ops.
"""

import itertools
import math
import warnings

import engine
from engine import _C, _user_warnings
from engine._grad_fn_names import arg, name_grad_fn, named_grad_fn
from engine.amp._policy import autocast_op


def _interpolate_name(dims, mode, antialias=False):
    """PyTorch's node for F.interpolate of a tensor with ``dims`` spatial dims in ``mode``."""
    if antialias and mode in ("bilinear", "bicubic"):
        return f"Upsample{mode.capitalize()}2DAaBackward0"
    if mode == "area":
        return f"AdaptiveAvgPool{dims}DBackward0" if dims > 1 else None
    return {
        "nearest": f"UpsampleNearest{dims}DBackward0",
        "nearest-exact": f"UpsampleNearestExact{dims}DBackward0",
        "linear": "UpsampleLinear1DBackward0",
        "bilinear": "UpsampleBilinear2DBackward0",
        "bicubic": "UpsampleBicubic2DBackward0",
        "trilinear": "UpsampleTrilinear3DBackward0",
    }.get(mode)


_CUBIC_A = -0.75


# ---- pixel and channel shuffles ----


def _check_at_least_3d(input, fname):
    if input.dim() < 3:
        raise RuntimeError(
            f"{fname} expects input to have at least 3 dimensions, but got input with "
            f"{input.dim()} dimension(s)"
        )


@named_grad_fn("PixelShuffleBackward0")
def pixel_shuffle(input, upscale_factor):
    """(*, C * r * r, H, W) -> (*, C, H * r, W * r): channel blocks become spatial blocks."""
    _check_at_least_3d(input, "pixel_shuffle")
    r = int(upscale_factor)
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    *lead, c, h, w = input.shape
    if c % (r * r):
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
            f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}"
        )
    n = len(lead)
    x = input.reshape(lead + [c // (r * r), r, r, h, w])
    x = x.permute(list(range(n)) + [n, n + 3, n + 1, n + 4, n + 2])
    return x.reshape(lead + [c // (r * r), h * r, w * r])


@named_grad_fn("PixelUnshuffleBackward0")
def pixel_unshuffle(input, downscale_factor):
    """(*, C, H * r, W * r) -> (*, C * r * r, H, W): the inverse of pixel_shuffle."""
    _check_at_least_3d(input, "pixel_unshuffle")
    r = int(downscale_factor)
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    *lead, c, h, w = input.shape
    for name, size in (("height", h), ("width", w)):
        if size % r:
            axis = -2 if name == "height" else -1
            raise RuntimeError(
                f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                f"input.size({axis})={size} is not divisible by {r}"
            )
    n = len(lead)
    x = input.reshape(lead + [c, h // r, r, w // r, r])
    x = x.permute(list(range(n)) + [n, n + 2, n + 4, n + 1, n + 3])
    return x.reshape(lead + [c * r * r, h // r, w // r])


@named_grad_fn("ChannelShuffleBackward0")
def channel_shuffle(input, groups):
    """(N, g * k, *) -> (N, k * g, *): interleaves the channels of the groups."""
    if input.dim() <= 2:
        raise RuntimeError(
            f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(input.shape)}"
        )
    g = int(groups)
    if g <= 0:
        raise RuntimeError(
            f"Number of groups to divide channels in must be positive. Value of groups:{g}"
        )
    n, c, *rest = input.shape
    if c % g:
        raise RuntimeError(
            f"Number of channels must be divisible by groups. Got {c} channels and {g} groups."
        )
    x = input.reshape([n, g, c // g] + rest).transpose(1, 2)
    return x.reshape([n, c] + rest)


def native_channel_shuffle(input, groups):
    """channel_shuffle (PyTorch's native-kernel name for the same operation)."""
    return channel_shuffle(input, groups)


# ---- interpolate ----


def _scale(in_size, out_size, align_corners, scale_factor):
    """PyTorch's area_pixel_compute_scale: source pixels per output pixel."""
    if align_corners:
        return (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    if scale_factor is not None and scale_factor > 0:
        return 1.0 / scale_factor
    return in_size / out_size


def _positions(out_size, dtype):
    return _C.arange(out_size, dtype=dtype)


def _nearest_index(in_size, out_size, scale_factor, exact, shortcuts):
    """Source index of each output position; the scale is a float32 as in PyTorch's kernel.
    `shortcuts`: PyTorch's 2-D 'nearest' kernel copies (or doubles) a dim outright when its output
    is 1 (or 2) times its input, whatever scale_factor says; its 1-D and 3-D kernels do not."""
    if shortcuts and out_size == in_size:
        return _C.arange(out_size)
    if shortcuts and out_size == 2 * in_size:
        return _C.arange(out_size) // 2
    scale = (
        1.0 / scale_factor if scale_factor is not None and scale_factor > 0 else in_size / out_size
    )
    dst = _positions(out_size, engine.float32)
    if exact:
        dst = dst + 0.5
    src = _C.floor(dst * engine.tensor(scale, dtype=engine.float32))
    return src.to(engine.int64).clamp(max=in_size - 1)


def _source_coords(in_size, out_size, align_corners, scale_factor, dtype, cubic):
    scale = _scale(in_size, out_size, align_corners, scale_factor)
    dst = _positions(out_size, dtype)
    if align_corners:
        return dst * scale
    src = (dst + 0.5) * scale - 0.5
    return src if cubic else src.clamp(min=0.0)


def _along(weights, axis, ndim):
    """A 1-D weight vector shaped to broadcast along `axis` of an ndim tensor."""
    shape = [1] * ndim
    shape[axis] = weights.numel()
    return weights.reshape(shape)


def _linear_axis(x, axis, out_size, align_corners, scale_factor):
    in_size = x.shape[axis]
    if in_size == out_size:
        return x  # PyTorch copies a dim whose size does not change, whatever scale_factor says
    src = _source_coords(in_size, out_size, align_corners, scale_factor, x.dtype, False)
    i0 = _C.floor(src).to(engine.int64).clamp(max=in_size - 1)
    i1 = (i0 + 1).clamp(max=in_size - 1)
    lam = _along(src - i0.to(x.dtype), axis, x.dim())
    return x.index_select(axis, i0) * (1.0 - lam) + x.index_select(axis, i1) * lam


def _cubic_weights(t):
    """Keys' cubic convolution weights (A = -0.75) of the four taps around t in [0, 1)."""
    a = _CUBIC_A

    def near(u):  # |u| <= 1
        return ((a + 2) * u - (a + 3)) * u * u + 1

    def far(u):  # 1 < |u| < 2
        return ((a * u - 5 * a) * u + 8 * a) * u - 4 * a

    return far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)


def _cubic_axis(x, axis, out_size, align_corners, scale_factor):
    in_size = x.shape[axis]
    src = _source_coords(in_size, out_size, align_corners, scale_factor, x.dtype, True)
    base = _C.floor(src)
    weights = _cubic_weights(src - base)
    base = base.to(engine.int64)
    out = None
    for k, w in enumerate(weights):
        idx = (base + (k - 1)).clamp(0, in_size - 1)
        term = x.index_select(axis, idx) * _along(w, axis, x.dim())
        out = term if out is None else out + term
    return out


def _check_sizes(input, sizes):
    if all(s > 0 for s in sizes) and all(s > 0 for s in input.shape[2:]):
        return
    labels = ("D", "H", "W")[3 - len(sizes) :]
    src = ", ".join(f"{n}: {s}" for n, s in zip(labels, input.shape[2:]))
    dst = ", ".join(f"{n}: {s}" for n, s in zip(labels, sizes))
    raise RuntimeError(
        f"Input and output sizes should be greater than 0, but got input ({src}) output ({dst})"
    )


def _interpolation_kernel(mode, dim):
    """The kernel PyTorch's refusal of an integer input names (its 2-d nearest and bilinear
    kernels are the channels-last ones; area runs adaptive average pooling)."""
    if mode == "area":
        return "adaptive_avg_pool3d_cpu" if dim == 3 else "adaptive_avg_pool2d"
    if dim == 2 and mode in ("nearest", "nearest-exact", "bilinear"):
        return f"upsample_{'bilinear' if mode == 'bilinear' else 'nearest'}2d_channels_last"
    kind = {"bicubic": "cubic", "linear": "linear", "bilinear": "linear", "trilinear": "linear"}
    return f"compute_indices_weights_{kind.get(mode, 'nearest')}"


@named_grad_fn(
    lambda *a, **k: _interpolate_name(
        arg(a, k, 0, "input").dim() - 2,
        arg(a, k, 3, "mode", "nearest"),
        arg(a, k, 6, "antialias", False),
    )
)
def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):  # fmt: skip
    """Resamples the spatial dimensions of ``input`` (N, C, *) to ``size`` or by
    ``scale_factor``, with PyTorch's coordinate rules (half-pixel centres, or corner-aligned
    with ``align_corners=True``).

    Args:
        input (Tensor): (N, C, W), (N, C, H, W) or (N, C, D, H, W).
        size (int or tuple, optional): the output spatial size.
        scale_factor (float or tuple, optional): the multiplier of the spatial size (give
            ``size`` or ``scale_factor``, not both).
        mode (str): ``'nearest'``, ``'nearest-exact'``, ``'linear'``, ``'bilinear'``,
            ``'bicubic'``, ``'trilinear'`` or ``'area'``. Default: ``'nearest'``.
        align_corners (bool, optional): for the linear modes, align the corner pixels' centres.
        recompute_scale_factor (bool, optional): compute the scale from the output size.
        antialias (bool): low-pass filter when downsampling (bilinear and bicubic).

    Example::

        >>> x = engine.tensor([[[1.0, 2.0]]])
        >>> engine.nn.functional.interpolate(x, scale_factor=2)
        tensor([[[1., 1., 2., 2.]]])
        >>> engine.nn.functional.interpolate(x, size=4, mode='linear', align_corners=True)
        tensor([[[1.0000, 1.3333, 1.6667, 2.0000]]])
    """
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got input "
                    f"with spatial dimensions of {list(input.shape[2:])} and output size of {size}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                    "(o1, o2, ...,oK) format."
                )
            output_size = [int(s) for s in size]
        else:
            output_size = [int(size)] * dim
        scales = [None] * dim
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {list(input.shape[2:])} and scale_factor of shape "
                    f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "scale_factor in (s1, s2, ...,sK) format."
                )
            scales = [float(s) for s in scale_factor]
        else:
            scales = [float(scale_factor)] * dim
        output_size = None
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if output_size is None:
        output_size = [int(math.floor(float(input.shape[2 + i] * scales[i]))) for i in range(dim)]
        if recompute_scale_factor:
            scales = [None] * dim
    if antialias and not (mode in ("bilinear", "bicubic") and input.dim() == 4):
        raise ValueError(
            "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D "
            "tensor as input"
        )
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError(
                "align_corners option can only be set with the interpolating modes: "
                "linear | bilinear | bicubic | trilinear"
            )
    elif align_corners is None:
        align_corners = False
    needed = {"linear": 3, "bilinear": 4, "trilinear": 5, "bicubic": 4}
    if mode in needed and input.dim() != needed[mode]:
        raise NotImplementedError(
            f"Got {input.dim()}D input, but {mode} mode needs {needed[mode]}D input"
        )
    if mode not in ("nearest", "nearest-exact", "area", *needed) or input.dim() not in (3, 4, 5):
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the modes: "
            f"nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got {mode})"
        )
    if mode != "area":  # adaptive pooling accepts empty outputs
        _check_sizes(input, output_size)
    nearest_bytes = input.dtype == _C.uint8 and mode in ("nearest", "nearest-exact")
    if not input.is_floating_point() and not nearest_bytes:  # PyTorch's nearest kernels take uint8
        from engine.nn._pooling import _check_floating

        _check_floating(input, _interpolation_kernel(mode, dim))
    if mode == "area":
        from engine.nn._pooling import _adaptive_avg

        return _adaptive_avg(input, output_size, dim)
    if antialias:
        from engine.nn import _antialias

        return _antialias.resample(input, output_size, scales, mode, align_corners)
    out = input
    for i in range(dim):
        axis, n = 2 + i, output_size[i]
        if mode in ("nearest", "nearest-exact"):
            exact = mode == "nearest-exact"
            idx = _nearest_index(input.shape[axis], n, scales[i], exact, dim == 2 and not exact)
            out = out.index_select(axis, idx)
        elif mode == "bicubic":
            out = _cubic_axis(out, axis, n, align_corners, scales[i])
        else:
            out = _linear_axis(out, axis, n, align_corners, scales[i])
    # The node shows PyTorch's upsample attributes.
    shown = {"output_size": tuple(output_size), "self_sym_sizes": tuple(input.shape)}
    for name, s in zip(
        ("scales",) if dim == 1 else ("scales_d", "scales_h", "scales_w")[3 - dim :], scales
    ):
        shown[name] = s
    if align_corners is not None:
        shown["align_corners"] = bool(align_corners)
    return name_grad_fn(out, _interpolate_name(dim, mode), (input,), shown, only_shown=True)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated alias of interpolate."""
    warnings.warn(
        "`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: interpolate(mode='nearest')."""
    warnings.warn(
        "`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: interpolate(mode='bilinear', align_corners=True)."""
    warnings.warn(
        "`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# ---- grid_sample and affine_grid ----

_ALIGN_WARNING = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
    "Please specify align_corners=True if the old behavior is desired. See the documentation of "
    "grid_sample for details."
)


def _unnormalize(coord, size, align_corners):
    if align_corners:
        return (coord + 1.0) * ((size - 1) / 2.0)
    return ((coord + 1.0) * size - 1.0) / 2.0


def _reflect(coord, twice_low, twice_high):
    """Reflects coordinates into [twice_low / 2, twice_high / 2] (PyTorch's reflect_coordinates)."""
    if twice_low == twice_high:
        return coord * 0.0
    low, span = twice_low / 2.0, (twice_high - twice_low) / 2.0
    c = _C.abs(coord - low)
    flips = _C.floor(c / span)
    extra = c - flips * span
    even = _C.remainder(flips, 2.0) == 0
    return _C.where(even, extra + low, (span - extra) + low)


def _pad_coords(coord, size, padding_mode, align_corners):
    if padding_mode == "border":
        return coord.clamp(0, size - 1)
    if padding_mode == "reflection":
        if align_corners:
            coord = _reflect(coord, 0, 2 * (size - 1))
        else:
            coord = _reflect(coord, -1, 2 * size - 1)
        return coord.clamp(0, size - 1)
    return coord


def _gather(flat, coords, sizes):
    """Values of (N, C, prod(sizes)) at integer points (one (N, P) index per spatial axis),
    zero outside the volume."""
    inside, index, stride = None, None, 1
    for idx, size in zip(reversed(coords), reversed(sizes)):
        ok = (idx >= 0) & (idx < size)
        inside = ok if inside is None else inside & ok
        index = idx * stride if index is None else index + idx * stride
        stride *= size
    index = _C.where(inside, index, 0)
    n, c = flat.shape[0], flat.shape[1]
    vals = flat.gather(2, index.unsqueeze(1).expand(n, c, index.shape[1]))
    return vals * inside.unsqueeze(1).to(flat.dtype)


def _check_grid_sample(input, grid, mode):
    nd = input.dim() - 2
    if grid.shape[-1] != nd:
        raise RuntimeError(
            f"grid_sampler(): expected grid to have size {nd} in last dimension, but got grid with "
            f"sizes {list(grid.shape)}"
        )
    if input.dim() not in (4, 5) or grid.dim() != input.dim():
        raise RuntimeError(
            "grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but "
            f"got input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"
        )
    if grid.shape[0] != input.shape[0]:
        raise RuntimeError(
            "grid_sampler(): expected grid and input to have same batch size, but got input with "
            f"sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"
        )
    if input.dtype != grid.dtype:
        names = {engine.float32: "Float", engine.float64: "Double"}
        raise RuntimeError(
            f"expected scalar type {names.get(input.dtype, input.dtype)} but found "
            f"{names.get(grid.dtype, grid.dtype)}"
        )
    if mode == "bicubic" and nd != 2:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")


@named_grad_fn(
    lambda *a, **k: (
        "GridSampler2DBackward0" if arg(a, k, 0, "input").dim() == 4 else "GridSampler3DBackward0"
    )
)
@autocast_op("grid_sample")
def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Samples (N, C, H, W) at the normalised (x, y) points of grid (N, Ho, Wo, 2), or
    (N, C, D, H, W) at the (x, y, z) points of grid (N, Do, Ho, Wo, 3); coordinates in [-1, 1]."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(
            "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
            f"but got: '{mode}'"
        )
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
            f"'reflection', but got: '{padding_mode}'"
        )
    if align_corners is None:
        _user_warnings.warn(_ALIGN_WARNING)
        align_corners = False
    _check_grid_sample(input, grid, mode)
    nd = input.dim() - 2
    n, c = input.shape[0], input.shape[1]
    sizes = list(input.shape[2:])
    out_sp = list(grid.shape[1:-1])
    points = math.prod(out_sp)
    flat = input.reshape(n, c, math.prod(sizes))
    # grid's last dim lists x (the last spatial axis) first.
    coords = [
        _unnormalize(grid[..., nd - 1 - d].reshape(n, points), sizes[d], align_corners)
        for d in range(nd)
    ]
    if mode == "bicubic":
        out = _bicubic_sample(
            flat, coords[1], coords[0], sizes[1], sizes[0], padding_mode, align_corners
        )
    else:
        coords = [_pad_coords(x, s, padding_mode, align_corners) for x, s in zip(coords, sizes)]
        if mode == "nearest":
            out = _gather(flat, [_C.round(x).to(engine.int64) for x in coords], sizes)
        else:
            base = [_C.floor(x) for x in coords]
            frac = [(x - b).unsqueeze(1) for x, b in zip(coords, base)]
            base = [b.to(engine.int64) for b in base]
            out = None
            for corner in itertools.product((0, 1), repeat=nd):
                weight = None
                for t, bit in zip(frac, corner):
                    w = t if bit else 1.0 - t
                    weight = w if weight is None else weight * w
                vals = _gather(flat, [b + bit for b, bit in zip(base, corner)], sizes)
                out = vals * weight if out is None else out + vals * weight
    return out.reshape([n, c] + out_sp)


def _bicubic_sample(flat, gx, gy, width, height, padding_mode, align_corners):
    """4 x 4 taps with Keys' weights; each tap's position is padded on its own (PyTorch's rule)."""
    x0f, y0f = _C.floor(gx), _C.floor(gy)
    wx = _cubic_weights((gx - x0f).unsqueeze(1))
    wy = _cubic_weights((gy - y0f).unsqueeze(1))
    out = None
    for j in range(4):
        ys = y0f + (j - 1)
        if padding_mode != "zeros":
            ys = _pad_coords(ys, height, padding_mode, align_corners)
        for i in range(4):
            xs = x0f + (i - 1)
            if padding_mode != "zeros":
                xs = _pad_coords(xs, width, padding_mode, align_corners)
            idx = [ys.detach().to(engine.int64), xs.detach().to(engine.int64)]
            vals = _gather(flat, idx, [height, width])
            term = vals * (wx[i] * wy[j])
            out = term if out is None else out + term
    return out


@named_grad_fn("AffineGridGeneratorBackward0")
def affine_grid(theta, size, align_corners=None):
    """The sampling grid (N, H, W, 2) (or (N, D, H, W, 3)) of the affine maps theta (N, 2, 3)
    (or (N, 3, 4)) over normalised output coordinates, for grid_sample."""
    if align_corners is None:
        _user_warnings.warn(_ALIGN_WARNING)
        align_corners = False
    size = list(size)
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    spatial = len(size) - 2
    if spatial == 2:
        expected = (2, 3)
    elif spatial == 3:
        expected = (3, 4)
    else:
        raise NotImplementedError(
            f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. "
            f"Got size {tuple(size)}."
        )
    if theta.dim() != 3 or tuple(theta.shape[1:]) != expected or theta.shape[0] != size[0]:
        raise ValueError(
            f"Expected a batch of {spatial}D affine matrices of shape Nx{expected[0]}x{expected[1]} for "
            f"size {tuple(size)}. Got {theta.shape}."
        )
    if min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {tuple(size)}")
    n = size[0]
    dims = size[2:]

    def axis(steps):
        if steps <= 1:
            return _C.zeros(steps, dtype=theta.dtype)
        line = _C.linspace(-1.0, 1.0, steps, dtype=theta.dtype)
        return line if align_corners else line * ((steps - 1) / steps)

    # Coordinates are (x, y[, z], 1) with x running along the last dim.
    grids = []
    for k, steps in enumerate(dims):
        shape = [1] * len(dims)
        shape[k] = steps
        grids.append(axis(steps).reshape(shape).expand(dims).reshape(-1))
    coords = list(reversed(grids)) + [_C.ones(math.prod(dims), dtype=theta.dtype)]
    base = engine.stack(coords, 1)  # (P, spatial + 1)
    out = base.unsqueeze(0) @ theta.transpose(1, 2)  # (N, P, spatial)
    return out.reshape([n] + dims + [spatial])


FUNCTIONS = {
    f.__name__: f
    for f in (
        pixel_shuffle, pixel_unshuffle, channel_shuffle, native_channel_shuffle, interpolate,
        upsample, upsample_nearest, upsample_bilinear, grid_sample, affine_grid,
    )
}  # fmt: skip


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """torch.grid_sampler: grid_sample with the modes given as integers (PyTorch's enum order)."""
    modes, pads = ("bilinear", "nearest", "bicubic"), ("zeros", "border", "reflection")
    return grid_sample(input, grid, modes[interpolation_mode], pads[padding_mode], align_corners)


def affine_grid_generator(theta, size, align_corners):
    """torch.affine_grid_generator: affine_grid with align_corners required."""
    return affine_grid(theta, size, align_corners)
