"""The Tensor as a Python object: shape and size, conversions to Python and NumPy, the number
protocol, iteration, hashing, operators with Python scalars, in-place ops and copies.

Expected values, types and messages are PyTorch 2.13's.
"""

from __future__ import annotations

import engine
import numpy as np
import pytest

DTYPES = [engine.float32, engine.float64, engine.int64, engine.int32, engine.bool]
PYTYPE = {
    engine.float32: float,
    engine.float64: float,
    engine.int64: int,
    engine.int32: int,
    engine.bool: bool,
}


NP_NAME = {d: repr(d).removeprefix("torch.") for d in DTYPES}


def x23():
    return engine.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


# ---- shape, size, dim ----


def test_shape_is_a_size():
    x = x23()
    assert type(x.shape) is engine.Size and isinstance(x.shape, tuple)
    assert repr(x.shape) == str(x.shape) == "torch.Size([2, 3])"
    assert x.shape == (2, 3) and x.size() == x.shape
    assert repr(engine.tensor(1.0).shape) == "torch.Size([])"
    assert x.shape.numel() == 6


def test_size_slices_and_concatenations_stay_size():
    s = x23().shape
    assert repr(s[1:]) == "torch.Size([3])"
    assert s[0] == 2 and type(s[0]) is int
    assert repr(s + (1,)) == "torch.Size([2, 3, 1])"
    assert repr((1,) + s) == "torch.Size([1, 2, 3])"
    assert repr(s * 2) == "torch.Size([2, 3, 2, 3])"


def test_size_dim():
    x = x23()
    assert (x.size(0), x.size(1), x.size(-1), x.size(-2)) == (2, 3, 3, 2)
    with pytest.raises(IndexError) as info:
        x.size(2)
    assert (
        str(info.value) == "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
    )
    with pytest.raises(IndexError, match=r"\[-2, 1\], but got -3"):
        x.size(-3)


@pytest.mark.parametrize("dim", [0, -1])
def test_size_dim_of_zero_d_raises(dim):
    with pytest.raises(IndexError) as info:
        engine.tensor(1.0).size(dim)
    assert str(info.value) == f"Dimension specified as {dim} but tensor has no dimensions"


def test_dim_numel_ndim_dtype():
    x = x23()
    assert (x.dim(), x.ndim, x.numel(), x.dtype) == (2, 2, 6, engine.float32)
    s = engine.tensor(1)
    assert (s.dim(), s.ndim, s.numel(), s.dtype) == (0, 0, 1, engine.int64)
    assert engine.zeros(2, 0).numel() == 0


def test_stride_is_a_tuple():
    x = x23()
    assert x.stride() == (3, 1) and x.t().stride() == (1, 3)
    assert x.stride(0) == 3 and x.stride(-1) == 1


# ---- item / tolist ----


@pytest.mark.parametrize("dtype", DTYPES)
def test_item(dtype):
    v = engine.tensor([[1]], dtype=dtype).item()
    assert type(v) is PYTYPE[dtype] and v == 1


def test_item_exact_int64():
    assert engine.tensor(2**62 + 1).item() == 2**62 + 1


@pytest.mark.parametrize("data, n", [([1.0, 2.0], 2), ([], 0)])
def test_item_of_not_one_element_raises(data, n):
    with pytest.raises(RuntimeError) as info:
        engine.tensor(data).item()
    assert str(info.value) == f"a Tensor with {n} elements cannot be converted to Scalar"


@pytest.mark.parametrize("dtype", DTYPES)
def test_tolist_types(dtype):
    t = engine.tensor([[0, 1], [2, 3]], dtype=dtype)
    out = t.tolist()
    expected = [[PYTYPE[dtype](v) for v in row] for row in [[0, 1], [2, 3]]]
    assert out == expected
    assert all(type(v) is PYTYPE[dtype] for row in out for v in row)
    zero_d = engine.tensor(1, dtype=dtype).tolist()
    assert type(zero_d) is PYTYPE[dtype] and zero_d == 1


def test_tolist_float32_widens_exactly():
    assert engine.tensor([0.1]).tolist() == [float(np.float32(0.1))]


