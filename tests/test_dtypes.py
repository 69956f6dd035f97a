"""The narrow dtypes (uint8, int8, int16, float16, bfloat16) end to end: storage and conversion
against NumPy, float16/bfloat16 rounding, PyTorch's promotion lattice (recorded in
tests/fixtures/promotion.json), NumPy interop, integer wrapping, reductions, indexing with a
uint8 mask, gradients through a half tensor, random fills, dtype information, the legacy type
names and constructors, and the errors PyTorch raises."""

import json
import math
import pathlib
import struct

import engine
import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parent
PROMOTION = json.loads((ROOT / "fixtures" / "promotion.json").read_text())["cases"]

NEW = ["uint8", "int8", "int16", "float16", "bfloat16"]
ALL = [
    "bool",
    "uint8",
    "int8",
    "int16",
    "int32",
    "int64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
]
NP = {
    "bool": np.bool_,
    "uint8": np.uint8,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "float16": np.float16,
    "float32": np.float32,
    "float64": np.float64,
}


def dt(name):
    return getattr(engine, name)


def bf16_reference(x32):
    """float32 array -> bfloat16 values (as float32), round to nearest even, NaN kept."""
    bits = x32.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    out = rounded.view(np.float32).copy()
    out[np.isnan(x32)] = np.nan
    return out


# ---- dtype objects -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "alias,name", [("half", "float16"), ("short", "int16"), ("float16", "float16")]
)
def test_aliases_are_the_same_objects(alias, name):
    assert getattr(engine, alias) is dt(name)


@pytest.mark.parametrize(
    "name,floating,signed,size",
    [
        ("uint8", False, False, 1),
        ("int8", False, True, 1),
        ("int16", False, True, 2),
        ("float16", True, True, 2),
        ("bfloat16", True, True, 2),
        ("bool", False, False, 1),
    ],
)
def test_dtype_properties(name, floating, signed, size):
    d = dt(name)
    assert repr(d) == f"torch.{name}"
    assert (d.is_floating_point, d.is_signed, d.itemsize) == (floating, signed, size)
    t = engine.zeros(3, dtype=d)
    assert t.dtype is d and t.is_floating_point() == floating and t.is_signed() == signed
    assert (t.element_size(), t.itemsize, t.nbytes) == (size, size, 3 * size)


# ---- conversions ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["uint8", "int8", "int16"])
def test_integer_round_trip_matches_numpy(name):
    info = np.iinfo(NP[name])
    values = np.array([info.min, info.min + 1, -1 if info.min < 0 else 0, 0, 1, 7, info.max])
    t = engine.tensor(values.tolist(), dtype=dt(name))
    assert t.tolist() == values.astype(NP[name]).tolist()
    for other in ["int64", "float32", "float64", "int32"]:
        assert t.to(dt(other)).to(dt(name)).tolist() == t.tolist()


def test_float_to_narrow_integer_wraps_through_int32_like_pytorch():
    x = engine.tensor([300.0, -1.0, -129.0, 1e10, math.nan, math.inf, 70000.5])
    assert x.to(engine.uint8).tolist() == [44, 255, 127, 0, 0, 0, 112]
    assert x.to(engine.int8).tolist() == [44, -1, 127, 0, 0, 0, 112]
    assert x.to(engine.int16).tolist() == [300, -1, -129, 0, 0, 0, 4464]


def test_float16_rounding_matches_numpy():
    rng = np.random.default_rng(0)
    parts = [
        rng.standard_normal(2000) * 10.0 ** rng.integers(-9, 6, 2000),
        np.array([65504.0, 65519.0, 65520.0, 1e6, -1e6, 6e-8, 3e-8, 2.98e-8, 5.96e-8, 1e-10]),
        np.array([0.0, -0.0, math.inf, -math.inf, 1.0009765625, 1.00048828125, 2049.0, 2051.0]),
    ]
    x32 = np.concatenate(parts).astype(np.float32)
    got = engine.tensor(x32.tolist(), dtype=engine.float32).half()
    with np.errstate(over="ignore"):  # the overflows to inf are the point
        ref = x32.astype(np.float16)
    got_np = got.numpy()
    assert got_np.dtype == np.float16
    np.testing.assert_array_equal(got_np.view(np.uint16), ref.view(np.uint16))
    # back to float32 exactly
    np.testing.assert_array_equal(got.float().numpy(), ref.astype(np.float32))


