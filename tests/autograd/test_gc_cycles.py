"""Reference cycles through native objects are collected by Python's cycle GC: a hook whose
closure refers to the node it is registered on (a built-in node or a custom Function's ctx), for
node hooks and tensor hooks alike. While the graph still holds the node, the hook stays alive and
keeps running."""

import gc
import weakref

import engine as torch
import pytest
from engine.autograd import Function


class Identity(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g


class Sentinel:
    pass


@pytest.mark.parametrize("custom", [False, True])
@pytest.mark.parametrize("tensor_hook", [False, True])
def test_hook_closure_cycle_is_collected(custom, tensor_hook):
    calls = []

    def scope():
        a = torch.tensor(1.0, requires_grad=True)
        b = Identity.apply(a) if custom else a.clone()
        grad_fn_b = b.grad_fn
        obj = Sentinel()

        def hook(*args):
            # The closure holds the node: a cycle through native code.
            calls.append((grad_fn_b, obj) and 1)

        if tensor_hook:
            b.register_hook(hook)
        else:
            b.grad_fn.register_hook(hook)
        return b.clone(), weakref.ref(obj)

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        out, ref = scope()
        out.backward(retain_graph=True)
        gc.collect()
        out.backward(retain_graph=True)  # the graph still needs the hook: it survived collection
        assert len(calls) == 2 and ref() is not None
        del out
        gc.collect()
        assert ref() is None
    finally:
        if was_enabled:
            gc.enable()


def test_metadata_cycle_is_collected():
    def scope():
        node = torch.tensor(1.0, requires_grad=True).exp().grad_fn
        obj = Sentinel()
        node.metadata["self"] = node
        node.metadata["obj"] = obj
        return weakref.ref(obj)

    ref = scope()
    gc.collect()
    assert ref() is None
