"""Forward values of every op in tests/op_table.py against NumPy float64, on every layout the
table allows; PyTorch's type promotion (tests/fixtures/promotion.json); error types and messages
as PyTorch 2.13 gives them; integer wrap-around; kernel edge sizes.

Each value check looks at the shape first, then the dtype, then the values.
"""

from __future__ import annotations

import json
import pathlib

import engine
import numpy as np
import pytest
from op_table import OPS, cases, make_input, sample, sample_int

ROOT = pathlib.Path(__file__).resolve().parent
PROMOTION = json.loads((ROOT / "fixtures" / "promotion.json").read_text())
DTYPES = {
    name: getattr(engine, name)
    for name in (
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
    )
}


def check(out, ref, dtype, rtol=1e-12, atol=1e-12):
    """Shape, then dtype, then values of engine tensor `out` against NumPy `ref`."""
    ref = np.asarray(ref)
    assert tuple(out.shape) == ref.shape, f"shape {tuple(out.shape)} != {ref.shape}"
    assert out.dtype == DTYPES[dtype], f"dtype {out.dtype} != {dtype}"
    got = np.asarray(out.tolist(), dtype=np.float64).reshape(ref.shape)
    if dtype in ("bool", "int32", "int64"):
        np.testing.assert_array_equal(got, ref.astype(np.float64))
    else:
        np.testing.assert_allclose(got, ref, rtol=rtol, atol=atol, equal_nan=True)


def _forward_params():
    rng = np.random.default_rng(1234)
    for op in OPS:
        for ident, values, layout in cases(op, rng):
            yield pytest.param(op, values, layout, id=f"{op.name}-{ident}")


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op,values,layout", list(_forward_params()))
def test_forward_matches_numpy(op, values, layout, dtype):
    if dtype == "float32":
        # The reference sees exactly the values the engine holds.
        values = [v.astype(np.float32).astype(np.float64) for v in values]
    xs = [make_input(engine, v, layout, DTYPES[dtype]) for v in values]
    out = op.fn(engine, *xs)
    ref = op.ref(*values)
    out_dtype = op.out_dtype or dtype
    tol = 1e-12 if out_dtype == "float64" and dtype == "float64" else op.f32_rtol
    check(out, ref, out_dtype, rtol=tol, atol=tol)


def _int_params():
    rng = np.random.default_rng(99)
    for op in OPS:
        if op.int_result is None:
            continue
        for shapes in op.shapes[:4]:
            values = [sample_int(rng, s, d) for s, d in zip(shapes, op.domains)]
            ident = "-".join("x".join(map(str, s)) or "0d" for s in shapes)
            yield pytest.param(op, values, id=f"{op.name}-{ident}")


@pytest.mark.parametrize("op,values", list(_int_params()))
def test_forward_on_int32_inputs(op, values):
    xs = [make_input(engine, v, "contiguous", engine.int32) for v in values]
    out = op.fn(engine, *xs)
    expected = "int32" if op.int_result == "same" else op.int_result
    ref = op.ref(*[v.astype(np.float64) for v in values])
    check(out, ref, expected, rtol=1e-6, atol=1e-6)


def test_forward_results_are_fresh_and_contiguous_for_computations():
    a = make_input(engine, np.arange(12.0).reshape(3, 4), "permuted", engine.float32)
    for out in (a.sum(0), a @ a.t(), a.contiguous()):
        assert out.is_contiguous()
    assert a.contiguous().data_ptr() != a.data_ptr()
    b = engine.ones(2, 3)
    assert b.contiguous() is b


def test_elementwise_results_take_their_input_layout():
    # PyTorch's TensorIterator: a fresh elementwise result is laid out like its (dense) input.
    a = make_input(engine, np.arange(12.0).reshape(3, 4), "permuted", engine.float32)
    for out in (a + 1, a.exp(), engine.maximum(a, a), a.clone(), a.double()):
        assert not out.is_contiguous() and out.stride() == a.stride()
        assert out.data_ptr() != a.data_ptr()


