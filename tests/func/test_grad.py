"""engine.func's reverse-mode transforms: grad, grad_and_value, vjp, jacrev, hessian.

Values against NumPy float64 formulas and central finite differences; PyTorch's results and
messages recorded in tests/fixtures/transforms.json (by tests/fixtures/record_transforms.py);
nesting semantics (levels, captured tensors as constants) and interplay with ordinary autograd.
"""

import importlib.util
import json
import pathlib

import engine
import numpy as np
import pytest
from engine.func import grad, grad_and_value, hessian, jacrev, vjp

FIXTURES = pathlib.Path(__file__).parent.parent / "fixtures"
RECORDED = json.loads((FIXTURES / "transforms.json").read_text())


def _load_cases():
    spec = importlib.util.spec_from_file_location(
        "transform_cases", FIXTURES / "transform_cases.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build(engine)


CASES = _load_cases()
f64 = engine.float64


def t(values):
    return engine.tensor(values, dtype=f64)


def a(tensor):
    return np.asarray(tensor.detach().tolist(), dtype=np.float64)


def _compare(got, want, where):
    if "shape" in want:
        assert isinstance(got, engine.Tensor), where
        assert list(got.shape) == want["shape"], where
        assert str(got.dtype) == want["dtype"], where
        np.testing.assert_allclose(a(got), np.asarray(want["data"]), rtol=1e-10, atol=1e-12)
    elif "dict" in want:
        assert isinstance(got, dict) and list(got) == list(want["dict"]), where
        for key in got:
            _compare(got[key], want["dict"][key], f"{where}[{key!r}]")
    elif "seq" in want:
        assert isinstance(got, (tuple, list)) and len(got) == len(want["seq"]), where
        for i, (g, w) in enumerate(zip(got, want["seq"])):
            _compare(g, w, f"{where}[{i}]")
    else:
        assert repr(got) == want["other"], where


@pytest.mark.parametrize("name", sorted(n for n in CASES if not n.startswith("err_")))
def test_matches_pytorch_values(name):
    _compare(CASES[name](), RECORDED[name]["value"], name)


@pytest.mark.parametrize("name", sorted(n for n in CASES if n.startswith("err_")))
def test_matches_pytorch_errors(name):
    want = RECORDED[name]
    with pytest.raises(Exception) as info:
        CASES[name]()
    assert type(info.value).__name__ == want["error"]
    assert str(info.value) == want["message"]


def test_every_recorded_case_is_run():
    assert set(RECORDED) == set(CASES)


# ---- values against NumPy ------------------------------------------------------------------------


def _finite_difference_grad(f, x, eps=1e-6):
    x = np.asarray(x, dtype=np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


def test_grad_matches_finite_differences():
    x0 = np.array([[0.2, -0.7, 1.1], [0.4, 0.9, -1.3]])

    def f_np(v):
        return float(np.sum(np.sin(v) * np.exp(v / 3)) + np.sum(v**2) ** 0.5)

    def f(v):
        return (v.sin() * (v / 3).exp()).sum() + (v**2).sum().sqrt()

    np.testing.assert_allclose(a(grad(f)(t(x0))), _finite_difference_grad(f_np, x0), rtol=1e-7)


def test_second_and_third_derivatives_by_nesting():
    x = t([0.5, -1.5, 2.0])
    xs = np.array([0.5, -1.5, 2.0])
    d1 = grad(lambda v: (v**4).sum())
    d2 = grad(lambda v: d1(v).sum())
    d3 = grad(lambda v: d2(v).sum())
    np.testing.assert_allclose(a(d1(x)), 4 * xs**3)
    np.testing.assert_allclose(a(d2(x)), 12 * xs**2)
    np.testing.assert_allclose(a(d3(x)), 24 * xs)


def test_jacrev_matches_numpy_jacobian():
    x0 = np.array([0.3, -0.8, 1.7])
    A = np.array([[1.0, 2.0, -1.0], [0.5, 0.0, 3.0]])
    J = jacrev(lambda v: engine.tensor(A, dtype=f64) @ v.tanh())(t(x0))
    np.testing.assert_allclose(a(J), A * (1 - np.tanh(x0) ** 2)[None, :])


@pytest.mark.parametrize("chunk_size", [None, 1, 2, 5, 100])
def test_jacrev_chunk_sizes_agree(chunk_size):
    x = t([[0.1, 0.2], [-0.3, 0.4], [0.5, -0.6]])

    def f(v):
        return (v.exp() * v.sum(0), v.prod(1))

    got = jacrev(f, chunk_size=chunk_size)(x)
    ref = jacrev(f, chunk_size=1)(x)
    assert got[0].shape == (3, 2, 3, 2) and got[1].shape == (3, 3, 2)
    for g, r in zip(got, ref):
        np.testing.assert_allclose(a(g), a(r))


def test_hessian_matches_numpy():
    x0 = np.array([0.3, -0.8, 1.7])
    H = hessian(lambda v: (v.sin() * v.prod()).sum())(t(x0))
    # f = P * sum(sin(v_k)) with P = prod(v)
    P = np.prod(x0)
    S = np.sum(np.sin(x0))
    want = np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            p_ij = P / (x0[i] * x0[j]) if i != j else 0.0
            want[i, j] = (
                p_ij * S
                + (P / x0[i]) * np.cos(x0[j])
                + (P / x0[j]) * np.cos(x0[i])
                - (i == j) * P * np.sin(x0[i])
            )
    np.testing.assert_allclose(a(H), want, rtol=1e-12)


def test_jacrev_of_empty_output_and_zero_size_input():
    x = t([1.0, 2.0])
    J = jacrev(lambda v: v[:0] * 2)(x)
    assert J.shape == (0, 2)
    J = jacrev(lambda v: v.sum() * 2)(engine.zeros(0, dtype=f64))
    assert J.shape == (0,)


# ---- transform semantics -------------------------------------------------------------------------


def test_results_of_plain_inputs_carry_no_graph():
    x = t([1.0, 2.0])
    g, value = grad_and_value(lambda v: (v**2).sum())(x)
    assert not g.requires_grad and not value.requires_grad
    out, fn = vjp(engine.sin, x)
    assert not out.requires_grad
    assert not fn(engine.ones(2, dtype=f64))[0].requires_grad


def test_outer_autograd_differentiates_through_grad():
    x = t([0.5, 1.5]).requires_grad_()
    g = grad(lambda v: (v**3).sum())(x)
    assert g.requires_grad
    (h,) = engine.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(a(h), 6 * np.array([0.5, 1.5]))


def test_captured_parameter_keeps_ordinary_graph():
    w = t([2.0, -1.0]).requires_grad_()
    x = t([0.3, 0.7])
    g = grad(lambda v: (w * v * v).sum())(x)
    np.testing.assert_allclose(a(g), 2 * a(w) * a(x))
    (gw,) = engine.autograd.grad(g.sum(), w)
    np.testing.assert_allclose(a(gw), 2 * a(x))


def test_no_grad_outside_is_ignored_inside_is_respected():
    x = t([1.0, 2.0, 3.0])

    def f(v):
        with engine.no_grad():
            c = v**2
        return (v - c).sum()

    with engine.no_grad():
        g = grad(lambda v: (v**2).sum())(x)
        inner = grad(f)(x)
    np.testing.assert_allclose(a(g), 2 * a(x))
    np.testing.assert_allclose(a(inner), np.ones(3))
    assert not g.requires_grad


def test_captured_tensor_is_a_constant_to_the_inner_grad():
    # d/dx [ d/dy (x * y) at y = x ] = d/dx [x] = 1: the inner grad must not differentiate x.
    x = t([0.5, -2.0])
    g = grad(lambda u: grad(lambda v: (u * v).sum())(u).sum())(x)
    np.testing.assert_allclose(a(g), np.ones(2))


def test_unused_input_gets_zeros():
    x, y = t([1.0, 2.0]), t([3.0])
    gx, gy = grad(lambda u, v: (u**2).sum(), argnums=(0, 1))(x, y)
    np.testing.assert_allclose(a(gy), [0.0])
    g = grad(lambda u: engine.tensor(3.0, dtype=f64))(x)
    np.testing.assert_allclose(a(g), [0.0, 0.0])


def test_kwargs_are_passed_and_not_differentiated():
    x = t([1.0, 2.0])
    g = grad(lambda v, scale=1.0: (scale * v**2).sum())(x, scale=3.0)
    np.testing.assert_allclose(a(g), 6 * a(x))


def test_grad_wraps_function_metadata():
    def loss(v):
        """The loss."""
        return v.sum()

    assert grad(loss).__name__ == "loss"
    assert grad(loss).__doc__ == "The loss."


def test_has_aux_returns_aux_unwrapped():
    x = t([1.0, 2.0])
    g, aux = grad(lambda v: ((v**2).sum(), v * 2), has_aux=True)(x)
    np.testing.assert_allclose(a(g), 2 * a(x))
    np.testing.assert_allclose(a(aux), 2 * a(x))
    assert not aux.requires_grad


def test_vjp_fn_reusable_and_has_aux():
    x = t([0.1, 0.2])
    out, fn, aux = vjp(lambda v: (v.exp(), v.sum()), x, has_aux=True)
    first = fn(t([1.0, 1.0]))
    second = fn(t([2.0, 0.0]))
    np.testing.assert_allclose(a(first[0]), np.exp([0.1, 0.2]))
    np.testing.assert_allclose(a(second[0]), [2 * np.exp(0.1), 0.0])
    assert float(aux) == pytest.approx(0.3)


def test_vjp_cotangent_shape_mismatch_is_an_error():
    _, fn = vjp(engine.sin, t([1.0, 2.0]))
    with pytest.raises(RuntimeError):
        fn(t([1.0, 2.0, 3.0]))


def test_custom_functions_under_grad_need_setup_context():
    class Old(engine.autograd.Function):
        @staticmethod
        def forward(ctx, v):
            ctx.save_for_backward(v)
            return v**2

        @staticmethod
        def backward(ctx, g):
            (v,) = ctx.saved_tensors
            return 2 * v * g

    class New(engine.autograd.Function):
        @staticmethod
        def forward(v):
            return v**2

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            (v,) = ctx.saved_tensors
            return 2 * v * g

    class Tutorial(engine.autograd.Function):
        @staticmethod
        def forward(ctx, v):
            return v**2

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            (v,) = ctx.saved_tensors
            return 2 * v * g

    x = t([1.0, -3.0])
    # PyTorch's rule for every function transform: the original style has no setup_context.
    with pytest.raises(RuntimeError, match="it must override the setup_context staticmethod"):
        grad(lambda v: Old.apply(v).sum())(x)
    np.testing.assert_allclose(
        a(engine.autograd.grad(Old.apply(x.requires_grad_()).sum(), x)[0]), 2 * a(x)
    )
    x = t([1.0, -3.0])
    for cls in (New, Tutorial):
        np.testing.assert_allclose(a(grad(lambda v, f=cls: f.apply(v).sum())(x)), 2 * a(x))
        # the backward is written with differentiable ops: second derivatives work too
        h = grad(lambda v, f=cls: grad(lambda u: f.apply(u).sum())(v).sum())(x)
        np.testing.assert_allclose(a(h), [2.0, 2.0])


def test_jacrev_has_aux_and_pytree_inputs():
    x = t([1.0, 2.0])
    params = {"a": t([0.5]), "b": t([[1.0, 2.0], [3.0, 4.0]])}
    jac, aux = jacrev(lambda p, v: (p["b"] @ v * p["a"], {"v": v}), has_aux=True)(params, x)
    assert aux["v"] is x  # not differentiated (argnums=0): handed back as it came
    with pytest.raises(RuntimeError, match="Expected tensors, got unsupported type <class 'str'>"):
        jacrev(lambda p, v: (v, "aux"), has_aux=True)(params, x)
    with pytest.raises(RuntimeError, match="got unsupported type <class 'NoneType'>"):
        grad(lambda v: (v.sum(), [v, None]), has_aux=True)(x)
    assert jac["a"].shape == (2, 1) and jac["b"].shape == (2, 2, 2)
    np.testing.assert_allclose(a(jac["a"])[:, 0], a(params["b"]) @ a(x))


def test_transforms_leave_no_open_level():
    from engine import _transforms

    x = t([1.0])
    before = dict(_transforms._open)
    grad(lambda v: (v**2).sum())(x)
    with pytest.raises(RuntimeError):
        grad(lambda v: v)(x)
    assert _transforms._open == before


def test_per_sample_grads_with_vmap_when_present():
    vmap = getattr(engine.func, "vmap", None)
    if vmap is None:
        pytest.skip("engine.func.vmap is not available")
    w = t([0.5, -1.0, 2.0])
    xs = t([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]])

    def loss(weights, sample):
        return ((weights * sample).sum() - 1.0) ** 2

    with engine.enable_grad():  # whatever vmap does to grad mode stays inside this test
        per_sample = vmap(grad(loss), in_dims=(None, 0))(w, xs)
    for i in range(2):
        np.testing.assert_allclose(a(per_sample[i]), a(grad(loss)(w, xs[i])))


def test_which_results_carry_a_graph_as_in_pytorch():
    # PyTorch 2.13 answers (checked against torch.func): a result keeps a graph exactly when it
    # depends on a tensor ordinary autograd tracks outside the transform, and grad mode is on.
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    p = engine.tensor([1.0, 2.0])
    w = engine.tensor([3.0, 4.0], requires_grad=True)

    def f(v):
        return (v**3).sum()

    assert not grad(f)(p).requires_grad
    assert grad(f)(x).requires_grad
    with engine.no_grad():
        assert not grad(f)(x).requires_grad
        out, fn = vjp(f, x)
        assert not out.requires_grad and not fn(engine.tensor(1.0))[0].requires_grad
    assert grad(lambda v: (v * w).sum())(p).requires_grad
    g, value = grad_and_value(f)(x)
    assert g.requires_grad and value.requires_grad
    out, fn = vjp(f, x)
    assert out.requires_grad and fn(engine.tensor(1.0))[0].requires_grad
    assert jacrev(engine.sin)(x).requires_grad and not jacrev(engine.sin)(p).requires_grad
    assert not grad(lambda v: grad(f)(v).sum())(p).requires_grad


def test_jacobians_and_hessians_under_vmap_when_present():
    vmap = getattr(engine.func, "vmap", None)
    if vmap is None:
        pytest.skip("engine.func.vmap is not available")
    x = t([[1.0, 2.0], [3.0, -4.0]])
    with engine.enable_grad():
        jac = vmap(jacrev(engine.sin))(x)
        hess = vmap(hessian(lambda r: (r**3).sum()))(x)
    assert jac.shape == (2, 2, 2) and not jac.requires_grad
    for i in range(2):
        np.testing.assert_allclose(a(jac[i]), np.diag(np.cos(a(x)[i])))
        np.testing.assert_allclose(a(hess[i]), np.diag(6 * a(x)[i]))


def test_transforms_run_inside_inference_mode():
    x = t([1.0, 2.0])
    with engine.inference_mode():
        g = grad(lambda v: (v**2).sum())(x)
        (vj,) = vjp(lambda v: v**2, x)[1](engine.ones(2, dtype=f64))
        assert engine.is_inference_mode_enabled() and not engine.is_grad_enabled()
    np.testing.assert_allclose(a(g), [2.0, 4.0])
    np.testing.assert_allclose(a(vj), [2.0, 4.0])
    assert not g.requires_grad
