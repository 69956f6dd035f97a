"""jacfwd as one vmap of jvp over the standard basis (as PyTorch computes it): values against
jacrev, pytrees and has_aux, ``randomness`` with PyTorch's semantics, and the per-column path
taken where a tangent comes from a backward pass (the generic rule)."""

from __future__ import annotations

import engine
import numpy as np
import pytest
from engine.func import _forward, jacfwd, jacrev

F64 = engine.float64
RNG = np.random.default_rng(7)
W = engine.tensor(RNG.standard_normal((3, 4)))


def _x(*shape):
    return engine.tensor(RNG.standard_normal(shape))


@pytest.fixture
def columns(monkeypatch):
    """Counts the jacfwd calls that fell back to one basis tangent at a time."""
    count = {"n": 0}
    original = _forward._rows_one_at_a_time

    def counted(*args):
        count["n"] += 1
        return original(*args)

    monkeypatch.setattr(_forward, "_rows_one_at_a_time", counted)
    return count


BATCHED = {
    "sin": lambda a: a.sin(),
    "matmul_tanh": lambda a: (W @ a).tanh(),
    "softmax": lambda a: engine.softmax(a, 0),
    "sort": lambda a: engine.sort(a, descending=True).values,
    "logcumsumexp": lambda a: engine.logcumsumexp(a, 0),
    "pow": lambda a: a.abs() ** 2.5,
    "logsumexp": lambda a: engine.logsumexp(a.reshape(2, 2), 1),
    "max_min": lambda a: a.max() * a.min(),
    "max_dim": lambda a: a.reshape(2, 2).max(0).values,
    "where_slice": lambda a: engine.where(a > 0, a, a * 2)[1:3],
    "var_std": lambda a: a.var() * a.reshape(2, 2).std(1, keepdim=True),
    "norm": lambda a: a.norm() + engine.linalg.vector_norm(a.reshape(2, 2), dim=1),
    "clamp_gelu": lambda a: engine.nn.functional.gelu(a.clamp(-0.5, 0.5)),
}


@pytest.mark.parametrize("name", sorted(BATCHED))
def test_jacfwd_is_one_vmap_and_matches_jacrev(name, columns):
    x = _x(4)
    got = jacfwd(BATCHED[name])(x)
    np.testing.assert_allclose(got.numpy(), jacrev(BATCHED[name])(x).numpy(), rtol=1e-10)
    assert columns["n"] == 0
    assert not got.requires_grad


@pytest.mark.parametrize(
    "f",
    [
        lambda a: a.cumprod(0),
        lambda a: a.prod(),
        lambda a: engine.linalg.det(a.reshape(2, 2)),
        lambda a: a.norm(p=3),
    ],
)
def test_generic_rule_ops_take_the_per_column_path(f, columns):
    x = _x(4)
    np.testing.assert_allclose(jacfwd(f)(x).numpy(), jacrev(f)(x).numpy(), rtol=1e-10)
    assert columns["n"] == 1


def test_pytree_inputs_outputs_and_aux():
    a, b = _x(2, 3), _x(3)

    def f(p, q):
        return {"s": (p * q).sum(0), "m": p @ q}, {"aux": q * 2}

    jac, aux = jacfwd(f, argnums=(0, 1), has_aux=True)(a, b)
    ref = jacrev(f, argnums=(0, 1), has_aux=True)(a, b)[0]
    for key in ("s", "m"):
        for i in range(2):
            np.testing.assert_allclose(jac[key][i].numpy(), ref[key][i].numpy(), rtol=1e-12)
    np.testing.assert_allclose(aux["aux"].numpy(), (b * 2).numpy())
    assert tuple(jac["s"][0].shape) == (3, 2, 3)


def test_randomness_error_same_different():
    x = _x(3)

    def f(a):
        return a.sum() * engine.randn(3, dtype=F64)

    with pytest.raises(RuntimeError, match="randomness error mode"):
        jacfwd(f)(x)
    same = jacfwd(f, randomness="same")(x).numpy()
    for c in range(1, 3):
        np.testing.assert_array_equal(same[:, c], same[:, 0])
    different = jacfwd(f, randomness="different")(x).numpy()
    assert not np.array_equal(different[:, 1], different[:, 0])
    with pytest.raises(RuntimeError, match="Only allowed values for randomness"):
        jacfwd(f, randomness="sometimes")


def test_same_randomness_on_the_per_column_path(columns):
    x = _x(3)

    def f(a):
        return a.prod() * engine.rand(2, dtype=F64)

    jac = jacfwd(f, randomness="same")(x).numpy()
    assert columns["n"] == 1
    ratio = jac / (np.prod(x.numpy()) / x.numpy())
    np.testing.assert_allclose(ratio[:, 1:], ratio[:, :1].repeat(2, 1), rtol=1e-12)


def test_hessian_by_forward_over_reverse():
    x = _x(4)
    h = engine.func.hessian(lambda a: (a.sin() * a).sum())(x)
    xs = x.numpy()
    np.testing.assert_allclose(h.numpy(), np.diag(2 * np.cos(xs) - xs * np.sin(xs)), atol=1e-12)


def test_empty_input_keeps_the_output_shape():
    jac = jacfwd(lambda a: a.sum(0))(engine.zeros((0, 3), dtype=F64))
    assert tuple(jac.shape) == (3, 0, 3)
