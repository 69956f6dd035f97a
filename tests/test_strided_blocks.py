"""Elementwise kernels over operands whose innermost runs are short (column slices, transposes,
sliced 3-D tensors): the runs are handed to the kernels in blocks of rows, on one thread and split
among threads. Values against NumPy."""

import engine
import numpy as np
import pytest

RNG = np.random.default_rng(0)


def views(arr):
    """(name, engine view, NumPy view) pairs with short innermost runs."""
    t = engine.tensor(arr)
    flat = arr.reshape(-1)
    tf = t.reshape(-1)
    n4 = (flat.size // 4) * 4
    n30 = (flat.size // 30) * 30
    return [
        ("rows of 3", tf[:n4].reshape(-1, 4)[:, :3], flat[:n4].reshape(-1, 4)[:, :3]),
        (
            "rows of 1 of 5",
            tf[: (flat.size // 5) * 5].reshape(-1, 5)[:, 2:3],
            flat[: (flat.size // 5) * 5].reshape(-1, 5)[:, 2:3],
        ),
        (
            "3-D slice",
            tf[:n30].reshape(-1, 5, 6)[:, 1:4, ::2],
            flat[:n30].reshape(-1, 5, 6)[:, 1:4, ::2],
        ),
        ("transposed", tf[:n4].reshape(-1, 4).t(), flat[:n4].reshape(-1, 4).T),
    ]


@pytest.mark.parametrize("size", [600, 300_000])  # one thread, and split among threads
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_binary_unary_and_copy_on_short_runs(size, dtype):
    arr = (RNG.standard_normal(size) * 10).astype(dtype)
    for name, t, a in views(arr):
        np.testing.assert_array_equal((t * 2).numpy(), a * np.array(2, dtype=a.dtype), err_msg=name)
        np.testing.assert_array_equal((t + t).numpy(), a + a, err_msg=name)
        np.testing.assert_array_equal((-t).numpy(), -a, err_msg=name)
        np.testing.assert_array_equal(t.abs().numpy(), np.abs(a), err_msg=name)
        np.testing.assert_array_equal(t.contiguous().numpy(), np.ascontiguousarray(a), err_msg=name)
        np.testing.assert_array_equal(
            t.to(engine.float64).numpy(), a.astype(np.float64), err_msg=name
        )
        if dtype != "int32":
            np.testing.assert_allclose(t.exp().numpy(), np.exp(a), rtol=1e-5, err_msg=name)
        # Written into a strided output.
        out = engine.zeros(tuple(t.shape), dtype=t.dtype).t() if t.dim() == 2 else None
        if out is not None:
            out = out.t()
            out.copy_(t)
            np.testing.assert_array_equal(out.numpy(), a, err_msg=name)
