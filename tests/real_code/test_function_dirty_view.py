"""A custom Function that writes a view of another tensor in place (``ctx.mark_dirty``), as
in-place activations do on a slice of a feature map: the base's history goes through the
Function's backward (PyTorch's CopySlices), so gradients reaching the base are right.

Golden values recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest


def _double_in_place(lib):
    class DoubleInPlace(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    return DoubleInPlace


def _leaky_in_place(lib):
    class LeakyInPlace(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, slope):
            ctx.slope = slope
            x.mul_(lib.where(x < 0, lib.full_like(x, slope), lib.ones_like(x)))
            ctx.mark_dirty(x)
            ctx.save_for_backward(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return grad * lib.where(y < 0, lib.full_like(y, ctx.slope), lib.ones_like(y)), None

    return LeakyInPlace


def test_gradient_through_base_passes_the_functions_backward(lib):
    a = lib.ones(4, requires_grad=True)
    base = a.clone()
    out = _double_in_place(lib).apply(base[:2])
    assert base.tolist() == [2.0, 2.0, 1.0, 1.0]
    assert type(base.grad_fn).__name__ == "CopySlices"
    assert type(out.grad_fn).__name__ == "AsStridedBackward0"
    base.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0, 1.0, 1.0]


def test_view_output_and_base_both_reach_the_input(lib):
    a = lib.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
    base = a * 1
    out = _leaky_in_place(lib).apply(base[1:3], 0.1)
    assert out.tolist() == pytest.approx([2.0, -0.3])
    (out.sum() * 10 + base.sum()).backward()
    assert a.grad.tolist() == pytest.approx([1.0, 11.0, 1.1, 1.0])


def test_base_without_history_gets_it_from_the_function(lib):
    w = lib.tensor([3.0], requires_grad=True)
    base = lib.zeros(3)

    class AddInPlace(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            x.add_(y)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad, grad.sum(0, keepdim=True)

    AddInPlace.apply(base[1:], w)
    assert base.requires_grad and base.tolist() == [0.0, 3.0, 3.0]
    (base * lib.tensor([1.0, 2.0, 4.0])).sum().backward()
    assert w.grad.tolist() == [6.0]


def test_no_grad_mode_records_nothing(lib):
    a = lib.ones(3, requires_grad=True)
    base = a.clone()
    with lib.no_grad():
        _double_in_place(lib).apply(base[:1])
    assert base.tolist() == [2.0, 1.0, 1.0]
    assert type(base.grad_fn).__name__ == "CloneBackward0"


def test_without_a_graph_the_dirty_input_is_returned_itself(lib):
    class Identity(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad

    v = lib.ones(2)
    assert _double_in_place(lib).apply(v) is v
    assert v.tolist() == [2.0, 2.0]
    assert Identity.apply(v) is not v  # an input merely returned comes back as an alias
    with lib.no_grad():
        a = lib.ones(2, requires_grad=True).clone()
        assert _double_in_place(lib).apply(a) is a
    b = lib.ones(2, requires_grad=True).clone()
    with lib.no_grad():
        out = _double_in_place(lib).apply(b)  # requires grad: a detached alias
    assert out is not b and not out.requires_grad and b.tolist() == [2.0, 2.0]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # torch's own jit.script notice
def test_forward_ad_dirty_input_is_returned_itself(lib):
    class MulInPlace(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.k = k
            x.mul_(k)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def jvp(ctx, tx, _):
            tx.mul_(ctx.k)
            return tx

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.k, None

    fw = lib.autograd.forward_ad
    with fw.dual_level():
        p = fw.make_dual(lib.ones(3, dtype=lib.float64), lib.arange(3.0, dtype=lib.float64))
        q = MulInPlace.apply(p, 3.0)
        assert q is p
        assert fw.unpack_dual(q).tangent.tolist() == [0.0, 3.0, 6.0]
