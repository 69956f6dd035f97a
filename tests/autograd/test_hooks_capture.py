"""Which hooks run when ``autograd.grad`` stops at an input (PyTorch 2.13's order): a node that is
captured but not run still has its tensor hooks called, and its own pre- and post-hooks are not;
tensor hooks of an output that received no gradient see None; AccumulateGrad keeps the incoming
buffer while its post-hooks look at it, so they see what post-accumulate hooks did."""

import warnings

import engine as torch
from engine.autograd import Function


def counting():
    counts = {"tensor": 0, "pre": 0, "post": 0}

    def tensor_hook(g):
        counts["tensor"] += 1

    def pre(g):
        counts["pre"] += 1

    def post(gi, go):
        counts["post"] += 1

    return counts, tensor_hook, pre, post


def test_capture_runs_tensor_hooks_but_not_node_hooks():
    a = torch.tensor(1.0, requires_grad=True)
    b = a * 2
    c = b * 2
    counts, tensor_hook, pre, post = counting()
    a.register_hook(tensor_hook)
    b.register_hook(tensor_hook)
    acc = b.grad_fn.next_functions[0][0]
    for node in (acc, b.grad_fn):
        node.register_hook(post)
        node.register_prehook(pre)

    torch.autograd.grad(c, inputs=(b,), retain_graph=True)
    assert counts == {"tensor": 1, "pre": 0, "post": 0}
    counts.update(tensor=0, pre=0, post=0)
    torch.autograd.grad(c, inputs=(a, b), retain_graph=True)
    assert counts == {"tensor": 2, "pre": 1, "post": 1}
    counts.update(tensor=0, pre=0, post=0)
    c.backward(retain_graph=True)
    assert counts == {"tensor": 2, "pre": 2, "post": 2}


def test_prehook_order_with_grad_and_backward_inputs():
    log = []

    def hook1(g):
        log.append(1)
        return g * 3

    def hook2(gs):
        log.append(2)
        return tuple(g * 2 for g in gs)

    a = torch.tensor(1.0, requires_grad=True)
    b = a.clone()
    b.grad_fn.register_prehook(hook2)
    b.register_hook(hook1)
    b.grad_fn.register_prehook(hook2)
    acc = b.grad_fn.next_functions[0][0]
    a.register_hook(hook1)
    acc.register_prehook(hook2)
    a.register_hook(hook1)

    b.sum().backward(retain_graph=True)
    assert log == [1, 2, 2, 1, 1, 2]
    log.clear()
    (g,) = torch.autograd.grad(b.sum(), inputs=(a,), retain_graph=True)
    assert log == [1, 2, 2, 1, 1]
    assert g.item() == 3 * 4 * 9
    log.clear()
    b.sum().backward(inputs=(b,))
    # b's node runs (its pre-hooks too); its gradient is taken after its tensor hooks, before the
    # node's pre-hooks, as retain_grad() takes it.
    assert log == [1, 2, 2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # reading .grad of a non-leaf warns, as in PyTorch
        assert b.grad.item() == 3


class Pair(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2 * 3


def test_tensor_hook_of_an_unused_output_sees_none():
    x = torch.tensor(1.0, requires_grad=True)
    first, second = Pair.apply(x)
    seen = []
    first.register_hook(seen.append)
    first.backward(retain_graph=True)
    assert seen[-1].item() == 1.0
    second.backward()
    assert seen[-1] is None
    assert x.grad.item() == 5.0


def test_accumulate_grad_hook_order_and_shared_buffer():
    t = torch.rand(3, requires_grad=True)

    def acc_post(grad_in, grad_out):
        t.grad = grad_out[0].mul(10)

    acc = t.view_as(t).grad_fn.next_functions[0][0]
    t.register_hook(lambda g: g.sub(2.0))
    acc.register_prehook(lambda go: (go[0].div(5.0),))

    def post_accumulate(p):
        p.grad.add_(0.5)  # returns None: a returned tensor is refused

    t.register_post_accumulate_grad_hook(post_accumulate)
    acc.register_hook(acc_post)
    t.sum().backward()
    # ((1 - 2) / 5 + 0.5) * 10: the post-hook sees the post-accumulate hook's in-place change.
    assert torch.allclose(t.grad, torch.full((3,), 3.0))
