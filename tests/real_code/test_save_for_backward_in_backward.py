"""A backward that reruns forward with the same ctx (detection and flow code recomputes its
forward under ``enable_grad`` to differentiate it) calls ``ctx.save_for_backward`` again; PyTorch
ignores that call, so ``saved_tensors`` still gives what forward saved on every later backward
(``retain_graph=True``, ``gradcheck``). engine's second read once gave an empty tuple.
Recorded from PyTorch 2.13."""

from __future__ import annotations


def _recomputing(lib):
    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, scale):
            ctx.save_for_backward(x)
            ctx.scale = scale
            return x * x * scale

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            with lib.enable_grad():
                leaf = x.detach().requires_grad_()
                out = Square.forward(ctx, leaf, ctx.scale)
                (grad,) = lib.autograd.grad(out, leaf, g)
            return grad, None

    return Square


def test_saved_tensors_survive_a_save_in_backward(lib):
    square = _recomputing(lib)
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = square.apply(x, 2.0)
    (first,) = lib.autograd.grad(y.sum(), x, retain_graph=True)
    assert len(y.grad_fn.saved_tensors) == 1
    (second,) = lib.autograd.grad(y.sum(), x)
    assert first.tolist() == second.tolist() == [4.0, 8.0, 12.0]


def test_gradcheck_of_a_recomputing_backward(lib):
    square = _recomputing(lib)
    x = lib.rand(4, dtype=lib.float64, requires_grad=True)
    assert lib.autograd.gradcheck(lambda t: square.apply(t, 1.5), (x,))