# ---- views share memory --------------------------------------------------------------------


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: x.view(6),
        lambda x: x.reshape(3, 2),
        lambda x: x.t(),
        lambda x: x.transpose(0, 1),
        lambda x: x.permute(1, 0),
        lambda x: x.unsqueeze(1),
        lambda x: x.unsqueeze(0).squeeze(0),
        lambda x: x.expand(4, 2, 3),
        lambda x: x.detach(),
        lambda x: x.to(engine.float32),
    ],
    ids=[
        "view",
        "reshape",
        "t",
        "transpose",
        "permute",
        "unsqueeze",
        "squeeze",
        "expand",
        "detach",
        "to_same",
    ],
)
def test_view_ops_share_storage_and_version(fn):
    x = engine.zeros(2, 3)
    v = fn(x)
    x.add_(1.0)
    assert np.all(np.asarray(v.tolist()) == 1.0)
    assert v._version == x._version


def test_reshape_copies_when_no_view_is_possible():
    x = engine.tensor([[1.0, 2.0], [3.0, 4.0]]).t()
    y = x.reshape(4)
    assert y.tolist() == [1.0, 3.0, 2.0, 4.0]
    x.mul_(0.0)
    assert y.tolist() == [1.0, 3.0, 2.0, 4.0]


# ---- kernel edge sizes ---------------------------------------------------------------------

SIZES = [0, 1, 7, 8, 9, 33, 1001]
KERNEL_OPS = [
    "exp",
    "log",
    "sqrt",
    "sin",
    "tanh",
    "sigmoid",
    "relu",
    "abs",
    "neg",
    "add",
    "sub",
    "mul",
    "div",
    "pow",
    "maximum",
    "minimum",
    "lt",
    "where",
    "sum",
    "mean",
    "sum_dim0",
    "pow_square",
    "rpow_scalar",
]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", KERNEL_OPS)
def test_kernel_sizes(name, dtype, n):
    op = next(o for o in OPS if o.name == name)
    rng = np.random.default_rng(n)
    # Contiguous (n,), strided (n, 3) stored transposed, and for binary ops a broadcast scalar side.
    layouts = [([(n,)] * op.arity, "contiguous"), ([(n, 3)] * op.arity, "permuted")]
    if op.arity == 2:
        layouts += [
            ([(n,), (1,)], "contiguous"),
            ([(1,), (n,)], "contiguous"),
            ([(n, 1), (1, 3)], "contiguous"),
        ]
    if name in ("mean",) and n == 0:
        layouts = layouts[
            1:2
        ]  # the mean of no elements is NaN; checked in test_mean_of_nothing_is_nan
    for shapes, layout in layouts:
        values = [
            sample(rng, s, d).astype(np.float32).astype(np.float64)
            for s, d in zip(shapes, op.domains)
        ]
        xs = [make_input(engine, v, layout, DTYPES[dtype]) for v in values]
        tol = 1e-12 if dtype == "float64" else 2e-6
        check(op.fn(engine, *xs), op.ref(*values), op.out_dtype or dtype, rtol=tol, atol=tol)


def test_mean_of_nothing_is_nan():
    out = engine.ones(0).mean()
    assert out.shape == () and out.dtype == engine.float32 and out.item() != out.item()
    out = engine.ones(0, 3).mean(0)
    assert out.shape == (3,) and all(v != v for v in out.tolist())


def test_large_sum_is_accurate():
    # 10^6 ones in float32: a naive running sum would stall at 2^24, pairwise does not.
    n = 1_000_001
    assert engine.ones(n).sum().item() == n
    x = engine.arange(n, dtype=engine.float64)
    assert x.sum().item() == n * (n - 1) / 2


# ---- type promotion ------------------------------------------------------------------------

PROMOTION_OPS = {
    "add": lambda a, b: engine.add(a, b),
    "sub": lambda a, b: engine.sub(a, b),
    "mul": lambda a, b: engine.mul(a, b),
    "div": lambda a, b: engine.div(a, b),
    "pow": lambda a, b: engine.pow(a, b),
    "maximum": lambda a, b: engine.maximum(a, b),
    "where": lambda a, b: engine.where(engine.tensor([True, False]), a, b),
    "result_type": lambda a, b: engine.result_type(a, b),
}
SCALARS = {"bool": True, "int": 2, "float": 2.5}


def _operand(spec):
    if spec in SCALARS:
        return SCALARS[spec]
    kind, dtype = spec.split(":")
    if kind == "t":
        return engine.tensor([1, 2], dtype=DTYPES[dtype])
    return engine.tensor(3, dtype=DTYPES[dtype])


@pytest.fixture
def default_dtype():
    yield engine.set_default_dtype
    engine.set_default_dtype(engine.float32)


