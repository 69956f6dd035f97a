"""Second derivatives of the composed families (joining, scatter ops, scans, statistics,
creation): each is built from differentiable native ops, so gradgradcheck holds through them."""

# ruff: noqa: E501 - one case per line

import engine
import numpy as np
import pytest
from engine.autograd import gradgradcheck

R = np.random.default_rng(0)
X = R.standard_normal((3, 4))
V = R.standard_normal(4)
W = R.standard_normal(4)
MASK = [True, False, True, True]


def T(a):
    return engine.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)


CASES = {
    "masked_scatter": (lambda a, b: a.masked_scatter(engine.tensor(MASK), b), (X, R.standard_normal(12))),
    "take_along_dim": (lambda a: engine.take_along_dim(a, engine.tensor([[0, 2], [1, 1], [3, 0]]), 1), (X,)),
    "cummax": (lambda a: engine.cummax(a, 1).values, (X,)),
    "quantile": (lambda a: engine.quantile(a, 0.3, dim=1), (X,)),
    "nanmedian": (lambda a: engine.nanmedian(a, 1).values, (X,)),
    "diag_embed": (lambda a: engine.diag_embed(a, 1), (X,)),
    "scatter_reduce_amax": (lambda a, b: a.scatter_reduce(0, engine.tensor([1, 1, 0, 2]), b, "amax"), (V, W)),
    "scatter_reduce_mean": (lambda a, b: a.scatter_reduce(0, engine.tensor([1, 1, 0, 2]), b, "mean"), (V, W)),
    "index_put_accumulate": (lambda a, b: a.index_put((engine.tensor([0, 0, 2]),), b, True), (X, R.standard_normal((3, 4)))),
    "slice_scatter": (lambda a, b: engine.slice_scatter(a, b * b, 1, 0, 4, 2), (X, R.standard_normal((3, 2)))),
    "cov": (engine.cov, (X,)),
    "cdist_p3": (lambda a: engine.cdist(a, a * 2 + 1, p=3), (X,)),
    "renorm": (lambda a: a.renorm(2, 0, 1.0), (X,)),
    "gradient_coordinates": (lambda a: engine.gradient(a, spacing=(engine.tensor([0.0, 1, 3, 4.5], dtype=engine.float64),), dim=1, edge_order=2)[0], (X,)),
    "trapezoid": (lambda a: engine.trapezoid(a * a), (X,)),
    "repeat_interleave": (lambda a: a.repeat_interleave(engine.tensor([1, 0, 2]), dim=0), (X,)),
    "block_diag": (lambda a, b: engine.block_diag(a * a, b), (X, V)),
    "vander": (lambda a: engine.vander(a, 3), (V,)),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradgradcheck(name):
    fn, args = CASES[name]
    assert gradgradcheck(fn, tuple(T(a) for a in args))


def test_prod_reduction_refuses_a_second_derivative():
    a, b = T(V), T(W)
    y = a.scatter_reduce(0, engine.tensor([1, 1, 0, 2]), b, "prod")
    (g,) = engine.autograd.grad(y.sum(), a, create_graph=True)
    with pytest.raises(RuntimeError):
        g.sum().backward()
