"""engine.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp.

Values against NumPy float64 formulas; the output structure (tensor vs tuple nesting) for every
input/output combination; create_graph (results differentiable again, checked by gradcheck);
strict mode's errors; vectorize / forward-mode agreeing with the row-by-row reverse mode.
PyTorch's own results and messages for these functions are compared in tests/func/test_grad.py
(the af_* cases of tests/fixtures/transforms.json)."""

import engine
import numpy as np
import pytest
from engine.autograd import functional as F
from engine.autograd import gradcheck, gradgradcheck

f64 = engine.float64
X0 = np.array([0.3, -1.2, 2.0])
Y0 = np.array([[0.5, 1.5], [-0.7, 0.2]])


def t(values, requires_grad=False):
    return engine.tensor(values, dtype=f64, requires_grad=requires_grad)


def a(tensor):
    return np.asarray(tensor.detach().tolist(), dtype=np.float64)


def cubic(x):
    return (x**3).sum()


def test_jacobian_single_input_single_output_values():
    J = F.jacobian(lambda x: x.exp() * x.sum(), t(X0))
    want = np.diag(np.exp(X0)) * X0.sum() + np.exp(X0)[:, None]
    assert J.shape == (3, 3)
    np.testing.assert_allclose(a(J), want)


@pytest.mark.parametrize("inputs_tuple", [False, True])
@pytest.mark.parametrize("outputs_tuple", [False, True])
def test_jacobian_structure(inputs_tuple, outputs_tuple):
    def f(*xs):
        out = xs[0].sin() * 2
        return (out, out.sum()) if outputs_tuple else out

    x = t(X0)
    J = F.jacobian(f, (x, t(Y0)) if inputs_tuple else x)
    if outputs_tuple and inputs_tuple:
        assert J[0][0].shape == (3, 3) and J[0][1].shape == (3, 2, 2) and J[1][0].shape == (3,)
        np.testing.assert_allclose(a(J[0][1]), 0.0)
        np.testing.assert_allclose(a(J[1][0]), 2 * np.cos(X0))
    elif outputs_tuple:
        assert isinstance(J, tuple) and J[0].shape == (3, 3) and J[1].shape == (3,)
    elif inputs_tuple:
        assert isinstance(J, tuple) and J[0].shape == (3, 3) and J[1].shape == (3, 2, 2)
    else:
        np.testing.assert_allclose(a(J), np.diag(2 * np.cos(X0)))


def test_vectorize_and_forward_mode_agree_with_rows():
    def f(x, y):
        return (x.tanh() * y.sum(), (x * x).sum() * y.exp())

    inputs = (t(X0), t(Y0))
    rows = F.jacobian(f, inputs)
    for kwargs in ({"vectorize": True}, {"vectorize": True, "strategy": "forward-mode"}):
        other = F.jacobian(f, inputs, **kwargs)
        for r_out, o_out in zip(rows, other):
            for r, o in zip(r_out, o_out):
                np.testing.assert_allclose(a(o), a(r), rtol=1e-12, atol=1e-14)


def test_hessian_values_and_strategies():
    def f(x):
        return (x.sin() * x.prod()).sum()

    want = F.hessian(f, t(X0))
    assert want.shape == (3, 3)
    np.testing.assert_allclose(a(want), a(want).T, rtol=1e-12)
    H = F.hessian(cubic, t(X0))
    np.testing.assert_allclose(a(H), np.diag(6 * X0))
    for kwargs in (
        {"vectorize": True},
        {"vectorize": True, "outer_jacobian_strategy": "forward-mode"},
    ):
        np.testing.assert_allclose(a(F.hessian(f, t(X0), **kwargs)), a(want), rtol=1e-12)


def test_hessian_tuple_inputs_structure():
    H = F.hessian(lambda x, y: (x**2).sum() * y.sum(), (t(X0), t(Y0)))
    assert H[0][0].shape == (3, 3) and H[0][1].shape == (3, 2, 2)
    assert H[1][0].shape == (2, 2, 3) and H[1][1].shape == (2, 2, 2, 2)
    np.testing.assert_allclose(a(H[0][0]), 2 * Y0.sum() * np.eye(3))
    np.testing.assert_allclose(a(H[1][1]), 0.0)
    np.testing.assert_allclose(a(H[0][1])[:, 0, 0], 2 * X0)


def test_vjp_jvp_are_transposes():
    A = np.array([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]])

    def f(x):
        return engine.tensor(A, dtype=f64) @ x.sin()

    v_out = np.array([0.7, -0.2])
    v_in = np.array([1.0, -2.0, 0.5])
    out, vj = F.vjp(f, t(X0), t(v_out))
    out2, jv = F.jvp(f, t(X0), t(v_in))
    J = A * np.cos(X0)[None, :]
    np.testing.assert_allclose(a(out), A @ np.sin(X0))
    np.testing.assert_allclose(a(out2), a(out))
    np.testing.assert_allclose(a(vj), v_out @ J)
    np.testing.assert_allclose(a(jv), J @ v_in)