def test_tolist_empty_and_nd():
    assert engine.zeros(0).tolist() == []
    assert engine.zeros(2, 0).tolist() == [[], []]
    assert engine.zeros(0, 2).tolist() == []
    t = engine.arange(24).reshape(2, 3, 4)
    assert t.tolist() == np.arange(24).reshape(2, 3, 4).tolist()


def test_tolist_of_views():
    a = np.arange(24).reshape(2, 3, 4)
    t = engine.tensor(a)
    assert t.permute(2, 0, 1).tolist() == a.transpose(2, 0, 1).tolist()
    assert t.transpose(0, 2).tolist() == a.swapaxes(0, 2).tolist()
    assert t.select(1, 2).tolist() == a[:, 2].tolist()
    assert t.expand(2, 2, 3, 4).tolist() == np.broadcast_to(a, (2, 2, 3, 4)).tolist()


# ---- NumPy ----


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_dtype(dtype):
    arr = engine.ones(2, dtype=dtype).numpy()
    assert arr.dtype == np.dtype(NP_NAME[dtype])


def test_numpy_shares_memory():
    t = engine.zeros(2, 3)
    arr = t.numpy()
    arr[1, 2] = 7.0
    assert t.tolist()[1][2] == 7.0
    t.add_(1)
    assert arr[0, 0] == 1.0


def test_numpy_of_a_view_keeps_strides():
    t = x23().t()
    arr = t.numpy()
    assert arr.strides == (4, 12)
    assert arr.tolist() == t.tolist()


def test_numpy_keeps_the_tensor_alive():
    arr = engine.arange(4.0).numpy()
    assert arr.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_numpy_requires_grad_raises():
    t = engine.ones(2, requires_grad=True)
    msg = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    for convert in (lambda: t.numpy(), lambda: np.asarray(t), lambda: np.array(t)):
        with pytest.raises(RuntimeError) as info:
            convert()
        assert str(info.value) == msg
    assert t.detach().numpy().tolist() == [1.0, 1.0]


def test_asarray_shares_and_array_copies():
    t = engine.ones(3)
    a = np.asarray(t)
    a[0] = 5
    c = np.array(t)
    c[1] = 7
    assert t.tolist() == [5.0, 1.0, 1.0]
    assert np.asarray(t, dtype=np.float64).dtype == np.float64


# ---- bool / float / int / index ----


def test_bool():
    assert bool(engine.tensor([0.5])) is True
    assert bool(engine.tensor(0)) is False
    assert bool(engine.tensor(float("nan"))) is True
    with pytest.raises(RuntimeError) as info:
        bool(x23())
    assert str(info.value) == "Boolean value of Tensor with more than one value is ambiguous"
    with pytest.raises(RuntimeError) as info:
        bool(engine.tensor([]))
    assert str(info.value) == "Boolean value of Tensor with no values is ambiguous"


def test_float_and_int():
    assert float(engine.tensor([[2]])) == 2.0 and type(float(engine.tensor(2))) is float
    assert int(engine.tensor(-2.7)) == -2
    assert int(engine.tensor(True)) == 1
    assert int(engine.tensor(2**62 + 1)) == 2**62 + 1


@pytest.mark.parametrize("convert", [float, int])
@pytest.mark.parametrize("data", [[1.0, 2.0], []])
def test_float_int_of_not_one_element_raise_value_error(convert, data):
    with pytest.raises(ValueError) as info:
        convert(engine.tensor(data))
    assert str(info.value) == "only one element tensors can be converted to Python scalars"


def test_index():
    items = [10, 20, 30]
    assert items[engine.tensor(1)] == 20
    assert items[engine.tensor([1])] == 20
    assert items[engine.tensor(True)] == 20
    assert list(range(engine.tensor(3))) == [0, 1, 2]
    assert hex(engine.tensor(255)) == "0xff"


@pytest.mark.parametrize("index", [engine.tensor(1.0), engine.tensor([1, 2])])
def test_index_of_float_or_many_raises(index):
    with pytest.raises(TypeError) as info:
        [10, 20, 30][index]
    assert (
        str(info.value) == "only integer tensors of a single element can be converted to an index"
    )


# ---- len / iteration / select ----


