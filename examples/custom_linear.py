"""LinearFunction from PyTorch's "Extending PyTorch" notes, trained on synthetic data."""

import engine as torch


class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


def main(steps=200):
    torch.manual_seed(0)
    true_w = torch.tensor([[2.0, -3.0, 0.5]])
    true_b = torch.tensor([0.7])
    x = torch.randn(256, 3)
    y = x.mm(true_w.t()) + true_b

    weight = torch.zeros(1, 3, requires_grad=True)
    bias = torch.zeros(1, requires_grad=True)
    for t in range(steps):
        loss = ((LinearFunction.apply(x, weight, bias) - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            weight -= 0.1 * weight.grad
            bias -= 0.1 * bias.grad
            weight.grad = None
            bias.grad = None
        if t % 50 == 49:
            print(t, loss.item())
    print(
        "weight", [round(v, 3) for v in weight.detach()[0].tolist()], "bias", round(bias.item(), 3)
    )
    return weight.detach(), bias.detach(), loss.item()


if __name__ == "__main__":
    main()
