"""lerp, addcmul and addcdiv as one native node each (LerpBackward0/1, AddcmulBackward0,
AddcdivBackward0) with an edge per tensor input and PyTorch's saved attributes; their in-place
forms record the same node. Values against NumPy in float64, gradients and second derivatives by
finite differences, forward mode and vmap."""

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck, gradgradcheck

_A = np.array([[-1.3, -0.42, 0.17, 0.9], [0.35, 1.7, -0.8, 0.05], [2.2, -2.1, 0.61, -0.26]])
_B = np.array([[0.3, -0.6, 1.1, 0.25], [-0.9, 0.4, 0.75, -1.2], [0.15, 0.5, -0.35, 1.4]])
_C = np.array([[1.2, 0.7, -1.5, 0.9], [2.1, -0.8, 1.3, 1.1], [-0.6, 1.9, 0.8, -1.4]])


def _t(a, grad=True):
    return engine.tensor(a, dtype=engine.float64, requires_grad=grad)


def _next(t):
    return [type(n).__name__ if n is not None else None for n, _ in t.grad_fn.next_functions]


CASES = {
    "lerp_number": (lambda a, b, c: engine.lerp(a, b, 0.3), lambda a, b, c: a + 0.3 * (b - a)),
    "lerp_tensor": (lambda a, b, c: engine.lerp(a, b, c), lambda a, b, c: a + c * (b - a)),
    "addcmul": (
        lambda a, b, c: engine.addcmul(a, b, c, value=0.5),
        lambda a, b, c: a + 0.5 * b * c,
    ),
    "addcdiv": (
        lambda a, b, c: engine.addcdiv(a, b, c, value=2),
        lambda a, b, c: a + 2 * b / c,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_gradients_and_second_derivatives(name):
    fn, ref = CASES[name]
    got = fn(_t(_A), _t(_B), _t(_C))
    np.testing.assert_allclose(got.detach().numpy(), ref(_A, _B, _C), rtol=1e-14)
    args = (_t(_A), _t(_B), _t(_C))
    assert gradcheck(fn, args)
    assert gradgradcheck(fn, args)
    ones = engine.ones(3, 4, dtype=engine.float64)
    _, tangent = engine.func.jvp(
        lambda a: fn(a, engine.tensor(_B), engine.tensor(_C)), (engine.tensor(_A),), (ones,)
    )
    a = _t(_A)
    (g,) = engine.autograd.grad(fn(a, engine.tensor(_B), engine.tensor(_C)).sum(), [a])
    np.testing.assert_allclose(tangent.numpy(), g.numpy(), rtol=1e-12)
    batched = engine.func.vmap(fn)(*(engine.tensor(np.stack([v, v * 0.5])) for v in (_A, _B, _C)))
    np.testing.assert_allclose(batched[1].numpy(), ref(_A * 0.5, _B * 0.5, _C * 0.5), rtol=1e-14)


def test_nodes_and_saved_attributes():
    a, b, c = _t(_A), _t(_B), _t(_C)
    y = engine.lerp(a, b, 0.3)
    assert type(y.grad_fn).__name__ == "LerpBackward0" and y.grad_fn._saved_weight == 0.3
    assert _next(y) == ["AccumulateGrad", "AccumulateGrad"]
    y = engine.lerp(a, b, c)
    assert type(y.grad_fn).__name__ == "LerpBackward1"
    assert (y.grad_fn._saved_self, y.grad_fn._saved_end, y.grad_fn._saved_weight) == (a, b, c)
    y = engine.addcmul(a, b, c)
    assert _next(y) == ["AccumulateGrad"] * 3 and y.grad_fn._saved_value == 1
    assert type(y.grad_fn._saved_value) is int and y.grad_fn._saved_tensor1 is b
    y = engine.addcdiv(a, b, engine.tensor(_C), value=0.5)
    assert _next(y) == ["AccumulateGrad", "AccumulateGrad", None]
    assert y.grad_fn._saved_value == 0.5
    y = (a * 2).addcmul_(b, c)
    assert type(y.grad_fn).__name__ == "AddcmulBackward0"
    assert _next(y) == ["MulBackward0", "AccumulateGrad", "AccumulateGrad"]
    y = (a * 2).lerp_(b, 0.5)
    assert _next(y) == ["MulBackward0", "AccumulateGrad"]
