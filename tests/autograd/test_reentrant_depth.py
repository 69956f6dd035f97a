"""Reentrant backward (a custom Function whose backward runs a backward of its own) nested 2000
deep, as PyTorch's engine allows: past a depth the nested pass moves to a fresh thread, so neither
the C++ stack nor Python's recursion limit grows with the nesting. Modes, errors and callbacks
cross that hop."""

import engine as torch
import pytest
from engine.autograd import Function


class CountDown(Function):
    """Backward of a value n runs a backward of the value n - 1, down to -1."""

    @staticmethod
    def forward(ctx, x):
        with torch.enable_grad():
            ctx.x = x.detach().requires_grad_() - 1
        return ctx.x.detach()

    @staticmethod
    def backward(ctx, g):
        if ctx.x < 0:
            return g
        with torch.enable_grad():
            CountDown.apply(ctx.x).sum().backward()
        return g


def test_reentrant_backward_2000_deep():
    v = torch.tensor(2000.0, requires_grad=True)
    CountDown.apply(v).sum().backward()
    assert v.grad.item() == 1.0
    # Again, shallower: the worker threads of the first pass are gone, nothing is left behind.
    w = torch.tensor(200.0, requires_grad=True)
    CountDown.apply(w).sum().backward()
    assert w.grad.item() == 1.0


class Failing(Function):
    @staticmethod
    def forward(ctx, x):
        with torch.enable_grad():
            ctx.x = x.detach().requires_grad_() - 1
        return ctx.x.detach()

    @staticmethod
    def backward(ctx, g):
        if ctx.x < 0:
            raise ValueError("bottom reached")
        with torch.enable_grad():
            Failing.apply(ctx.x).sum().backward()
        return g


def test_an_error_at_the_bottom_reaches_the_caller():
    v = torch.tensor(300.0, requires_grad=True)
    with pytest.raises(ValueError, match="bottom reached"):
        Failing.apply(v).sum().backward()


class Probe(Function):
    """Records the grad mode and the gradient of an inner autograd.grad at every level."""

    seen = []

    @staticmethod
    def forward(ctx, x):
        with torch.enable_grad():
            ctx.x = x.detach().requires_grad_() - 1
        return ctx.x.detach()

    @staticmethod
    def backward(ctx, g):
        Probe.seen.append(torch.is_grad_enabled())
        if ctx.x < 0:
            return g
        with torch.enable_grad():
            inner = ctx.x.detach().requires_grad_()
            (d,) = torch.autograd.grad(Probe.apply(inner) * 3, inner)
            assert d.item() == 3.0
        return g


def test_grad_mode_and_results_survive_the_thread_hops():
    Probe.seen = []
    v = torch.tensor(150.0, requires_grad=True)
    Probe.apply(v).backward()
    assert v.grad.item() == 1.0
    assert len(Probe.seen) == 151 and not any(Probe.seen)
    Probe.seen = []
    v.grad = None
    (g,) = torch.autograd.grad(Probe.apply(v), v, create_graph=True)
    assert g.item() == 1.0 and Probe.seen[0] and not any(Probe.seen[1:])
