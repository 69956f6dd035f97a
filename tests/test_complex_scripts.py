"""Small complex-valued programs of the kinds scripts run (a complex linear layer trained with
SGD, every optimizer on a complex parameter, an FFT convolution, a quantum state evolved with
matrix_exp), compared with the values PyTorch 2.13 printed for the same programs."""

import math

import engine as torch
import numpy as np
import pytest

# PyTorch 2.13's parameters after three steps of each optimizer (lr=0.1; SGD with momentum 0.9)
# on the loss |w|^2 + Re(w (0.3 - 0.1j)) summed, from w = [1 + 2j, -0.5 + 0.25j].
OPTIMIZER_RESULTS = {
    "SGD": [-0.0787 + 0.0771j, -0.1717 - 0.0314j],
    "Adam": [0.7013 + 1.7006j, -0.20964 - 0.03671j],
    "AdamW": [0.69862 + 1.69493j, -0.20853 - 0.0371j],
    "Adagrad": [0.77921 + 1.77571j, -0.30114 + 0.05732j],
    "RMSprop": [-0.14741 + 0.29114j, -0.08061 - 0.10899j],
    "Adadelta": [0.99903 + 1.99903j, -0.49903 + 0.24903j],
    "Adamax": [0.71346 + 1.70746j, -0.24381 + 0.00085j],
    "NAdam": [0.75132 + 1.74739j, -0.27675 + 0.03412j],
    "RAdam": [0.38165 + 0.89772j, -0.31181 + 0.08869j],
    "ASGD": [0.43878 + 0.99957j, -0.32919 + 0.1036j],
    "Rprop": [0.636 + 1.636j, -0.136 - 0.114j],
}


@pytest.mark.parametrize("name", sorted(OPTIMIZER_RESULTS))
def test_optimizers_update_complex_parameters_as_pytorch(name):
    w = torch.nn.Parameter(torch.tensor([1 + 2j, -0.5 + 0.25j]))
    kwargs = {"lr": 0.1, **({"momentum": 0.9} if name == "SGD" else {})}
    opt = getattr(torch.optim, name)([w], **kwargs)
    for _ in range(3):
        opt.zero_grad()
        loss = (w * w.conj()).real.sum() + (w * (0.3 - 0.1j)).real.sum()
        loss.backward()
        opt.step()
    np.testing.assert_allclose(w.detach().numpy(), OPTIMIZER_RESULTS[name], atol=1e-5)
    for value in opt.state[w].values():
        if torch.is_tensor(value) and value.dim() > 0:
            assert value.dtype == torch.complex64  # state kept as complex, as PyTorch's


def test_complex_linear_layer_trains_with_sgd():
    torch.manual_seed(0)

    class ComplexLinear(torch.nn.Module):
        def __init__(self, n_in, n_out):
            super().__init__()
            self.w = torch.nn.Parameter(torch.randn(n_out, n_in, dtype=torch.complex64) * 0.5)
            self.b = torch.nn.Parameter(torch.zeros(n_out, dtype=torch.complex64))

        def forward(self, x):
            return x @ self.w.T + self.b

    model = ComplexLinear(3, 2)
    x = torch.randn(16, 3, dtype=torch.complex64)
    target = torch.tensor([[1 + 1j, 0.5, -1j], [0.2 - 0.3j, 1, 0.1j]], dtype=torch.complex64)
    y = x @ target.T
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(50):
        opt.zero_grad()
        loss = (model(x) - y).abs().pow(2).mean()
        loss.backward()
        opt.step()
    # PyTorch 2.13 printed: loss 0.004809 and these weights
    assert abs(loss.item() - 0.004809) < 2e-6
    want = [
        [1.0464 + 0.9427j, 0.4673 + 0.0253j, 0.0475 - 0.9275j],
        [0.2338 - 0.2494j, 0.9823 - 0.0278j, -0.0667 + 0.1329j],
    ]
    np.testing.assert_allclose(model.w.detach().numpy(), want, atol=1e-4)


def test_modulus_activation_gradient():
    z = torch.tensor([0.3 - 0.4j, -1.2 + 0.5j, 0.05j, 2.0], requires_grad=True)
    act = torch.polar(torch.relu(z.abs() - 0.1), z.angle())
    act.abs().sum().backward()
    want = [v / abs(v) if abs(v) > 0.1 else 0 for v in (0.3 - 0.4j, -1.2 + 0.5j, 0.05j, 2.0)]
    np.testing.assert_allclose(z.grad.numpy(), want, atol=1e-6)


def test_fft_convolution_matches_direct_convolution():
    torch.manual_seed(0)
    sig, ker = torch.randn(32), torch.randn(5)
    n = 32 + 5 - 1
    conv = torch.fft.irfft(torch.fft.rfft(sig, n) * torch.fft.rfft(ker, n), n)
    np.testing.assert_allclose(conv.numpy(), np.convolve(sig.numpy(), ker.numpy()), atol=1e-5)


def test_quantum_state_evolution():
    h = torch.tensor([[1.0, 0.5 - 0.2j], [0.5 + 0.2j, -1.0]], dtype=torch.complex128)
    psi0 = torch.tensor([1.0 + 0j, 0.0], dtype=torch.complex128)
    u = torch.linalg.matrix_exp(-1j * h * 0.3)
    psi = u @ psi0
    # PyTorch 2.13: tensor([0.9425-0.2942j, 0.0588-0.1471j], dtype=torch.complex128)
    np.testing.assert_allclose(psi.numpy(), [0.9425 - 0.2942j, 0.0588 - 0.1471j], atol=1e-4)
    assert abs(torch.linalg.vector_norm(psi).item() - 1) < 1e-12
    assert (u @ u.mH - torch.eye(2, dtype=torch.complex128)).abs().max().item() < 1e-14
    energy = torch.vdot(psi, h @ psi)
    assert abs(energy.item() - 1.0) < 1e-12  # <psi|H|psi> is conserved
    # a learnable rotation angle: P(|1>) = sin(5 theta)^2, d/dtheta = 5 sin(10 theta)
    theta = torch.tensor(0.4, dtype=torch.float64, requires_grad=True)
    hx = torch.tensor([[0, 1], [1, 0]], dtype=torch.complex128)
    state = psi0
    for _ in range(5):
        state = torch.linalg.matrix_exp(-1j * theta * hx) @ state
    prob = state.abs().pow(2)[1]
    prob.backward()
    assert abs(prob.item() - math.sin(2.0) ** 2) < 1e-12
    assert abs(theta.grad.item() - 5 * math.sin(4.0)) < 1e-10


def test_complex_linspace():
    assert torch.linspace(0, 1 + 2j, 3).tolist() == [0, 0.5 + 1j, 1 + 2j]
    assert torch.linspace(0, 1, 3, dtype=torch.complex128).dtype == torch.complex128
    with pytest.raises(RuntimeError, match="can't be safely cast to passed dtype Float"):
        torch.linspace(0, 1j, 3, dtype=torch.float32)
