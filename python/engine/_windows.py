"""Window functions for spectral analysis: bartlett, blackman, hamming, hann, kaiser. Each is
computed in the requested dtype with the same operations in the same order as PyTorch, so windows
match it to within the rounding of cos (kaiser's Bessel function comes from NumPy in float64, then
rounded to the dtype). A
periodic window of length N is the symmetric window of length N + 1 without its last point."""

import math

from engine import _C


def _check(fname, window_length, dtype):
    dtype = dtype or _C.get_default_dtype()
    if isinstance(window_length, bool) or not isinstance(window_length, int):
        raise TypeError(
            f"{fname}(): argument 'window_length' (position 1) must be int, "
            f"not {type(window_length).__name__}"
        )
    if window_length < 0:
        raise RuntimeError(
            f"{fname} requires non-negative window_length, got window_length={window_length}"
        )
    if dtype not in (_C.float32, _C.float64):
        raise RuntimeError(f"{fname} expects floating point dtypes, got: {dtype}")
    return dtype


def _window(fname, window_length, periodic, dtype, requires_grad, shape):
    """shape(n, dtype) for n = the symmetric length; handles lengths 0 and 1 and periodicity."""
    dtype = _check(fname, window_length, dtype)
    if window_length == 0:
        out = _C.empty((0,), dtype=dtype)
    elif window_length == 1:
        out = _C.ones((1,), dtype=dtype)
    else:
        n = window_length + 1 if periodic else window_length
        out = shape(n, dtype)
        if periodic:
            out = out.narrow(0, 0, window_length).contiguous()
    return out.requires_grad_() if requires_grad else out


def hamming_window(
    window_length,
    periodic=True,
    alpha=0.54,
    beta=0.46,
    *,
    dtype=None,
    layout=None,
    device=None,
    pin_memory=False,
    requires_grad=False,
):
    """``alpha - beta * cos(2 pi n / (N - 1))``."""

    def shape(n, dtype):
        w = _C.arange(n, dtype=dtype) * (2 * math.pi / (n - 1))
        return w.cos() * -beta + alpha

    return _window("hamming_window", window_length, periodic, dtype, requires_grad, shape)


def hann_window(
    window_length,
    periodic=True,
    *,
    dtype=None,
    layout=None,
    device=None,
    pin_memory=False,
    requires_grad=False,
):
    """``0.5 - 0.5 * cos(2 pi n / (N - 1))``."""
    _check("hann_window", window_length, dtype)
    return hamming_window(
        window_length, periodic, 0.5, 0.5, dtype=dtype, requires_grad=requires_grad
    )


def blackman_window(
    window_length,
    periodic=True,
    *,
    dtype=None,
    layout=None,
    device=None,
    pin_memory=False,
    requires_grad=False,
):
    """``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``."""

    def shape(n, dtype):
        w = _C.arange(n, dtype=dtype) * (math.pi / (n - 1))
        return (w * 4).cos() * 0.08 - (w * 2).cos() * 0.5 + 0.42

    return _window("blackman_window", window_length, periodic, dtype, requires_grad, shape)


def bartlett_window(
    window_length,
    periodic=True,
    *,
    dtype=None,
    layout=None,
    device=None,
    pin_memory=False,
    requires_grad=False,
):
    """The triangle ``1 - |2n / (N - 1) - 1|``."""

    def shape(n, dtype):
        w = _C.arange(n, dtype=dtype) * (2.0 / (n - 1))
        first = ((n - 1) >> 1) + 1
        rising = w.narrow(0, 0, first)
        falling = w.narrow(0, first, n - first) * -1 + 2
        return _C.cat([rising, falling], 0)

    return _window("bartlett_window", window_length, periodic, dtype, requires_grad, shape)


def kaiser_window(
    window_length,
    periodic=True,
    beta=12.0,
    *,
    dtype=None,
    layout=None,
    device=None,
    pin_memory=False,
    requires_grad=False,
):
    """``I0(beta * sqrt(1 - ((n - a) / a)^2)) / I0(beta)`` with a = (N - 1) / 2."""
    import numpy as np

    def shape(n, dtype):
        a = (n - 1) / 2.0
        k = np.arange(n, dtype=np.float64)
        w = np.i0(beta * np.sqrt(np.maximum(1 - ((k - a) / a) ** 2, 0))) / np.i0(beta)
        dt = np.float32 if dtype == _C.float32 else np.float64
        return _C.from_numpy(np.ascontiguousarray(w.astype(dt)))

    return _window("kaiser_window", window_length, periodic, dtype, requires_grad, shape)


FUNCTIONS = {
    f.__name__: f
    for f in (hamming_window, hann_window, blackman_window, bartlett_window, kaiser_window)
}


def install():
    """No Tensor methods in this family."""
