"""interpolate(..., antialias=True) for bilinear and bicubic: PyTorch's separable resampling
(the Pillow algorithm), where each output pixel averages the input under a filter stretched by
the downsampling factor (a triangle for bilinear, Keys' cubic with a = -0.5 for bicubic),
normalised to sum 1 near the borders. Each spatial dim is one matrix product with its weight
matrix, so gradients of any order follow from matmul's."""

import math

import engine
from engine import _C


def _triangle(x):
    x = abs(x)
    return 1.0 - x if x < 1.0 else 0.0


def _cubic(x):
    a = -0.5
    x = abs(x)
    if x < 1.0:
        return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    if x < 2.0:
        return (((x - 5.0) * x + 8.0) * x - 4.0) * a
    return 0.0


def _scale(in_size, out_size, align_corners, scale_factor):
    """PyTorch's area_pixel_compute_scale."""
    if align_corners:
        return (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    if scale_factor is not None and scale_factor > 0:
        return 1.0 / scale_factor
    return in_size / out_size


def _weights(in_size, out_size, mode, align_corners, scale_factor):
    """The (out_size, in_size) matrix of one dim's filter weights."""
    filter_fn, interp_size = (_triangle, 2) if mode == "bilinear" else (_cubic, 4)
    scale = _scale(in_size, out_size, align_corners, scale_factor)
    support = interp_size / 2 * scale if scale >= 1.0 else interp_size / 2
    invscale = 1.0 / scale if scale >= 1.0 else 1.0
    rows = []
    for i in range(out_size):
        center = scale * (i + 0.5)
        xmin = max(int(center - support + 0.5), 0)
        xmax = min(int(center + support + 0.5), in_size)
        row = [0.0] * in_size
        taps = [filter_fn((j + xmin - center + 0.5) * invscale) for j in range(xmax - xmin)]
        total = math.fsum(taps)
        for j, w in enumerate(taps):
            row[xmin + j] = w / total if total != 0.0 else w
        rows.append(row)
    return rows


def resample(input, output_size, scales, mode, align_corners):
    """``input`` (N, C, H, W) resampled to ``output_size`` with antialiasing; ``scales`` are the
    scale factors per dim (None where the size decides)."""
    out = input
    for i, n in enumerate(output_size):
        axis = 2 + i
        w = engine.tensor(
            _weights(input.shape[axis], n, mode, align_corners, scales[i]), dtype=input.dtype
        )
        out = _C.matmul(out.movedim(axis, -1), w.t()).movedim(-1, axis)
    return out.contiguous()
