"""Error types and messages for bad arguments, as PyTorch 2.13 raises them (messages recorded from
it): functions whose overloads take tensors only refuse Python numbers, integer division by zero is
PyTorch's RuntimeError("ZeroDivisionError") after the shape check, and dtype mismatches name every
dtype in PyTorch's words. The live test compares type and first line with torch itself."""

import engine
import pytest

_OVERLOADS = (
    "() received an invalid combination of arguments - got ({}, Tensor), but expected one of:\n"
    " * (Tensor input, Tensor other, *, Tensor out = None)\n"
    " * (Tensor input, Number other, *, Tensor out = None)\n"
)


def _x(lib):
    return lib.tensor([1.0, 2.0])


def _i(lib):
    return lib.tensor([1, 2])


CASES = {
    "maximum_number_other": lambda L: L.maximum(_x(L), 3),
    "maximum_number_input": lambda L: L.maximum(3, _x(L)),
    "minimum_method": lambda L: _x(L).minimum(2.5),
    "atan2_number": lambda L: L.atan2(_x(L), 2),
    "logical_and_number": lambda L: L.logical_and(_x(L), True),
    "eq_number_input": lambda L: L.eq(3, _x(L)),
    "gt_number_input": lambda L: L.gt(2.5, _x(L)),
    "fmod_number_input": lambda L: L.fmod(2.5, _x(L)),
    "copysign_number_input": lambda L: L.copysign(3, _x(L)),
    "int_floor_divide_zero": lambda L: _i(L) // 0,
    "int_remainder_zero": lambda L: _i(L) % 0,
    "int_fmod_zero_tensor": lambda L: L.fmod(_i(L), L.tensor([0, 1])),
    "shape_before_zero": lambda L: L.remainder(
        L.ones(4, 3, dtype=L.int64), L.zeros(3, 4, dtype=L.int64)
    ),
    "isclose_dtypes": lambda L: L.isclose(_x(L), _x(L).half()),
    "isclose_byte": lambda L: L.isclose(_i(L), _i(L).byte()),
    "nanmean_uint8": lambda L: L.nanmean(_i(L).byte()),
    "std_mean_int": lambda L: L.std_mean(_i(L)),
    "abs_out_float64": lambda L: L.abs(_x(L), out=L.empty(2, dtype=L.float64)),
    "floor_out_int32": lambda L: L.floor(_i(L), out=L.empty(2, dtype=L.int32)),
    "round_out_half": lambda L: L.round(_x(L), out=L.empty(2, dtype=L.float16)),
    "neg_out_float": lambda L: L.neg(_i(L), out=L.empty(2)),
    "frac_out_float64": lambda L: L.frac(_x(L), out=L.empty(2, dtype=L.float64)),
    "bitwise_not_out": lambda L: L.bitwise_not(_i(L) > 1, out=L.empty(2, dtype=L.int64)),
    "relu_out": lambda L: L.relu(_x(L), out=L.empty(2)),
    "atan2_inplace_number": lambda L: _x(L).atan2_(2),
    "kron_number": lambda L: L.kron(_x(L), 3),
    "mm_bool": lambda L: L.mm(L.ones(2, 2).bool(), L.ones(2, 2).bool()),
    "bmm_bool": lambda L: L.bmm(L.ones(1, 2, 2).bool(), L.ones(1, 2, 2).bool()),
    "scatter_add_dtypes": lambda L: L.scatter_add(
        L.zeros(2, 3), 1, L.tensor([[0, 1, 2]]), _i(L)[None].repeat(1, 2)[:, :3]
    ),
    "index_add_dtypes": lambda L: L.index_add(
        L.zeros(2, 3), 0, L.tensor([0]), L.ones(1, 3, dtype=L.int64)
    ),
    "index_copy_dtypes": lambda L: L.index_copy(
        L.zeros(2, 3), 0, L.tensor([0]), L.ones(1, 3, dtype=L.int64)
    ),
    "trace_bool": lambda L: L.trace(L.ones(2, 2).bool()),
    "bessel_j0_half": lambda L: L.special.bessel_j0(_x(L).half()),
    "zeta_bfloat16": lambda L: L.special.zeta(_x(L).bfloat16(), 2.0),
    "shifted_chebyshev_half": lambda L: L.special.shifted_chebyshev_polynomial_t(_x(L).half(), 2),
    "erfcx_bfloat16": lambda L: L.special.erfcx(_x(L).bfloat16()),
    "ndtri_half": lambda L: L.special.ndtri(_x(L).half()),
    "hardtanh_bool": lambda L: L.nn.functional.hardtanh(_i(L) > 1),
    "hardtanh_uint8_negative": lambda L: L.nn.functional.hardtanh(_i(L).byte()),
}

