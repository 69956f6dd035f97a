"""Fit y = sin(x) with a third-order Legendre polynomial y = a + b * P3(c + d * x), where P3 is a
custom autograd Function (PyTorch's "polynomial_custom_function" tutorial)."""

import math

import engine as torch


class LegendrePolynomial3(torch.autograd.Function):
    """P3(x) = 1/2 (5x^3 - 3x) with its derivative 3/2 (5x^2 - 1) written by hand."""

    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input**3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input**2 - 1)


def main(steps=2000):
    dtype = torch.float
    x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
    y = torch.sin(x)

    # Weights start close enough to the answer for gradient descent to converge.
    a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
    b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
    c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
    d = torch.full((), 0.3, dtype=dtype, requires_grad=True)

    learning_rate = 5e-6
    for t in range(steps):
        P3 = LegendrePolynomial3.apply
        y_pred = a + b * P3(c + d * x)
        loss = (y_pred - y).pow(2).sum()
        if t % 500 == 499:
            print(t, loss.item())
        loss.backward()
        with torch.no_grad():
            for p in (a, b, c, d):
                p -= learning_rate * p.grad
                p.grad = None
    print(f"Result: y = {a.item()} + {b.item()} * P3({c.item()} + {d.item()} x)")
    return loss.item()


if __name__ == "__main__":
    main()
