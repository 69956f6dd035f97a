"""The generic names of python/engine/_method_aliases.py: in-place variants of the ops (values,
dtype rules and errors, version counter, leaf check, history), the shape-changing in-place views,
the torch.<op>_ functions, and the aliases.
"""

from __future__ import annotations

import engine
import numpy as np
import pytest
from engine import _method_aliases
from engine.autograd import gradcheck

# (method, extra args, input domain) for in-place variants checked against their out-of-place op.
UNARY = [
    ("acos", (), "unit"),
    ("acosh", (), "gt1"),
    ("asinh", (), "real"),
    ("atanh", (), "unit"),
    ("lgamma", (), "pos"),
    ("digamma", (), "pos"),
    ("polygamma", (2,), "pos"),
    ("mvlgamma", (2,), "gt1"),
    ("erfc", (), "real"),
    ("erfinv", (), "unit"),
    ("i0", (), "real"),
    ("sinc", (), "real"),
    ("frac", (), "real"),
    ("deg2rad", (), "real"),
    ("rad2deg", (), "real"),
    ("sigmoid", (), "real"),
    ("square", (), "real"),
    ("logit", (), "unit01"),
    ("nan_to_num", (), "real"),
    ("cumsum", (1,), "real"),
    ("cumprod", (0,), "real"),
    ("clamp_min", (0.1,), "real"),
    ("clamp_max", (0.1,), "real"),
    ("tril", (), "real"),
    ("triu", (1,), "real"),
    ("absolute", (), "real"),
    ("arccosh", (), "gt1"),
    ("negative", (), "real"),
    ("fix", (), "real"),
    ("float_power", (2.0,), "pos"),
]
BINARY = [
    "sub", "xlogy", "copysign", "hypot", "nextafter",
    "ldexp", "igamma", "igammac", "float_power", "atan2", "arctan2", "multiply", "divide",
    "subtract", "true_divide", "eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal",
    "less", "less_equal", "not_equal", "logical_and", "logical_or", "logical_xor",
]  # fmt: skip


def _values(domain, shape=(3, 4), seed=0):
    rng = np.random.default_rng(seed)
    if domain == "real":
        return rng.uniform(-2, 2, shape)
    if domain == "pos":
        return rng.uniform(0.5, 2, shape)
    if domain == "gt1":
        return rng.uniform(1.5, 3, shape)
    if domain == "unit":
        return rng.uniform(-0.9, 0.9, shape)
    if domain == "unit01":
        return rng.uniform(0.1, 0.9, shape)
    raise ValueError(domain)


def _tensor(values):
    return engine.tensor(values.tolist(), dtype=engine.float64)


@pytest.mark.parametrize("name,args,domain", UNARY, ids=[u[0] for u in UNARY])
def test_unary_inplace_matches_out_of_place(name, args, domain):
    x = _tensor(_values(domain))
    expected = getattr(x, name)(*args)
    y = x.clone()
    version = y._version
    r = getattr(y, name + "_")(*args)
    assert r is y
    assert y._version == version + 1
    assert y.dtype == engine.float64
    np.testing.assert_allclose(np.array(y.tolist()), np.array(expected.tolist()), rtol=1e-12)


@pytest.mark.parametrize("name", BINARY)
def test_binary_inplace_matches_out_of_place(name):
    a = _tensor(_values("pos", seed=1))
    b = _tensor(_values("pos", (4,), seed=2))
    expected = getattr(a, name)(b)
    y = a.clone()
    assert getattr(y, name + "_")(b) is y
    np.testing.assert_allclose(
        np.array(y.tolist()), np.array(expected.to(engine.float64).tolist()), rtol=1e-12
    )


def test_integer_inplace_variants():
    x = engine.tensor([12, 18, 5])
    assert x.gcd_(engine.tensor([8, 4, 10])).tolist() == [4, 2, 5]
    assert x.lcm_(engine.tensor([6, 3, 4])).tolist() == [12, 6, 20]
    assert x.bitwise_left_shift_(1).tolist() == [24, 12, 40]
    assert x.bitwise_right_shift_(engine.tensor([3, 2, 1])).tolist() == [3, 3, 20]
    assert x.eq_(3).tolist() == [1, 1, 0] and x.dtype == engine.int64


