"""Non-reentrant checkpoint, pass by pass: each backward pass (graph task) recomputes a region
once and hands each recomputed tensor out once; reads outside a backward recompute every time;
GraphExecGroup shares one recomputation between backward calls; the forward's autocast state
is the recomputation's; debug=True names the non-determinism; a reentrant checkpoint refuses
autograd.grad and backward(inputs=...), and is usable again afterwards."""

import contextlib

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck
from engine.utils.checkpoint import (
    CheckpointError,
    GraphExecGroup,
    checkpoint,
    set_checkpoint_debug_enabled,
)

f64 = engine.float64


def counted(calls):
    def region(v):
        calls.append(1)
        return v.sin().exp()

    return region


def test_read_outside_backward_recomputes_each_time():
    calls = []
    x = engine.tensor([0.3, -0.7], dtype=f64, requires_grad=True)
    y = checkpoint(counted(calls), x, use_reentrant=False)
    assert len(calls) == 1
    _ = y.grad_fn._saved_result
    _ = y.grad_fn._saved_result
    assert len(calls) == 3
    y.sum().backward()
    assert len(calls) == 4
    with pytest.raises(RuntimeError, match="after they have already been freed"):
        _ = y.grad_fn._saved_result
    np.testing.assert_allclose(
        x.grad.tolist(), (np.exp(np.sin([0.3, -0.7])) * np.cos([0.3, -0.7])).tolist()
    )


def two_stage(calls):
    def region(v):
        calls.append(1)
        y = v.sin().cos()
        return y, y.sin().cos()

    return region


@pytest.mark.parametrize("grouped", [True, False])
def test_graph_exec_group_shares_the_recomputation(grouped):
    calls = []
    x = engine.tensor([[0.2, -0.4], [1.1, 0.6]], dtype=f64, requires_grad=True)
    y, z = checkpoint(two_stage(calls), x, use_reentrant=False)
    with GraphExecGroup() if grouped else contextlib.nullcontext():
        (gy,) = engine.autograd.grad(z, (y,), (engine.ones(2, 2, dtype=f64),))
        (gx,) = engine.autograd.grad(y, (x,), (gy,))
    assert len(calls) == (2 if grouped else 3)
    # The same gradient as the region run without checkpointing.
    x2 = x.detach().requires_grad_()
    y2, z2 = two_stage([])(x2)
    (expected,) = engine.autograd.grad(z2.sum(), (x2,))
    np.testing.assert_allclose(gx.tolist(), expected.tolist())


def test_graph_exec_group_rejects_overlapping_backwards_and_nesting():
    x = engine.tensor([0.5, 1.5], dtype=f64, requires_grad=True)
    out = checkpoint(lambda v: v.sin().cos(), x, use_reentrant=False)
    with GraphExecGroup():
        out.sum().backward(retain_graph=True)
        with pytest.raises(RuntimeError, match="Performing two backward calls that overlap"):
            out.sum().backward()
        with pytest.raises(RuntimeError, match="cannot be nested"):
            with GraphExecGroup():
                pass


def test_recomputation_runs_under_the_forwards_autocast():
    x = engine.randn(3, 3, requires_grad=True)
    w = engine.randn(3, 3, requires_grad=True)
    dtypes = []

    def region(a, b):
        out = engine.mm(a, b)
        dtypes.append(out.dtype)
        return out

    with engine.autocast(device_type="cpu", dtype=engine.bfloat16):
        # (early_stop=False: the recomputation runs to the end of the region)
        loss = checkpoint(region, x, w, use_reentrant=False, early_stop=False).float().sum()
    loss.backward()
    assert dtypes == [engine.bfloat16, engine.bfloat16]
    assert x.grad.shape == (3, 3)