def test_float16_overflow_nan_and_signed_zero():
    t = engine.tensor([65519.0, 65520.0, -70000.0, math.nan, -0.0], dtype=engine.float16)
    vals = t.tolist()
    assert vals[:3] == [65504.0, math.inf, -math.inf]
    assert math.isnan(vals[3]) and math.copysign(1.0, vals[4]) == -1.0


def test_bfloat16_rounding_matches_reference():
    rng = np.random.default_rng(1)
    x32 = np.concatenate(
        [
            (rng.standard_normal(2000) * 10.0 ** rng.integers(-30, 30, 2000)).astype(np.float32),
            np.array(
                [1.00390625, 1.01171875, 3.4e38, -3.4e38, 1e-40, 0.0, -0.0, math.inf],
                dtype=np.float32,
            ),
        ]
    )
    got = engine.tensor(x32.tolist(), dtype=engine.float32).bfloat16()
    assert got.dtype is engine.bfloat16
    np.testing.assert_array_equal(np.array(got.tolist(), dtype=np.float32), bf16_reference(x32))
    assert math.isnan(engine.tensor([math.nan]).bfloat16().item())
    assert engine.tensor([1.00390625, 1.01171875]).bfloat16().tolist() == [1.0, 1.015625]


@pytest.mark.parametrize("name", NEW)
def test_tensor_methods_convert(name):
    method = {
        "uint8": "byte",
        "int8": "char",
        "int16": "short",
        "float16": "half",
        "bfloat16": "bfloat16",
    }[name]
    t = getattr(engine.tensor([1.0, 2.0, 3.0]), method)()
    assert t.dtype is dt(name) and t.tolist() == [1, 2, 3]
    assert isinstance(t[0].item(), float if dt(name).is_floating_point else int)


def test_item_and_tolist_give_exact_half_values():
    h = engine.tensor([0.1, 0.2], dtype=engine.float16)
    assert h.tolist() == [0.0999755859375, 0.199951171875]
    assert h[0].item() == 0.0999755859375
    assert engine.tensor([200], dtype=engine.uint8).item() == 200


# ---- promotion -----------------------------------------------------------------------------


def test_promote_types_matches_recorded_table():
    seen = 0
    for op, a, b, _default, expected in PROMOTION:
        if op != "result_type" or not (a.startswith("t:") and b.startswith("t:")):
            continue
        got = engine.promote_types(dt(a[2:]), dt(b[2:]))
        assert repr(got) == f"torch.{expected}", (a, b)
        seen += 1
    assert seen == len(ALL) ** 2


@pytest.mark.parametrize(
    "a,b,expected",
    [
        ("uint8", "int8", "int16"),
        ("float16", "bfloat16", "float32"),
        ("int64", "float16", "float16"),
        ("bool", "uint8", "uint8"),
        ("uint8", "int16", "int16"),
        ("bfloat16", "int32", "bfloat16"),
    ],
)
def test_promote_types_examples(a, b, expected):
    assert engine.promote_types(dt(a), dt(b)) is dt(expected)
    assert engine.promote_types(dt(b), dt(a)) is dt(expected)


def test_result_type_with_scalars_and_zero_dim():
    u8 = engine.tensor([1, 2], dtype=engine.uint8)
    assert engine.result_type(u8, 5) is engine.uint8
    assert engine.result_type(u8, 2.5) is engine.float32
    assert engine.result_type(u8, engine.tensor(3, dtype=engine.int64)) is engine.uint8
    assert engine.result_type(u8, engine.tensor(3.0, dtype=engine.float16)) is engine.float16
    h = engine.tensor([1.0], dtype=engine.float16)
    assert engine.result_type(h, 2.5) is engine.float16
    assert engine.result_type(h, engine.tensor(1.0, dtype=engine.float64)) is engine.float16
    assert (u8 + engine.tensor([1], dtype=engine.int8)).dtype is engine.int16


@pytest.mark.parametrize(
    "src,dst,ok",
    [
        ("float16", "int8", False),
        ("int8", "uint8", True),
        ("uint8", "bool", False),
        ("bool", "uint8", True),
        ("float32", "bfloat16", True),
        ("int64", "float16", True),
    ],
)
def test_can_cast(src, dst, ok):
    assert engine.can_cast(dt(src), dt(dst)) is ok


