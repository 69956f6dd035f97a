"""engine.func.functional_call (and nn.utils.stateless.functional_call): modules called with
replaced parameters and buffers, restored afterwards; tied weights, strict keys, gradients."""

import engine
import engine.nn as nn
import numpy as np
import pytest
from engine.func import functional_call, grad, jacrev

f64 = engine.float64


def a(tensor):
    return np.asarray(tensor.detach().tolist(), dtype=np.float64)


def linear():
    m = nn.Linear(3, 2).double()
    params = {
        "weight": engine.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], dtype=f64),
        "bias": engine.tensor([0.05, -0.05], dtype=f64),
    }
    return m, params


def test_replaces_for_the_call_and_restores():
    m, params = linear()
    weight, bias = m.weight, m.bias
    x = engine.tensor([1.0, 2.0, 3.0], dtype=f64)
    out = functional_call(m, params, (x,))
    np.testing.assert_allclose(a(out), a(params["weight"]) @ a(x) + a(params["bias"]))
    assert m.weight is weight and m.bias is bias
    assert dict(m.named_parameters())["weight"] is weight


def test_single_argument_and_kwargs():
    class Scale(nn.Module):
        def __init__(self):
            super().__init__()
            self.s = nn.Parameter(engine.tensor(2.0, dtype=f64))

        def forward(self, x, *, shift=0.0):
            return x * self.s + shift

    m = Scale()
    x = engine.tensor([1.0, 2.0], dtype=f64)
    out = functional_call(m, {"s": engine.tensor(3.0, dtype=f64)}, x, {"shift": 1.0})
    np.testing.assert_allclose(a(out), [4.0, 7.0])


def test_partial_dict_keeps_the_other_parameters():
    m, params = linear()
    x = engine.tensor([1.0, 0.0, 0.0], dtype=f64)
    out = functional_call(m, {"bias": params["bias"]}, x)
    np.testing.assert_allclose(a(out), a(m.weight)[:, 0] + a(params["bias"]))


def test_several_dicts_and_buffers():
    m = nn.BatchNorm1d(2).double().eval()
    x = engine.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=f64)
    buffers = {
        "running_mean": engine.tensor([1.0, 1.0], dtype=f64),
        "running_var": engine.tensor([4.0, 1.0], dtype=f64),
    }
    params = {
        "weight": engine.tensor([1.0, 2.0], dtype=f64),
        "bias": engine.tensor([0.0, 0.5], dtype=f64),
    }
    out = functional_call(m, (params, buffers), (x,))
    want = (a(x) - 1.0) / np.sqrt(np.array([4.0, 1.0]) + 1e-5) * [1.0, 2.0] + [0.0, 0.5]
    np.testing.assert_allclose(a(out), want, rtol=1e-12)
    np.testing.assert_allclose(a(m.running_var), [1.0, 1.0])


def test_nested_submodule_names():
    m = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1)).double()
    x = engine.tensor([0.5, -0.5], dtype=f64)
    zeros = {name: engine.zeros_like(p) for name, p in m.named_parameters()}
    zeros["2.bias"] = engine.tensor([1.5], dtype=f64)
    np.testing.assert_allclose(a(functional_call(m, zeros, x)), [1.5])


def test_gradients_with_respect_to_parameters_match_backward():
    m, params = linear()
    x = engine.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]], dtype=f64)

    def loss(p):
        return functional_call(m, p, (x,)).pow(2).sum()

    grads = grad(loss)(params)
    leaves = {k: v.clone().requires_grad_() for k, v in params.items()}
    out = (x @ leaves["weight"].t() + leaves["bias"]).pow(2).sum()
    out.backward()
    for k in params:
        np.testing.assert_allclose(a(grads[k]), a(leaves[k].grad))
    jac = jacrev(lambda p: functional_call(m, p, (x,)))(params)
    assert jac["weight"].shape == (2, 2, 2, 3)


def test_restored_after_an_exception():
    class Boom(nn.Module):
        def __init__(self):
            super().__init__()
            self.p = nn.Parameter(engine.ones(1))

        def forward(self, x):
            raise ValueError("boom")

    m = Boom()
    p = m.p
    with pytest.raises(ValueError, match="boom"):
        functional_call(m, {"p": engine.zeros(1)}, engine.ones(1))
    assert m.p is p


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.foo = nn.Parameter(engine.tensor([1.0], dtype=f64))
        self.foo_tied = self.foo

    def forward(self, x):
        return x + self.foo + self.foo_tied