def test_promotion_matches_pytorch(default_dtype):
    failures = []
    for op, a, b, default, expected in PROMOTION["cases"]:
        default_dtype(DTYPES[default])
        try:
            out = PROMOTION_OPS[op](_operand(a), _operand(b))
            got = str(out if op == "result_type" else out.dtype).removeprefix("torch.")
        except Exception as e:  # noqa: BLE001  (the exception type is what the fixture records)
            got = f"error:{type(e).__name__}"
        if got != expected:
            failures.append(f"{op}({a}, {b}) default {default}: {got}, expected {expected}")
    assert not failures, "\n".join(failures[:20])


@pytest.mark.parametrize(
    "fn,dtype",
    [
        (lambda: engine.tensor([1, 2]) + 1.5, "float32"),
        (lambda: engine.tensor([1, 2]) / engine.tensor([2, 4]), "float32"),
        (lambda: engine.tensor([True, False]) + engine.tensor([1, 2]), "int64"),
        (lambda: engine.tensor([True, False]) + 1, "int64"),
        (lambda: engine.tensor(1.0, dtype=engine.float64) + engine.ones(2), "float32"),
        (lambda: engine.tensor([1, 2]) + engine.tensor(1.0, dtype=engine.float64), "float64"),
        (lambda: engine.tensor([1, 2], dtype=engine.int32) + engine.tensor(1), "int32"),
        (lambda: engine.tensor([1, 2], dtype=engine.int32) * 2.5, "float32"),
        (lambda: engine.tensor([1, 2], dtype=engine.int32) + engine.tensor([1]), "int64"),
        (lambda: engine.ones(2) + engine.ones(2, dtype=engine.float64), "float64"),
        (lambda: engine.tensor([1, 2]) ** 2, "int64"),
        (lambda: 2 ** engine.tensor([1, 2]), "int64"),
        (lambda: 2.0 ** engine.tensor([1, 2]), "float32"),
        (lambda: engine.tensor([1, 2]).sum(), "int64"),
        (lambda: engine.tensor([True, True]).sum(), "int64"),
        (lambda: engine.tensor([1, 2]).exp(), "float32"),
        (lambda: engine.tensor([1, 2]) == 1.0, "bool"),
    ],
)
def test_promotion_examples(fn, dtype):
    assert fn().dtype == DTYPES[dtype]


def test_promotion_follows_the_default_dtype(default_dtype):
    default_dtype(engine.float64)
    assert (engine.tensor([1, 2]) + 1.5).dtype == engine.float64
    assert (engine.tensor([1, 2]) / engine.tensor([2, 4])).dtype == engine.float64
    assert (engine.ones(2, dtype=engine.float32) * 2.5).dtype == engine.float32


def test_values_under_promotion():
    check(engine.tensor([1, 2]) + 0.5, [1.5, 2.5], "float32")
    check(engine.tensor([1, 3]) / engine.tensor([2, 4]), [0.5, 0.75], "float32")
    check(engine.tensor([1, 0, -1]) / 0, [np.inf, np.nan, -np.inf], "float32")
    check(engine.tensor([True, False]) * 2.5, [2.5, 0.0], "float32")
    check(engine.tensor([True, False]) + engine.tensor([True, True]), [True, True], "bool")
    check(engine.tensor([2, 3]) ** 2, [4, 9], "int64")
    check(engine.tensor([2, 1, -1]) ** engine.tensor([-1, -2, -3]), [0, 1, -1], "int64")
    check(engine.tensor([1.7, -1.7, 2.5]).to(engine.int64), [1, -1, 2], "int64")
    check(engine.tensor([1, 2]).add(1, alpha=2), [3, 4], "int64")
    check(engine.tensor([1.5, 2.0]).sum(dtype=engine.int64), 3, "int64")
    check(engine.tensor([1, 2]).mean(dtype=engine.float64), 1.5, "float64")


# ---- integer overflow wraps, as in PyTorch ----------------------------------------------------

I64_MAX, I64_MIN = 2**63 - 1, -(2**63)
I32_MAX, I32_MIN = 2**31 - 1, -(2**31)


