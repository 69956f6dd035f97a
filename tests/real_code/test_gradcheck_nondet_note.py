"""gradcheck's "Backward is not reentrant" error carries PyTorch's note line for line (a script
that lets the error through prints its last line).

Recorded from PyTorch 2.13; with torch installed the same check runs on it too.
"""

from __future__ import annotations

import pytest


def test_not_reentrant_message(lib):
    calls = [0]

    class Drifting(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            calls[0] += 1
            return grad * (2 + 1e-3 * calls[0])  # a little different every call

    x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    with pytest.raises(RuntimeError) as info:  # GradcheckError
        lib.autograd.gradcheck(Drifting.apply, (x,))
    text = str(info.value)
    assert text.startswith("Backward is not reentrant")
    assert (
        "https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html\n"
        in text
    )
    assert text.splitlines()[-1] == "  module_test entry to have `gradcheck_nondet_tol=<tol>`"