def test_result_must_cast_to_self_dtype():
    with pytest.raises(
        RuntimeError, match="result type Float can't be cast to the desired output type Long"
    ):
        engine.tensor([1, 2]).lgamma_()
    with pytest.raises(
        RuntimeError, match="result type Float can't be cast to the desired output type Int"
    ):
        engine.tensor([1, 2], dtype=engine.int32).sinc_()
    with pytest.raises(
        RuntimeError, match="result type Long can't be cast to the desired output type Bool"
    ):
        engine.tensor([True]).add_(1)
    with pytest.raises(
        RuntimeError, match="output with shape \\[2\\] doesn't match the broadcast shape"
    ):
        engine.tensor([1.0, 2.0]).copysign_(engine.ones(3, 2))
    # A float self takes integer and bool results.
    assert engine.tensor([1.0, 3.0]).lt_(2).tolist() == [1.0, 0.0]


def test_leaf_requiring_grad_is_refused():
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    for call in (lambda: x.lgamma_(), lambda: x.t_(), lambda: x.cumsum_(0), lambda: x.xlogy_(2)):
        with pytest.raises(
            RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"
        ):
            call()
    with engine.no_grad():
        x.digamma_()  # allowed without grad mode, as in PyTorch
    v = x.detach()[:1]
    v.erfc_()


def test_autograd_through_inplace_variants():
    def fn(x, w):
        y = x * 1
        y.lgamma_()
        y.mul_(w)
        y.copysign_(w)
        y.cumsum_(0)
        return y

    x = engine.tensor([0.7, 1.3, 2.2], dtype=engine.float64, requires_grad=True)
    w = engine.tensor([0.4, -0.2, 1.1], dtype=engine.float64, requires_grad=True)
    assert gradcheck(fn, (x, w))
    y = x * 1
    y.digamma_()
    assert y.grad_fn.name() == "DigammaBackward0"


def test_inplace_through_a_view_reaches_the_base():
    x = engine.tensor([[0.5, 1.0], [1.5, 2.0]], dtype=engine.float64, requires_grad=True)
    y = x * 1
    y[0].lgamma_()
    y.sum().backward()
    expected = [
        [float(v) for v in engine.digamma(engine.tensor([0.5, 1.0], dtype=engine.float64))],
        [1.0, 1.0],
    ]
    np.testing.assert_allclose(np.array(x.grad.tolist()), expected, rtol=1e-12)


def test_saved_tensor_modified_in_place_is_detected():
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()  # saves its result
    y.sinc_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


@pytest.mark.parametrize(
    "call,shape",
    [
        (lambda t: t.t_(), (3, 2)),
        (lambda t: t.transpose_(0, 1), (3, 2)),
        (lambda t: t.swapaxes_(0, 1), (3, 2)),
        (lambda t: t.swapdims_(1, 0), (3, 2)),
        (lambda t: t.unsqueeze_(1), (2, 1, 3)),
        (lambda t: t.unsqueeze_(1).squeeze_(1), (2, 3)),
        (lambda t: t.unsqueeze_(0).squeeze_(), (2, 3)),
    ],
    ids=["t_", "transpose_", "swapaxes_", "swapdims_", "unsqueeze_", "squeeze_dim", "squeeze_all"],
)
def test_shape_changing_inplace_views(call, shape):
    base = engine.arange(6.0).reshape(2, 3)
    x = base.clone()
    ptr, version = x.data_ptr(), x._version
    assert call(x) is x
    assert tuple(x.shape) == shape
    assert x.data_ptr() == ptr and x._version > version
    np.testing.assert_array_equal(
        np.array(x.reshape(-1).tolist()) if shape != (3, 2) else np.array(x.tolist()),
        np.array(base.reshape(-1).tolist()) if shape != (3, 2) else np.array(base.t().tolist()),
    )


