"""nn.functional activations: values, first and second derivatives against PyTorch 2.13 at the
points where conventions matter (recorded by tests/fixtures/record_activations.py), and the
similarity functions against NumPy. Second derivatives are compared away from each function's
kinks, where they are a matter of convention (PyTorch's double-backward formulas give 0 there)."""

import json
import pathlib

import engine
import engine.nn.functional as F
import numpy as np
import pytest

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "activations.json").read_text())


def _kinks(name, kwargs):
    if name == "hardtanh":
        return {kwargs.get("min_val", -1.0), kwargs.get("max_val", 1.0)}
    if name == "softplus":
        return {kwargs.get("threshold", 20.0) / kwargs.get("beta", 1.0)}
    return {"relu6": {0.0, 6.0}, "hardsigmoid": {-3.0, 3.0}, "hardswish": {-3.0, 3.0}}.get(
        name, {0.0}
    )


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=lambda c: f"{c['name']}{c['kwargs'] or ''}")
def test_values_and_derivatives_match_pytorch(case):
    x = engine.tensor(FIXTURE["points"], dtype=engine.float64, requires_grad=True)
    y = getattr(F, case["name"])(x, **case["kwargs"])
    np.testing.assert_allclose(y.detach().numpy(), case["value"], rtol=1e-12, atol=1e-12)
    (g,) = engine.autograd.grad(y.sum(), x, create_graph=True)
    # PyTorch's hardsigmoid slope is the float constant 1/6 (0.1666666716...) even in float64.
    np.testing.assert_allclose(g.detach().numpy(), case["grad"], rtol=1e-7, atol=1e-12)
    if case["grad2"] is not None and g.requires_grad:
        (h,) = engine.autograd.grad(g.sum(), x, allow_unused=True)
        got = np.zeros(len(FIXTURE["points"])) if h is None else h.numpy()
        smooth = [
            i
            for i, p in enumerate(FIXTURE["points"])
            if p not in _kinks(case["name"], case["kwargs"])
        ]
        np.testing.assert_allclose(
            got[smooth], np.array(case["grad2"])[smooth], rtol=1e-10, atol=1e-12
        )


def test_inplace_variants_write_into_the_input():
    x = engine.tensor([-1.0, 0.5, 7.0])
    out = F.relu6(x, inplace=True)
    assert out is x and x.tolist() == [0.0, 0.5, 6.0]


def test_glu_and_prelu():
    x = engine.tensor(np.arange(8.0).reshape(2, 4), dtype=engine.float64)
    a, b = x.numpy()[:, :2], x.numpy()[:, 2:]
    np.testing.assert_allclose(F.glu(x).numpy(), a / (1 + np.exp(-b)), rtol=1e-12)
    with pytest.raises(
        RuntimeError, match="^Halving dimension must be even, but dimension 1 is size 3$"
    ):
        F.glu(engine.ones(2, 3))
    inp = engine.tensor([[[-1.0, 2.0]], [[3.0, -4.0]]]).reshape(2, 1, 2).expand(2, 3, 2)
    weight = engine.tensor([0.1, 0.2, 0.3])
    want = np.where(
        inp.numpy() > 0, inp.numpy(), inp.numpy() * np.array([0.1, 0.2, 0.3]).reshape(3, 1)
    )
    np.testing.assert_allclose(F.prelu(inp, weight).numpy(), want, rtol=1e-6)
    with pytest.raises(RuntimeError, match="Mismatch of parameter numbers and input channel size"):
        F.prelu(inp, engine.ones(2))


def test_normalize_cosine_similarity_pairwise_distance():
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((4, 5)), rng.standard_normal((4, 5))
    ta = engine.tensor(a, dtype=engine.float64, requires_grad=True)
    tb = engine.tensor(b, dtype=engine.float64)
    np.testing.assert_allclose(
        F.normalize(ta).detach().numpy(), a / np.linalg.norm(a, axis=1, keepdims=True), rtol=1e-12
    )
    np.testing.assert_allclose(
        F.normalize(ta, p=1, dim=0).detach().numpy(),
        a / np.abs(a).sum(0, keepdims=True),
        rtol=1e-12,
    )
    cos = (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    np.testing.assert_allclose(F.cosine_similarity(ta, tb).detach().numpy(), cos, rtol=1e-12)
    np.testing.assert_allclose(
        F.pairwise_distance(ta, tb).detach().numpy(),
        np.linalg.norm(a - b + 1e-6, axis=1),
        rtol=1e-12,
    )
    assert engine.autograd.gradcheck(lambda t: F.normalize(t), (ta,))
    assert engine.autograd.gradcheck(lambda t: F.cosine_similarity(t, tb), (ta,))
    # An all-zero row: zero output and PyTorch's gradient 1 / eps, not NaN.
    z = engine.zeros(2, 3, dtype=engine.float64, requires_grad=True)
    F.normalize(z).sum().backward()
    assert z.grad.tolist() == [[1e12] * 3] * 2


@pytest.mark.parametrize("dtype", [engine.float32, engine.float64])
def test_relu_gradient_is_pytorchs_threshold_backward(dtype):
    # PyTorch zeroes the gradient where the result is <= 0 and passes it elsewhere, NaN results
    # included; a NaN gradient at a zeroed position gives 0, not NaN. (Recorded from PyTorch 2.13.)
    x = engine.tensor([float("nan"), -1.0, 0.0, 2.0], dtype=dtype, requires_grad=True)
    g = engine.tensor([5.0, float("nan"), float("nan"), 3.0], dtype=dtype, requires_grad=True)
    (gx,) = engine.autograd.grad(engine.relu(x), x, g)
    assert gx.tolist() == [5.0, 0.0, 0.0, 3.0]
    # Recorded for a second derivative: the same values, PyTorch's node name, d/dg the mask.
    (gx,) = engine.autograd.grad(engine.relu(x), x, g, create_graph=True)
    assert gx.tolist() == [5.0, 0.0, 0.0, 3.0]
    assert type(gx.grad_fn).__name__ == "ThresholdBackwardBackward0"
    gx.sum().backward()
    assert g.grad.tolist() == [1.0, 0.0, 0.0, 1.0]
