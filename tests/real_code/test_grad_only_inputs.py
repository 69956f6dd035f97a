"""``autograd.grad(..., only_inputs=True)``: PyTorch's deprecated argument, accepted (by keyword
or in its position after ``create_graph``) and ignored, as gradient penalties pass it.

Recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations


def test_only_inputs_is_accepted(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x**3).sum()
    (g,) = lib.autograd.grad(
        outputs=y, inputs=x, grad_outputs=lib.ones(()), create_graph=True, only_inputs=True
    )
    assert g.tolist() == [3.0, 12.0] and g.requires_grad
    (h,) = lib.autograd.grad(g.sum(), x, None, None, False, True, None)
    assert h.tolist() == [6.0, 12.0]
