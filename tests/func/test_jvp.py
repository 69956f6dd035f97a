"""engine.func's forward-mode transforms (jvp, jacfwd, linearize) and forward_ad against
PyTorch: the cases of tests/fixtures/forward_ad_cases.py, recorded from PyTorch 2.13 into
tests/fixtures/forward_ad.json, give the same values (or exception type and message) in engine;
plus compositions with the reverse-mode transforms checked against NumPy float64 references."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import engine
import engine.func as fn
import numpy as np
import pytest
from engine.autograd import forward_ad as fwAD

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from forward_ad_cases import build  # noqa: E402

RECORDED = json.loads((FIXTURES / "forward_ad.json").read_text())
CASES = build(engine)
# Messages that embed a structure's repr: engine's pytree spec prints differently, so only the
# text before it is compared.
PREFIX_ONLY = {"jvp_structure": "Got primals with structure"}


def _compare(expected, got, path="out"):
    if "none" in expected:
        assert got is None, path
    elif "shape" in expected:
        assert isinstance(got, engine.Tensor), path
        assert list(got.shape) == expected["shape"], path
        assert str(got.dtype) == expected["dtype"], path
        np.testing.assert_allclose(
            np.array(got.tolist(), dtype=float).reshape(expected["shape"]),
            np.array(expected["data"], dtype=float).reshape(expected["shape"]),
            rtol=1e-10,
            atol=1e-12,
            err_msg=path,
        )
    elif "seq" in expected:
        assert isinstance(got, (tuple, list)), path
        assert len(got) == len(expected["seq"]), path
        for i, (e, g) in enumerate(zip(expected["seq"], got)):
            _compare(e, g, f"{path}[{i}]")
    elif "dict" in expected:
        assert set(got) == set(expected["dict"]), path
        for k, e in expected["dict"].items():
            _compare(e, got[k], f"{path}[{k!r}]")
    else:
        assert got == expected["other"], path


@pytest.fixture(autouse=True)
def _no_level_left_open():
    yield
    try:
        fwAD.exit_dual_level()
    except RuntimeError:
        pass


def test_every_case_is_recorded():
    assert set(CASES) == set(RECORDED)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_pytorch(name):
    expected = RECORDED[name]
    if "error" in expected:
        errors = {"RuntimeError": RuntimeError, "ValueError": ValueError}
        errors["NotImplementedError"] = NotImplementedError
        with pytest.raises(errors[expected["error"]]) as info:
            CASES[name]()
        message = expected["message"]
        if name in PREFIX_ONLY:
            message = message.split(PREFIX_ONLY[name])[0]
            assert str(info.value).startswith(message)
        else:
            assert str(info.value) == message
        return
    _compare(expected["value"], CASES[name]())


# ---- compositions against NumPy references ----------------------------------------------------


def _x():
    return engine.tensor([0.3, -1.2, 2.0, 0.5], dtype=engine.float64)


def test_hessian_vector_product_forward_over_reverse():
    x, v = _x(), engine.tensor([1.0, -0.5, 0.25, 2.0], dtype=engine.float64)
    _, hvp = fn.jvp(fn.grad(lambda a: (a.sin() * a).sum()), (x,), (v,))
    xs = np.array(x.tolist())
    hess_diag = 2 * np.cos(xs) - xs * np.sin(xs)
    np.testing.assert_allclose(hvp.tolist(), hess_diag * np.array(v.tolist()), rtol=1e-12)


def test_reverse_over_forward_grad_of_tangent():
    x = _x().requires_grad_()
    v = engine.tensor([1.0, 2.0, -1.0, 0.5], dtype=engine.float64)
    with fwAD.dual_level():
        y = (fwAD.make_dual(x, v).exp() * 3).sum()
        tangent = fwAD.unpack_dual(y).tangent
    (g,) = engine.autograd.grad(tangent, x)
    xs = np.array(x.tolist())
    np.testing.assert_allclose(g.tolist(), 3 * np.exp(xs) * np.array(v.tolist()), rtol=1e-12)


def test_jacfwd_matches_jacrev_on_pytrees():
    x = _x()
    w = engine.tensor([[0.5, -1.0], [2.0, 0.1], [0.3, 0.3], [-0.2, 1.5]], dtype=engine.float64)

    def f(d):
        return {"a": (d["x"] @ d["w"]).tanh(), "b": d["x"].prod()}

    tree = {"x": x, "w": w}
    forward, reverse = fn.jacfwd(f)(tree), fn.jacrev(f)(tree)
    for out in ("a", "b"):
        for inp in ("x", "w"):
            assert forward[out][inp].shape == reverse[out][inp].shape
            np.testing.assert_allclose(
                forward[out][inp].tolist(), reverse[out][inp].tolist(), rtol=1e-10, atol=1e-12
            )


def test_jacfwd_empty_input_and_0d():
    empty = engine.zeros(0, dtype=engine.float64)
    jac = fn.jacfwd(lambda a: a.sum() + 1)(empty)
    assert jac.shape == (0,)
    scalar = engine.tensor(0.5, dtype=engine.float64)
    jac = fn.jacfwd(lambda a: a.exp())(scalar)
    assert jac.shape == () and abs(jac.item() - np.exp(0.5)) < 1e-12


def test_jacfwd_randomness_argument():
    with pytest.raises(RuntimeError, match="Only allowed values for randomness"):
        fn.jacfwd(lambda a: a, randomness="bad")


def test_jvp_of_jvp_is_second_directional_derivative():
    x = _x()
    u = engine.tensor([1.0, 0.0, 2.0, -1.0], dtype=engine.float64)
    w = engine.tensor([0.5, 1.0, 0.0, 3.0], dtype=engine.float64)

    def f(a):
        return (a.exp() * a.cos()).sum()

    inner = lambda a: fn.jvp(f, (a,), (u,))[1]  # noqa: E731
    _, second = fn.jvp(inner, (x,), (w,))
    xs = np.array(x.tolist())
    d2 = -2 * np.exp(xs) * np.sin(xs)  # (e^x cos x)'' = -2 e^x sin x
    expected = float(np.sum(d2 * np.array(u.tolist()) * np.array(w.tolist())))
    assert abs(second.item() - expected) < 1e-10


def test_jvp_results_have_no_history_unless_inputs_do():
    x, v = _x(), _x().flip(0)
    out, tangent = fn.jvp(lambda a: a.exp(), (x,), (v,))
    assert not out.requires_grad and not tangent.requires_grad
    out, tangent = fn.jvp(lambda a: a.exp(), (x.requires_grad_(),), (v,))
    assert out.requires_grad and tangent.requires_grad


def test_linearize_checks_tangents():
    out, jvp_fn = fn.linearize(lambda a: a.sin(), _x())
    with pytest.raises(RuntimeError, match="doesn't match the shape"):
        jvp_fn(engine.zeros(3, dtype=engine.float64))
    with pytest.raises(RuntimeError, match="doesn't match the dtype"):
        jvp_fn(engine.zeros(4, dtype=engine.float32))
    with pytest.raises(RuntimeError, match="to have the same argspec"):
        jvp_fn(_x(), _x())


def test_hessian_uses_forward_over_reverse():
    x = _x()
    hess = fn.hessian(lambda a: (a**3).sum() * a[0])(x)
    xs = np.array(x.tolist())
    expected = np.zeros((4, 4))
    expected += np.diag(6 * xs * xs[0])
    expected[0, :] += 3 * xs**2
    expected[:, 0] += 3 * xs**2
    np.testing.assert_allclose(hess.tolist(), expected, rtol=1e-10, atol=1e-12)
