"""Anomaly mode for built-in ops and nested backward passes (PyTorch 2.13's reports): a failing
built-in node names itself with the traceback of its forward call, a node made by a differentiable
backward also reports the node whose backward made it, every report is shown (no once-per-place
filtering), and a report turned into an error by a warnings filter still reaches stderr."""

import io
import sys
import warnings

import engine as torch
import pytest
from engine.autograd import Function, detect_anomaly

MODIFIED = "one of the variables needed for gradient computation has been modified by an inplace"


def failing_pow():
    a = torch.randn(5, requires_grad=True)
    d1 = a + 1
    d2 = d1**2
    d1 += 1
    torch.autograd.grad(d2.sum(), a)


def test_builtin_node_reports_its_forward_traceback():
    for _ in range(2):  # the same report twice: shown both times
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("default")
            with pytest.raises(RuntimeError, match=MODIFIED):
                with detect_anomaly():
                    failing_pow()
        messages = [str(x.message) for x in w]
        assert len(messages) == 2
        assert "Anomaly Detection has been enabled" in messages[0]
        assert messages[1].startswith(
            "Error detected in PowBackward0. Traceback of forward call that caused the error:"
        )
        assert "failing_pow" in messages[1]


def test_report_turned_into_an_error_goes_to_stderr():
    captured = io.StringIO()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("default")
        with pytest.raises(RuntimeError, match=MODIFIED):
            with detect_anomaly():
                warnings.simplefilter("error")
                old, sys.stderr = sys.stderr, captured
                try:
                    failing_pow()
                finally:
                    sys.stderr = old
    assert "Error detected in PowBackward0" in captured.getvalue()


class Outer(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return Inner.apply(g * x)


class Inner(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g + float("nan")


def test_nested_report_names_the_inducing_node():
    inp = torch.rand(3, requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("default")
        with pytest.raises(
            RuntimeError, match="Function 'InnerBackward' returned nan values in its 0th output."
        ):
            with detect_anomaly():
                out = Outer.apply(inp)
                (g,) = torch.autograd.grad(out.sum(), (inp,), create_graph=True)
                g.sum().backward()
    messages = [str(x.message) for x in w]
    assert messages[1].startswith("Error detected in InnerBackward. Traceback of forward call")
    assert "Inner.apply" in messages[1]
    assert messages[2].startswith("\n\nPrevious calculation was induced by OuterBackward.")
    assert "Outer.apply" in messages[2]


def test_graph_built_outside_anomaly_mode_has_no_forward_information():
    a = torch.randn(3, requires_grad=True)
    d1 = a + 1
    d2 = d1**2
    d1 += 1
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("default")
        with pytest.raises(RuntimeError, match=MODIFIED):
            with detect_anomaly():
                d2.sum().backward()
    assert str(w[1].message) == (
        "Error detected in PowBackward0. No forward pass information available. Enable detect "
        "anomaly during forward pass for more information."
    )