def test_debug_error_names_the_non_determinism():
    runs = []

    def region(v):
        runs.append(1)
        return v.sin().exp() if len(runs) == 1 else v.sin() * engine.tensor([1.0, 2.0])

    x = engine.tensor([0.4], requires_grad=True)
    with pytest.raises(CheckpointError, match="because you passed `debug=True` to checkpoint"):
        checkpoint(region, x, use_reentrant=False, debug=True).sum().backward()
    runs.clear()
    with set_checkpoint_debug_enabled(False):
        out = checkpoint(region, x, use_reentrant=False, debug=True)
    with pytest.raises(CheckpointError, match="different metadata") as info:
        out.sum().backward()
    assert "debug=True` to checkpoint and" not in str(info.value)


def test_reentrant_refuses_grad_with_inputs_then_works():
    x = engine.tensor([[0.1, 0.2], [0.3, 0.4]], dtype=f64, requires_grad=True)
    with pytest.raises(RuntimeError, match="torch.utils.checkpoint is incompatible"):
        engine.autograd.grad(checkpoint(engine.exp, x, use_reentrant=True).sum(), (x,))
    out = checkpoint(engine.exp, x, use_reentrant=True).sum()
    with pytest.raises(RuntimeError, match="torch.utils.checkpoint is incompatible"):
        out.backward(inputs=[x], retain_graph=True)
    x.grad = None
    out.backward()
    np.testing.assert_allclose(x.grad.tolist(), x.detach().exp().tolist())


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_gradcheck_through_checkpoint(use_reentrant):
    w = engine.tensor([0.7, -1.2], dtype=f64)

    def f(v):
        return checkpoint(lambda u: (u * w).sin() * u.exp(), v, use_reentrant=use_reentrant)

    x = engine.tensor([0.3, 0.9], dtype=f64, requires_grad=True)
    # (gradcheck differentiates with autograd.grad: the reentrant form needs backward())
    if use_reentrant:
        out = f(x).sum()
        out.backward()
        expected = ((x * w).cos() * w * x.exp() + (x * w).sin() * x.exp()).detach()
        np.testing.assert_allclose(x.grad.tolist(), expected.tolist())
    else:
        assert gradcheck(f, (x,))


def test_save_on_cpu_around_and_inside_a_checkpoint():
    x = engine.tensor([[0.3, -0.2], [0.9, 1.1]], dtype=f64, requires_grad=True)
    (expected,) = engine.autograd.grad(x.pow(2).pow(2).pow(2).sum(), (x,))
    with engine.autograd.graph.save_on_cpu():
        h = checkpoint(lambda v: v.pow(2).pow(2), x, use_reentrant=False)
        out = h.pow(2)
    (outside,) = engine.autograd.grad(out.sum(), (x,))

    def region(v):
        with engine.autograd.graph.save_on_cpu(pin_memory=True):
            v = v.pow(2).pow(2)
        return v.pow(2)

    (inside,) = engine.autograd.grad(checkpoint(region, x, use_reentrant=False).sum(), (x,))
    np.testing.assert_allclose(outside.tolist(), expected.tolist())
    np.testing.assert_allclose(inside.tolist(), expected.tolist())
    # d/dx x^8 = 8 x^7
    np.testing.assert_allclose(expected.tolist(), (8 * x.detach() ** 7).tolist())


class TutorialSquare(engine.autograd.Function):
    """The seed examples' style: forward(ctx, x) and setup_context both written."""

    @staticmethod
    def forward(ctx, x):
        return x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return 2 * x * t


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_tutorial_style_function_in_checkpoint_and_forward_mode(use_reentrant):
    x = engine.tensor([0.5, -1.5, 2.0], dtype=f64, requires_grad=True)
    out = checkpoint(lambda v: TutorialSquare.apply(v.sin()), x, use_reentrant=use_reentrant)
    out.sum().backward()
    expected = 2 * x.detach().sin() * x.detach().cos()
    np.testing.assert_allclose(x.grad.tolist(), expected.tolist())
    assert gradcheck(TutorialSquare.apply, (x,), check_forward_ad=True)
