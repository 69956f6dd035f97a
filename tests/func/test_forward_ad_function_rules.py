"""Forward-mode rules of the operations engine writes as Functions with a NumPy backward
(logcumsumexp, the product reduction of scatter_reduce / index_reduce): tangents against the
Jacobian the backward pass gives (exact at zero factors) and against central differences."""

from __future__ import annotations

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck
from engine.func import jacfwd, jacrev, jvp, vmap

F64 = engine.float64


def _jvp_matches_jacobian(fn, primals):
    tangents = tuple(
        engine.tensor(np.random.default_rng(1).standard_normal(tuple(p.shape))) for p in primals
    )
    _, tangent = jvp(fn, primals, tangents)
    jacobians = jacrev(fn, argnums=tuple(range(len(primals))))(*primals)
    expected = sum(
        (j.reshape(tangent.numel(), -1) @ t.reshape(-1)).reshape(tangent.shape)
        for j, t in zip(jacobians, tangents)
    )
    np.testing.assert_allclose(tangent.numpy(), expected.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("zeros", ["none", "one_in_src", "two_in_target", "in_self"])
def test_scatter_prod_tangent_with_zero_factors(include_self, zeros):
    x = engine.tensor([1.5, 2.0, -0.5, 3.0, 0.7], dtype=F64)
    src = engine.tensor([2.0, -1.5, 5.0, 0.25, 4.0], dtype=F64)
    idx = engine.tensor([0, 1, 1, 3, 1])
    if zeros == "one_in_src":
        src[1] = 0.0
    elif zeros == "two_in_target":
        src[1] = 0.0
        src[2] = 0.0
    elif zeros == "in_self":
        x[1] = 0.0

    def fn(a, s):
        return a.scatter_reduce(0, idx, s, "prod", include_self=include_self)

    _jvp_matches_jacobian(fn, (x, src))


def test_index_reduce_prod_tangent():
    x = engine.tensor(np.random.default_rng(2).standard_normal((4, 3)))
    src = engine.tensor(np.random.default_rng(3).standard_normal((3, 3)))
    idx = engine.tensor([0, 2, 0])
    _jvp_matches_jacobian(lambda a, s: a.index_reduce(0, idx, s, "prod"), (x, src))
    assert gradcheck(
        lambda a, s: a.index_reduce(0, idx, s, "prod", include_self=False),
        (x.requires_grad_(), src.requires_grad_()),
        check_forward_ad=True,
        check_backward_ad=False,
    )


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_logcumsumexp_tangent(dim):
    x = engine.tensor(np.random.default_rng(4).standard_normal((3, 4)) * 30)
    _jvp_matches_jacobian(lambda a: engine.logcumsumexp(a, dim), (x,))
    assert gradcheck(
        lambda a: engine.logcumsumexp(a, dim),
        (x.detach().requires_grad_(),),
        check_forward_ad=True,
        check_backward_ad=False,
    )


def test_logcumsumexp_tangent_edge_shapes():
    scalar = engine.tensor(0.5, dtype=F64)
    assert (
        jvp(lambda a: engine.logcumsumexp(a, 0), (scalar,), (engine.tensor(2.0, dtype=F64),))[
            1
        ].item()
        == 2.0
    )
    empty = engine.zeros((0, 3), dtype=F64)
    assert tuple(jvp(lambda a: engine.logcumsumexp(a, 0), (empty,), (empty,))[1].shape) == (0, 3)


def test_rules_under_jacfwd_and_vmap():
    x = engine.tensor(np.random.default_rng(5).standard_normal((2, 5)))
    np.testing.assert_allclose(
        jacfwd(lambda a: engine.logcumsumexp(a, 1))(x).numpy(),
        jacrev(lambda a: engine.logcumsumexp(a, 1))(x).numpy(),
        rtol=1e-10,
        atol=1e-12,
    )
    idx = engine.tensor([0, 0, 1])
    f = lambda a, s: a.scatter_reduce(0, idx, s, "prod")  # noqa: E731
    a, s = engine.tensor([1.0, 2.0], dtype=F64), engine.tensor([3.0, 0.0, 5.0], dtype=F64)
    for got, want in zip(jacfwd(f, argnums=(0, 1))(a, s), jacrev(f, argnums=(0, 1))(a, s)):
        np.testing.assert_allclose(got.numpy(), want.numpy())
    tangents = engine.eye(2, dtype=F64)
    out = vmap(lambda t: jvp(lambda u: u.scatter_reduce(0, idx, s, "prod"), (a,), (t,))[1])(
        tangents
    )
    np.testing.assert_allclose(out.numpy(), jacrev(f)(a, s).numpy().T)