def test_promotion_function_argument_errors():
    with pytest.raises(
        TypeError,
        match=r"promote_types\(\): argument 'type1' \(position 1\) must be "
        r"torch.dtype, not int",
    ):
        engine.promote_types(1, engine.int8)
    with pytest.raises(
        TypeError,
        match=r"can_cast\(\): argument 'to' \(position 2\) must be "
        r"torch.dtype, not str",
    ):
        engine.can_cast(engine.float32, "a")


def test_inplace_refuses_casts_pytorch_refuses():
    a = engine.tensor([1, 2], dtype=engine.int8)
    with pytest.raises(
        RuntimeError, match="result type Half can't be cast to the desired output type Char"
    ):
        a += engine.tensor([1.0, 2.0], dtype=engine.float16)
    a += engine.tensor([1, 2], dtype=engine.int16)  # same kind: allowed, wraps
    assert a.dtype is engine.int8 and a.tolist() == [2, 4]


# ---- arithmetic on the narrow types --------------------------------------------------------


def test_uint8_and_int8_arithmetic_wraps():
    a = engine.tensor([250, 5], dtype=engine.uint8)
    assert (a + 10).tolist() == [4, 15] and (a + 10).dtype is engine.uint8
    assert (a * 2).tolist() == [244, 10]
    assert (-a).tolist() == [6, 251]
    assert (a // 3).tolist() == [83, 1]
    assert (a - 251).tolist() == [255, 10]
    b = engine.tensor([127, -128], dtype=engine.int8)
    assert (b + 1).tolist() == [-128, -127]
    assert (b * 2).tolist() == [-2, 0]
    assert (-b).tolist() == [-127, -128]
    assert abs(b).tolist() == [127, -128]
    assert (b / 2).dtype is engine.float32 and (a + 1.5).dtype is engine.float32


def test_bitwise_ops_on_narrow_integers():
    a = engine.tensor([250, 5], dtype=engine.uint8)
    assert (a & 3).tolist() == [2, 1]
    assert (~a).tolist() == [5, 250]
    assert (a | 1).tolist() == [251, 5]
    assert (a ^ 255).tolist() == [5, 250]
    s = engine.tensor([-2, 7], dtype=engine.int16)
    assert (~s).tolist() == [1, -8] and (s & 6).dtype is engine.int16


def test_half_arithmetic_rounds_each_result():
    h = engine.tensor([0.1, 0.2], dtype=engine.float16)
    assert (h + h).dtype is engine.float16
    ref = (np.array([0.1, 0.2], np.float16) + np.array([0.1, 0.2], np.float16)).tolist()
    assert (h + h).tolist() == ref
    assert h.exp().tolist() == [1.10546875, 1.2216796875]
    assert (h @ h).item() == 0.04998779296875
    bf = engine.tensor([1.0, 3.0], dtype=engine.bfloat16)
    assert (bf / 3).dtype is engine.bfloat16 and (bf / 3).tolist() == [0.333984375, 1.0]


def test_matmul_of_narrow_types():
    a = engine.tensor([[1, 2], [3, 4]], dtype=engine.int8)
    assert (a @ a).tolist() == [[7, 10], [15, 22]] and (a @ a).dtype is engine.int8
    big = engine.tensor([[100, 100]], dtype=engine.int16)
    assert (big @ big.t()).tolist() == [[20000]]
    h = engine.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=engine.float16)
    assert (h @ h).dtype is engine.float16 and (h @ h).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    with pytest.raises(RuntimeError, match="c10::Half != float"):
        h @ engine.ones(2, 2)


# ---- reductions ----------------------------------------------------------------------------


def test_integer_sums_are_int64_and_mean_refuses_integers():
    assert engine.tensor([200, 100], dtype=engine.uint8).sum().dtype is engine.int64
    assert engine.tensor([200, 100], dtype=engine.uint8).sum().item() == 300
    assert engine.tensor([127, -128], dtype=engine.int8).sum().item() == -1
    assert engine.tensor([1, 2], dtype=engine.int16).prod().dtype is engine.int64
    with pytest.raises(
        RuntimeError,
        match="Input dtype must be either a floating point or complex dtype. Got: Byte",
    ):
        engine.ones(3, dtype=engine.uint8).mean()


