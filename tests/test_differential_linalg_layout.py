"""Layouts of linear-algebra results, as PyTorch 2.13 returns them: LAPACK works on column-major
matrices and PyTorch hands its buffers back as they are, so factors, inverses and solutions are
column-major (strides (1, m) in each matrix, batches of m x n apart), a least-squares solution is a
view of its taller buffer, and only P of linalg.lu and V of torch.svd (Vh transposed back) are
row-major. The (shape, strides) of each result were recorded from PyTorch 2.13; the live test
compares with torch itself."""

import json
import math
import pathlib
import warnings

import engine
import numpy as np
import pytest

CASES = {
    "inv": "L.linalg.inv(a)",
    "inv_ex": "L.linalg.inv_ex(a)",
    "solve": "L.linalg.solve(a, a)",
    "cholesky": "L.linalg.cholesky(a @ a.mT + L.eye(a.shape[-1], dtype=a.dtype))",
    "qr": "L.linalg.qr(a)",
    "qr_complete": "L.linalg.qr(a, mode='complete')",
    "svd": "L.linalg.svd(a)",
    "svd_reduced": "L.linalg.svd(a, full_matrices=False)",
    "eigh": "L.linalg.eigh(a + a.mT)",
    "lstsq": "L.linalg.lstsq(a, a).solution",
    "lu_factor": "L.linalg.lu_factor(a)",
    "lu": "L.linalg.lu(a)",
    "lu_solve": "L.linalg.lu_solve(*L.linalg.lu_factor(a), a)",
    "solve_triangular": "L.linalg.solve_triangular(a.triu(), a, upper=True)",
    "pinv": "L.linalg.pinv(a)",
    "householder_product": "L.linalg.householder_product(*L.geqrf(a))",
    "geqrf": "L.geqrf(a)",
    "matrix_power_neg": "L.linalg.matrix_power(a, -1)",
    "cholesky_inverse": "L.cholesky_inverse(L.linalg.cholesky(a @ a.mT + L.eye(a.shape[-1], dtype=a.dtype)))",
    "inverse": "L.inverse(a)",
    "torch_svd": "L.svd(a)",
    "torch_qr": "L.qr(a)",
    "cholesky_solve": "L.cholesky_solve(a, L.linalg.cholesky(a @ a.mT + L.eye(a.shape[-1], dtype=a.dtype)))",
    "triangular_solve": "L.triangular_solve(a, a.triu())",
}
WIDE_FAILS = {"householder_product", "torch_qr_x"}
SQUARE_ONLY = {
    "inv",
    "inv_ex",
    "solve",
    "cholesky",
    "eigh",
    "lu_solve",
    "solve_triangular",
    "matrix_power_neg",
    "cholesky_inverse",
    "inverse",
    "cholesky_solve",
    "triangular_solve",
}
SHAPES = {"square": (3, 3), "batch": (2, 3, 3), "tall": (4, 3), "wide": (3, 4)}


def _matrix(L, shape):
    a = L.arange(1, 1 + math.prod(shape), dtype=L.float64).reshape(*shape).sin()
    if shape[-1] == shape[-2]:
        a = a + 3 * L.eye(shape[-1], dtype=L.float64)
    return a


def _layout(L, name, shape):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the deprecation notices of torch.qr / triangular_solve
        r = eval(CASES[name], {"L": L, "a": _matrix(L, shape)})
    outs = r if isinstance(r, tuple) else (r,)
    return [(tuple(o.shape), tuple(o.stride())) for o in outs]


RECORDED = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_linalg_layout.json").read_text()
)


def _key_parts(key):
    name, tag = key.split("/")
    return name, SHAPES[tag]


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_linalg_result_layout_matches_recorded(key):
    got = _layout(engine, *_key_parts(key))
    assert [[list(shape), list(strides)] for shape, strides in got] == RECORDED[key]


def test_column_major_results_hold_the_same_values():
    a = _matrix(engine, (2, 3, 3))
    inv = engine.linalg.inv(a)
    assert inv.stride() == (9, 1, 3)
    np.testing.assert_allclose((a @ inv).numpy(), np.broadcast_to(np.eye(3), (2, 3, 3)), atol=1e-12)
    a, b = _matrix(engine, (4, 3)), _matrix(engine, (4, 3)).flip(0)
    solution = engine.linalg.lstsq(a, b).solution
    expected = np.linalg.lstsq(a.numpy(), b.numpy(), rcond=None)[0]
    np.testing.assert_allclose(solution.numpy(), expected, atol=1e-10)
    assert not solution.is_contiguous() and solution.contiguous().stride() == (3, 1)


def test_gradients_flow_through_column_major_results():
    a = _matrix(engine, (3, 3)).requires_grad_()
    engine.linalg.inv(a).sum().backward()
    expected = -(
        np.linalg.inv(a.detach().numpy()).T @ np.ones((3, 3)) @ np.linalg.inv(a.detach().numpy()).T
    )
    np.testing.assert_allclose(a.grad.numpy(), expected, rtol=1e-10)


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_linalg_result_layout_matches_torch(key):
    torch = pytest.importorskip("torch")
    assert _layout(engine, *_key_parts(key)) == _layout(torch, *_key_parts(key))