def test_len():
    assert len(x23()) == 2
    assert len(engine.zeros(0, 3)) == 0
    with pytest.raises(TypeError) as info:
        len(engine.tensor(1.0))
    assert str(info.value) == "len() of a 0-d tensor"


def test_iteration_yields_views_of_rows():
    x = x23()
    rows = list(x)
    assert [r.tolist() for r in rows] == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert all(isinstance(r, engine.Tensor) and r.shape == (3,) for r in rows)
    elems = list(engine.tensor([1, 2]))
    assert [e.shape for e in elems] == [(), ()] and [e.item() for e in elems] == [1, 2]
    assert list(engine.zeros(0, 2)) == []
    assert 2 in engine.tensor([1, 2]) and 3 not in engine.tensor([1, 2])


def test_iteration_over_zero_d_raises():
    with pytest.raises(TypeError) as info:
        iter(engine.tensor(1.0))
    assert str(info.value) == "iteration over a 0-d tensor"


def test_select_is_a_view():
    a = engine.arange(6.0).reshape(2, 3)
    col = a.select(1, -1)
    assert col.tolist() == [2.0, 5.0] and col.stride() == (3,)
    assert col._is_view()
    assert a.select(0, 1).tolist() == [3.0, 4.0, 5.0]
    assert engine.select(a, -1, 0).tolist() == [0.0, 3.0]
    row = a.select(0, 1)
    row.fill_(9.0)  # writes through to the base and shares its version counter
    assert a.tolist() == [[0.0, 1.0, 2.0], [9.0, 9.0, 9.0]]
    assert a._version == row._version == 1
    assert engine.arange(3).select(0, 2).shape == ()


@pytest.mark.parametrize(
    "shape, dim, index, exc, msg",
    [
        (
            (2, 3),
            1,
            3,
            IndexError,
            "select(): index 3 out of range for tensor of size [2, 3] at dimension 1",
        ),
        (
            (2, 3),
            1,
            -4,
            IndexError,
            "select(): index -4 out of range for tensor of size [2, 3] at dimension 1",
        ),
        (
            (2, 3),
            2,
            0,
            IndexError,
            "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
        ),
        ((), 0, 0, IndexError, "select() cannot be applied to a 0-dim tensor."),
    ],
)
def test_select_errors(shape, dim, index, exc, msg):
    with pytest.raises(exc) as info:
        engine.zeros(shape).select(dim, index)
    assert str(info.value) == msg


def test_select_gradient():
    a = engine.arange(6.0, requires_grad=True)
    r = a.reshape(2, 3).select(0, 1)
    assert r.grad_fn.name() == "SelectBackward0"
    (r * r).sum().backward()
    assert a.grad.tolist() == [0.0, 0.0, 0.0, 6.0, 8.0, 10.0]