def test_half_sum_and_mean_accumulate_in_float32():
    h = engine.tensor([0.1, 0.2], dtype=engine.float16)
    assert h.sum().item() == 0.2998046875 and h.sum().dtype is engine.float16
    assert h.mean().item() == 0.14990234375
    big = engine.tensor([60000.0, 10000.0], dtype=engine.float16)
    assert big.sum().item() == math.inf  # 70000 rounds to inf in float16
    assert big.mean().item() == 35008.0  # but the mean is divided before rounding
    assert engine.tensor([1, 2, 3], dtype=engine.uint8).max().item() == 3


# ---- NumPy interop -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["float16", "uint8", "int8", "int16"])
def test_numpy_round_trip(name):
    arr = np.array([[0, 1, 2], [3, 4, 100]], dtype=NP[name])
    for make in (engine.tensor, engine.as_tensor, engine.from_numpy):
        t = make(arr)
        assert t.dtype is dt(name) and t.tolist() == arr.tolist()
        back = t.numpy()
        assert back.dtype == arr.dtype
        np.testing.assert_array_equal(back, arr)
    assert engine.from_numpy(arr[:, ::2]).tolist() == arr[:, ::2].tolist()


def test_numpy_errors():
    with pytest.raises(TypeError, match="Got unsupported ScalarType BFloat16"):
        engine.ones(2, dtype=engine.bfloat16).numpy()
    with pytest.raises(TypeError, match="can't convert np.ndarray of type numpy.uint16"):
        engine.tensor(np.ones(2, dtype=np.uint16))


def test_lists_with_narrow_dtypes_check_range():
    assert engine.tensor([-1, 255], dtype=engine.uint8).tolist() == [255, 255]
    with pytest.raises(
        RuntimeError, match="value cannot be converted to type uint8 without overflow"
    ):
        engine.tensor([300], dtype=engine.uint8)
    with pytest.raises(
        RuntimeError, match="value cannot be converted to type int8 without overflow"
    ):
        engine.tensor([128], dtype=engine.int8)
    assert engine.tensor([-128, 127], dtype=engine.int8).tolist() == [-128, 127]


# ---- indexing ------------------------------------------------------------------------------


def test_uint8_mask_indexes_like_bool_with_pytorchs_warning():
    t = engine.arange(6.0).reshape(2, 3)
    mask = engine.tensor([1, 0], dtype=engine.uint8)
    with pytest.warns(UserWarning, match="indexing with dtype torch.uint8 is now deprecated"):
        out = t[mask]
    assert out.tolist() == [[0.0, 1.0, 2.0]]


# ---- autograd ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["float16", "bfloat16"])
def test_gradients_through_a_16_bit_tensor(name):
    x = engine.tensor([1.0, 2.0, 3.0], dtype=dt(name), requires_grad=True)
    y = (x * x).sum()
    assert y.dtype is dt(name)
    y.backward()
    assert x.grad.dtype is dt(name) and x.grad.tolist() == [2.0, 4.0, 6.0]
    z = engine.tensor([[1.0, 2.0]], dtype=dt(name), requires_grad=True)
    (z @ z.t()).sum().backward()
    assert z.grad.dtype is dt(name) and z.grad.tolist() == [[2.0, 4.0]]


def test_integer_tensors_cannot_require_grad():
    with pytest.raises(RuntimeError, match="floating point"):
        engine.ones(2, dtype=engine.uint8).requires_grad_()


# ---- random --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["float16", "bfloat16"])
def test_rand_and_randn_with_16_bit_dtypes(name):
    engine.manual_seed(0)
    r = engine.rand(3000, dtype=dt(name))
    engine.manual_seed(0)
    ref = engine.rand(3000).to(dt(name))
    # The float32 stream rounded, except that draws rounding up to 1.0 become 0.0 (PyTorch's
    # uniform stays in [0, 1)).
    ref = engine.where(ref == 1.0, engine.zeros((), dtype=dt(name)), ref)
    assert r.dtype is dt(name) and r.tolist() == ref.tolist()
    assert 0.0 <= min(r.tolist()) and max(r.tolist()) < 1.0
    engine.manual_seed(0)
    n = engine.randn(5, dtype=dt(name))
    engine.manual_seed(0)
    assert n.tolist() == engine.randn(5).to(dt(name)).tolist()
    u = engine.empty(100, dtype=dt(name)).uniform_(-2, 2)
    assert u.dtype is dt(name) and all(-2 <= v <= 2 for v in u.tolist())
    assert engine.empty(10, dtype=dt(name)).normal_().dtype is dt(name)