def test_shape_changing_inplace_keeps_history():
    x = engine.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    y = x * engine.tensor([[1.0, 2.0, 3.0]])
    y.t_()
    assert tuple(y.shape) == (3, 1)
    (y * engine.tensor([[1.0], [10.0], [100.0]])).sum().backward()
    assert x.grad.tolist() == [[1.0, 20.0, 300.0]]
    z = x * 1
    z.squeeze_(0)
    assert z.grad_fn is not None and tuple(z.shape) == (3,)


def test_function_forms_of_inplace_ops():
    for name in _method_aliases.FUNCTION_INPLACE:
        assert callable(getattr(engine, name)), name
    x = engine.tensor([-1.0, 4.0])
    assert engine.abs_(x) is x and x.tolist() == [1.0, 4.0]
    assert engine.sqrt_(x).tolist() == [1.0, 2.0]
    assert engine.clamp_min_(x, 1.5).tolist() == [1.5, 2.0]
    assert engine.gcd_(engine.tensor([4, 6]), engine.tensor([6, 4])).tolist() == [2, 2]
    with pytest.raises(
        TypeError, match="abs_\\(\\): argument 'input' \\(position 1\\) must be Tensor, not int"
    ):
        engine.abs_(3)


def test_aliases_are_the_original_functions():
    for alias, target in _method_aliases.ALIASES.items():
        assert getattr(engine, alias) is getattr(engine, target), alias
        assert getattr(engine.Tensor, alias) is getattr(engine.Tensor, target), alias
    for alias, target in _method_aliases.TENSOR_ALIASES.items():
        assert getattr(engine.Tensor, alias) is getattr(engine.Tensor, target), alias
    x = engine.tensor([[1.0, 2.0]])
    assert x.ndimension() == 2 and x.nelement() == 2
    assert engine.positive(x) is x and x.positive() is x
    with pytest.raises(
        RuntimeError, match="The `\\+` operator, on a bool tensor is not supported."
    ):
        engine.positive(engine.tensor([True]))
    assert tuple(engine.swapaxes(engine.ones(2, 3), 0, 1).shape) == (3, 2)
    assert tuple(engine.swapdims(engine.ones(2, 3), dim0=0, dim1=1).shape) == (3, 2)
    assert tuple(engine.ones(2, 3).swapaxes(axis0=0, axis1=1).shape) == (3, 2)


def test_alias_gradients_match_the_original():
    x = engine.tensor([1.5, 2.5], dtype=engine.float64, requires_grad=True)
    engine.arccosh(x).sum().backward()
    g_alias = x.grad.tolist()
    x.grad = None
    engine.acosh(x).sum().backward()
    assert g_alias == x.grad.tolist()


def test_every_name_of_the_brief_exists():
    names = (
        "acosh asinh atanh lgamma digamma polygamma mvlgamma erfc erfinv i0 sinc signbit frac "
        "deg2rad rad2deg logit exp2 nan_to_num copysign heaviside nextafter ldexp gcd lcm fmax fmin "
        "igamma igammac float_power logaddexp logaddexp2 xlogy hypot bitwise_left_shift "
        "bitwise_right_shift frexp absolute arccos arcsin arctan arctan2 arccosh arcsinh arctanh "
        "greater greater_equal less less_equal not_equal multiply divide subtract true_divide "
        "negative positive fix swapaxes swapdims clip_"
    ).split()
    for name in names:
        assert hasattr(engine, name), name
    tensor_names = names + "ndimension nelement t_ squeeze_ unsqueeze_ transpose_ swapaxes_".split()
    tensor_names += (
        "acos_ cumsum_ clamp_min_ addmm_ sigmoid_ sub_ xlogy_ tril_ triu_ logical_and_".split()
    )
    tensor_names += "eq_ ne_ lt_ le_ gt_ ge_ __lshift__ __rshift__ __rlshift__ __rrshift__".split()
    for name in tensor_names:
        assert hasattr(engine.Tensor, name), name


def test_addmm_inplace():
    a = engine.ones(2, 2)
    m = engine.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert a.addmm_(m, m, beta=2, alpha=0.5).tolist() == [[5.5, 7.0], [9.5, 13.0]]
