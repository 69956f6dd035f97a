"""``python -m engine check``: a self-test of a few seconds that an installation works.

Custom Functions in the three styles engine accepts against the built-in operations they
reimplement, gradcheck and gradgradcheck, backward through a small network against a hand
derivation, and a short training run whose loss must fall. Prints one line per check and
returns 0 when all pass, 1 otherwise.
"""

import time

import engine as torch


class CheckFailed(Exception):
    """A self-test check found engine misbehaving."""


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


def check_function_styles():
    x = torch.randn(5, requires_grad=True)
    for fn, reference in (
        (MulByTwo, lambda t: t * 2),
        (Cube, lambda t: t**3),
        (Exp, lambda t: t.exp()),
    ):
        (g,) = torch.autograd.grad(fn.apply(x).sum(), x)
        (ref,) = torch.autograd.grad(reference(x).sum(), x)
        if not torch.allclose(g, ref, rtol=1e-5, atol=1e-6):
            raise CheckFailed(f"{fn.__name__}: gradient {g} differs from the built-in ops' {ref}")
    return "three Function styles match built-in ops"


def check_gradcheck():
    x = torch.randn(4, dtype=torch.float64, requires_grad=True)
    if not torch.autograd.gradcheck(Cube.apply, (x,)):
        raise CheckFailed("gradcheck(Cube) failed")
    w = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    if not torch.autograd.gradgradcheck(lambda a, b: (b @ a).tanh(), (x, w)):
        raise CheckFailed("gradgradcheck(tanh(w @ x)) failed")
    return "gradcheck and gradgradcheck pass"


def check_network_gradient():
    # loss = sum(tanh(W x + b)): dloss/dW = (1 - tanh^2) x^T, dloss/db = 1 - tanh^2
    layer = torch.nn.Linear(3, 2).double()
    x = torch.randn(3, dtype=torch.float64)
    layer(x).tanh().sum().backward()
    slope = 1 - (layer.weight @ x + layer.bias).tanh().detach() ** 2
    if not torch.allclose(layer.weight.grad, slope.outer(x)) or not torch.allclose(
        layer.bias.grad, slope
    ):
        raise CheckFailed("Linear + tanh: backward differs from the hand derivation")
    return "backward through Linear + tanh matches the hand derivation"


def check_training():
    torch.manual_seed(0)
    x = torch.randn(256, 4)
    y = (x @ torch.tensor([1.0, -2.0, 0.5, 3.0]) > 0).long()
    model = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    losses = []
    for _ in range(60):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    if not losses[-1] < 0.5 * losses[0]:
        raise CheckFailed(f"training: loss went from {losses[0]:.3f} to only {losses[-1]:.3f}")
    return f"60 Adam steps: loss {losses[0]:.3f} -> {losses[-1]:.3f}"


CHECKS = (check_function_styles, check_gradcheck, check_network_gradient, check_training)


def main():
    """Runs every check; prints ``ok``/``FAIL`` lines; returns the exit status."""
    failures = 0
    start = time.perf_counter()
    for check in CHECKS:
        try:
            result, ok = check(), True
        except CheckFailed as e:
            result, ok = str(e), False
        except Exception as e:  # a crash is a failed check, reported with the others
            result, ok = f"{check.__name__}: {type(e).__name__}: {e}", False
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'}  {result}")
    seconds = time.perf_counter() - start
    print(f"{len(CHECKS) - failures} of {len(CHECKS)} checks passed in {seconds:.1f} s")
    return 1 if failures else 0