@pytest.mark.parametrize("name", ["uint8", "int8", "int16", "float16", "bfloat16"])
def test_randint_with_narrow_dtypes_follows_the_int64_stream(name):
    engine.manual_seed(0)
    t = engine.randint(0, 100, (50,), dtype=dt(name))
    engine.manual_seed(0)
    ref = engine.randint(0, 100, (50,))
    assert t.dtype is dt(name) and t.tolist() == ref.tolist()


# ---- dtype information ---------------------------------------------------------------------


def test_finfo_of_16_bit_floats():
    f = engine.finfo(engine.float16)
    assert (f.bits, f.eps, f.max, f.min, f.tiny, f.resolution) == (
        16,
        0.0009765625,
        65504.0,
        -65504.0,
        6.103515625e-05,
        0.001,
    )
    assert repr(f) == (
        "finfo(resolution=0.001, min=-65504, max=65504, eps=0.000976562, "
        "smallest_normal=6.10352e-05, tiny=6.10352e-05, dtype=float16)"
    )
    b = engine.finfo(engine.bfloat16)
    assert (b.bits, b.eps, b.max, b.tiny) == (
        16,
        0.0078125,
        3.3895313892515355e38,
        1.1754943508222875e-38,
    )


@pytest.mark.parametrize(
    "name,lo,hi,bits", [("uint8", 0, 255, 8), ("int8", -128, 127, 8), ("int16", -32768, 32767, 16)]
)
def test_iinfo_of_narrow_integers(name, lo, hi, bits):
    i = engine.iinfo(dt(name))
    assert (i.min, i.max, i.bits) == (lo, hi, bits)
    assert repr(i) == f"iinfo(min={lo:g}, max={hi:g}, dtype={name})"


def test_info_errors():
    with pytest.raises(TypeError, match="torch.bool is not supported by torch.iinfo"):
        engine.iinfo(engine.bool)
    with pytest.raises(TypeError, match="torch.iinfo\\(\\) requires an integer input type"):
        engine.iinfo(engine.float16)


# ---- legacy type names and constructors ----------------------------------------------------


def test_type_names_and_conversion():
    t = engine.ones(2, 3)
    assert t.type() == "torch.FloatTensor"
    assert engine.ones(2, dtype=engine.uint8).type() == "torch.ByteTensor"
    assert engine.ones(2, dtype=engine.bfloat16).type() == "torch.BFloat16Tensor"
    assert t.type(engine.float16).dtype is engine.float16
    assert t.type("torch.HalfTensor").dtype is engine.float16
    assert t.type(engine.IntTensor).dtype is engine.int32
    assert t.type(dtype=engine.int8).dtype is engine.int8
    assert t.type(engine.float32) is t and t.type("torch.FloatTensor") is t
    with pytest.raises(ValueError, match="invalid type: 'torch.Foo'"):
        t.type("torch.Foo")
    with pytest.raises(TypeError, match="dtype must be a type, str, or dtype object"):
        t.type(3)


def test_legacy_constructors():
    assert engine.FloatTensor((2, 3)).tolist() == [2.0, 3.0]
    assert engine.FloatTensor([1, 2]).dtype is engine.float32
    assert tuple(engine.FloatTensor(2, 3).shape) == (2, 3)
    assert tuple(engine.DoubleTensor(engine.Size([2, 3])).shape) == (2, 3)
    assert tuple(engine.HalfTensor().shape) == (0,)
    assert engine.ByteTensor([1, 2]).dtype is engine.uint8
    assert engine.CharTensor([-1]).tolist() == [-1]
    assert engine.ShortTensor(4).dtype is engine.int16
    assert engine.LongTensor([1]).dtype is engine.int64
    assert engine.BoolTensor([1, 0]).tolist() == [True, False]
    assert engine.BFloat16Tensor([1.5]).dtype is engine.bfloat16
    assert engine.IntTensor([3]).dtype is engine.int32
    with pytest.raises(RuntimeError, match="negative dimension -1"):
        engine.FloatTensor(-1)
    with pytest.raises(TypeError, match="must be tuple of ints,but got float"):
        engine.FloatTensor(2, 3.0)


