"""``vmap(grad(f), in_dims=(None, 0))(params, data)`` — per-sample gradients of unbatched,
detached parameters — returns plain tensors (no ``grad_fn``, ``requires_grad=False``), as
PyTorch does; parameters that require grad outside keep the graph to them.

Expectations from PyTorch 2.13's behaviour; with torch installed the same checks run on it too.
"""

from __future__ import annotations


def _f(w, x):
    return (w * x).sum().sin()


def test_per_sample_grads_are_plain_tensors(lib):
    w, x = lib.randn(3), lib.randn(4, 3)
    g = lib.func.vmap(lib.func.grad(_f), in_dims=(None, 0))(w, x)
    assert g.grad_fn is None and not g.requires_grad
    g, v = lib.func.vmap(lib.func.grad_and_value(_f), in_dims=(None, 0))(w, x)
    assert g.grad_fn is None and v.grad_fn is None
    expected = lib.cos((w * x).sum(1, keepdim=True)) * x
    assert lib.allclose(g, expected, atol=1e-6)


def test_outer_graph_is_kept(lib):
    w, x = lib.randn(3, requires_grad=True), lib.randn(4, 3)
    g = lib.func.vmap(lib.func.grad(_f), in_dims=(None, 0))(w, x)
    assert g.requires_grad
    g.sum().backward()
    assert tuple(w.grad.shape) == (3,)