def test_hvp_vhp_values():
    v = np.array([1.0, 0.5, -1.0])
    value, hv = F.hvp(cubic, t(X0), t(v))
    value2, vh = F.vhp(cubic, t(X0), t(v))
    np.testing.assert_allclose(float(value), np.sum(X0**3))
    np.testing.assert_allclose(float(value2), np.sum(X0**3))
    np.testing.assert_allclose(a(hv), 6 * X0 * v)
    np.testing.assert_allclose(a(vh), 6 * X0 * v)


def test_v_may_be_omitted_for_one_element():
    _, g = F.vjp(lambda x: (x**2).sum(), t([3.0]))
    np.testing.assert_allclose(a(g), [6.0])
    _, jv = F.jvp(lambda x: x * 4, t([3.0]))
    np.testing.assert_allclose(a(jv), [4.0])


def test_results_detached_without_create_graph():
    x = t(X0, requires_grad=True)
    out, vj = F.vjp(lambda v: v.sin(), x, t([1.0, 1.0, 1.0]))
    assert not out.requires_grad and not vj.requires_grad
    assert not F.jacobian(engine.sin, x).requires_grad


def test_create_graph_results_differentiable():
    x = t(X0, requires_grad=True)
    J = F.jacobian(lambda v: v**3, x, create_graph=True)
    assert J.requires_grad
    (g,) = engine.autograd.grad(J.sum(), x)
    np.testing.assert_allclose(a(g), 6 * X0)

    def hv_of(v):
        return F.hvp(cubic, v, t([1.0, 1.0, 1.0]), create_graph=True)[1]

    assert gradcheck(hv_of, (t(X0, requires_grad=True),))
    assert gradcheck(
        lambda v: F.jacobian(lambda u: u.sin() * u.sum(), v, create_graph=True),
        (t(X0, requires_grad=True),),
    )
    assert gradgradcheck(
        lambda v: F.vjp(lambda u: u.exp() * 2, v, t([1.0, 2.0, 3.0]), create_graph=True)[1],
        (t(X0, requires_grad=True),),
    )


def test_strict_mode_errors():
    x = t(X0)
    with pytest.raises(
        RuntimeError, match="Output 0 of the user-provided function is independent of input 1"
    ):
        F.jacobian(lambda u, v: u * 2, (x, x), strict=True)
    with pytest.raises(RuntimeError, match="found that the jacobian of the user-provided function"):
        F.hessian(lambda v: v.sum(), x, strict=True)
    with pytest.raises(RuntimeError, match="`strict=True` and `vectorized=True`"):
        F.jacobian(engine.sin, x, strict=True, vectorize=True)
    with pytest.raises(RuntimeError, match='`strict=True` and `strategy="forward-mode"`'):
        F.jacobian(engine.sin, x, strict=True, vectorize=True, strategy="forward-mode")
    with pytest.raises(NotImplementedError, match="`create_graph=True` and `strategy"):
        F.jacobian(engine.sin, x, create_graph=True, vectorize=True, strategy="forward-mode")


def test_non_strict_independent_input_gets_zeros():
    J = F.jacobian(lambda u, v: u * 2, (t(X0), t(Y0)))
    np.testing.assert_allclose(a(J[1]), 0.0)
    _, vj = F.vjp(lambda u: engine.ones(2, dtype=f64), t(X0), t([1.0, 1.0]))
    np.testing.assert_allclose(a(vj), 0.0)


def test_bad_v_errors():
    with pytest.raises(RuntimeError, match="v is a tuple of invalid length: should be 2 but got 1"):
        F.jvp(lambda u, v: u * v, (t([1.0]), t([2.0])), (t([1.0]),))
    with pytest.raises(RuntimeError, match="Entry 1 in v has invalid size"):
        F.vhp(lambda u, v: (u * v).sum(), (t([1.0]), t([2.0])), (t([1.0]), t([1.0, 2.0])))
    with pytest.raises(
        RuntimeError, match="The function given to hvp should return a single Tensor"
    ):
        F.hvp(lambda u: (u.sum(), u.sum()), t([1.0]), t([1.0]))
    with pytest.raises(TypeError, match="but the value at index 1 has type <class 'int'>"):
        F.vjp(engine.sin, (t([1.0]), 2))


def test_grad_mode_restored_and_inputs_untouched():
    x = t(X0)
    with engine.no_grad():
        J = F.jacobian(engine.sin, x)
        assert not engine.is_grad_enabled()
    np.testing.assert_allclose(a(J), np.diag(np.cos(X0)))
    assert not x.requires_grad and x.grad_fn is None
