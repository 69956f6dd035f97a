"""Gradients of every differentiable op in tests/op_table.py against float64 central differences
(engine.autograd.gradcheck), on the table's shapes (broadcast, 0-d, empty, size-1) with contiguous,
transposed and expanded leaves; second derivatives of the elementwise ops (gradgradcheck); and a
negative test proving the checker catches a wrong backward.
"""

from __future__ import annotations

import engine
import numpy as np
import pytest
from engine.autograd import Function, GradcheckError, gradcheck, gradgradcheck
from op_table import OPS, cases, make_input


def _leaves(values, layout):
    return [make_input(engine, v, layout, engine.float64).requires_grad_() for v in values]


def _params(ops, layouts, max_cases=None):
    rng = np.random.default_rng(2024)
    for op in ops:
        for k, (ident, values, layout) in enumerate(cases(op, rng, layouts)):
            if max_cases is not None and k >= max_cases:
                break
            yield pytest.param(op, values, layout, id=f"{op.name}-{ident}")


DIFFERENTIABLE = [op for op in OPS if op.differentiable]


@pytest.mark.parametrize(
    "op,values,layout", list(_params(DIFFERENTIABLE, ("contiguous", "permuted", "expanded")))
)
def test_gradcheck(op, values, layout):
    xs = _leaves(values, layout)
    assert gradcheck(lambda *a: op.fn(engine, *a), xs)


# Rows whose second derivative PyTorch supports (and engine does): op_table's second_order flag;
# NO_SECOND_DERIVATIVE there lists the exceptions and why.
SECOND_ORDER = [op for op in OPS if op.differentiable and op.second_order]


@pytest.mark.parametrize(
    "op,values,layout", list(_params(SECOND_ORDER, ("contiguous", "permuted"), max_cases=4))
)
def test_gradgradcheck(op, values, layout):
    xs = _leaves(values, layout)
    assert gradgradcheck(lambda *a: op.fn(engine, *a), xs)


@pytest.mark.parametrize(
    "name", ["matmul", "mm", "sum_dim_tuple", "mean_keepdim", "expand", "composite"]
)
def test_gradgradcheck_structural_ops(name):
    op = next(o for o in OPS if o.name == name)
    _, values, layout = next(cases(op, np.random.default_rng(7), ("contiguous",)))
    assert gradgradcheck(lambda *a: op.fn(engine, *a), _leaves(values, layout))


def test_non_differentiable_ops_have_no_history():
    x = engine.tensor([1.0, -2.0], requires_grad=True)
    for out in (x == 1, x < 0, x.detach(), x.to(engine.int64), engine.sign(x) > 0):
        assert not out.requires_grad and out.grad_fn is None


# ---- the checker itself --------------------------------------------------------------------


class WrongSquare(Function):
    """x**2 whose backward forgets the factor 2."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x


class RightSquare(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 2 * x


def test_gradcheck_catches_a_wrong_backward():
    x = engine.tensor([0.5, -1.5, 2.0], dtype=engine.float64, requires_grad=True)
    assert gradcheck(RightSquare.apply, (x,))
    with pytest.raises(GradcheckError) as info:
        gradcheck(WrongSquare.apply, (x,))
    assert str(info.value).startswith("Jacobian mismatch for output 0 with respect to input 0")
    assert isinstance(info.value, RuntimeError)
    assert gradcheck(WrongSquare.apply, (x,), raise_exception=False) is False


def test_gradcheck_catches_a_wrong_second_derivative():
    class WrongCube(Function):
        # First derivative right, but computed from a detached input: no second derivative.
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x.detach() ** 2

    x = engine.tensor([0.5, -1.5], dtype=engine.float64, requires_grad=True)
    assert gradcheck(WrongCube.apply, (x,))
    with pytest.raises(
        GradcheckError, match="^Jacobian mismatch for output 0 with respect to input 0"
    ):
        gradgradcheck(WrongCube.apply, (x,))


def test_second_derivative_with_create_graph():
    x = engine.tensor([-1.5, 0.5, 2.0], dtype=engine.float64, requires_grad=True)
    (g,) = engine.autograd.grad((x**3).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.tolist(), [3 * v**2 for v in (-1.5, 0.5, 2.0)])
    assert g.requires_grad
    (gg,) = engine.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(gg.tolist(), [6 * v for v in (-1.5, 0.5, 2.0)])
    # And through backward(create_graph=True) into .grad, as training code writes it.
    y = engine.tensor(1.25, dtype=engine.float64, requires_grad=True)
    with pytest.warns(UserWarning, match="create_graph=True"):
        (y**3).backward(create_graph=True)
    (d2,) = engine.autograd.grad(y.grad, y)
    assert d2.item() == pytest.approx(6 * 1.25)
    y.grad = None


def test_third_derivative_of_exp_and_sin():
    x = engine.tensor([0.3, -0.7], dtype=engine.float64, requires_grad=True)
    for fn, third in ((engine.exp, np.exp), (engine.sin, lambda v: -np.cos(v))):
        g = fn(x).sum()
        for _ in range(3):
            (g,) = engine.autograd.grad(g.sum(), x, create_graph=True)
        np.testing.assert_allclose(g.tolist(), third(np.array([0.3, -0.7])), rtol=1e-12)


def test_broadcast_gradient_is_summed_back():
    a = engine.ones(3, 1, dtype=engine.float64, requires_grad=True)
    b = engine.ones(4, dtype=engine.float64, requires_grad=True)
    (a * b * 2).sum().backward()
    assert a.grad.shape == (3, 1) and a.grad.tolist() == [[8.0], [8.0], [8.0]]
    assert b.grad.shape == (4,) and b.grad.tolist() == [6.0] * 4


def test_gradients_keep_the_input_dtype_under_promotion():
    a = engine.ones(2, dtype=engine.float32, requires_grad=True)
    b = engine.ones(2, dtype=engine.float64, requires_grad=True)
    (a * b).sum().backward()
    assert a.grad.dtype == engine.float32 and b.grad.dtype == engine.float64