def test_integer_overflow_wraps():
    check(engine.tensor([I64_MAX]) + 1, [I64_MIN], "int64")
    check(engine.tensor([I64_MIN]) - 1, [I64_MAX], "int64")
    check(engine.tensor([I64_MAX]) * 2, [-2], "int64")
    check(-engine.tensor([I64_MIN]), [I64_MIN], "int64")
    check(engine.tensor([I32_MAX], dtype=engine.int32) + 1, [I32_MIN], "int32")
    check(
        engine.tensor([I32_MAX], dtype=engine.int32) * engine.tensor([3], dtype=engine.int32),
        [I32_MAX - 2],
        "int32",
    )
    check(engine.tensor([3], dtype=engine.int64) ** 41, [3**41 % 2**64 - 2**64], "int64")
    # Summing int32 accumulates in int64, so this does not wrap.
    check(engine.tensor([I32_MAX, 1], dtype=engine.int32).sum(), I32_MAX + 1, "int64")
    check(engine.tensor([I64_MAX, 1]).sum(), I64_MIN, "int64")
    check(engine.tensor([2**40]).to(engine.int32), [0], "int32")


def test_float_to_int_out_of_range_gives_the_minimum():
    # A C++ cast leaves NaN and out-of-range values undefined; PyTorch on x86 gives the minimum.
    assert engine.tensor([float("nan"), 1e30, -1e30, 3.7, -3.7]).long().tolist() == [
        I64_MIN,
        I64_MIN,
        I64_MIN,
        3,
        -3,
    ]
    assert engine.tensor([1e10, -2.5]).int().tolist() == [I32_MIN, -2]


def test_integer_values_stay_exact():
    big = 2**53 + 1  # not representable in float64
    check(engine.tensor([big]) + 0, [big], "int64")
    assert (engine.tensor([big]) * 1).tolist() == [big]
    assert (engine.tensor([big]) + engine.tensor(1)).tolist() == [big + 1]


# ---- errors: type and message as PyTorch 2.13 gives them ------------------------------------