def test_isinstance_with_legacy_types():
    assert isinstance(engine.ones(2), engine.FloatTensor)
    assert not isinstance(engine.ones(2, dtype=engine.float16), engine.FloatTensor)
    assert isinstance(engine.ones(2, dtype=engine.float16), engine.HalfTensor)
    assert isinstance(engine.ones(2, dtype=engine.int64), engine.LongTensor)
    assert not isinstance([1.0], engine.FloatTensor)
    assert repr(engine.HalfTensor) == "<class 'torch.HalfTensor'>"


# ---- creation ------------------------------------------------------------------------------


def test_factories_with_narrow_dtypes():
    assert engine.full((2,), 1.5, dtype=engine.float16).tolist() == [1.5, 1.5]
    assert engine.arange(3, dtype=engine.int8).tolist() == [0, 1, 2]
    assert engine.zeros(2, dtype=engine.bfloat16).tolist() == [0.0, 0.0]
    assert engine.ones(2, dtype=engine.uint8).dtype is engine.uint8
    assert engine.tensor([True]).to(engine.float16).tolist() == [1.0]


def _half_bits(v):
    return struct.unpack("H", struct.pack("e", v))[0]


def test_half_bit_patterns_of_specials():
    t = engine.tensor(
        [1.0, -2.0, 65504.0, 6.103515625e-05, 5.960464477539063e-08], dtype=engine.float16
    )
    got = t.numpy().view(np.uint16).tolist()
    assert got == [
        _half_bits(v) for v in [1.0, -2.0, 65504.0, 6.103515625e-05, 5.960464477539063e-08]
    ]


def test_tensor_class_as_legacy_constructor():
    assert engine.Tensor([1, 2]).dtype is engine.float32
    t = engine.Tensor(2, 3)
    assert tuple(t.shape) == (2, 3) and t.dtype is engine.float32 and isinstance(t, engine.Tensor)
    engine.set_default_dtype(engine.float64)
    try:
        assert engine.Tensor([1.5]).dtype is engine.float64
    finally:
        engine.set_default_dtype(engine.float32)
    with pytest.raises(TypeError, match="^cannot create"):
        engine.Tensor.__new__(engine.Tensor)


def test_shifts_on_narrow_integers_follow_pytorch():
    a = engine.tensor([1, -3, 64], dtype=engine.int8)
    assert (a << 2).tolist() == [4, -12, 0] and (a << 2).dtype is engine.int8
    assert (a >> 1).tolist() == [0, -2, 32]
    assert (a << 9).tolist() == [0, 0, 0] and (a >> 9).tolist() == [0, -1, 0]
    assert (a << -1).tolist() == [0, 0, 0] and (a >> -1).tolist() == [0, -1, 0]
    u = engine.tensor([1, 200], dtype=engine.uint8)
    assert (u << 1).tolist() == [2, 144] and (u >> 1).tolist() == [0, 100]
    assert (u >> 8).tolist() == [0, 0] and (2 << u).tolist() == [4, 0]
    assert (u << engine.tensor([1, 2])).dtype is engine.int64
    big = engine.tensor([1, -5])
    assert (big << 63).tolist() == [-(2**63), -(2**63)] and (big >> 64).tolist() == [0, -1]
    assert engine.bitwise_left_shift(big, 1).tolist() == [2, -10]
    assert engine.bitwise_right_shift(big, 1).tolist() == [0, -3]
    s = engine.tensor([16384], dtype=engine.int16)
    assert (s << 1).tolist() == [-32768] and s.bitwise_left_shift(2).tolist() == [0]
    t = engine.tensor([3], dtype=engine.int16)
    t <<= 2
    assert t.tolist() == [12]
    t >>= 1
    assert t.tolist() == [6]
    with pytest.raises(NotImplementedError, match="\"lshift_cpu\" not implemented for 'Float'"):
        engine.ones(2) << 1
    with pytest.raises(NotImplementedError, match="\"rshift_cpu\" not implemented for 'Half'"):
        engine.ones(2, dtype=engine.float16) >> 1
    with pytest.raises(NotImplementedError, match="\"lshift_cpu\" not implemented for 'Bool'"):
        engine.tensor([True]) << engine.tensor([True])
    assert (engine.tensor([True]) << 1).tolist() == [2]


