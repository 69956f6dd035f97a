"""Tensor creation: engine.tensor from Python data and NumPy arrays, the factories, dtypes.

Expected values, dtypes and messages are PyTorch 2.13's.
"""

from __future__ import annotations

import math

import engine
import numpy as np
import pytest

DTYPES = [engine.float32, engine.float64, engine.int64, engine.int32, engine.bool]
NP_OF = {
    engine.float32: np.float32,
    engine.float64: np.float64,
    engine.int64: np.int64,
    engine.int32: np.int32,
    engine.bool: np.bool_,
}


@pytest.fixture
def default_float64():
    engine.set_default_dtype(engine.float64)
    try:
        yield
    finally:
        engine.set_default_dtype(engine.float32)


def check(t, dtype, shape, values):
    assert isinstance(t, engine.Tensor)
    assert tuple(t.shape) == shape
    assert t.dtype is dtype
    assert t.tolist() == values


# ---- engine.tensor from Python data ----


@pytest.mark.parametrize(
    "data, dtype, shape",
    [
        (3, engine.int64, ()),
        (3.5, engine.float32, ()),
        (True, engine.bool, ()),
        ([1, 2, 3], engine.int64, (3,)),
        ([1.0, 2.0], engine.float32, (2,)),
        ([True, False], engine.bool, (2,)),
        ([1, 2.0], engine.float32, (2,)),
        ([True, 2], engine.int64, (2,)),
        ([[True], [2.5]], engine.float32, (2, 1)),
        (((1, 2), (3, 4)), engine.int64, (2, 2)),
        ([(1, 2), [3, 4]], engine.int64, (2, 2)),
        ([[[1], [2]], [[3], [4]]], engine.int64, (2, 2, 1)),
    ],
)
def test_tensor_infers_dtype_and_shape(data, dtype, shape):
    t = engine.tensor(data)
    assert t.dtype is dtype
    assert tuple(t.shape) == shape
    expected = np.array(data, dtype=NP_OF[dtype]).tolist()
    assert t.tolist() == expected


def test_tensor_empty_lists_are_float():
    check(engine.tensor([]), engine.float32, (0,), [])
    check(engine.tensor([[], []]), engine.float32, (2, 0), [[], []])


def test_tensor_follows_default_dtype(default_float64):
    assert engine.tensor([1.5]).dtype is engine.float64
    assert engine.tensor([]).dtype is engine.float64
    assert engine.tensor([1]).dtype is engine.int64
    # A NumPy array keeps its own dtype.
    assert engine.tensor(np.ones(1, np.float32)).dtype is engine.float32


def test_tensor_special_floats():
    t = engine.tensor([float("nan"), float("inf"), -float("inf"), -0.0])
    v = t.tolist()
    assert math.isnan(v[0]) and v[1:3] == [math.inf, -math.inf]
    assert math.copysign(1.0, v[3]) == -1.0


def test_tensor_int64_is_exact():
    big = 2**62 + 1
    assert engine.tensor([big, -(2**63)]).tolist() == [big, -(2**63)]


@pytest.mark.parametrize("value", [2**63, 2**64, -(2**63) - 1])
def test_tensor_int_out_of_int64_range_raises(value):
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        engine.tensor([value])


def test_tensor_huge_int_into_float_dtype_rounds():
    assert engine.tensor([2**63], dtype=engine.float32).tolist() == [float(2**63)]


@pytest.mark.parametrize(
    "data, dtype",
    [
        ([2**40], engine.int32),
        ([-(2**31) - 1], engine.int32),
        ([3e9], engine.int32),
        ([1e20], engine.int64),
        ([float("nan")], engine.int64),
    ],
)
def test_tensor_value_out_of_dtype_range_raises(data, dtype):
    name = "int32" if dtype is engine.int32 else "int64"
    with pytest.raises(
        RuntimeError, match=f"value cannot be converted to type {name} without overflow"
    ):
        engine.tensor(data, dtype=dtype)


def test_tensor_int32_limits_fit():
    t = engine.tensor([-(2**31), 2**31 - 1], dtype=engine.int32)
    assert t.tolist() == [-(2**31), 2**31 - 1]


@pytest.mark.parametrize("dtype", DTYPES)
def test_tensor_explicit_dtype_converts(dtype):
    data = [[0, 1.7], [-2.7, 3]]
    t = engine.tensor(data, dtype=dtype)
    assert t.dtype is dtype
    expected = np.array(data).astype(NP_OF[dtype]).tolist()
    assert t.tolist() == expected


