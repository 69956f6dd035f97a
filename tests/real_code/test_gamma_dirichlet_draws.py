"""Gamma, Dirichlet and Beta draw PyTorch's values for the same seed (ATen's Marsaglia-Tsang
sampler on the engine generator's uniform and cached-normal streams, float32 concentrations
with ATen's float arithmetic, Dirichlet normalised in double and kept inside [tiny, 1)), and
leave the generator where PyTorch leaves it; so do the distributions built on them (Chi2,
StudentT, InverseGamma, LKJCholesky).

Golden values recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import importlib

import pytest


def _dist(lib):
    return importlib.import_module(f"{lib.__name__}.distributions")


ALPHAS = [0.1, 0.5, 0.99, 1.0, 1.5, 3.0, 10.0, 100.0, 0.01, 2.5]


def test_gamma_float32_and_float64(lib):
    D = _dist(lib)
    lib.manual_seed(3)
    a = lib.tensor(ALPHAS)
    assert D.Gamma(a, 2.0).sample().tolist() == [
        0.16639789938926697, 0.12193822860717773, 0.2894695997238159, 0.5324583053588867,
        0.21909426152706146, 0.8955492973327637, 5.519505023956299, 51.12684631347656,
        1.5843133382986707e-07, 0.47585663199424744,
    ]  # fmt: skip
    assert lib.rand(1).item() == 0.4301472306251526
    assert D.Gamma(a.double(), 1.0).sample().tolist() == [
        1.292507922924297e-06, 1.0347674819252417, 1.3928113443394599, 2.812284480017667,
        1.0622824860029458, 3.2543258507525006, 8.313103969756337, 88.30749548073345,
        1.0269271532064107e-28, 1.5373125831310617,
    ]  # fmt: skip
    assert lib.randn(1).item() == 0.03714391961693764  # the cached normal is PyTorch's too


def test_dirichlet_and_beta(lib):
    D = _dist(lib)
    lib.manual_seed(3)
    s = D.Dirichlet(lib.tensor([[0.1, 0.2, 5.0], [1.0, 1.0, 1.0]])).sample((2,))
    assert [round(v, 6) for v in s.reshape(-1).tolist()] == [
        0.057674, 0.000539, 0.941787, 0.351753, 0.222703, 0.425544,
        0.0, 0.0, 1.0, 0.092683, 0.300272, 0.607045,
    ]  # fmt: skip
    b = D.Beta(lib.tensor([0.5, 2.0]), lib.tensor([0.5, 0.01])).sample()
    # kept inside [tiny, 1) even for a tiny second concentration
    assert b.tolist() == [pytest.approx(0.0421, abs=1e-4), 0.9999999403953552]


def test_lkj_cholesky(lib):
    D = _dist(lib)
    lib.manual_seed(0)
    s = D.LKJCholesky(3, concentration=2.0).sample()
    assert [round(v, 4) for v in s.reshape(-1).tolist()] == [
        1.0, 0.0, 0.0, 0.1394, 0.9902, 0.0, 0.1229, 0.4834, 0.8667,
    ]  # fmt: skip


def test_rsample_gradients_are_pytorchs(lib):
    # ATen's approximations (Taylor series, saddle point, rational fits) in double.
    D = _dist(lib)
    lib.manual_seed(4)
    c = lib.tensor([0.05, 0.3, 0.9, 1.5, 3.0, 7.0, 9.0, 20.0, 200.0], dtype=lib.float64)
    c.requires_grad_()
    D.Gamma(c, 1.0).rsample((3,)).sum().backward()
    assert c.grad.tolist() == pytest.approx(
        [0.3195692255, 1.777736174, 4.514607951, 3.413328823, 3.757799344, 2.812487316,
         2.969477977, 3.372585706, 2.990147417], rel=1e-9,
    )  # fmt: skip
    expected = {
        (0.1, 0.5, 3.0): [-2.346109465, -0.6192651696, 0.09810854272],
        (7.0, 8.0, 0.2): [-0.1487011962, 0.1168759034, 0.1206222647],
        (20.0, 30.0, 25.0): [-0.05469709927, -0.003825778705, 0.04797270362],
        (1.0, 1.0): [-1.351708414, 0.8928190966],
    }
    for conc, grads in expected.items():
        c = lib.tensor(conc, dtype=lib.float64, requires_grad=True)
        x = D.Dirichlet(c).rsample((4,))
        (x * lib.arange(len(conc), dtype=lib.float64)).sum().backward()
        assert c.grad.tolist() == pytest.approx(grads, rel=1e-8)