def test_rand_half_matches_recorded_pytorch_values():
    # torch.manual_seed(0); torch.rand(3000, dtype=torch.half)[335:340] in PyTorch 2.13
    engine.manual_seed(0)
    got = engine.rand(3000, dtype=engine.float16)[335:340].tolist()
    assert got == [0.69580078125, 0.87744140625, 0.0, 0.93701171875, 0.88720703125]


@pytest.mark.parametrize("name", ["float16", "bfloat16"])
@pytest.mark.parametrize("n", [16, 17, 40, 1000])
def test_randn_16_bit_draws_whole_blocks_like_pytorch(name, n):
    # PyTorch fills 16-bit normals block by block: the float32 fill of 16 * ceil(n / 16)
    # values, the last 16 elements taken from its last block, rounded once.
    engine.manual_seed(0)
    got = engine.randn(n, dtype=dt(name))
    m = (n + 15) // 16 * 16
    engine.manual_seed(0)
    f = engine.randn(m).tolist()
    ref = f[:n]
    ref[n - 16 :] = f[m - 16 :]
    assert got.tolist() == engine.tensor(ref).to(dt(name)).tolist()


def test_randn_half_matches_recorded_pytorch_values():
    # torch.manual_seed(0); torch.randn(17, dtype=torch.half)[13:] in PyTorch 2.13
    engine.manual_seed(0)
    got = engine.randn(17, dtype=engine.float16)[13:].tolist()
    assert got == [1.3896484375, 1.5859375, 0.9462890625, -0.84375]


def test_gradient_through_a_dtype_conversion():
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    (x.half() * 3).sum().backward()
    assert x.grad.dtype is engine.float32 and x.grad.tolist() == [3.0, 3.0]


def test_half_statistics_are_computed_in_float32():
    m = engine.tensor([0.5, -1.25, 3.0, 2.5, -0.75, 100.0], dtype=engine.float16).reshape(2, 3)
    # PyTorch 2.13: var in float32, one rounding (3278, where half arithmetic would give 3280)
    assert m.var(1).tolist() == [4.5625, 3278.0] and m.var(1).dtype is engine.float16
    assert m.std(1).dtype is engine.float16 and m.norm().dtype is engine.float16
    x = m.detach().requires_grad_()
    x.var().backward()
    assert x.grad.dtype is engine.float16


def test_uint8_any_all_give_uint8_and_bfloat16_sorts():
    u = engine.tensor([0, 3], dtype=engine.uint8)
    assert u.any().dtype is engine.uint8 and u.any().item() == 1 and u.all().item() == 0
    assert engine.tensor([1, 2]).any().dtype is engine.bool
    b = engine.tensor([3.0, -1.0, 2.0], dtype=engine.bfloat16)
    values, indices = engine.sort(b)
    assert values.tolist() == [-1.0, 2.0, 3.0] and values.dtype is engine.bfloat16
    assert indices.tolist() == [1, 2, 0]
    assert engine.topk(b, 1).values.tolist() == [3.0]


