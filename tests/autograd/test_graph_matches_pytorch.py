"""The recorded graph as PyTorch 2.13 records it: node names, next_functions and saved attributes
of div with a rounding mode, clamp with number bounds, in-place ops on non-leaves (linked to the
producer, no clone in between) and through views (CopySlices running the write), threshold_;
linalg.lu's P; the Tensor class's own type in CPython's messages."""

import threading

import engine as torch
import engine.nn.functional as F
import pytest
from engine.autograd import gradcheck, gradgradcheck


def _next(t):
    return [None if f is None else type(f).__name__ for f, _ in t.grad_fn.next_functions]


def _leaf(*shape, low=-1.0, high=1.0):
    return (torch.rand(*shape, dtype=torch.float64) * (high - low) + low).requires_grad_()


# ---- div's rounding modes: one DivBackward2 node, edges to both operands ----


@pytest.mark.parametrize("mode", [None, "trunc", "floor"])
def test_div_with_rounding_mode_records_divbackward2(mode):
    a, b = _leaf(4), _leaf(4, low=0.5, high=2.0)
    for y in (torch.div(a, b, rounding_mode=mode), a.div(b, rounding_mode=mode)):
        assert y.grad_fn.name() == "DivBackward2"
        assert _next(y) == ["AccumulateGrad", "AccumulateGrad"]
        assert y.grad_fn._saved_rounding_mode == mode
        assert y.grad_fn._saved_other is b or torch.equal(y.grad_fn._saved_other, b)
        assert torch.equal(y.grad_fn._saved_self, a)
    y = torch.div(a, 2.0, rounding_mode=mode)
    assert _next(y) == ["AccumulateGrad", None]
    assert y.grad_fn._saved_self is None  # kept only when the divisor needs a gradient
    other = y.grad_fn._saved_other
    assert other.dtype == torch.float64 and other.item() == 2.0


def test_div_without_rounding_mode_records_divbackward0():
    a, b = _leaf(3), _leaf(3, low=0.5)
    assert torch.div(a, b).grad_fn.name() == "DivBackward0"
    assert (a / b).grad_fn.name() == "DivBackward0"
    assert torch.true_divide(a, b).grad_fn.name() == "DivBackward0"


def test_div_rounding_mode_none_gradient():
    a, b = _leaf(4), _leaf(4, low=0.5, high=2.0)
    assert gradcheck(lambda a, b: torch.div(a, b, rounding_mode=None), (a, b))
    assert gradgradcheck(lambda a, b: torch.div(a, b, rounding_mode=None), (a, b))


