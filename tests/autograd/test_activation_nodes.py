"""The activations of nn.functional as single native nodes: values against NumPy in float64,
gradients and second derivatives by finite differences, forward mode, the names and saved
attributes PyTorch shows, and the in-place forms (EluBackward1 / LeakyReluBackward1 save the
result)."""

import math

import engine
import engine.nn.functional as F
import numpy as np
import pytest
from engine.autograd import gradcheck, gradgradcheck

_ERF = np.vectorize(math.erf)


def _softplus(x, beta=1.0, threshold=20.0):
    return np.where(
        x * beta > threshold, x, np.log1p(np.exp(np.minimum(x * beta, threshold))) / beta
    )


def _gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


CASES = {
    "gelu": (F.gelu, lambda x: x * 0.5 * (1 + _ERF(x / math.sqrt(2)))),
    "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh"), _gelu_tanh),
    "silu": (F.silu, lambda x: x / (1 + np.exp(-x))),
    "mish": (F.mish, lambda x: x * np.tanh(_softplus(x))),
    "elu": (
        lambda x: F.elu(x, 0.7),
        lambda x: np.where(x > 0, x, 0.7 * np.expm1(np.minimum(x, 0))),
    ),
    "selu": (
        F.selu,
        lambda x: (
            1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(np.minimum(x, 0)))
        ),
    ),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.2), lambda x: np.where(x > 0, x, 0.2 * x)),
    "softplus": (lambda x: F.softplus(x, 2, 1.5), lambda x: _softplus(x, 2.0, 1.5)),
    "hardtanh": (lambda x: F.hardtanh(x, -0.5, 0.8), lambda x: np.clip(x, -0.5, 0.8)),
    "relu6": (lambda x: F.relu6(x * 4), lambda x: np.clip(x * 4, 0, 6)),
    "hardsigmoid": (lambda x: F.hardsigmoid(x * 4), lambda x: np.clip(x * 4 + 3, 0, 6) / 6),
    "hardswish": (lambda x: F.hardswish(x * 4), lambda x: x * 4 * np.clip(x * 4 + 3, 0, 6) / 6),
    "logsigmoid": (F.logsigmoid, lambda x: -np.log1p(np.exp(-x))),
    "threshold": (lambda x: F.threshold(x, 0.1, 2.0), lambda x: np.where(x > 0.1, x, 2.0)),
}

# Points away from every kink (0, the bounds, +-3 after scaling by 4, the thresholds).
_POINTS = np.array([[-2.3, -1.1, -0.62, -0.31], [0.23, 0.41, 0.67, 1.3], [1.9, 2.7, -0.07, 0.05]])