@pytest.mark.parametrize(
    "pytype, dtype", [(float, engine.float64), (int, engine.int64), (bool, engine.bool)]
)
def test_tensor_dtype_accepts_python_types(pytype, dtype):
    assert engine.tensor([1.5, 0], dtype=pytype).dtype is dtype


@pytest.mark.parametrize(
    "data, msg",
    [
        ([[1, 2, 3], [4, 5]], "expected sequence of length 3 at dim 1 (got 2)"),
        ([[1, 2], [4, 5, 6]], "expected sequence of length 2 at dim 1 (got 3)"),
        ([[[1], [2]], [[3], [4, 5]]], "expected sequence of length 1 at dim 2 (got 2)"),
    ],
)
def test_tensor_ragged_raises_value_error(data, msg):
    with pytest.raises(ValueError) as info:
        engine.tensor(data)
    assert str(info.value) == msg


@pytest.mark.parametrize("data", [[[1, 2], 3], [1, [2, 3]]])
def test_tensor_mixed_depth_raises_value_error(data):
    with pytest.raises(ValueError, match="expected"):
        engine.tensor(data)


@pytest.mark.parametrize(
    "data, name", [(["a"], "str"), ([1, None], "NoneType"), ({}, "dict"), ([object()], "object")]
)
def test_tensor_invalid_element_raises_type_error_naming_it(data, name):
    with pytest.raises(TypeError, match=f"'{name}'"):
        engine.tensor(data)


def test_tensor_of_zero_d_tensors():
    check(engine.tensor([engine.tensor(1.5), engine.tensor(2.0)]), engine.float32, (2,), [1.5, 2.0])
    check(engine.tensor([engine.tensor(1), engine.tensor(2)]), engine.int64, (2,), [1, 2])
    check(engine.tensor([engine.tensor(True), 0]), engine.int64, (2,), [1, 0])
    t = engine.tensor([engine.tensor(3, dtype=engine.int32)], dtype=engine.float64)
    check(t, engine.float64, (1,), [3.0])


def test_tensor_copies_a_tensor():
    src = engine.tensor([1.0, 2.0])
    with pytest.warns(UserWarning, match="To copy construct from a tensor"):
        t = engine.tensor(src, dtype=engine.float64)
    src.add_(1)
    check(t, engine.float64, (2,), [1.0, 2.0])


# ---- requires_grad ----


def test_tensor_requires_grad():
    t = engine.tensor([1.0, 2.0], requires_grad=True)
    assert t.requires_grad and t.is_leaf and t.grad_fn is None


@pytest.mark.parametrize(
    "make",
    [
        lambda: engine.tensor([1, 2], requires_grad=True),
        lambda: engine.tensor([True], requires_grad=True),
        lambda: engine.tensor([1.0], dtype=engine.int64, requires_grad=True),
        lambda: engine.zeros(2, dtype=engine.int64, requires_grad=True),
        lambda: engine.arange(3, requires_grad=True),
    ],
)
def test_requires_grad_on_non_float_raises(make):
    with pytest.raises(RuntimeError) as info:
        make()
    assert (
        str(info.value) == "Only Tensors of floating point and complex dtype can require gradients"
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda **kw: engine.zeros(2, **kw),
        lambda **kw: engine.full((2,), 3.0, **kw),
        lambda **kw: engine.arange(3.0, **kw),
        lambda **kw: engine.linspace(0, 1, 3, **kw),
        lambda **kw: engine.empty_like(engine.ones(2), **kw),
        lambda **kw: engine.zeros_like(engine.ones(2), **kw),
    ],
)
def test_factories_accept_requires_grad(make):
    assert make(requires_grad=True).requires_grad
    assert not make().requires_grad


def test_like_factories_do_not_inherit_requires_grad():
    assert not engine.zeros_like(engine.ones(2, requires_grad=True)).requires_grad


def test_unknown_keyword_raises():
    with pytest.raises(TypeError, match=r"zeros\(\) got an unexpected keyword argument 'foo'"):
        engine.zeros(2, foo=1)
    with pytest.raises(TypeError, match=r"tensor\(\) got an unexpected keyword argument 'foo'"):
        engine.tensor(2, foo=1)


# ---- engine.tensor from NumPy ----