def test_tie_weights():
    m = Tied()
    x = engine.zeros(1, dtype=f64)
    zero = {"foo": engine.zeros(1, dtype=f64)}
    np.testing.assert_allclose(a(functional_call(m, zero, x)), [0.0])
    np.testing.assert_allclose(a(functional_call(m, zero, x, tie_weights=False)), [1.0])
    with pytest.raises(ValueError, match="which are tied. Consider using tie_weights=False"):
        functional_call(
            m, {"foo": engine.zeros(1, dtype=f64), "foo_tied": engine.ones(1, dtype=f64)}, x
        )


def test_strict_and_bad_dicts():
    m, params = linear()
    x = engine.ones(3, dtype=f64)
    with pytest.raises(RuntimeError, match="Unexpected key\\(s\\): 'extra'.\n\tMissing key"):
        functional_call(m, {"weight": params["weight"], "extra": params["bias"]}, x, strict=True)
    with pytest.raises(ValueError, match="Expected parameter_and_buffer_dicts to be a dict"):
        functional_call(m, 3, x)
    with pytest.raises(ValueError, match="Expected all elements of parameter_and_buffer_dicts"):
        functional_call(m, [params, 3], x)


def test_stateless_functional_call_is_deprecated():
    from engine.nn.utils import stateless

    m, params = linear()
    with pytest.warns(FutureWarning, match="torch.func.functional_call"):
        out = stateless.functional_call(m, params, engine.ones(3, dtype=f64))
    np.testing.assert_allclose(a(out), a(params["weight"]).sum(1) + a(params["bias"]))


def test_stack_module_state():
    from engine.func import stack_module_state

    models = [nn.Linear(3, 2) for _ in range(4)]
    params, buffers = stack_module_state(models)
    assert buffers == {}
    assert params["weight"].shape == (4, 2, 3) and params["weight"].is_leaf
    assert params["weight"].requires_grad
    np.testing.assert_allclose(a(params["bias"][2]), a(models[2].bias))
    with pytest.raises(RuntimeError, match="Expected at least one model, got 0."):
        stack_module_state([])
    with pytest.raises(RuntimeError, match="Expected all models to be of the same class."):
        stack_module_state([nn.Linear(1, 1), nn.Tanh()])
    models[1].eval()
    with pytest.raises(RuntimeError, match="the same training/eval mode"):
        stack_module_state(models)
    models[1].train()
    models[0].weight.requires_grad_(False)
    with pytest.raises(RuntimeError, match="Expected weight from each model to have the same"):
        stack_module_state(models)


def test_per_sample_gradients_of_a_model():
    vmap = getattr(engine.func, "vmap", None)
    if vmap is None:
        pytest.skip("engine.func.vmap is not available")
    engine.manual_seed(0)
    m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)).double()
    params = {k: v.detach() for k, v in m.named_parameters()}
    xs = engine.randn(5, 3, dtype=f64)
    ys = engine.randn(5, 1, dtype=f64)

    def loss(p, x, y):
        out = functional_call(m, p, (x.unsqueeze(0),))
        return nn.functional.mse_loss(out, y.unsqueeze(0))

    with engine.enable_grad():
        per_sample = vmap(grad(loss), in_dims=(None, 0, 0))(params, xs, ys)
    assert per_sample["0.weight"].shape == (5, 4, 3)
    for i in range(5):
        one = grad(loss)(params, xs[i], ys[i])
        for k in one:
            np.testing.assert_allclose(a(per_sample[k][i]), a(one[k]), rtol=1e-12, atol=1e-14)


def test_not_a_module_and_not_a_tensor():
    with pytest.raises(AttributeError, match="'int' object has no attribute 'named_parameters'"):
        functional_call(3, {}, engine.ones(1))
    with pytest.raises(TypeError, match="3 is not an instance of torch.Tensor"):
        functional_call(nn.Linear(2, 1), {"weight": 3}, engine.ones(2))