RECORDED = {
    "maximum_number_other": (
        TypeError,
        "maximum(): argument 'other' (position 2) must be Tensor, not int",
    ),
    "maximum_number_input": (
        TypeError,
        "maximum(): argument 'input' (position 1) must be Tensor, not int",
    ),
    "minimum_method": (
        TypeError,
        "minimum(): argument 'other' (position 1) must be Tensor, not float",
    ),
    "atan2_number": (TypeError, "atan2(): argument 'other' (position 2) must be Tensor, not int"),
    "logical_and_number": (
        TypeError,
        "logical_and(): argument 'other' (position 2) must be Tensor, not bool",
    ),
    "eq_number_input": (TypeError, "eq" + _OVERLOADS.format("int")),
    "gt_number_input": (TypeError, "gt" + _OVERLOADS.format("float")),
    "fmod_number_input": (TypeError, "fmod" + _OVERLOADS.format("float")),
    "copysign_number_input": (TypeError, "copysign" + _OVERLOADS.format("int")),
    # PyTorch's message is the bare "ZeroDivisionError"; engine's starts with it and says what it means.
    "int_floor_divide_zero": (
        RuntimeError,
        "ZeroDivisionError: integer division or modulo by zero",
    ),
    "int_remainder_zero": (RuntimeError, "ZeroDivisionError: integer division or modulo by zero"),
    "int_fmod_zero_tensor": (RuntimeError, "ZeroDivisionError: integer division or modulo by zero"),
    "shape_before_zero": (
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
    ),
    "isclose_dtypes": (RuntimeError, "Float did not match Half"),
    "isclose_byte": (RuntimeError, "Long did not match Byte"),
    "nanmean_uint8": (
        RuntimeError,
        "nanmean(): expected input to have floating point or complex dtype but got Byte",
    ),
    "std_mean_int": (RuntimeError, "std_mean only support floating point and complex dtypes"),
    "abs_out_float64": (RuntimeError, "Found dtype Double but expected Float"),
    "floor_out_int32": (RuntimeError, "Found dtype Int but expected Long"),
    "round_out_half": (RuntimeError, "Found dtype Half but expected Float"),
    "neg_out_float": (RuntimeError, "Found dtype Float but expected Long"),
    "frac_out_float64": (RuntimeError, "Found dtype Double but expected Float"),
    "bitwise_not_out": (RuntimeError, "Found dtype Long but expected Bool"),
    "relu_out": (TypeError, "relu() got an unexpected keyword argument 'out'"),
    "atan2_inplace_number": (
        TypeError,
        "atan2_(): argument 'other' (position 1) must be Tensor, not int",
    ),
    "kron_number": (TypeError, "kron(): argument 'other' (position 2) must be Tensor, not int"),
    "mm_bool": (NotImplementedError, "\"addmm_impl_cpu_\" not implemented for 'Bool'"),
    "bmm_bool": (NotImplementedError, "\"bmm\" not implemented for 'Bool'"),
    "scatter_add_dtypes": (RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype"),
    "index_add_dtypes": (
        RuntimeError,
        "index_add_(): self (Float) and source (Long) must have the same scalar type",
    ),
    "index_copy_dtypes": (
        RuntimeError,
        "index_copy_(): self and source expected to have the same dtype, but got (self) Float and (source) Long",
    ),
    "trace_bool": (NotImplementedError, "\"trace\" not implemented for 'Bool'"),
    "bessel_j0_half": (NotImplementedError, "\"bessel_j0_cpu\" not implemented for 'Half'"),
    "zeta_bfloat16": (NotImplementedError, "\"zeta_cpu\" not implemented for 'BFloat16'"),
    "shifted_chebyshev_half": (
        NotImplementedError,
        "\"shifted_chebyshev_polynomial_t_cpu\" not implemented for 'Half'",
    ),
    "erfcx_bfloat16": (NotImplementedError, "\"erfcx_cpu\" not implemented for 'BFloat16'"),
    "ndtri_half": (NotImplementedError, "\"ndtri_cpu\" not implemented for 'Half'"),
    "hardtanh_bool": (RuntimeError, "Bool inputs not supported for hardtanh"),
    "hardtanh_uint8_negative": (
        RuntimeError,
        "cannot do hardtanh on an unsigned type with negative limits",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_matches_recorded(name):
    kind, message = RECORDED[name]
    with pytest.raises(kind) as info:
        CASES[name](engine)
    assert str(info.value) == message


def test_integer_division_by_zero_is_also_a_zero_division_error():
    with pytest.raises(ZeroDivisionError):
        engine.tensor([1, 2]) // 0


def test_numbers_stay_accepted_where_pytorch_takes_them():
    x = engine.tensor([1.0, 2.0])
    assert engine.eq(x, 2).tolist() == [False, True]
    assert engine.fmod(x, 2.5).tolist() == [1.0, 2.0]
    assert engine.copysign(x, -1).tolist() == [-1.0, -2.0]
    assert engine.remainder(5, engine.tensor([2, 3])).tolist() == [1, 2]
    assert engine.xlogy(2, engine.tensor([1.0])).tolist() == [0.0]
    assert engine.add(1, x).tolist() == [2.0, 3.0]


def test_out_of_a_promoting_op_may_have_another_dtype():
    out = engine.empty(2, dtype=engine.float64)
    assert engine.exp(engine.tensor([0.0, 1.0]), out=out) is out and out.dtype == engine.float64


def test_where_with_the_condition_alone_is_nonzero_as_tuple():
    c = engine.tensor([[True, False], [False, True]])
    rows, cols = engine.where(c)
    assert rows.tolist() == [0, 1] and cols.tolist() == [0, 1]
    with pytest.raises(TypeError, match=r"^where\(\) received an invalid combination"):
        engine.where(c, engine.ones(2))


def test_flipud_reverses_rows_and_needs_a_dim():
    assert engine.flipud(engine.tensor([[0, 1], [2, 3]])).tolist() == [[2, 3], [0, 1]]
    assert engine.tensor([1, 2]).flipud().tolist() == [2, 1]
    with pytest.raises(RuntimeError, match=r"^Input must be >= 1-d\.$"):
        engine.flipud(engine.tensor(1.0))


def test_special_functions_pytorch_has_in_half_precision_keep_it():
    x = engine.tensor([0.5]).half()
    assert engine.special.ndtr(x).dtype == engine.float16
    assert engine.special.i0e(x.bfloat16()).dtype == engine.bfloat16


def test_hardtanh_keeps_integer_dtypes():
    f = engine.nn.functional
    x = engine.tensor([[-2, 0, 3], [7, 1, -9]])
    assert (
        f.hardtanh(x).tolist() == [[-1, 0, 1], [1, 1, -1]] and f.hardtanh(x).dtype == engine.int64
    )
    assert f.relu6(x.byte()).dtype == engine.uint8


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_matches_torch(name):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        CASES[name](torch)
    with pytest.raises(Exception) as ours:
        CASES[name](engine)
    assert isinstance(ours.value, type(theirs.value))
    # PyTorch's first line, which engine's may complete ("ZeroDivisionError: integer division ...").
    assert str(ours.value).split("\n")[0].startswith(str(theirs.value).split("\n")[0])