@pytest.mark.parametrize(
    "np_dtype, dtype",
    [
        (np.float32, engine.float32),
        (np.float64, engine.float64),
        (np.int64, engine.int64),
        (np.int32, engine.int32),
        (np.bool_, engine.bool),
    ],
)
def test_tensor_from_numpy_keeps_dtype(np_dtype, dtype):
    a = (np.arange(6).reshape(2, 3) % 4).astype(np_dtype)
    t = engine.tensor(a)
    check(t, dtype, (2, 3), a.tolist())
    a[0, 0] = 1  # a copy: later writes to the array do not show
    assert t.tolist()[0][0] == 0


@pytest.mark.parametrize(
    "make",
    [
        lambda: np.arange(12).reshape(3, 4)[:, ::2],
        lambda: np.arange(6.0).reshape(2, 3).T,
        lambda: np.arange(24, dtype=np.float32).reshape(2, 3, 4)[1:, ::2, 1::2],
        lambda: np.broadcast_to(np.arange(3), (2, 3)),
        lambda: np.arange(5)[::-1],
    ],
    ids=["strided", "transposed", "sliced-3d", "broadcast", "reversed"],
)
def test_tensor_from_non_contiguous_numpy(make):
    a = make()
    t = engine.tensor(a)
    assert tuple(t.shape) == a.shape
    assert t.tolist() == a.tolist()


def test_tensor_from_numpy_with_dtype():
    check(engine.tensor(np.array([1.5]), dtype=engine.float32), engine.float32, (1,), [1.5])
    check(engine.tensor(np.array([1.7, -2.7]), dtype=engine.int64), engine.int64, (2,), [1, -2])


def test_tensor_from_numpy_zero_d_and_empty():
    check(engine.tensor(np.array(3.0)), engine.float64, (), 3.0)
    check(engine.tensor(np.zeros((0, 3), np.int32)), engine.int32, (0, 3), [])


def test_tensor_from_numpy_scalars():
    check(engine.tensor(np.float32(2.5)), engine.float32, (), 2.5)
    check(engine.tensor(np.int64(7)), engine.int64, (), 7)
    check(engine.tensor(np.bool_(True)), engine.bool, (), True)
    check(engine.tensor([np.float32(1.5), np.float32(2)]), engine.float32, (2,), [1.5, 2.0])
    check(engine.tensor([np.int32(1), 2]), engine.int64, (2,), [1, 2])
    check(engine.tensor([np.bool_(True), np.bool_(False)]), engine.bool, (2,), [True, False])


def test_tensor_from_unsupported_numpy_dtype_raises():
    with pytest.raises(TypeError, match="numpy.uint16"):
        engine.tensor(np.array([1], dtype=np.uint16))


# ---- zeros / ones / full / empty ----


@pytest.mark.parametrize("name, value", [("zeros", 0.0), ("ones", 1.0)])
@pytest.mark.parametrize("args", [(2, 3), ((2, 3),), ([2, 3],), (engine.Size([2, 3]),)])
def test_zeros_ones_size_forms(name, value, args):
    t = getattr(engine, name)(*args)
    check(t, engine.float32, (2, 3), [[value] * 3] * 2)


def test_size_accepts_integer_likes():
    assert tuple(engine.zeros(np.int64(2), 3).shape) == (2, 3)
    assert tuple(engine.ones(engine.tensor(2)).shape) == (2,)


def test_zero_d_and_empty_sizes():
    check(engine.zeros(()), engine.float32, (), 0.0)
    check(engine.ones([]), engine.float32, (), 1.0)
    check(engine.zeros(0, 3), engine.float32, (0, 3), [])
    check(engine.full((2, 0), 1.0), engine.float32, (2, 0), [[], []])


@pytest.mark.parametrize("dtype", DTYPES)
def test_factories_take_dtype(dtype):
    one = NP_OF[dtype](1).item()
    check(engine.zeros(2, dtype=dtype), dtype, (2,), [NP_OF[dtype](0).item()] * 2)
    check(engine.ones(2, dtype=dtype), dtype, (2,), [one] * 2)
    check(engine.full((2,), 1, dtype=dtype), dtype, (2,), [one] * 2)
    assert engine.empty(2, 1, dtype=dtype).dtype is dtype
    assert engine.zeros_like(engine.ones(1), dtype=dtype).dtype is dtype


