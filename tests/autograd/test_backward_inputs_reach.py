"""backward(inputs=...) runs only the nodes between the outputs and the requested inputs, as
PyTorch does: an output whose graph does not lead to any of them runs nothing at all."""

import engine as torch


class Untouchable(torch.autograd.Function):
    calls = 0

    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        Untouchable.calls += 1
        return g


def test_unreachable_input_runs_no_node():
    Untouchable.calls = 0
    out = Untouchable.apply(torch.randn(1, requires_grad=True) * 2)
    y = torch.randn(1, requires_grad=True)
    torch.autograd.backward(out, inputs=(y,))
    assert Untouchable.calls == 0
    assert y.grad is None


def test_unreachable_root_hook_not_called():
    seen = []
    out = torch.randn(2, requires_grad=True) * 2
    out.register_hook(lambda g: seen.append(g))
    y = torch.randn(1, requires_grad=True)
    out.sum().backward(inputs=[y])
    assert seen == [] and y.grad is None


def test_reachable_root_among_unreachable_ones():
    Untouchable.calls = 0
    x = torch.ones(2, requires_grad=True)
    y = torch.ones(2, requires_grad=True)
    a = Untouchable.apply(x * 2)
    b = y * 3
    torch.autograd.backward([a.sum(), b.sum()], inputs=[y])
    assert Untouchable.calls == 0
    assert y.grad.tolist() == [3.0, 3.0]
    assert x.grad is None