ERRORS = [
    (
        lambda: engine.ones(3) + engine.ones(2),
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0",
    ),
    (
        lambda: engine.ones(2, 3) * engine.ones(4, 3),
        RuntimeError,
        "The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0",
    ),
    (
        lambda: engine.ones(2, 3) - engine.ones(2),
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1",
    ),
    (
        lambda: engine.where(engine.ones(3) > 0, engine.ones(3), engine.ones(2)),
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0",
    ),
    (
        lambda: engine.mm(engine.ones(2, 3), engine.ones(2, 3)),
        RuntimeError,
        "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)",
    ),
    (
        lambda: engine.ones(2, 3) @ engine.ones(2, 3),
        RuntimeError,
        "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)",
    ),
    (
        lambda: engine.ones(4) @ engine.ones(3),
        RuntimeError,
        "inconsistent tensor size, expected tensor [4] and src [3] to have the same number of "
        "elements, but got 4 "
        "and 3 elements respectively",
    ),
    (
        lambda: engine.ones(5) @ engine.ones(4, 3),
        RuntimeError,
        "mat1 and mat2 shapes cannot be multiplied (1x5 and 4x3)",
    ),
    (
        lambda: engine.ones(4, 3) @ engine.ones(2),
        RuntimeError,
        "size mismatch, got input (4), mat (4x3), vec (2)",
    ),
    (
        lambda: engine.matmul(engine.tensor(1.0), engine.ones(2)),
        RuntimeError,
        "both arguments to matmul need to be at least 1D, but they are 0D and 1D",
    ),
    (lambda: engine.mm(engine.ones(3), engine.ones(3, 2)), RuntimeError, "self must be a matrix"),
    (lambda: engine.mm(engine.ones(2, 3), engine.ones(3)), RuntimeError, "mat2 must be a matrix"),
    (
        lambda: engine.mm(engine.ones(2, 3), engine.ones(3, 2, dtype=engine.float64)),
        RuntimeError,
        "expected m1 and m2 to have the same dtype, but got: float != double",
    ),
    (
        lambda: engine.ones(2, 3).sum(2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    (
        lambda: engine.ones(2, 3).sum(-3),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got -3)",
    ),
    (
        lambda: engine.ones(2, 3).mean((0, 2)),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    (
        lambda: engine.tensor(1.0).sum(1),
        IndexError,
        "Dimension out of range (expected to be in range of [-1, 0], but got 1)",
    ),
    (
        lambda: engine.ones(2, 3).sum((1, -1)),
        RuntimeError,
        "dim 1 appears multiple times in the list of dims",
    ),
    (
        lambda: engine.ones(2, 3).transpose(0, 2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    (
        lambda: engine.ones(2, 3).unsqueeze(3),
        IndexError,
        "Dimension out of range (expected to be in range of [-3, 2], but got 3)",
    ),
    (
        lambda: engine.ones(2, 3).squeeze(2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    (
        lambda: engine.ones(2, 3).permute(0, 2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    (
        lambda: engine.ones(2, 3).permute(0, 0),
        RuntimeError,
        "permute(): duplicate dims are not allowed.",
    ),
    (
        lambda: engine.ones(2, 3).permute(0),
        RuntimeError,
        "permute(sparse_coo): number of dimensions in the tensor input does not match the length "
        "of the desired "
        "ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 1",
    ),
    (
        lambda: engine.ones(2, 3).t().view(6),
        RuntimeError,
        "view size is not compatible with input tensor's size and stride (at least one dimension "
        "spans across two "
        "contiguous subspaces). Use .reshape(...) instead.",
    ),
    (lambda: engine.ones(2, 3).view(4), RuntimeError, "shape '[4]' is invalid for input of size 6"),
    (
        lambda: engine.ones(2, 3).reshape(4, -1),
        RuntimeError,
        "shape '[4, -1]' is invalid for input of size 6",
    ),
    (lambda: engine.ones(2, 3).reshape(-1, -1), RuntimeError, "only one dimension can be inferred"),
    (
        lambda: engine.ones(2, 3).reshape(-2, 3),
        RuntimeError,
        "invalid shape dimension -2 at index 0 of shape [-2, 3]",
    ),
    (
        lambda: engine.ones(2, 0).reshape(0, -1),
        RuntimeError,
        "cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified dimension "
        "size -1 can be any "
        "value and is ambiguous",
    ),
    (
        lambda: engine.ones(2, 3).expand(2, 4),
        RuntimeError,
        "The expanded size of the tensor (4) must match the existing size (3) at non-singleton "
        "dimension 1.  Target "
        "sizes: [2, 4].  Tensor sizes: [2, 3]",
    ),
    (
        lambda: engine.ones(2, 3).expand(3),
        RuntimeError,
        "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be "
        "greater or equal to the "
        "number of dimensions in the tensor (2)",
    ),
    (
        lambda: engine.ones(3).expand(-1, 3),
        RuntimeError,
        "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0",
    ),
    (
        lambda: engine.ones(2, 3, 4).t(),
        RuntimeError,
        "t() expects a tensor with <= 2 dimensions, but self is 3D",
    ),
    (
        lambda: engine.where(engine.ones(2), engine.ones(2), engine.ones(2)),
        RuntimeError,
        "where expected condition to be a boolean tensor, but got a tensor with dtype Float",
    ),
    (
        lambda: engine.ones(2, dtype=engine.bool) - engine.ones(2, dtype=engine.bool),
        RuntimeError,
        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
        "`logical_xor()` "
        "operator instead.",
    ),
    (
        lambda: engine.tensor([True]) - engine.tensor([1]),
        RuntimeError,
        "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
        "invert a mask, use "
        "the `~` or `logical_not()` operator instead.",
    ),
    (
        lambda: engine.ones(2) - True,
        RuntimeError,
        "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
        "invert a mask, use "
        "the `~` or `logical_not()` operator instead.",
    ),
    (
        lambda: -engine.ones(2, dtype=engine.bool),
        RuntimeError,
        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
        "invert a mask, use the "
        "`~` or `logical_not()` operator instead.",
    ),
    (
        lambda: engine.tensor([True]) ** engine.tensor([True]),
        NotImplementedError,
        "\"pow\" not implemented for 'Bool'",
    ),
    (
        lambda: engine.tensor([2, 3]) ** -1,
        RuntimeError,
        "Integers to negative integer powers are not allowed.",
    ),
    (
        lambda: engine.tensor([1, 2]).mean(),
        RuntimeError,
        "mean(): could not infer output dtype. Input dtype must be either a floating point or "
        "complex dtype. Got: Long",
    ),
    (
        lambda: engine.relu(engine.tensor([True])),
        RuntimeError,
        "Boolean inputs not supported for relu",
    ),
    (
        lambda: engine.abs(engine.tensor([True])),
        NotImplementedError,
        "\"abs_cpu\" not implemented for 'Bool'",
    ),
    (
        lambda: engine.add(engine.tensor([1, 2]), engine.tensor([1, 2]), alpha=0.5),
        RuntimeError,
        "For integral input tensors, argument alpha must not be a floating point number.",
    ),
    (
        lambda: engine.tensor([1, 2]).sub(1, alpha=2.0),
        RuntimeError,
        "For integral input tensors, argument alpha must not be a floating point number.",
    ),
    (
        lambda: engine.add(engine.tensor([1, 2]), engine.tensor([1, 2]), alpha=True),
        RuntimeError,
        "Boolean alpha only supported for Boolean results.",
    ),
    (
        lambda: engine.ones(2).add(1, alpha="a"),
        TypeError,
        "add(): argument 'alpha' must be Number, not str",
    ),
    (
        lambda: engine.add(engine.ones(2), "a"),
        TypeError,
        "add(): argument 'other' (position 2) must be Tensor, not str",
    ),
    (
        lambda: engine.mul(engine.ones(2), "a"),
        TypeError,
        "mul(): argument 'other' (position 2) must be Tensor, not str",
    ),
    (
        lambda: engine.add("a", engine.ones(2)),
        TypeError,
        "add(): argument 'input' (position 1) must be Tensor, not str",
    ),
    (
        lambda: engine.ones(2).mul("a"),
        TypeError,
        "mul(): argument 'other' (position 1) must be Tensor, not str",
    ),
]


@pytest.mark.parametrize("fn,exc,message", ERRORS, ids=[f"{i:02d}" for i in range(len(ERRORS))])
def test_error_type_and_message(fn, exc, message):
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value).split("\n")[0] == message


def test_unsupported_operand_returns_notimplemented():
    with pytest.raises(TypeError, match="unsupported operand type"):
        engine.ones(2) * None
    with pytest.raises(TypeError, match="unsupported operand type"):
        None + engine.ones(2)


def test_high_rank_tensors_beyond_the_inline_shape_capacity():
    # Shapes of up to 6 dims live inline; more spill to the heap. Both must behave the same.
    ref = np.arange(2**9, dtype=np.float64).reshape([2] * 9)
    x = engine.tensor(ref.tolist(), dtype=engine.float64)
    assert tuple(x.shape) == (2,) * 9
    perm = list(range(9))[::-1]
    np.testing.assert_array_equal(np.asarray(x.permute(*perm).tolist()), ref.transpose(perm))
    np.testing.assert_array_equal(np.asarray(x.sum((0, 4, 8)).tolist()), ref.sum((0, 4, 8)))
    y = x.unsqueeze(3).expand(*([2] * 3 + [5] + [2] * 6))
    assert tuple(y.shape) == (2, 2, 2, 5, 2, 2, 2, 2, 2, 2)
    np.testing.assert_array_equal(
        np.asarray(y.reshape(-1).tolist()), np.broadcast_to(ref[:, :, :, None], y.shape).reshape(-1)
    )
    x.requires_grad_()
    (x.permute(*perm) * 2).sum().backward()
    np.testing.assert_array_equal(np.asarray(x.grad.tolist()), np.full(ref.shape, 2.0))


# PyTorch 2.13's CPU bmm names the dtypes by the kernel it picks: below 400 multiply-adds per batch
# entry batch1's type is expected; above, a float / double batch2's type, else addmm's message.
BMM_DTYPE_MESSAGES = [
    ((2, 3, 4, 5), engine.float32, engine.float64, "expected scalar type Float but found Double"),
    ((2, 3, 4, 5), engine.float64, engine.float32, "expected scalar type Double but found Float"),
    (
        (1, 20, 20, 20),
        engine.float32,
        engine.float64,
        "expected scalar type Double but found Float",
    ),
    ((1, 20, 20, 20), engine.int64, engine.float32, "expected scalar type Float but found Long"),
    (
        (4, 1, 400, 1),
        engine.float32,
        engine.int64,
        "expected m1 and m2 to have the same dtype, but got: float != long int",
    ),
    (
        (1, 20, 20, 20),
        engine.float16,
        engine.bfloat16,
        "expected m1 and m2 to have the same dtype, but got: c10::Half != c10::BFloat16",
    ),
]


@pytest.mark.parametrize("shape, d1, d2, message", BMM_DTYPE_MESSAGES)
def test_bmm_mixed_dtype_message(shape, d1, d2, message):
    b, n, k, m = shape
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        engine.bmm(engine.ones(b, n, k, dtype=d1), engine.ones(b, k, m, dtype=d2))


def test_einsum_of_float_spikes_and_double_weights_message():
    # An SNN script's einsum("abc,cd->abd") with float32 inputs and float64 weights.
    with pytest.raises(RuntimeError, match="^expected scalar type Double but found Float$"):
        engine.einsum(
            "abc,cd->abd", engine.ones(8, 20, 10), engine.ones(10, 16, dtype=engine.float64)
        )