def test_factories_follow_default_dtype(default_float64):
    for t in (
        engine.zeros(1),
        engine.ones(1),
        engine.empty(1),
        engine.full((1,), 1.5),
        engine.arange(1.0),
        engine.linspace(0, 1, 2),
    ):
        assert t.dtype is engine.float64
    assert engine.full((1,), 1).dtype is engine.int64
    assert engine.arange(3).dtype is engine.int64


@pytest.mark.parametrize(
    "make",
    [
        lambda: engine.ones(-3),
        lambda: engine.empty(-3),
        lambda: engine.full((-3,), 1.0),
    ],
)
def test_negative_size_raises(make):
    with pytest.raises(RuntimeError) as info:
        make()
    assert str(info.value) == "Trying to create tensor with negative dimension -3: [-3]"


def test_zeros_negative_size_has_its_own_message():
    with pytest.raises(RuntimeError) as info:
        engine.zeros(2, -1)
    assert str(info.value) == "zeros: Dimension size must be non-negative."


@pytest.mark.parametrize("args", [(2.5,), ("a",), ((2, 2.5),), (2, None)])
def test_size_of_wrong_type_raises_type_error(args):
    with pytest.raises(TypeError, match=r"zeros\(\): argument 'size'"):
        engine.zeros(*args)


@pytest.mark.parametrize(
    "value, dtype, expected",
    [
        (3, engine.int64, 3),
        (3.0, engine.float32, 3.0),
        (True, engine.bool, True),
        (2**62 + 1, engine.int64, 2**62 + 1),
        (np.float32(1.5), engine.float32, 1.5),
        (np.int32(4), engine.int64, 4),
        (engine.tensor(2.5), engine.float32, 2.5),
        (engine.tensor(2.5, dtype=engine.float64), engine.float32, 2.5),
        (engine.tensor(3), engine.int64, 3),
        (engine.tensor(True), engine.bool, True),
    ],
)
def test_full_infers_dtype_from_fill_value(value, dtype, expected):
    check(engine.full((2,), value), dtype, (2,), [expected] * 2)


def test_full_with_dtype_converts():
    check(engine.full([2, 2], 7, dtype=engine.float64), engine.float64, (2, 2), [[7.0] * 2] * 2)
    check(engine.full((2,), 2.7, dtype=engine.int32), engine.int32, (2,), [2, 2])


@pytest.mark.parametrize("value", ["a", engine.tensor([1.0]), None])
def test_full_non_number_raises(value):
    with pytest.raises(TypeError, match=r"full\(\): argument 'fill_value' \(position 2\) must be"):
        engine.full((2,), value)


@pytest.mark.parametrize(
    "value, dtype, name",
    [
        (1e20, engine.int64, "int64_t"),
        (float("nan"), engine.int64, "int64_t"),
        (2**40, engine.int32, "int"),
    ],
)
def test_full_out_of_range_raises(value, dtype, name):
    with pytest.raises(RuntimeError) as info:
        engine.full((2,), value, dtype=dtype)
    assert str(info.value) == f"value cannot be converted to type {name} without overflow"


def test_empty_has_shape_and_dtype():
    t = engine.empty(2, 3)
    assert t.shape == (2, 3) and t.dtype is engine.float32
    assert engine.empty((4,), dtype=engine.int32).shape == (4,)


# ---- the *_like factories ----


def test_like_factories_follow_the_input():
    src = engine.tensor([[1, 2, 3], [4, 5, 6]], dtype=engine.int32)
    check(engine.zeros_like(src), engine.int32, (2, 3), [[0] * 3] * 2)
    check(engine.ones_like(src), engine.int32, (2, 3), [[1] * 3] * 2)
    check(engine.full_like(src, 2.7), engine.int32, (2, 3), [[2] * 3] * 2)
    e = engine.empty_like(src)
    assert e.shape == src.shape and e.dtype is src.dtype
    check(engine.ones_like(engine.tensor([True, False])), engine.bool, (2,), [True, True])


def test_like_factories_take_dtype():
    src = engine.tensor([1, 2])
    check(engine.ones_like(src, dtype=engine.float32), engine.float32, (2,), [1.0, 1.0])
    check(engine.full_like(src, 7, dtype=engine.float64), engine.float64, (2,), [7.0, 7.0])
    assert engine.full_like(engine.tensor([1, 2]), 2**62 + 1).tolist() == [2**62 + 1] * 2


