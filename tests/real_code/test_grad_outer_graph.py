"""``func.grad`` over several inputs that take part in an enclosing graph (a module's parameters
through ``functional_call``, as per-sample-gradient code passes them): every gradient keeps its
graph to the parameters, as PyTorch's do, not only the first one examined.

With torch installed the same checks run on it too.
"""

from __future__ import annotations


def test_every_gradient_keeps_its_graph(lib):
    lib.manual_seed(0)
    lin = lib.nn.Linear(3, 2)
    params = dict(lin.named_parameters())
    x = lib.randn(4, 3)

    def loss(p, xi):
        return lib.func.functional_call(lin, p, (xi[None],)).pow(2).sum()

    g = lib.func.grad(loss)(params, x[0])
    assert all(v.grad_fn is not None for v in g.values())
    per_sample = lib.func.vmap(lib.func.grad(loss), in_dims=(None, 0))(params, x)
    assert all(v.requires_grad for v in per_sample.values())
    assert tuple(per_sample["weight"].shape) == (4, 2, 3)
    per_sample["bias"].sum().backward()
    assert lin.bias.grad is not None and lin.weight.grad is not None


def test_inputs_of_the_level_alone_come_back_detached(lib):
    def f(p):
        return (p["a"] * p["b"]).sum()

    g = lib.func.grad(f)({"a": lib.ones(2), "b": lib.full((2,), 3.0)})
    assert g["a"].tolist() == [3.0, 3.0] and g["a"].grad_fn is None and g["b"].grad_fn is None
