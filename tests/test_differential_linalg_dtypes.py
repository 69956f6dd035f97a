"""float16 / bfloat16 inputs of linear algebra, as PyTorch 2.13 treats them: the LAPACK-backed
functions raise their kernel's dispatch error ("lu_cpu" not implemented for 'Half') or PyTorch's
own check (Low precision dtypes not supported), and matrix_exp, the 1 / inf / Frobenius matrix
norms and vecdot compute in the 16-bit dtype. Recorded from PyTorch 2.13; the live test compares
with torch itself."""

import json
import pathlib
import warnings

import engine
import pytest

CASES = {
    "inv": lambda T, a: T.linalg.inv(a),
    "inv_ex": lambda T, a: T.linalg.inv_ex(a),
    "det": lambda T, a: T.linalg.det(a),
    "slogdet": lambda T, a: T.linalg.slogdet(a),
    "solve": lambda T, a: T.linalg.solve(a, a),
    "qr": lambda T, a: T.linalg.qr(a),
    "svd": lambda T, a: T.linalg.svd(a),
    "svdvals": lambda T, a: T.linalg.svdvals(a),
    "eigh": lambda T, a: T.linalg.eigh(a),
    "eigvalsh": lambda T, a: T.linalg.eigvalsh(a),
    "cholesky": lambda T, a: T.linalg.cholesky(a),
    "lu_factor": lambda T, a: T.linalg.lu_factor(a),
    "lu": lambda T, a: T.linalg.lu(a),
    "lstsq": lambda T, a: T.linalg.lstsq(a, a),
    "pinv": lambda T, a: T.linalg.pinv(a),
    "matrix_rank": lambda T, a: T.linalg.matrix_rank(a),
    "cond": lambda T, a: T.linalg.cond(a),
    "solve_triangular": lambda T, a: T.linalg.solve_triangular(a, a, upper=True),
    "matrix_exp": lambda T, a: T.linalg.matrix_exp(a),
    "matrix_norm_nuc": lambda T, a: T.linalg.matrix_norm(a, "nuc"),
    "matrix_norm_1": lambda T, a: T.linalg.matrix_norm(a, 1),
    "matrix_norm_inf": lambda T, a: T.linalg.matrix_norm(a, float("inf")),
    "matrix_norm_fro": lambda T, a: T.linalg.matrix_norm(a),
    "matrix_norm_2": lambda T, a: T.linalg.matrix_norm(a, 2),
    "vecdot": lambda T, a: T.linalg.vecdot(a, a),
    "matrix_power_neg": lambda T, a: T.linalg.matrix_power(a, -1),
    "tensorinv": lambda T, a: T.linalg.tensorinv(a, 1),
    "householder": lambda T, a: T.linalg.householder_product(a, a[0]),
    "norm2": lambda T, a: T.linalg.norm(a, 2),
    "vector_norm": lambda T, a: T.linalg.vector_norm(a),
    "multi_dot": lambda T, a: T.linalg.multi_dot([a, a]),
    "cholesky_ex": lambda T, a: T.linalg.cholesky_ex(a),
    "lu_factor_ex": lambda T, a: T.linalg.lu_factor_ex(a),
    "solve_ex": lambda T, a: T.linalg.solve_ex(a, a),
    "torch.det": lambda T, a: T.det(a),
    "torch.inverse": lambda T, a: T.inverse(a),
    "torch.svd": lambda T, a: T.svd(a),
    "torch.qr": lambda T, a: T.qr(a),
    "cholesky_solve": lambda T, a: T.cholesky_solve(a, a),
    "cholesky_inverse": lambda T, a: T.cholesky_inverse(a),
    "lu_solve": lambda T, a: T.linalg.lu_solve(a, T.zeros(3, dtype=T.int32) + 1, a),
    "geqrf": lambda T, a: T.geqrf(a),
    "logdet": lambda T, a: T.logdet(a),
    "pinverse": lambda T, a: T.pinverse(a),
}


def _outcome(T, name, dtype):
    a = T.eye(3, dtype=getattr(T, dtype)) * 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.qr's deprecation notice
        try:
            r = CASES[name](T, a)
        except Exception as e:  # noqa: BLE001 - the exception is what is compared
            return [type(e).__name__, str(e).splitlines()[0]]
    first = r[0] if isinstance(r, tuple) else r
    return ["ok", str(first.dtype).split(".")[-1]]


RECORDED = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_linalg_dtypes.json").read_text()
)


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_low_precision_linalg_matches_recorded(key):
    assert _outcome(engine, *key.split("/")) == RECORDED[key]


def test_low_precision_results_are_close_to_float32():
    a = engine.tensor([[0.5, 0.25], [-0.125, 1.0]])
    for dtype in (engine.float16, engine.bfloat16):
        got = engine.linalg.matrix_exp(a.to(dtype)).float()
        assert engine.allclose(got, engine.linalg.matrix_exp(a), rtol=2e-2, atol=2e-2)
        assert engine.linalg.matrix_norm(a.to(dtype), 1).dtype == dtype


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_low_precision_linalg_matches_torch(key):
    torch = pytest.importorskip("torch")
    assert _outcome(engine, *key.split("/")) == _outcome(torch, *key.split("/"))