def test_like_of_a_non_contiguous_input():
    src = engine.ones(2, 3).t()
    check(engine.zeros_like(src), engine.float32, (3, 2), [[0.0] * 2] * 3)


# ---- arange ----


@pytest.mark.parametrize(
    "args, kwargs, dtype, expected",
    [
        ((5,), {}, engine.int64, [0, 1, 2, 3, 4]),
        ((5.0,), {}, engine.float32, [0.0, 1.0, 2.0, 3.0, 4.0]),
        ((1, 4), {}, engine.int64, [1, 2, 3]),
        ((5, 0, -1), {}, engine.int64, [5, 4, 3, 2, 1]),
        ((0,), {}, engine.int64, []),
        ((3, 3), {}, engine.int64, []),
        ((5,), {"dtype": engine.float32}, engine.float32, [0.0, 1.0, 2.0, 3.0, 4.0]),
        ((3,), {"dtype": engine.int32}, engine.int32, [0, 1, 2]),
        ((), {"start": 1, "end": 4, "step": 1}, engine.int64, [1, 2, 3]),
        ((), {"end": 4}, engine.int64, [0, 1, 2, 3]),
        ((engine.tensor(1), engine.tensor(4.0)), {}, engine.float32, [1.0, 2.0, 3.0]),
        ((2**53, 2**53 + 3), {}, engine.int64, [2**53, 2**53 + 1, 2**53 + 2]),
        ((-(2**53) - 3, -(2**53)), {}, engine.int64, [-(2**53) - 3, -(2**53) - 2, -(2**53) - 1]),
        ((0, 10, 3), {}, engine.int64, [0, 3, 6, 9]),
        ((10, 0, -3), {}, engine.int64, [10, 7, 4, 1]),
    ],
)
def test_arange(args, kwargs, dtype, expected):
    check(engine.arange(*args, **kwargs), dtype, (len(expected),), expected)


# Lengths recorded from PyTorch: ceil((end - start) / step), values start + i * step.
@pytest.mark.parametrize(
    "start, end, step, length",
    [(0, 1, 0.1, 10), (1, -1, -0.3, 7), (-1.5, 2.2, 0.7, 6), (0, 1, 0.25, 4), (0.5, 3, 1, 3)],
)
@pytest.mark.parametrize("dtype", [None, engine.float64])
def test_arange_float_steps(start, end, step, length, dtype):
    t = engine.arange(start, end, step, dtype=dtype)
    assert t.dtype is (dtype or engine.float32)
    assert t.shape == (length,)
    np_dtype = np.float32 if dtype is None else np.float64
    expected = (start + np.arange(length, dtype=np.float64) * step).astype(np_dtype)
    # PyTorch's vectorized fill may differ from start + i * step in the last bit of a float64.
    np.testing.assert_allclose(
        np.array(t.tolist(), dtype=np_dtype), expected, rtol=1e-14, atol=1e-15
    )


@pytest.mark.parametrize(
    "args, exc, msg",
    [
        ((0, 5, 0), RuntimeError, "step must be nonzero"),
        ((0.0, 5.0, 0.0), RuntimeError, "step must be nonzero"),
        ((0, 5, -1), RuntimeError, "upper bound and lower bound inconsistent with step sign"),
        ((5, 0, 1), RuntimeError, "upper bound and lower bound inconsistent with step sign"),
        ((0.0, 5.0, -0.5), RuntimeError, "upper bound and lower bound inconsistent with step sign"),
        (("a",), TypeError, "arange(): argument 'end' (position 1) must be Number, not str"),
    ],
)
def test_arange_errors(args, exc, msg):
    with pytest.raises(exc) as info:
        engine.arange(*args)
    assert str(info.value) == msg


def test_arange_to_infinity_raises():
    with pytest.raises(RuntimeError, match="unsupported range"):
        engine.arange(0, float("inf"))


# ---- linspace ----


@pytest.mark.parametrize(
    "start, end, steps",
    [(0, 1, 5), (-1, 1, 7), (3, -2, 4), (0, 1, 2), (0, 1, 1), (0, 1, 0), (2.5, 2.5, 3)],
)
@pytest.mark.parametrize("dtype", [engine.float32, engine.float64])
def test_linspace(start, end, steps, dtype):
    t = engine.linspace(start, end, steps, dtype=dtype)
    assert t.dtype is dtype and t.shape == (steps,)
    expected = np.linspace(start, end, steps)
    np.testing.assert_allclose(t.tolist(), expected, rtol=1e-6, atol=1e-7)
    if steps:
        assert t.tolist()[0] == start  # both endpoints exact
    if steps > 1:
        assert t.tolist()[-1] == end


def _cpu_has_fma():
    try:
        with open("/proc/cpuinfo") as f:
            flags = f.read()
    except OSError:
        return False
    return " fma" in flags and " avx2" in flags


@pytest.mark.skipif(not _cpu_has_fma(), reason="PyTorch's bits were recorded with AVX2 and FMA")
def test_ranges_give_pytorchs_bits():
    # Recorded from PyTorch 2.13 (tests/fixtures/record_linspace.py): its linspace counts each
    # element from the nearer end with one fused multiply-add, so the middle of linspace(-2, 2,
    # 13) is -2**-24, not 0; arange fills vectors from their first element, in chunks per thread
    # past 32768 elements; logspace raises to powers in double. engine gives the same bits, in
    # float32 and float64.
    import hashlib
    import json
    import pathlib

    def sha(t):
        return hashlib.sha256(t.numpy().tobytes()).hexdigest()

    cases = json.loads(
        (pathlib.Path(__file__).parent / "fixtures" / "torch_linspace.json").read_text()
    )
    for case in cases:
        if case["fn"] == "arange" and engine.get_num_threads() != 2:
            continue  # past 32768 elements the chunks follow the thread count (recorded with 2)
        fn = getattr(engine, case["fn"])
        assert sha(fn(*case["args"])) == case["float32"], case
        assert sha(fn(*case["args"], dtype=engine.float64)) == case["float64"], case


def test_linspace_forms():
    check(engine.linspace(start=0, end=1, steps=3), engine.float32, (3,), [0.0, 0.5, 1.0])
    check(
        engine.linspace(engine.tensor(0.0), engine.tensor(1.0), 3),
        engine.float32,
        (3,),
        [0.0, 0.5, 1.0],
    )
    check(engine.linspace(0, 10, 4, dtype=engine.int64), engine.int64, (4,), [0, 3, 6, 10])
    check(engine.linspace(0, 5, 3, dtype=engine.int32), engine.int32, (3,), [0, 2, 5])


def test_linspace_negative_steps_raises():
    with pytest.raises(RuntimeError, match="number of steps must be non-negative"):
        engine.linspace(0, 1, -1)


# ---- dtypes ----


def test_dtype_reprs():
    for name in ("float32", "float64", "int64", "int32", "bool"):
        d = getattr(engine, name)
        assert repr(d) == str(d) == f"torch.{name}"
        assert isinstance(d, engine.dtype)


def test_dtype_aliases():
    assert engine.float is engine.float32
    assert engine.double is engine.float64
    assert engine.long is engine.int64
    assert engine.int is engine.int32
    assert engine.bool is not bool


@pytest.mark.parametrize(
    "dtype, floating, signed, itemsize",
    [
        (engine.float32, True, True, 4),
        (engine.float64, True, True, 8),
        (engine.int64, False, True, 8),
        (engine.int32, False, True, 4),
        (engine.bool, False, False, 1),
    ],
)
def test_dtype_properties(dtype, floating, signed, itemsize):
    assert dtype.is_floating_point is floating
    assert dtype.is_signed is signed
    assert dtype.is_complex is False
    assert dtype.itemsize == itemsize


def test_dtypes_compare_and_hash_as_identities():
    assert engine.float32 == engine.float
    assert engine.float32 != engine.float64
    assert len({engine.float32, engine.float, engine.float64}) == 2


def test_default_dtype_round_trip():
    assert engine.get_default_dtype() is engine.float32
    engine.set_default_dtype(engine.float64)
    try:
        assert engine.get_default_dtype() is engine.float64
        assert engine.tensor(1.5).dtype is engine.float64
    finally:
        engine.set_default_dtype(engine.float32)
    assert engine.get_default_dtype() is engine.float32
    assert engine.tensor(1.5).dtype is engine.float32


@pytest.mark.parametrize("dtype", [engine.int64, engine.int32, engine.bool])
def test_default_dtype_must_be_floating(dtype):
    with pytest.raises(
        TypeError, match="only floating-point types are supported as the default type"
    ):
        engine.set_default_dtype(dtype)
    assert engine.get_default_dtype() is engine.float32
