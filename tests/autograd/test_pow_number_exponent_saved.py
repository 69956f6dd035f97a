"""x ** n for a Python number n differentiates with PyTorch's formula for a Number exponent:
zero for n == 0, otherwise n * x ** (n - 1) with no mask, so a create_graph backward saves only
float tensors and saved_tensors_hooks that scale what they pack (2 * x) give PyTorch's values."""

import engine as torch


def test_second_derivative_through_scaling_pack_hooks():
    a = torch.tensor([0.5, -1.5, 2.0], dtype=torch.float64, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda x: 2 * x, lambda x: x):
        s = (a**3).sum()
        (g,) = torch.autograd.grad(s, (a,), create_graph=True)
        g.sum().backward()
    # 6 * a, with every saved tensor doubled on the way: a twice in pow, once more in its backward.
    assert a.grad.tolist() == [6 * 8 * v for v in (0.5, -1.5, 2.0)]


def test_power_zero_has_a_zero_gradient():
    a = torch.tensor([0.0, 3.0], requires_grad=True)
    (a**0).sum().backward()
    assert a.grad.tolist() == [0.0, 0.0]


def test_tensor_exponent_keeps_the_zero_exponent_rule():
    a = torch.tensor([0.0, 3.0], requires_grad=True)
    b = torch.tensor([0.0, 2.0])
    (a**b).sum().backward()
    assert a.grad.tolist() == [0.0, 6.0]
