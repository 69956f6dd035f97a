"""The one out= wrapper (engine/_out_param.py) on a wrong ``out`` for functions returning several
tensors, and on a non-tensor ``out``, across the Python-level functions (median, mode, aminmax),
the native ones it wraps (sort, topk, kthvalue) and linalg's (slogdet, qr, lu_factor, eigh, svd):
PyTorch 2.13's TypeError and message, recorded here; the live test compares with torch itself."""

import engine
import pytest

# expression -> PyTorch 2.13's message (all TypeError).
RECORDED = {
    "L.linalg.slogdet(x, out=(e,))": "expected tuple of 2 elements but got 1",
    "L.linalg.slogdet(x, out=(e, 3))": "expected Tensor as element 1 in argument 1, but got int",
    "L.linalg.slogdet(x, out=3)": "linalg_slogdet(): argument 'out' must be tuple of Tensors, not int",
    "L.linalg.svd(x, out=e)": "linalg_svd(): argument 'out' must be tuple of Tensors, not Tensor",
    "L.linalg.inv(x, out=(e,))": "linalg_inv(): argument 'out' must be Tensor, not tuple",
    "L.linalg.qr(x, out=(e, 3))": "expected Tensor as element 1 in argument 2, but got int",
    "L.linalg.lu_factor(x, out=(e, 3))": "expected Tensor as element 1 in argument 2, but got int",
    "L.linalg.eigh(x, out=(3, e))": "expected Tensor as element 0 in argument 2, but got int",
    "L.svd(x, out=(e, e, 3))": "expected Tensor as element 2 in argument 3, but got int",
    "L.median(x, 0, out=(e, 3))": "expected Tensor as element 1 in argument 3, but got int",
    "L.median(x, 0, out=(e, e, e))": "expected tuple of 2 elements but got 3",
    "L.aminmax(x, out=(e, 3))": "expected Tensor as element 1 in argument 3, but got int",
    "L.mode(x, 0, out=(e, 3))": "expected Tensor as element 1 in argument 3, but got int",
    "L.sort(x, out=(e, 3))": "expected Tensor as element 1 in argument 3, but got int",
    "L.topk(x, 1, out=(e, 3))": "expected Tensor as element 1 in argument 5, but got int",
    "L.kthvalue(x, 1, out=(e, 3))": "expected Tensor as element 1 in argument 4, but got int",
    "L.kron(x, x, out=3)": "kron(): argument 'out' must be Tensor, not int",
    "L.cat([x, x], out=[e])": "cat(): argument 'out' must be Tensor, not list",
    "L.nansum(x, 0, out='a')": "nansum(): argument 'out' must be Tensor, not str",
    "L.inverse(x, out=3)": "inverse(): argument 'out' must be Tensor, not int",
}


def _message(L, expr):
    x, e = L.eye(3), L.empty(0)
    with pytest.raises(TypeError) as info:
        eval(expr, {"L": L, "x": x, "e": e})
    return str(info.value)


@pytest.mark.parametrize("expr", sorted(RECORDED))
def test_wrong_out_gives_pytorchs_type_error(expr):
    assert _message(engine, expr) == RECORDED[expr]


@pytest.mark.parametrize("expr", sorted(RECORDED))
def test_wrong_out_matches_torch(expr):
    torch = pytest.importorskip("torch")
    assert _message(engine, expr) == _message(torch, expr)


def test_tuple_out_is_written_and_returned_as_the_named_tuple():
    x = engine.tensor([[3.0, 1.0], [2.0, 4.0]])
    values, indices = engine.empty(0), engine.empty(0, dtype=engine.int64)
    sign, logabsdet = engine.empty(0), engine.empty(0)
    r = engine.linalg.slogdet(x, out=(sign, logabsdet))
    assert r.sign is sign and r.logabsdet is logabsdet and sign.item() == 1.0
    r = engine.median(x, 0, out=(values, indices))
    assert r.values is values and r.indices is indices
    assert values.tolist() == [2.0, 1.0] and indices.tolist() == [1, 0]
