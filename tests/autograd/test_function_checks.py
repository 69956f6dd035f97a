"""Checked mode (engine.autograd.set_function_checks): the first call of each custom Function class
that records a graph is gradient-checked on float64 copies of its inputs, and a backward that
disagrees with finite differences is reported by a FunctionCheckWarning naming the class, the
input and the worst element. Off, Function.apply is the native entry point itself."""

import os
import subprocess
import sys
import time
import warnings

import engine as torch
import pytest
from engine.autograd import FunctionCheckWarning, set_function_checks
from engine.autograd._function_checks import is_function_checks_enabled

NATIVE_APPLY = torch.autograd.Function.__dict__["apply"]


@pytest.fixture
def checks():
    set_function_checks(True)
    yield
    set_function_checks(False)


def make_classes(factor):
    """The three forward styles (the seed examples'), each with backward scaled by ``factor``
    (1: right, else wrong). Fresh classes each time: each is checked once."""

    class MulByTwo(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            (x,) = inputs
            ctx.save_for_backward(x)

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * 2 * factor

    class Power(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, exponent):
            return x**exponent

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, exponent = inputs
            ctx.save_for_backward(x, output)
            ctx.exponent = exponent

        @staticmethod
        def backward(ctx, grad_output):
            x, _ = ctx.saved_tensors
            return grad_output * ctx.exponent * x ** (ctx.exponent - 1) * factor, None

    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x**3

        @staticmethod
        def setup_context(ctx, inputs, output):
            (x,) = inputs
            ctx.save_for_backward(x)

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return grad_output * 3 * x**2 * factor

    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad_output):
            (y,) = ctx.saved_tensors
            return grad_output * y * factor

    return MulByTwo, Power, Cube, Exp


def call(cls, x):
    return cls.apply(x, 3) if cls.__name__ == "Power" else cls.apply(x)


class WrongSecondInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x * w

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        wrong = grad * x
        wrong[1, 2] = wrong[1, 2] + 1.0  # one element off
        return grad * w, wrong


