"""A custom exp whose backward is itself differentiable, so second derivatives work
(PyTorch's "double backward with custom functions" tutorial)."""

import engine as torch


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


def main():
    x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.double, requires_grad=True)
    y = Exp.apply(x)
    (dy,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    (d2y,) = torch.autograd.grad(dy.sum(), x)
    print("exp(x)     ", [round(v, 6) for v in y.detach().tolist()])
    print("d/dx       ", [round(v, 6) for v in dy.detach().tolist()])
    print("d2/dx2     ", [round(v, 6) for v in d2y.tolist()])
    ok = torch.autograd.gradcheck(Exp.apply, (x,)) and torch.autograd.gradgradcheck(Exp.apply, (x,))
    print("gradcheck and gradgradcheck:", ok)
    return y.detach(), dy.detach(), d2y, ok


if __name__ == "__main__":
    main()
