"""The math API beyond the op table: integer semantics of // and %, bitwise and logical ops,
values-and-indices reductions, prod's gradient at zeros, in-place variants and their versions,
out=, dtype information, and error types and messages as PyTorch 2.13 gives them.
"""

from __future__ import annotations

import engine
import pytest
from engine.autograd import gradcheck


def test_integer_floor_division_and_remainder_follow_python():
    a = engine.tensor([7, -7, 7, -7])
    b = engine.tensor([2, 2, -2, -2])
    assert (a // b).tolist() == [3, -4, -4, 3]
    assert (a % b).tolist() == [1, 1, -1, -1]
    assert engine.fmod(a, b).tolist() == [1, -1, 1, -1]
    assert (a // b).dtype == engine.int64
    assert (7 // engine.tensor([2])).tolist() == [3]
    assert (engine.tensor([7.5, -7.5]) // 2).tolist() == [3.0, -4.0]


@pytest.mark.parametrize("fn", [lambda a: a // 0, lambda a: a % 0, lambda a: engine.fmod(a, 0)])
def test_integer_division_by_zero_raises(fn):
    # PyTorch's RuntimeError("ZeroDivisionError") (with what it means after it), which is also
    # Python's ZeroDivisionError here.
    with pytest.raises(
        RuntimeError, match="^ZeroDivisionError: integer division or modulo by zero$"
    ) as info:
        fn(engine.tensor([1, 2]))
    assert isinstance(info.value, ZeroDivisionError)


def test_float_division_by_zero_gives_inf():
    assert (engine.tensor([1.0]) // 0).tolist() == [float("inf")]


def test_bitwise_ops_on_bool_and_int():
    t, f = engine.tensor([True, True, False]), engine.tensor([True, False, False])
    assert (t & f).tolist() == [True, False, False]
    assert (t | f).tolist() == [True, True, False]
    assert (t ^ f).tolist() == [False, True, False]
    assert (~t).tolist() == [False, False, True]
    i = engine.tensor([12, 10])
    assert (i & 6).tolist() == [4, 2]
    assert engine.bitwise_or(i, 1).tolist() == [13, 11]
    assert i.bitwise_xor(engine.tensor([1, 1])).tolist() == [13, 11]
    assert (~i).tolist() == [-13, -11]
    x = engine.tensor([1, 2])
    x |= 4
    assert x.tolist() == [5, 6] and x._version == 1


def test_logical_ops_give_bool():
    a = engine.tensor([0.0, 1.5, -2.0])
    assert engine.logical_not(a).tolist() == [True, False, False]
    assert engine.logical_and(a, engine.tensor([1, 0, 3])).tolist() == [False, False, True]
    assert a.logical_xor(engine.tensor([True, True, False])).tolist() == [True, False, True]


def test_max_with_dim_returns_values_and_indices():
    x = engine.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 7.0]], requires_grad=True)
    out = engine.max(x, 1)
    assert isinstance(out, engine.return_types.max)
    values, indices = out
    assert values.tolist() == [5.0, 7.0] and indices.tolist() == [1, 0]
    assert out.values is values and out.indices is indices
    assert repr(out).startswith("torch.return_types.max(\nvalues=tensor([5., 7.]")
    values.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]  # ties: the returned index
    m = x.min(dim=0, keepdim=True)
    assert m.values.shape == (1, 3) and m.indices.tolist() == [[0, 1, 0]]
    assert engine.max(x, engine.zeros(3)).tolist() == engine.maximum(x, engine.zeros(3)).tolist()


def test_max_of_all_elements_shares_the_gradient_among_ties():
    x = engine.tensor([3.0, 1.0, 3.0], requires_grad=True)
    x.max().backward()
    assert x.grad.tolist() == [0.5, 0.0, 0.5]
    assert x.max().grad_fn.name() == "MaxBackward1"


def test_nan_propagates_through_max_and_argmax():
    x = engine.tensor([1.0, float("nan"), 3.0])
    assert x.max().item() != x.max().item()
    assert x.argmax().item() == 1


def test_prod_gradient_with_zeros():
    x = engine.tensor([[2.0, 0.0, 3.0], [0.0, 0.0, 4.0], [1.5, 2.0, -1.0]], dtype=engine.float64)
    x.requires_grad_()
    x.prod(1).sum().backward()
    assert x.grad.tolist() == [[0.0, 6.0, 0.0], [0.0, 0.0, 0.0], [-2.0, -1.5, 3.0]]
    assert gradcheck(lambda t: t.prod(1), (x,))


def test_var_and_std_options():
    x = engine.tensor([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]], dtype=engine.float64)
    assert x.var().item() == pytest.approx(8.0)
    assert x.var(unbiased=False).item() == pytest.approx(6.666666666666667)
    assert x.var(False).item() == pytest.approx(6.666666666666667)
    assert engine.std(x, 1, correction=0).tolist() == pytest.approx(
        [1.247219128924647, 2.494438257849294]
    )


def test_reductions_with_integer_inputs():
    i = engine.tensor([[1, 2], [3, 4]])
    assert i.prod().item() == 24 and i.prod().dtype == engine.int64
    assert i.cumsum(0).tolist() == [[1, 2], [4, 6]] and i.cumsum(0).dtype == engine.int64
    assert i.amax(0).tolist() == [3, 4] and i.amax(0).dtype == engine.int64
    assert i.all().item() is True and (i - 1).any(1).tolist() == [True, True]
    assert engine.logsumexp(i, 1).dtype == engine.float32


def test_matmul_broadcasts_batches():
    a = engine.ones(2, 1, 3, 4)
    b = engine.ones(5, 4, 2)
    assert (a @ b).shape == (2, 5, 3, 2)
    assert engine.matmul(engine.ones(4), engine.ones(3, 4, 2)).shape == (3, 2)
    assert engine.matmul(engine.ones(3, 2, 4), engine.ones(4)).shape == (3, 2)


# ---- in place ----


@pytest.mark.parametrize(
    "name,arg",
    [
        ("exp_", ()),
        ("neg_", ()),
        ("abs_", ()),
        ("sqrt_", ()),
        ("log_", ()),
        ("sigmoid_", ()),
        ("tanh_", ()),
        ("sin_", ()),
        ("cos_", ()),
        ("floor_", ()),
        ("ceil_", ()),
        ("round_", ()),
        ("relu_", ()),
        ("pow_", (2,)),
        ("clamp_", (0.6, 1.2)),
        ("reciprocal_", ()),
    ],
)
def test_inplace_variants_match_and_bump_the_version(name, arg):
    values = [0.5, 1.25, 1.5]
    x = engine.tensor(values, dtype=engine.float64)
    out = getattr(x, name)(*arg)
    assert out is x and x._version == 1
    expected = getattr(engine.tensor(values, dtype=engine.float64), name[:-1])(*arg)
    assert x.tolist() == pytest.approx(expected.tolist())


def test_inplace_on_a_leaf_that_requires_grad_raises():
    x = engine.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        x.exp_()


def test_inplace_records_history():
    x = engine.tensor([0.5, 1.0], dtype=engine.float64, requires_grad=True)
    y = x * 1
    y.sin_()
    y.sum().backward()
    assert x.grad.tolist() == pytest.approx([0.8775825618903728, 0.5403023058681398])


# ---- out= ----


def test_out_is_resized_when_empty_and_written():
    out = engine.empty(0)
    r = engine.add(engine.ones(2, 2), 1, out=out)
    assert r is out and out.shape == (2, 2) and out.tolist() == [[2.0, 2.0], [2.0, 2.0]]
    v = out._version
    engine.mul(engine.ones(2, 2), 3, out=out)
    assert out.tolist() == [[3.0, 3.0], [3.0, 3.0]] and out._version == v + 1
    engine.exp(engine.zeros(2, 2), out=out)
    assert out.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    with pytest.warns(UserWarning, match="An output with one or more elements was resized"):
        engine.sub(engine.ones(3), 1, out=out)
    assert out.shape == (3,)


def test_out_keeps_its_dtype():
    out = engine.empty(2, dtype=engine.float64)
    engine.add(engine.ones(2), 1, out=out)
    assert out.dtype == engine.float64


# ---- dtype information ----


def test_finfo_and_iinfo():
    f = engine.finfo(engine.float32)
    assert f.eps == 2.0**-23 and f.bits == 32 and f.tiny == 2.0**-126 and f.resolution == 1e-06
    assert (
        f.max == pytest.approx(3.4028234663852886e38) and f.min == -f.max and f.dtype == "float32"
    )
    assert engine.finfo(engine.float64).eps == 2.0**-52
    assert engine.finfo().dtype == "float32"
    i = engine.iinfo(engine.int32)
    assert (i.min, i.max, i.bits) == (-(2**31), 2**31 - 1, 32)
    assert engine.iinfo(engine.int64).max == 2**63 - 1


def test_type_as_and_is_floating_point():
    a = engine.ones(2, dtype=engine.int64)
    assert a.type_as(engine.ones(1, dtype=engine.float64)).dtype == engine.float64
    assert not engine.is_floating_point(a) and engine.is_floating_point(a.double())


def test_default_dtype_applies_to_integer_math():
    engine.set_default_dtype(engine.float64)
    try:
        assert engine.exp2(engine.tensor([1])).dtype == engine.float64
        assert engine.atan2(engine.tensor([1]), engine.tensor([1])).dtype == engine.float64
    finally:
        engine.set_default_dtype(engine.float32)


# ---- errors, as PyTorch 2.13 gives them ----

ERRORS = [
    (
        lambda: engine.add(engine.ones(2, requires_grad=True), 1, out=engine.empty(2)),
        RuntimeError,
        "add(): functions with out=... arguments don't support automatic differentiation, but "
        "one of the arguments requires grad.",
    ),
    (
        lambda: engine.ones(2) & engine.ones(2),
        NotImplementedError,
        "\"bitwise_and_cpu\" not implemented for 'Float'",
    ),
    (
        lambda: ~engine.ones(2),
        TypeError,
        "~ (operator.invert) is only implemented on integer and Boolean-type tensors",
    ),
    (
        lambda: engine.clamp(engine.ones(2)),
        RuntimeError,
        "torch.clamp: At least one of 'min' or 'max' must not be None",
    ),
    (
        lambda: engine.max(engine.ones(0)),
        RuntimeError,
        "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
        "reduction dim with the 'dim' argument.",
    ),
    (
        lambda: engine.ones(0, 3).max(0),
        IndexError,
        "max(): Expected reduction dim 0 to have non-zero size.",
    ),
    (
        lambda: engine.argmax(engine.ones(0)),
        IndexError,
        "argmax(): Expected reduction dim to be specified for input.numel() == 0.",
    ),
    (
        lambda: engine.bmm(engine.ones(2, 3), engine.ones(2, 3, 3)),
        RuntimeError,
        "batch1 must be a 3D tensor",
    ),
    (
        lambda: engine.dot(engine.ones(2), engine.ones(3)),
        RuntimeError,
        "inconsistent tensor size, expected tensor [2] and src [3] to have the same number of "
        "elements, but got 2 and 3 elements respectively",
    ),
    (
        lambda: engine.dot(engine.ones(2), engine.ones(2, dtype=engine.float64)),
        RuntimeError,
        "dot : expected both vectors to have same dtype, but found Float and Double",
    ),
    (
        lambda: engine.mv(engine.ones(2, 3), engine.ones(2)),
        RuntimeError,
        "size mismatch, got input (2), mat (2x3), vec (2)",
    ),
    (
        lambda: engine.matmul(engine.ones(2, 3, 4), engine.ones(5, 4, 2)),
        RuntimeError,
        "The size of tensor a (2) must match the size of tensor b (5) at non-singleton dimension 0",
    ),
    (
        lambda: engine.einsum("ij,jk->ik", engine.ones(2, 3), engine.ones(2, 3)),
        RuntimeError,
        "einsum(): subscript j has size 2 for operand 1 which does not broadcast with previously "
        "seen size 3",
    ),
    (
        lambda: engine.einsum("ij,jk", engine.ones(2, 3)),
        RuntimeError,
        "einsum(): fewer operands were provided than specified in the equation",
    ),
    (
        lambda: engine.tensor([1, 2]).var(),
        RuntimeError,
        "std and var only support floating point and complex dtypes",
    ),
    (
        lambda: engine.tensor([1, 2]).norm(),
        RuntimeError,
        "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long",
    ),
    (
        lambda: engine.tensor([True]) // engine.tensor([True]),
        NotImplementedError,
        "\"div_floor_cpu\" not implemented for 'Bool'",
    ),
    (
        lambda: engine.tensor([True]) % engine.tensor([True]),
        NotImplementedError,
        "\"remainder_cpu\" not implemented for 'Bool'",
    ),
    (
        lambda: engine.tensor([1, 2]).exp_(),
        RuntimeError,
        "result type Float can't be cast to the desired output type Long",
    ),
    (
        lambda: engine.finfo(engine.int32),
        TypeError,
        "torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
        "'torch.finfo'",
    ),
]


@pytest.mark.parametrize("fn,exc,message", ERRORS, ids=[f"{i:02d}" for i in range(len(ERRORS))])
def test_error_type_and_message(fn, exc, message):
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value).split("\n")[0] == message


def test_inplace_with_a_grad_requiring_operand_keeps_the_old_value_for_backward():
    x = engine.tensor([1.5, 2.0], dtype=engine.float64)
    w = engine.tensor([2.0, 3.0], dtype=engine.float64, requires_grad=True)
    x.pow_(w)
    x.sum().backward()
    assert w.grad.tolist() == pytest.approx([1.5**2 * 0.4054651081081644, 8 * 0.6931471805599453])
