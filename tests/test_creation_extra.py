"""logspace / tril_indices / triu_indices / range / scalar_tensor / empty_strided /
empty_permuted / frombuffer / asarray / vander: values against NumPy, dtypes, strides and
messages recorded from PyTorch 2.13."""

# ruff: noqa: E501 - PyTorch's messages and values are kept whole on one line

import warnings

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck


def test_logspace():
    np.testing.assert_allclose(engine.logspace(0, 2, 5).numpy(), np.logspace(0, 2, 5), rtol=1e-6)
    assert engine.logspace(0, 2, 3, base=2).tolist() == [1.0, 2.0, 4.0]
    assert engine.logspace(0, 2, 3, dtype=engine.int64).tolist() == [1, 10, 100]
    assert engine.logspace(0, 2, 1).tolist() == [1.0]
    with pytest.raises(RuntimeError, match="number of steps must be non-negative"):
        engine.logspace(0, 2, -1)


@pytest.mark.parametrize(
    "row, col, offset", [(3, 3, 0), (3, 4, 1), (3, 3, -1), (4, 2, -2), (0, 3, 0)]
)
def test_triangle_indices_match_numpy(row, col, offset):
    assert engine.tril_indices(row, col, offset).tolist() == [
        list(v) for v in np.tril_indices(row, offset, col)
    ]
    assert engine.triu_indices(row, col, offset).tolist() == [
        list(v) for v in np.triu_indices(row, offset, col)
    ]


def test_triangle_indices_errors_and_dtype():
    assert engine.triu_indices(3, 3, dtype=engine.int32).dtype == engine.int32
    with pytest.raises(RuntimeError, match="row must be non-negative, got-1"):
        engine.tril_indices(-1, 3)
    with pytest.raises(NotImplementedError, match="\"triu_indices\" not implemented for 'Float'"):
        engine.triu_indices(3, 3, dtype=engine.float32)


def test_range_is_inclusive_and_deprecated():
    with pytest.warns(UserWarning, match="torch.range is deprecated"):
        assert engine.range(1, 4, 0.5).tolist() == [1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert engine.range(1, 4, dtype=engine.int64).tolist() == [1, 2, 3, 4]
        assert engine.range(4, 1, -1).dtype == engine.float32
        with pytest.raises(
            RuntimeError, match="upper bound and lower bound inconsistent with step sign"
        ):
            engine.range(4, 1)


def test_scalar_tensor_and_strided_empties():
    assert engine.scalar_tensor(3).dtype == engine.float32 and engine.scalar_tensor(3).dim() == 0
    assert engine.scalar_tensor(3, dtype=engine.int64).item() == 3
    assert engine.empty_strided((2, 3), (1, 2)).stride() == (1, 2)
    assert engine.empty_strided((2, 3), (3, 1), dtype=engine.float64).dtype == engine.float64
    assert engine.empty_permuted((2, 3, 4), (2, 0, 1)).stride() == (3, 1, 6)
    assert engine.empty_permuted((2, 3, 4), (2, 0, 1)).shape == (2, 3, 4)
    with pytest.raises(
        RuntimeError,
        match=r"dimensionality of sizes \(2\) must match dimensionality of strides \(1\)",
    ):
        engine.empty_strided((2, 3), (1,))
    with pytest.raises(RuntimeError, match="Duplicate dim not allowed"):
        engine.empty_permuted((2, 3, 4), (2, 0, 0))
    assert (
        engine.zeros(2, dtype=engine.float64).new_empty_strided((2, 2), (1, 2)).dtype
        == engine.float64
    )
    with pytest.raises(NotImplementedError, match="dense layouts"):
        engine.empty_strided((2, 3), (10, 1))


def test_frombuffer_shares_memory():
    buf = bytearray(np.array([1, 2, 3], dtype=np.int32).tobytes())
    t = engine.frombuffer(buf, dtype=engine.int32)
    assert t.tolist() == [1, 2, 3]
    buf[0] = 9
    assert t.tolist() == [9, 2, 3]
    assert engine.frombuffer(buf, dtype=engine.int32, count=1, offset=4).tolist() == [2]
    with pytest.raises(
        ValueError,
        match=r"buffer length \(3 bytes\) after offset \(0 bytes\) must be a multiple of element size \(4\)",
    ):
        engine.frombuffer(bytearray(3), dtype=engine.int32)
    with pytest.raises(
        ValueError, match=r"both buffer length \(0\) and count \(-1\) must not be 0"
    ):
        engine.frombuffer(bytearray(), dtype=engine.int32)


def test_asarray():
    x = engine.tensor([1, 2])
    assert engine.asarray(x) is x
    assert engine.asarray(x, dtype=engine.float32).dtype == engine.float32
    assert engine.asarray(x, copy=True) is not x
    a = np.array([1.0, 2.0])
    t = engine.asarray(a)
    a[0] = 5
    assert t.tolist() == [5.0, 2.0] and t.dtype == engine.float64
    assert engine.asarray([1.0, 2], dtype=engine.float64).dtype == engine.float64
    assert engine.asarray(3.5).dim() == 0
    with pytest.raises(ValueError, match="copy=False"):
        engine.asarray(x, dtype=engine.float32, copy=False)


def test_vander():
    x = np.array([1.0, 2.0, 3.0, -0.5])
    np.testing.assert_allclose(
        engine.vander(engine.tensor(x, dtype=engine.float64)).numpy(), np.vander(x)
    )
    got = engine.vander(engine.tensor(x, dtype=engine.float64), N=3, increasing=True)
    np.testing.assert_allclose(got.numpy(), np.vander(x, 3, increasing=True))
    assert engine.vander(engine.tensor([1, 2, 3])).tolist() == [[1, 1, 1], [4, 2, 1], [9, 3, 1]]
    assert engine.vander(engine.tensor([True, False])).tolist() == [[1, 1], [0, 1]]
    assert engine.vander(engine.tensor([1.0, 2]), N=0).shape == (2, 0)
    with pytest.raises(RuntimeError, match="N must be non-negative."):
        engine.vander(engine.tensor([1.0]), N=-1)
    with pytest.raises(RuntimeError, match="x must be a one-dimensional tensor."):
        engine.vander(engine.zeros(1, 2))
    assert gradcheck(
        lambda t: engine.vander(t, 4), (engine.tensor(x, dtype=engine.float64, requires_grad=True),)
    )


def test_logspace_refuses_sizes_past_memory_before_computing():
    # The step count is checked by allocating the result first (a step count of 2**62 once ran a
    # Python loop over every exponent); messages as PyTorch 2.13's.
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        engine.logspace(0, 1, 2**63)
    with pytest.raises(RuntimeError, match="Storage size calculation overflowed"):
        engine.logspace(0, 1, 2**62)
    with pytest.raises(engine.OutOfMemoryError):
        engine.logspace(0, 1, 2**40)
