"""The "modified by an inplace operation" error names the op as PyTorch 2.13 does: by its name
without "Backward0" ("output 0 of Exp"), a saved input by the op that wrote it last, a saved output
by the op that saved it, a custom Function by its class."""

import re

import engine as torch
import pytest


def message(shape, op):
    where = f", which is output 0 of {op}," if op else ""
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [torch.FloatTensor [{shape}]]{where} is at version 1; expected version 0 instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
        "with torch.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def saved_output_written():
    y = torch.randn(4, requires_grad=True).exp()
    y.add_(1)
    return y.sum()


def saved_output_written_by_index():
    y = torch.randn(4, requires_grad=True).sigmoid()
    y[torch.tensor([0])] = 1.0
    return y.sum()


def saved_input_written_later():
    x2 = torch.randn(4, requires_grad=True) * 1
    y = x2 * x2
    x2.add_(1)
    return y.sum()


def saved_input_written_without_grad():
    x2 = torch.randn(4, requires_grad=True) * 1
    y = x2 * x2
    with torch.no_grad():
        x2.mul_(2)
    return y.sum()


def saved_leaf_written_without_grad():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    y = x * x
    with torch.no_grad():
        x.mul_(2)
    return y.sum()


class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * 2


def custom_output_written():
    y = Twice.apply(torch.randn(4, requires_grad=True))
    y.add_(1)
    return y.sum()


@pytest.mark.parametrize(
    "build, op",
    [
        (saved_output_written, "Exp"),
        (saved_output_written_by_index, "Sigmoid"),
        (saved_input_written_later, "Add"),
        (saved_input_written_without_grad, "Mul"),
        (saved_leaf_written_without_grad, None),
        (custom_output_written, "Twice"),
    ],
)
def test_inplace_error_names_the_op(build, op):
    loss = build()
    with pytest.raises(RuntimeError, match="^" + re.escape(message(4, op)) + "$"):
        loss.backward()
