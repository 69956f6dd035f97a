"""`python -m engine`: a short demo — a custom Function in the three supported styles, and a check
that each one's gradient matches the built-in operations."""

import engine as torch


class MulByTwo(torch.autograd.Function):
    """The setup_context tutorial's style: forward takes ctx *and* setup_context is overridden."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * 2


class Cube(torch.autograd.Function):
    """PyTorch's new style: forward without ctx, state saved in setup_context."""

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
        return grad_output * 3 * x**2


class Exp(torch.autograd.Function):
    """PyTorch's original style: forward(ctx, ...), no setup_context."""

    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output * y


def main():
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    print("x =", x)
    for fn, reference in (
        (MulByTwo, lambda t: t * 2),
        (Cube, lambda t: t**3),
        (Exp, lambda t: t.exp()),
    ):
        y = fn.apply(x)
        (g,) = torch.autograd.grad(y.sum(), x)
        (ref,) = torch.autograd.grad(reference(x).sum(), x)
        same = bool((g - ref).abs().sum() < 1e-6)
        print(f"{fn.__name__:>8}: y = {y}")
        print(f"{'':>8}  dy/dx = {g}  (matches built-in ops: {same})")
    ok = torch.autograd.gradcheck(
        Cube.apply, (torch.randn(4, dtype=torch.float64, requires_grad=True),)
    )
    print("gradcheck(Cube) in float64:", ok)


if __name__ == "__main__":
    main()
