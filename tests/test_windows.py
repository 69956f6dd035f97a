"""Window functions against SciPy's definitions written out in NumPy (float64), and PyTorch 2.13's
float32 values and messages."""

# ruff: noqa: E501 - PyTorch's messages and values are kept whole on one line

import engine
import numpy as np
import pytest


def reference(name, n, **kw):
    k = np.arange(n)
    if name == "hann":
        return 0.5 - 0.5 * np.cos(2 * np.pi * k / (n - 1))
    if name == "hamming":
        return kw["alpha"] - kw["beta"] * np.cos(2 * np.pi * k / (n - 1))
    if name == "blackman":
        return 0.42 - 0.5 * np.cos(2 * np.pi * k / (n - 1)) + 0.08 * np.cos(4 * np.pi * k / (n - 1))
    if name == "bartlett":
        return 1 - np.abs(2 * k / (n - 1) - 1)
    a = (n - 1) / 2
    return np.i0(kw["beta"] * np.sqrt(1 - ((k - a) / a) ** 2)) / np.i0(kw["beta"])


CASES = [
    ("hann", engine.hann_window, {}, {}),
    ("hamming", engine.hamming_window, {"alpha": 0.54, "beta": 0.46}, {}),
    ("hamming", engine.hamming_window, {"alpha": 0.5, "beta": 0.3}, {"alpha": 0.5, "beta": 0.3}),
    ("blackman", engine.blackman_window, {}, {}),
    ("bartlett", engine.bartlett_window, {}, {}),
    ("kaiser", engine.kaiser_window, {"beta": 12.0}, {}),
    ("kaiser", engine.kaiser_window, {"beta": 5.0}, {"beta": 5.0}),
]


@pytest.mark.parametrize("name, fn, ref_kw, kw", CASES)
@pytest.mark.parametrize("n", [2, 5, 8])
def test_windows_match_definitions(name, fn, ref_kw, kw, n):
    sym = fn(n, False, dtype=engine.float64, **kw)
    np.testing.assert_allclose(sym.numpy(), reference(name, n, **ref_kw), atol=1e-12)
    periodic = fn(n, dtype=engine.float64, **kw)
    np.testing.assert_allclose(periodic.numpy(), reference(name, n + 1, **ref_kw)[:n], atol=1e-12)


def test_float32_values_and_edges_as_pytorch():
    np.testing.assert_allclose(
        engine.hann_window(5).numpy(),
        [0.0, 0.34549152851104736, 0.9045084714889526, 0.9045084714889526, 0.3454914391040802],
        rtol=2e-7,
    )
    assert engine.bartlett_window(6, periodic=False).tolist() == [
        0.0,
        0.4000000059604645,
        0.800000011920929,
        0.7999999523162842,
        0.3999999761581421,
        0.0,
    ]
    assert engine.hann_window(0).shape == (0,) and engine.hann_window(1).tolist() == [1.0]
    assert engine.blackman_window(3).dtype == engine.float32
    assert engine.hann_window(3, requires_grad=True).requires_grad
    with pytest.raises(
        RuntimeError, match="hann_window requires non-negative window_length, got window_length=-1"
    ):
        engine.hann_window(-1)
    with pytest.raises(
        RuntimeError,
        match="kaiser_window requires non-negative window_length, got window_length=-2",
    ):
        engine.kaiser_window(-2)
    with pytest.raises(RuntimeError, match="hann_window expects floating point dtypes"):
        engine.hann_window(4, dtype=engine.int64)