@pytest.mark.parametrize("mode", ["trunc", "floor"])
def test_rounded_div_values_and_zero_gradient(mode):
    a = torch.tensor([7.5, -7.5, 3.0, -0.5], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([2.0, 2.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
    y = torch.div(a, b, rounding_mode=mode)
    expected = [3.0, -3.0, -1.0, -0.0] if mode == "trunc" else [3.0, -4.0, -2.0, -1.0]
    assert y.tolist() == expected
    y.sum().backward()
    assert a.grad.tolist() == [0.0] * 4 and b.grad.tolist() == [0.0] * 4


def test_div_in_place_with_rounding_mode_links_to_the_producer():
    a = _leaf(4)
    y = a * 3
    y.div_(2.0, rounding_mode="floor")
    assert y.grad_fn.name() == "DivBackward2"
    assert _next(y) == ["MulBackward0", None]


# ---- in-place ops on a non-leaf: the node links to the producer ----

INPLACE = {
    "mul_": lambda y, o: y.mul_(o),
    "div_": lambda y, o: y.div_(o.abs() + 1),
    "exp_": lambda y, o: y.exp_(),
    "sigmoid_": lambda y, o: y.sigmoid_(),
    "tanh_": lambda y, o: y.tanh_(),
    "relu_": lambda y, o: y.relu_(),
    "abs_": lambda y, o: y.abs_(),
    "clamp_": lambda y, o: y.clamp_(-0.5, 0.5),
    "threshold_": lambda y, o: F.threshold(y, 0.1, 2.0, inplace=True),
}
NODE = {
    "mul_": "MulBackward0",
    "div_": "DivBackward0",
    "exp_": "ExpBackward0",
    "sigmoid_": "SigmoidBackward0",
    "tanh_": "TanhBackward0",
    "relu_": "ReluBackward0",
    "abs_": "AbsBackward0",
    "clamp_": "ClampBackward1",
    "threshold_": "ThresholdBackward1",
}


@pytest.mark.parametrize("op", sorted(INPLACE))
def test_inplace_on_non_leaf_links_to_producer(op):
    x, o = _leaf(5), _leaf(5)
    y = x * 2
    INPLACE[op](y, o)
    assert y.grad_fn.name() == NODE[op]
    assert _next(y)[0] == "MulBackward0"


@pytest.mark.parametrize("op", sorted(INPLACE))
def test_inplace_on_non_leaf_gradients(op):
    # Points away from the kinks of relu, abs, clamp and threshold.
    x = torch.tensor([-0.9, -0.3, 0.2, 0.35, 0.8], dtype=torch.float64, requires_grad=True)
    o = torch.tensor([0.7, -1.2, 0.4, 1.1, -0.6], dtype=torch.float64, requires_grad=True)

    def f(x, o):
        y = x * 1.5
        return INPLACE[op](y, o)

    assert gradcheck(f, (x, o))
    assert gradgradcheck(f, (x, o))


def test_saved_input_of_inplace_op_is_the_old_value():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    o = torch.tensor([3.0, 4.0], requires_grad=True)
    y = x * 2
    y.mul_(o)
    assert y.grad_fn._saved_self.tolist() == [2.0, 4.0]
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 8.0] and o.grad.tolist() == [2.0, 4.0]


# ---- clamp with number bounds ----


def test_clamp_number_bounds_node():
    x = _leaf(4)
    y = x.clamp(0, 1)
    assert y.grad_fn.name() == "ClampBackward1"
    assert _next(y) == ["AccumulateGrad"]
    assert (y.grad_fn._saved_min, y.grad_fn._saved_max) == (0, 1)
    assert torch.equal(y.grad_fn._saved_self, x)
    y = x.clamp(min=0.5)
    assert (y.grad_fn._saved_min, y.grad_fn._saved_max) == (0.5, None)
    y = torch.clamp_min(x, 0.5)
    assert y.grad_fn.name() == "ClampMinBackward0" and y.grad_fn._saved_min == 0.5
    assert not hasattr(y.grad_fn, "_saved_max")
    y = torch.clamp_max(x, 1)
    assert y.grad_fn.name() == "ClampMaxBackward0" and y.grad_fn._saved_max == 1
    assert x.clip(-0.1, 0.1).grad_fn.name() == "ClampBackward1"


def test_clamp_number_bounds_gradient():
    x = torch.tensor([-2.0, -0.4, 0.3, 0.9, 3.0], dtype=torch.float64, requires_grad=True)
    for f in (
        lambda x: x.clamp(-0.5, 0.5),
        lambda x: x.clamp(min=0.0),
        lambda x: x.clamp(max=0.0),
        lambda x: torch.clamp_min(x, 0.1),
        lambda x: torch.clamp_max(x, 0.1),
    ):
        assert gradcheck(f, (x,))
        assert gradgradcheck(f, (x,))


def test_clamp_gradient_is_zero_at_nan():
    x = torch.tensor([float("nan"), 0.5], requires_grad=True)
    y = x.clamp(0.0, 1.0)
    assert torch.isnan(y[0])
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0]


def test_clamp_in_place_through_view_runs_inside_copyslices():
    x = _leaf(6)
    y = x * 2
    y[1:4].clamp_(-0.5, 0.5)
    assert y.grad_fn.name() == "CopySlices"
    assert _next(y) == ["MulBackward0"]

    def f(x):
        y = x * 2
        y[1:4].clamp_(-0.5, 0.5)
        return y

    x = torch.tensor([-0.9, -0.4, 0.1, 0.6, 0.2, 0.8], dtype=torch.float64, requires_grad=True)
    assert gradcheck(f, (x,))
    assert gradgradcheck(f, (x,))


def test_threshold_in_place_gradient_where_value_is_above_threshold():
    # Overwritten elements get value (5) above the threshold (1): their gradient is still zero.
    x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    z = F.threshold(x * 1, 1.0, 5.0, inplace=True)
    assert z.tolist() == [5.0, 5.0, 2.0]
    assert z.grad_fn._saved_threshold == 1.0
    assert z.grad_fn._saved_self.tolist() == [-1.0, 0.5, 2.0]
    z.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 1.0]


# ---- linalg.lu's P, the Tensor class's type ----


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_lu_permutation_is_not_a_view(dtype):
    A = torch.randn(3, 3, dtype=dtype)
    P, L, U = torch.linalg.lu(A)
    assert not P._is_view() and not L._is_view() and not U._is_view()
    assert torch.allclose(P @ L @ U, A, atol=1e-5)


MISUSE = [
    (lambda t: t % torch.Tensor, "unsupported operand type(s) for %: 'Tensor' and 'engine._C._TensorMeta'"),
    (lambda t: torch.Tensor + t, "unsupported operand type(s) for +: 'engine._C._TensorMeta' and 'Tensor'"),
    (lambda t: torch.Tensor <= t, "'<=' not supported between instances of 'engine._C._TensorMeta' and 'Tensor'"),
    (lambda t: format(torch.Tensor, "x"), "unsupported format string passed to engine._C._TensorMeta.__format__"),
    (lambda t: iter(torch.Tensor), "'engine._C._TensorMeta' object is not iterable"),
]  # fmt: skip


@pytest.mark.parametrize("call, message", MISUSE)
def test_tensor_class_misuse_names_its_metaclass(call, message):
    t = torch.tensor([1, 2])
    with pytest.raises(TypeError) as info:
        call(t)
    assert str(info.value) == message