def test_half_arithmetic_keeps_scalars_at_float32_precision():
    # PyTorch 2.13: a Python number (or any 0-d operand) takes part in float32, one rounding.
    h = engine.tensor([1000.0, 3.0], dtype=engine.float16)
    assert (h * 1e-8).tolist() == [1.0013580322265625e-05, 5.960464477539063e-08]
    assert (h * 0.1).tolist() == [100.0, 0.300048828125]
    assert (0.1 * h).tolist() == [100.0, 0.300048828125]
    assert (h * engine.tensor(1e-8, dtype=engine.float64)).tolist() == [
        1.0013580322265625e-05,
        5.960464477539063e-08,
    ]
    assert engine.add(h, h, alpha=0.1).tolist() == [1100.0, 3.30078125]
    assert (h - 0.1).tolist() == [1000.0, 2.900390625]
    # a 0-d first operand is rounded first; so is alpha * b (PyTorch 2.13's values)
    assert engine.mul(engine.tensor(0.1), h).tolist() == [100.0, 0.2998046875]
    q = engine.tensor([1000.0, 3.0, -0.7, 0.01], dtype=engine.float16)
    assert engine.sub(q, q, alpha=0.3).tolist() == [
        700.0,
        2.099609375,
        -0.490234375,
        0.0070037841796875,
    ]
    assert engine.add(q, q, alpha=0.3).tolist() == [
        1300.0,
        3.900390625,
        -0.91015625,
        0.01300048828125,
    ]
    # `number / t` is t.reciprocal() * number, as in PyTorch
    assert (0.3 / q).tolist() == [0.0003001689910888672, 0.0999755859375, -0.42822265625, 30.0]
    qb = q.to(engine.bfloat16)
    assert (0.3 - qb).tolist() == [-1000.0, -2.703125, 1.0, 0.291015625]
    assert (h + 0.1).tolist() == [1000.0, 3.099609375]
    g = h.clone()
    g *= 1e-8
    assert g.tolist() == [1.0013580322265625e-05, 5.960464477539063e-08]
    # comparisons round the scalar to the tensor's dtype first, as PyTorch's do
    assert (h > 2.9999).tolist() == [True, False] and (h == 3.0001).tolist() == [False, True]
    b = engine.tensor([1000.0, 3.0], dtype=engine.bfloat16)
    assert (b * 0.1).tolist() == [100.0, 0.30078125]


def test_half_prod_linspace_and_narrow_full_follow_pytorch():
    h = engine.tensor([1000.0, 3.0, -0.7, 0.01], dtype=engine.float16)
    assert h.prod().item() == -21.0  # rounded at every step, as PyTorch's
    assert engine.linspace(0, 1, 7, dtype=engine.float16).tolist() == [
        0.0,
        0.1666259765625,
        0.333251953125,
        0.5,
        0.6669921875,
        0.83349609375,
        1.0,
    ]
    assert engine.linspace(0, 1, 7, dtype=engine.bfloat16).tolist()[4] == 0.6640625
    assert engine.full((1,), -1, dtype=engine.uint8).tolist() == [255]
    assert engine.full((1,), 1.5, dtype=engine.uint8).tolist() == [1]
    for value, dtype, name in [
        (256, engine.uint8, "uint8_t"),
        (-256, engine.uint8, "uint8_t"),
        (-0.5, engine.uint8, "uint8_t"),
        (128, engine.int8, "int8_t"),
        (127.9, engine.int8, "int8_t"),
        (40000, engine.int16, "int16_t"),
    ]:
        with pytest.raises(RuntimeError, match=f"value cannot be converted to type {name} without"):
            engine.full((1,), value, dtype=dtype)


def test_reverse_division_records_a_multiplication():
    x = engine.tensor([2.0, 4.0], requires_grad=True)
    y = 3 / x
    assert y.grad_fn.name() == "MulBackward0" and y.tolist() == [1.5, 0.75]
    y.sum().backward()
    assert x.grad.tolist() == [-0.75, -0.1875]
    assert (1 / engine.tensor([1, 4])).tolist() == [1.0, 0.25]


@pytest.mark.parametrize(
    "low,high,dtype,message",
    [
        (0, 300, "uint8", "to - 1 is out of bounds for unsigned char"),
        (-5, 10, "uint8", "from is out of bounds for unsigned char"),
        (0, 256, "int8", "to - 1 is out of bounds for signed char"),
        (-40000, 0, "int16", "from is out of bounds for short int"),
        (0, 2**32, "int32", "to - 1 is out of bounds for int"),
        (0, 70000, "float16", r"to - 1 is out of bounds for c10::Half"),
    ],
)
def test_randint_range_must_fit_the_dtype(low, high, dtype, message):
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        engine.randint(low, high, (4,), dtype=dt(dtype))


def test_randint_full_uint8_range():
    engine.manual_seed(0)
    assert engine.randint(0, 256, (4,), dtype=engine.uint8).tolist() == [172, 47, 117, 192]
    engine.manual_seed(0)
    assert engine.randint(-5, 10, (4,), dtype=engine.int8).tolist() == [9, 4, 3, -5]