def test_select_double_backward():
    a = engine.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    g = engine.tensor([1.0, 1.0], requires_grad=True)
    (ga,) = engine.autograd.grad(a.select(1, 0), a, g, create_graph=True)
    assert ga.grad_fn.name() == "SelectBackwardBackward0"
    assert ga.tolist() == [[1.0, 0.0], [1.0, 0.0]]
    (ga * engine.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert g.grad.tolist() == [1.0, 3.0]


def test_select_gradcheck():
    from engine.autograd import gradcheck

    a = engine.tensor(np.random.default_rng(0).standard_normal((3, 4)), requires_grad=True)
    assert gradcheck(lambda t: t.select(1, 2) * 2.0, (a,))
    assert gradcheck(lambda t: t.transpose(0, 1).select(0, 1).sum(), (a,))


def test_gradients_flow_through_iteration():
    a = engine.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    total = engine.tensor(0.0)
    for i, row in enumerate(a):
        total = total + row.sum() * (i + 1)
    total.backward()
    assert a.grad.tolist() == [[1.0, 1.0], [2.0, 2.0]]


# ---- hashing and comparison ----


def test_hash_by_identity():
    x = x23()
    y = x.clone()
    assert hash(x) == hash(x)
    d = {x: "x", y: "y"}
    assert len(d) == 2 and d[x] == "x" and d[y] == "y"
    assert x in {x} and y not in {x}


def test_eq_returns_a_tensor():
    r = x23() == 2
    assert isinstance(r, engine.Tensor) and r.dtype is engine.bool
    assert r.tolist() == [[False, True, False], [False, False, False]]
    assert (engine.tensor([1, 2]) == engine.tensor([1, 3])).tolist() == [True, False]
    assert (engine.tensor([1, 2]) != 1).tolist() == [False, True]


def test_eq_with_non_numbers_falls_back_to_identity():
    x = x23()
    assert (x == None) is False  # noqa: E711
    assert (x != None) is True  # noqa: E711
    assert (x == "a") is False


# ---- operators with Python scalars ----


@pytest.mark.parametrize(
    "f, data, dtype, expected",
    [
        (lambda x: 2 - x, [1.0, 2.0], engine.float32, [1.0, 0.0]),
        (lambda x: 2**x, [1.0, 2.0], engine.float32, [2.0, 4.0]),
        (lambda x: 2**x, [1, 2], engine.int64, [2, 4]),
        (lambda x: 1 / x, [1.0, 4.0], engine.float32, [1.0, 0.25]),
        (lambda x: 1 / x, [1, 4], engine.float32, [1.0, 0.25]),
        (lambda x: 3 * x, [1, 4], engine.int64, [3, 12]),
        (lambda x: 0.5 + x, [1, 4], engine.float32, [1.5, 4.5]),
        (lambda x: x - 2, [1, 4], engine.int64, [-1, 2]),
        (lambda x: x**2, [1.5], engine.float32, [2.25]),
        (lambda x: x / 2, [3], engine.float32, [1.5]),
        (lambda x: True + x, [1, 4], engine.int64, [2, 5]),
        (lambda x: -x, [1, -4], engine.int64, [-1, 4]),
        (lambda x: abs(x), [1.5, -4.0], engine.float32, [1.5, 4.0]),
    ],
)
def test_operators_with_python_scalars(f, data, dtype, expected):
    r = f(engine.tensor(data))
    assert r.dtype is dtype and r.tolist() == expected


def test_reflected_operators_are_differentiable():
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    (2 - x + 2**x + 1 / x).sum().backward()
    expected = [-1 + 2**v * np.log(2) - 1 / v**2 for v in (1.0, 2.0)]
    np.testing.assert_allclose(x.grad.tolist(), expected, rtol=1e-6)


@pytest.mark.parametrize("other", ["a", [1, 2], None])
def test_operators_with_unsupported_types_raise(other):
    x = engine.tensor([5, 4])
    name = type(other).__name__
    with pytest.raises(TypeError) as info:
        x + other
    assert str(info.value) == f"unsupported operand type(s) for +: 'Tensor' and '{name}'"


# ---- in place ----


@pytest.mark.parametrize(
    "op, expected",
    [
        (lambda t: t.add_(1), [2.0, 3.0]),
        (lambda t: t.add_(engine.tensor([1.0, 1.0]), alpha=2), [3.0, 4.0]),
        (lambda t: t.sub_(1), [0.0, 1.0]),
        (lambda t: t.mul_(2), [2.0, 4.0]),
        (lambda t: t.div_(2), [0.5, 1.0]),
        (lambda t: t.fill_(3), [3.0, 3.0]),
        (lambda t: t.zero_(), [0.0, 0.0]),
        (lambda t: t.copy_(engine.tensor([5, 6])), [5.0, 6.0]),
    ],
)
def test_inplace_returns_self_and_bumps_version(op, expected):
    t = engine.tensor([1.0, 2.0])
    v = t._version
    assert op(t) is t
    assert t._version == v + 1
    assert t.tolist() == expected


def test_augmented_assignment_keeps_identity():
    t = engine.tensor([1.0, 2.0])
    same = t
    t += 1
    t -= 0.5
    t *= 2
    t /= 4
    assert t is same and t._version == 4
    assert t.tolist() == [0.75, 1.25]


def test_copy_broadcasts_and_converts():
    t = engine.zeros(2, 2).copy_(engine.tensor([1, 2]))
    assert t.dtype is engine.float32 and t.tolist() == [[1.0, 2.0], [1.0, 2.0]]
    with pytest.raises(RuntimeError):
        engine.zeros(2).copy_(engine.tensor([1.0, 2.0, 3.0]))


def test_inplace_int_with_float_raises():
    with pytest.raises(RuntimeError) as info:
        engine.tensor([1, 2]).add_(1.5)
    assert str(info.value) == "result type Float can't be cast to the desired output type Long"


def test_fill_int_truncates():
    assert engine.tensor([1, 2]).fill_(2.7).tolist() == [2, 2]


@pytest.mark.parametrize(
    "op",
    [
        lambda t: t.add_(1),
        lambda t: t.mul_(2),
        lambda t: t.sub_(1),
        lambda t: t.div_(2),
        lambda t: t.fill_(1),
        lambda t: t.zero_(),
        lambda t: t.copy_(engine.zeros(2)),
        lambda t: t.__iadd__(1),
    ],
)
def test_inplace_on_leaf_requiring_grad_raises(op):
    t = engine.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        op(t)
    assert (
        str(info.value)
        == "a leaf Variable that requires grad is being used in an in-place operation."
    )
    with engine.no_grad():
        op(t)  # allowed without grad mode


# ---- clone / detach / contiguous / conversions ----


def test_clone_is_a_fresh_copy():
    a = engine.ones(3)
    c = a.clone()
    c.add_(1)
    assert a.tolist() == [1.0] * 3 and c.tolist() == [2.0] * 3
    assert (a._version, c._version) == (0, 1)
    x = engine.ones(2, requires_grad=True)
    assert x.clone().grad_fn.name() == "CloneBackward0"


def test_detach_shares_memory_and_version():
    a = engine.ones(3, requires_grad=True)
    d = a.detach()
    assert not d.requires_grad and d.is_leaf and d.grad_fn is None
    d.add_(1)
    assert a.tolist() == [2.0] * 3
    assert a._version == d._version == 1


def test_contiguous():
    a = engine.ones(2, 3)
    assert a.contiguous() is a
    t = x23().t()
    assert not t.is_contiguous()
    c = t.contiguous()
    assert c.is_contiguous() and c.tolist() == t.tolist() and c.stride() == (2, 1)


def test_to_dtype():
    assert engine.tensor([1.7, -1.7]).to(engine.int64).tolist() == [1, -1]
    assert engine.tensor([1]).to(engine.float64).dtype is engine.float64
    assert engine.ones(1).to(dtype=engine.int32).dtype is engine.int32
    assert engine.ones(1).to(engine.ones(1, dtype=engine.float64)).dtype is engine.float64
    a = engine.ones(1)
    assert a.to(engine.float32) is a and a.float() is a and a.to("cpu") is a


@pytest.mark.parametrize(
    "method, dtype",
    [
        ("float", engine.float32),
        ("double", engine.float64),
        ("long", engine.int64),
        ("int", engine.int32),
        ("bool", engine.bool),
    ],
)
def test_conversion_methods(method, dtype):
    t = getattr(engine.tensor([-1.5, 0.0, 2.5]), method)()
    assert t.dtype is dtype
    assert t.tolist() == np.array([-1.5, 0.0, 2.5]).astype(NP_NAME[dtype]).tolist()


def test_conversion_is_differentiable():
    a = engine.ones(2, requires_grad=True)
    b = a.double()
    assert b.requires_grad and b.grad_fn.name() == "ToCopyBackward0"
    b.sum().backward()
    assert a.grad.dtype is engine.float32 and a.grad.tolist() == [1.0, 1.0]


# ---- formatting ----


def test_format_zero_d():
    assert format(engine.tensor(3.14159), ".2f") == "3.14"
    assert (
        f"{engine.tensor(3.14159):.3f} {engine.tensor(7):d} {engine.tensor(2.5)}" == "3.142 7 2.5"
    )
    assert f"{engine.tensor(True)}" == "True"


def test_format_non_zero_d():
    assert format(engine.tensor([1.0]), "") == "tensor([1.])"
    with pytest.raises(TypeError) as info:
        format(engine.tensor([1.5]), ".2f")
    assert str(info.value) == "unsupported format string passed to Tensor.__format__"
