"""A Tensor subclass made in a custom Function's forward and saved for backward comes back from
``saved_tensors`` as that same object (its class and Python attributes intact), as in PyTorch.

With torch installed the same checks run on it too.
"""

from __future__ import annotations

import gc
import weakref


def test_saved_intermediate_subclass_keeps_its_object(lib):
    class Tagged(lib.Tensor):
        pass

    seen = {}

    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            factor = (x * 0 + 2).as_subclass(Tagged)
            factor.note = "kept"
            seen["made"] = factor
            ctx.save_for_backward(factor)
            return x * factor.as_subclass(lib.Tensor)

        @staticmethod
        def backward(ctx, grad):
            (factor,) = ctx.saved_tensors
            seen["back"] = factor
            return grad * factor.as_subclass(lib.Tensor)

    x = lib.ones(2, requires_grad=True)
    Scale.apply(x).sum().backward()
    assert seen["back"] is seen["made"]
    assert type(seen["back"]) is Tagged and seen["back"].note == "kept"
    assert x.grad.tolist() == [2.0, 2.0]


def test_kept_object_is_freed_with_the_graph(lib):
    class Tagged(lib.Tensor):
        pass

    refs = []

    class Keep(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            t = (x * 1).as_subclass(Tagged)
            refs.append(weakref.ref(t))
            ctx.save_for_backward(t)
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    y = Keep.apply(lib.ones(2, requires_grad=True))
    assert refs[0]() is not None
    del y
    gc.collect()
    assert refs[0]() is None