def test_off_by_default_and_apply_is_the_native_entry_point():
    assert not is_function_checks_enabled()
    assert torch.autograd.Function.__dict__["apply"] is NATIVE_APPLY
    (bad, *_) = make_classes(2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bad.apply(torch.randn(3, requires_grad=True))


def test_switch_swaps_apply_and_back():
    set_function_checks(True)
    try:
        assert is_function_checks_enabled()
        assert torch.autograd.Function.__dict__["apply"] is not NATIVE_APPLY
    finally:
        set_function_checks(False)
    assert torch.autograd.Function.__dict__["apply"] is NATIVE_APPLY


@pytest.mark.parametrize("index", range(4), ids=["ctx+setup_context", "power", "new", "old"])
def test_right_backward_passes_silently_in_every_style(checks, index):
    cls = make_classes(1.0)[index]
    x = torch.randn(3, 4, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = call(cls, x)
    y.sum().backward()
    assert x.grad is not None


@pytest.mark.parametrize("index", range(4), ids=["ctx+setup_context", "power", "new", "old"])
def test_wrong_backward_warns_once_per_class_in_every_style(checks, index):
    cls = make_classes(1.5)[index]
    # Fixed values away from 0, where every style's gradient is large enough for the check to
    # see the 1.5x error in each element (random ones made the count depend on the stream).
    x = torch.linspace(0.5, 2.0, 12).reshape(3, 4).requires_grad_()
    with pytest.warns(FunctionCheckWarning) as record:
        y = call(cls, x)
    assert len(record) == 1
    message = str(record[0].message)
    assert message.startswith(f"{cls.__name__}.backward disagrees with finite differences")
    assert "input 0 ('x'), shape (3, 4): at index (" in message
    assert "12 of the 12 elements checked disagree" in message
    assert record[0].filename == __file__  # points at the caller's line
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        call(cls, x)  # checked already: no second warning
    # the user's call is untouched: its value, and the (wrong) gradient it was written to give
    torch.testing.assert_close(y, call(make_classes(1.0)[index], x.detach()))


def test_worst_element_and_input_are_named(checks):
    x = torch.randn(3, 4, requires_grad=True)
    w = torch.randn(3, 4, requires_grad=True)
    with pytest.warns(FunctionCheckWarning) as record:
        WrongSecondInput.apply(x, w)
    message = str(record[0].message)
    assert "input 1 ('w'), shape (3, 4): at index (1, 2)" in message
    assert "1 of the 12 elements checked disagree" in message
    assert "input 0" not in message


def test_only_inputs_that_require_grad_are_checked(checks):
    x = torch.randn(3, 4, requires_grad=True)
    w = torch.randn(3, 4)  # its wrong gradient is never used
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        WrongSecondInput.apply(x, w)


def test_no_check_without_a_graph_then_a_check_later(checks):
    bad = make_classes(3.0)[2]
    x = torch.randn(4, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with torch.no_grad():
            bad.apply(x)
        bad.apply(x.detach())  # nothing requires grad
    with pytest.warns(FunctionCheckWarning, match="Cube.backward disagrees"):
        bad.apply(x)


def test_large_inputs_are_checked_on_a_sample_quickly(checks):
    bad = make_classes(1.01)[3]
    x = torch.randn(200, 300, requires_grad=True) * 0.1
    start = time.perf_counter()
    with pytest.warns(FunctionCheckWarning) as record:
        bad.apply(x)
    assert time.perf_counter() - start < 10
    assert "of the 64 elements checked (a sample of its 60000) disagree" in str(record[0].message)


def test_float32_inputs_are_copied_to_float64_and_left_alone(checks):
    seen = []

    class Record(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(x.dtype)
            return x.sin()

        @staticmethod
        def backward(ctx, grad):
            return grad * 0.0  # wrong: caught only if the check runs in float64 precision

    x = torch.randn(5, requires_grad=True)
    before = x.detach().clone()
    with pytest.warns(FunctionCheckWarning):
        y = Record.apply(x)
    assert seen[0] == torch.float32 and set(seen[1:]) == {torch.float64}
    assert y.dtype == torch.float32
    torch.testing.assert_close(x.detach(), before, rtol=0, atol=0)


def test_in_place_function_with_mark_dirty(checks):
    class AddOneInPlace(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad

    x = torch.randn(4, requires_grad=True).clone()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        AddOneInPlace.apply(x)


def test_a_backward_that_raises_is_reported_not_raised(checks):
    class Broken(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            raise ValueError("bug in backward")

    x = torch.randn(3, requires_grad=True)
    with pytest.warns(FunctionCheckWarning, match="Broken could not be checked.*bug in backward"):
        y = Broken.apply(x)
    torch.testing.assert_close(y, x.detach() * 2)


def test_warning_can_be_silenced_per_class(checks):
    bad = make_classes(2.0)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=FunctionCheckWarning, message="MulByTwo")
        bad.apply(torch.randn(2, requires_grad=True))


def test_multiple_outputs_and_non_tensor_outputs(checks):
    class SplitHalves(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x[:2] * 2, x[2:].exp(), "label"

        @staticmethod
        def backward(ctx, g1, g2, _):
            return torch.cat([g1 * 2, g2 * 0.5])  # wrong for the second half

    x = torch.randn(5, requires_grad=True)
    with pytest.warns(FunctionCheckWarning) as record:
        SplitHalves.apply(x)
    assert "3 of the 5 elements checked disagree" in str(record[0].message)


def test_environment_variable_switches_checks_on_at_import():
    env = dict(os.environ, ENGINE_CHECK_FUNCTIONS="1")
    code = "import engine; print(engine.autograd._function_checks.is_function_checks_enabled())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr
    env["ENGINE_CHECK_FUNCTIONS"] = "0"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr
