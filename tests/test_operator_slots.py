"""Tensor's arithmetic operators run through native number slots for tensors and Python numbers;
every answer must be the one the dunder methods give (they stay the definition): dtypes, values,
grad_fn names, reflected operands, errors, and the cases handed to the generic path (subclasses,
NumPy values, foreign types, ints beyond int64, tensors a transform marked)."""

from __future__ import annotations

import operator

import engine
import numpy as np
import pytest

OPS = [
    (operator.add, "__add__", "__radd__"),
    (operator.sub, "__sub__", "__rsub__"),
    (operator.mul, "__mul__", "__rmul__"),
    (operator.truediv, "__truediv__", "__rtruediv__"),
]
NUMBERS = [2, 2.5, True, False, -3, 0]


def same(a, b):
    assert type(a) is type(b)
    assert a.dtype == b.dtype
    assert a.shape == b.shape
    np.testing.assert_array_equal(np.array(a.tolist()), np.array(b.tolist()))
    assert type(a.grad_fn).__name__ == type(b.grad_fn).__name__
    assert a.requires_grad == b.requires_grad


def test_slots_are_installed_after_import():
    assert engine._C._fast_slots_installed()


@pytest.mark.parametrize("op,name,rname", OPS, ids=[o[1] for o in OPS])
@pytest.mark.parametrize(
    "dtype", [engine.float32, engine.float64, engine.int64, engine.bool, engine.float16]
)
@pytest.mark.parametrize("number", NUMBERS, ids=repr)
def test_tensor_number_matches_the_dunder_methods(op, name, rname, dtype, number):
    x = engine.tensor([1, 2, 3], dtype=dtype)
    for left, right, ref in (
        (x, number, lambda: getattr(x, name)(number)),
        (number, x, lambda: getattr(x, rname)(number)),
    ):
        try:
            expected = ref()
        except Exception as e:  # the operator raises the same error
            with pytest.raises(type(e)) as info:
                op(left, right)
            assert str(info.value) == str(e)
            continue
        same(op(left, right), expected)


@pytest.mark.parametrize("op,name,rname", OPS, ids=[o[1] for o in OPS])
def test_tensor_tensor_with_grad_matches_the_dunder_methods(op, name, rname):
    a = engine.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    b = engine.tensor([[2.0], [4.0]], dtype=engine.float64)
    same(op(a, b), getattr(a, name)(b))
    same(op(b, a), getattr(b, name)(a))
    y = op(a * 2, 3)
    y.sum().backward()
    assert a.grad is not None and a.grad.shape == a.shape


def test_number_keeps_a_half_tensor_at_its_dtype_and_int_overflow_raises_as_before():
    h = engine.tensor([1.0, 2.0], dtype=engine.float16)
    assert (h * 2.5).dtype == engine.float16
    assert (3 * h).dtype == engine.float16
    x = engine.tensor([1, 2])
    with pytest.raises(RuntimeError, match="Overflow when unpacking long"):
        x * (1 << 70)
    with pytest.raises(RuntimeError, match="Overflow when unpacking long"):
        (1 << 70) + x


def test_shape_errors_are_the_dunder_errors():
    a, b = engine.ones(2, 3), engine.ones(4)
    with pytest.raises(RuntimeError) as fast:
        a * b
    with pytest.raises(RuntimeError) as slow:
        a.__mul__(b)
    assert str(fast.value) == str(slow.value)


def test_foreign_types_still_get_notimplemented_and_reflection():
    x = engine.tensor([1.0, 2.0])
    with pytest.raises(
        TypeError, match=r"unsupported operand type\(s\) for \*: 'Tensor' and 'object'"
    ):
        x * object()
    with pytest.raises(
        TypeError, match=r"unsupported operand type\(s\) for -: 'object' and 'Tensor'"
    ):
        object() - x

    class Other:
        def __rmul__(self, other):
            return "rmul"

        def __mul__(self, other):
            return "mul"

    assert x * Other() == "rmul"
    assert Other() * x == "mul"


def test_numpy_operands_take_the_generic_path():
    x = engine.tensor([1.0, 2.0])
    r = x * np.float64(2.0)
    assert isinstance(r, engine.Tensor) and r.tolist() == [2.0, 4.0]
    r = x + np.array([1.0, 1.0], dtype=np.float32)
    assert isinstance(r, engine.Tensor) and r.tolist() == [2.0, 3.0]


def test_subclasses_keep_their_overrides():
    p = engine.nn.Parameter(engine.tensor([1.0, 2.0]))
    x = engine.tensor([3.0, 4.0])
    assert (p * x).tolist() == [3.0, 8.0]
    assert (x * p).tolist() == [3.0, 8.0]
    assert type(p * 2) is engine.Tensor

    class Logged(engine.Tensor):
        calls = []

        def __mul__(self, other):
            Logged.calls.append("mul")
            return super().__mul__(other)

        def __rmul__(self, other):
            Logged.calls.append("rmul")
            return super().__rmul__(other)

    t = engine.Tensor._make_subclass(Logged, engine.tensor([1.0, 2.0]))
    t * 2
    2 * t
    x * t
    assert Logged.calls == ["mul", "rmul", "rmul"]


def test_reassigning_a_dunder_from_python_takes_effect():
    T = engine.Tensor
    saved = T.__dict__["__sub__"]
    try:
        T.__sub__ = lambda self, other: "patched"
        assert engine.ones(1) - 1 == "patched"
    finally:
        T.__sub__ = saved
    assert (engine.ones(1) - 1).tolist() == [0.0]


def test_dual_tensors_go_through_the_transform():
    import engine.autograd.forward_ad as fwAD

    x = engine.tensor([1.0, 2.0], dtype=engine.float64)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, engine.tensor([1.0, 1.0], dtype=engine.float64))
        y = 3 * (d * d) - d / 2 + 1
        tangent = fwAD.unpack_dual(y).tangent
    assert tangent.tolist() == pytest.approx([6 * 1.0 - 0.5, 6 * 2.0 - 0.5])


def test_python_numbers_keep_pytorchs_wrapped_dtype_and_values():
    # A number exact in the tensor's dtype is stored in it (no conversion per call); it still
    # reads back from the graph as PyTorch wraps it: int64 for an int, float64 for a float.
    x = engine.tensor([1.5, -2.0, 3.25], requires_grad=True)
    for number, dtype in [
        (2, engine.int64),
        (0.5, engine.float64),
        (0.1, engine.float64),
        (2**30 + 1, engine.int64),
    ]:
        saved = (x * number).grad_fn._saved_other
        assert saved.dtype == dtype and saved.item() == number
    xs = np.array([1.5, -2.0, 3.25], dtype=np.float32)
    for number in (2, 0.5, 0.1, 2**30 + 1, -7, 1e-3):
        np.testing.assert_array_equal((x * number).detach().numpy(), xs * np.float32(number))
        np.testing.assert_array_equal((x + number).detach().numpy(), xs + np.float32(number))
        np.testing.assert_array_equal((number - x).detach().numpy(), np.float32(number) - xs)
        np.testing.assert_array_equal((x / number).detach().numpy(), xs / np.float32(number))
    xd = engine.tensor([1.5, -2.0], dtype=engine.float64)
    assert (xd * 0.1).tolist() == [1.5 * 0.1, -2.0 * 0.1]
    assert (xd * 0.1).dtype == engine.float64 and (engine.tensor([3]) * 2).dtype == engine.int64