def test_in_place_or_with_the_class_raises_typeerror():
    t = torch.tensor([1, 2])
    with pytest.raises(TypeError, match="_TensorMeta"):
        t |= torch.Tensor


def test_tensor_subclasses_share_the_metaclass():
    class Sub(torch.Tensor):
        pass

    assert type(torch.Tensor) is torch._C._TensorMeta
    assert type(Sub) is torch._C._TensorMeta
    assert isinstance(torch.nn.Parameter(torch.ones(1)), torch.Tensor)


# ---- autocast is per thread ----


def test_autocast_state_is_per_thread():
    seen = {}

    def probe(tag):
        a = torch.randn(2, 2)
        seen[tag] = (
            torch.is_autocast_enabled("cpu"),
            torch.get_autocast_dtype("cpu"),
            torch.is_autocast_cache_enabled(),
            (a @ a).dtype,
        )

    with torch.autocast("cpu", dtype=torch.bfloat16, cache_enabled=False):
        torch.set_autocast_dtype("cpu", torch.float16)
        probe("main")
        worker = threading.Thread(target=probe, args=("thread",))
        worker.start()
        worker.join()
    probe("after")
    assert seen["main"] == (True, torch.float16, False, torch.float16)
    assert seen["thread"] == (False, torch.bfloat16, True, torch.float32)
    assert seen["after"] == (False, torch.bfloat16, True, torch.float32)


def test_autocast_region_on_another_thread_leaves_this_one_alone():
    entered, release = threading.Event(), threading.Event()
    seen = {}

    def worker():
        with torch.autocast("cpu"):
            a = torch.randn(2, 2)
            seen["worker"] = (a @ a).dtype
            entered.set()
            release.wait(10)

    t = threading.Thread(target=worker)
    t.start()
    try:
        assert entered.wait(10)
        a = torch.randn(2, 2)
        assert not torch.is_autocast_enabled("cpu")
        assert (a @ a).dtype == torch.float32
    finally:
        release.set()
        t.join()
    assert seen["worker"] == torch.bfloat16
    a = torch.randn(2, 2)
    assert (a @ a).dtype == torch.float32


# ---- a Python number operand has no edge (PyTorch's Scalar overloads); where's condition none ----

SCALAR_FORMS = {
    "2 - x": (lambda x: 2 - x, "RsubBackward1", ["AccumulateGrad"], ["_saved_alpha"]),
    "x ** 2": (
        lambda x: x**2,
        "PowBackward0",
        ["AccumulateGrad"],
        ["_saved_exponent", "_saved_self"],
    ),
    "2 ** x": (
        lambda x: 2**x,
        "PowBackward2",
        ["AccumulateGrad"],
        ["_saved_exponent", "_saved_result", "_saved_self"],
    ),
    "-x": (lambda x: -x, "NegBackward0", ["AccumulateGrad"], []),
    "fmod(x, 0.3)": (lambda x: torch.fmod(x, 0.3), "FmodBackward0", ["AccumulateGrad"], []),
    "remainder(x, 0.3)": (
        lambda x: torch.remainder(x, 0.3),
        "RemainderBackward0",
        ["AccumulateGrad"],
        [],
    ),
    "remainder(x, x + 1)": (
        lambda x: torch.remainder(x, x + 1),
        "RemainderBackward1",
        ["AccumulateGrad", "AddBackward0"],
        ["_saved_other", "_saved_self"],
    ),
    "fmod(x, x + 1)": (
        lambda x: torch.fmod(x, x + 1),
        "FmodBackward1",
        ["AccumulateGrad", "AddBackward0"],
        ["_saved_other", "_saved_self"],
    ),
    "where": (
        lambda x: torch.where(x > 1, x, x * 3),
        "WhereBackward0",
        ["AccumulateGrad", "MulBackward0"],
        ["_saved_condition"],
    ),
}


@pytest.mark.parametrize("form", sorted(SCALAR_FORMS))
def test_number_operands_have_no_edge(form):
    f, name, nexts, saved = SCALAR_FORMS[form]
    x = _leaf(4, low=0.5, high=1.5)
    y = f(x)
    assert y.grad_fn.name() == name
    assert _next(y) == nexts
    assert sorted(a for a in dir(y.grad_fn) if a.startswith("_saved")) == saved
    x = torch.tensor([0.65, 0.95, 1.25, 1.4], dtype=torch.float64, requires_grad=True)
    assert gradcheck(f, (x,))
    assert gradgradcheck(f, (x,))


def test_in_place_forms_with_a_number_link_to_the_producer():
    x = _leaf(3, low=0.5)
    for write, name in (
        (lambda y: y.pow_(2), "PowBackward0"),
        (lambda y: y.neg_(), "NegBackward0"),
    ):
        y = x * 2
        write(y)
        assert y.grad_fn.name() == name
        assert _next(y) == ["MulBackward0"]
