"""A custom ReLU whose backward zeroes the gradient with a boolean mask, trained as a tiny
two-layer network on random data (PyTorch's "two_layer_net_custom_function" example)."""

import engine as torch


class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return torch.relu(input)  # the tutorial writes input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


def main(steps=300):
    torch.manual_seed(0)
    N, D_in, H, D_out = 64, 100, 50, 10
    x = torch.randn(N, D_in)
    y = torch.randn(N, D_out)
    w1 = torch.randn(D_in, H, requires_grad=True)
    w2 = torch.randn(H, D_out, requires_grad=True)

    learning_rate = 1e-6
    first = None
    for t in range(steps):
        y_pred = MyReLU.apply(x.mm(w1)).mm(w2)
        loss = (y_pred - y).pow(2).sum()
        if first is None:
            first = loss.item()
        if t % 100 == 99:
            print(t, loss.item())
        loss.backward()
        with torch.no_grad():
            w1 -= learning_rate * w1.grad
            w2 -= learning_rate * w2.grad
            w1.grad = None
            w2.grad = None
    print(f"loss {first:.1f} -> {loss.item():.1f}")
    return first, loss.item()


if __name__ == "__main__":
    main()