def _x():
    return engine.tensor(_POINTS, dtype=engine.float64, requires_grad=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_match_numpy_float64(name):
    fn, ref = CASES[name]
    got = fn(_x())
    assert got.shape == _POINTS.shape and got.dtype == engine.float64
    np.testing.assert_allclose(got.detach().numpy(), ref(_POINTS), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", sorted(CASES))
def test_float32_values_follow_float64(name):
    fn, ref = CASES[name]
    got = fn(engine.tensor(_POINTS, dtype=engine.float32))
    assert got.dtype == engine.float32
    np.testing.assert_allclose(got.numpy(), ref(_POINTS), rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_and_second_derivatives(name):
    fn = CASES[name][0]
    assert gradcheck(fn, (_x(),))
    assert gradgradcheck(fn, (_x(),))


@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_mode_matches_reverse(name):
    fn = CASES[name][0]
    x, t = _x().detach(), engine.tensor(np.linspace(-1, 1, 12).reshape(3, 4))
    _, tangent = engine.func.jvp(fn, (x,), (t,))
    _, vjp = engine.func.vjp(fn, x)
    jac = engine.autograd.functional.jacobian(fn, x).reshape(12, 12)
    np.testing.assert_allclose(
        tangent.numpy().ravel(), (jac @ t.reshape(12)).numpy(), rtol=1e-10, atol=1e-12
    )
    assert vjp is not None


@pytest.mark.parametrize(
    "fn",
    [F.gelu, F.silu, F.mish, F.elu, F.selu, F.leaky_relu, F.softplus, F.hardtanh, F.relu6,
     F.hardsigmoid, F.hardswish, F.logsigmoid, lambda x: F.threshold(x, 0.1, 2.0)],
)  # fmt: skip
def test_one_node_per_call(fn):
    assert [type(n).__name__ for n, _ in fn(_x()).grad_fn.next_functions] == ["AccumulateGrad"]


def test_saved_attributes_show_numbers_as_given():
    x = _x()
    fn = F.softplus(x, 2, 10).grad_fn
    assert (fn._saved_beta, fn._saved_threshold) == (2, 10) and type(fn._saved_beta) is int
    assert fn._saved_self is x
    fn = F.elu(x, alpha=2.0).grad_fn
    assert (fn._saved_alpha, fn._saved_scale, fn._saved_input_scale) == (2.0, 1, 1)
    assert type(fn._saved_scale) is int
    fn = F.relu6(x).grad_fn
    assert type(fn).__name__ == "HardtanhBackward0" and (fn._saved_min_val, fn._saved_max_val) == (
        0,
        6,
    )
    assert F.gelu(x, approximate="tanh").grad_fn._saved_approximate == "tanh"
    fn = F.logsigmoid(x).grad_fn
    np.testing.assert_allclose(fn._saved_buffer.numpy(), np.exp(-np.abs(_POINTS)))


def test_inplace_elu_and_leaky_relu_save_the_result():
    for call, name in ((lambda t: F.elu(t, inplace=True), "EluBackward1"),
                       (lambda t: F.leaky_relu(t, 0.1, inplace=True), "LeakyReluBackward1")):  # fmt: skip
        x = _x()
        y = call(x * 1)
        assert type(y.grad_fn).__name__ == name
        assert y.grad_fn._saved_result.equal(y)
        y.sum().backward()
        assert x.grad is not None
    x = _x()
    F.elu(x * 1).sum().backward()
    x2 = _x()
    F.elu(x2 * 1, inplace=True).sum().backward()
    np.testing.assert_allclose(x2.grad.numpy(), x.grad.numpy(), rtol=1e-12)


def test_inplace_with_negative_slope_refuses_backward():
    y = F.leaky_relu(_x() * 1, -0.2, inplace=True)
    with pytest.raises(RuntimeError, match="In-place leakyReLu backward calculation"):
        y.sum().backward()
    y = F.elu(_x() * 1, -1.0, inplace=True)
    with pytest.raises(RuntimeError, match="In-place elu backward calculation"):
        y.sum().backward()


def test_inplace_silu_and_hardtanh_save_the_input():
    def silu_(t):
        return F.silu(t * 1, inplace=True)

    def hardtanh_(t):
        return F.hardtanh(t * 1, -0.5, 0.5, inplace=True)

    for call in (silu_, hardtanh_):
        x = _x()
        y = call(x)
        assert y.grad_fn._saved_self.equal((x * 1).detach())
        assert gradcheck(call, (_x(),))
        assert gradgradcheck(call, (_x(),))


def test_16bit_inputs_round_the_float32_result():
    x = engine.tensor(_POINTS, dtype=engine.bfloat16)
    got = F.gelu(x)
    assert got.dtype == engine.bfloat16
    np.testing.assert_allclose(got.float().numpy(), F.gelu(x.float()).bfloat16().float().numpy())


def test_bad_input_raises():
    with pytest.raises(NotImplementedError, match="GeluKernelImpl"):
        F.gelu(engine.tensor([1, 2]))
    with pytest.raises(RuntimeError, match="approximate argument must be either none or tanh"):
        F.gelu(_x(), approximate="bad")
    with pytest.raises(TypeError, match="negative_slope"):
        F.leaky_relu(_x(), "a")


def test_transposed_input_keeps_its_layout():
    x = engine.tensor(_POINTS).t()
    assert F.gelu(x).stride() == x.stride()
    assert F.logsigmoid(x).is_contiguous()


@pytest.mark.parametrize("name", sorted(CASES))
def test_vmap_matches_a_loop(name):
    fn = CASES[name][0]
    batch = engine.tensor(np.stack([_POINTS, -_POINTS * 0.9]))
    got = engine.func.vmap(fn)(batch)
    for i in range(2):
        np.testing.assert_allclose(got[i].numpy(), fn(batch[i]).numpy(), rtol=1e-15)
