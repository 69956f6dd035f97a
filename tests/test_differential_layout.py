"""Memory layout of results, as PyTorch 2.13 lays them out: an elementwise result takes the
dimension order of its inputs (TensorIterator's rule), so ops on a transposed tensor give a
transposed result; copies that must be row-major (contiguous, reshape) are. The shapes, strides and
is_contiguous() below were recorded from PyTorch 2.13; the live test compares with torch itself."""

import engine
import numpy as np
import pytest

CASES = {
    "add_scalar": lambda L, x, y: x + 1,
    "mul_same_layout": lambda L, x, y: x * x,
    "add_broadcast_row": lambda L, x, y: x + y,
    "exp": lambda L, x, y: L.exp(x),
    "sin": lambda L, x, y: L.sin(x),
    "abs": lambda L, x, y: L.abs(x),
    "neg": lambda L, x, y: -x,
    "eq": lambda L, x, y: x == 0,
    "where": lambda L, x, y: L.where(x > 0, x, y),
    "maximum": lambda L, x, y: L.maximum(x, y),
    "clone": lambda L, x, y: x.clone(),
    "to_float64": lambda L, x, y: x.to(L.float64),
    "half": lambda L, x, y: x.half(),
    "int_exp": lambda L, x, y: L.exp(x.long()),
    "contiguous": lambda L, x, y: x.contiguous(),
    "sum_dim": lambda L, x, y: x.sum(0),
    "reshape_copy": lambda L, x, y: x.reshape(-1),
    "sigmoid": lambda L, x, y: L.sigmoid(x),
    "special_erfcx": lambda L, x, y: L.special.erfcx(x),
    "xlogy": lambda L, x, y: L.xlogy(x, y),
    "sliced_exp": lambda L, x, y: L.exp(x.t()[:, ::2]),
    "permuted3d_add": lambda L, x, y: x.reshape(2, 3, 2).permute(2, 0, 1) + 1,
    "softmax": lambda L, x, y: L.softmax(x, 0),
    "log_softmax": lambda L, x, y: L.log_softmax(x, 1),
    "masked_fill": lambda L, x, y: L.masked_fill(x, x > 0, 0.0),
    "zeros_like": lambda L, x, y: L.zeros_like(x),
    "nonzero": lambda L, x, y: L.nonzero(x > 0),
    "isreal": lambda L, x, y: L.isreal(x),
    "isinf_int": lambda L, x, y: L.isinf(x.long()),
    "isfinite_int": lambda L, x, y: L.isfinite(x.long()),
    "isposinf_int": lambda L, x, y: L.isposinf(x.long()),
    "ravel_strided": lambda L, x, y: L.ravel(x.t()[:, ::2]),
}

# (shape, strides, is_contiguous) of each result in PyTorch 2.13.
RECORDED = {
    "abs": ((4, 3), (1, 4), False),
    "add_broadcast_row": ((4, 3), (1, 4), False),
    "add_scalar": ((4, 3), (1, 4), False),
    "clone": ((4, 3), (1, 4), False),
    "contiguous": ((4, 3), (3, 1), True),
    "eq": ((4, 3), (1, 4), False),
    "exp": ((4, 3), (1, 4), False),
    "half": ((4, 3), (1, 4), False),
    "int_exp": ((4, 3), (1, 4), False),
    "maximum": ((4, 3), (1, 4), False),
    "mul_same_layout": ((4, 3), (1, 4), False),
    "neg": ((4, 3), (1, 4), False),
    "permuted3d_add": ((2, 2, 3), (1, 6, 2), False),
    "reshape_copy": ((12,), (1,), True),
    "sigmoid": ((4, 3), (1, 4), False),
    "sin": ((4, 3), (1, 4), False),
    "sliced_exp": ((3, 2), (2, 1), True),
    "special_erfcx": ((4, 3), (1, 4), False),
    "sum_dim": ((3,), (1,), True),
    "to_float64": ((4, 3), (1, 4), False),
    "where": ((4, 3), (1, 4), False),
    "xlogy": ((4, 3), (1, 4), False),
    "softmax": ((4, 3), (3, 1), True),
    "log_softmax": ((4, 3), (3, 1), True),
    "masked_fill": ((4, 3), (3, 1), True),
    "zeros_like": ((4, 3), (1, 4), False),
    "nonzero": ((7, 2), (1, 7), False),
    "isreal": ((4, 3), (1, 4), False),
    "isinf_int": ((4, 3), (1, 4), False),
    "isfinite_int": ((4, 3), (1, 4), False),
    "isposinf_int": ((4, 3), (1, 4), False),
    "ravel_strided": ((6,), (1,), True),
}


def _inputs(lib):
    x = lib.arange(12, dtype=lib.float32).reshape(3, 4).t().mul(0.25).sub(1)  # strides (1, 4)
    return x, lib.tensor([0.5, -1.0, 2.0])


def _values(t):
    return np.asarray(t.detach().double().tolist(), dtype=np.float64)


@pytest.mark.parametrize("name", sorted(CASES))
def test_result_layout_matches_recorded(name):
    out = CASES[name](engine, *_inputs(engine))
    assert (tuple(out.shape), out.stride(), out.is_contiguous()) == RECORDED[name]


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_do_not_depend_on_the_layout(name):
    x, y = _inputs(engine)
    out = CASES[name](engine, x, y)
    expected = CASES[name](engine, x.contiguous(), y)
    np.testing.assert_array_equal(_values(out), _values(expected))


def test_large_permuted_operands_keep_their_layout_and_values():
    # Past the threading grain the strided loops run; a permuted output walks in memory order.
    a = engine.arange(300 * 500, dtype=engine.float32).reshape(300, 500).t()
    out = a * 2 + 1
    assert out.stride() == a.stride()
    np.testing.assert_array_equal(out.numpy(), a.numpy() * 2 + 1)
    np.testing.assert_allclose(engine.exp(a * 1e-5).numpy(), np.exp(a.numpy() * 1e-5), rtol=1e-6)
    b = a.double()
    assert b.stride() == a.stride() and b.dtype == engine.float64


def test_selections_along_a_dim_are_fresh_row_major_tensors():
    # PyTorch's topk / kthvalue / median allocate their results (no views of a whole sort order).
    x = engine.arange(12.0).reshape(3, 4)
    for values, indices in (
        engine.topk(x, 2),
        engine.kthvalue(x, 2, 1),
        engine.median(x, 1),
        engine.median(x.t(), 1),
        engine.nanmedian(x, 0),
    ):
        assert values.is_contiguous() and indices.is_contiguous()
    assert engine.median(x, 1, keepdim=True).indices.stride() == (1, 1)
    assert engine.topk(x, 2).indices.stride() == (2, 1)


def test_reshape_of_a_permuted_result_copies_row_major():
    a = engine.arange(6.0).reshape(2, 3).t() + 0
    assert a.reshape(6).tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    assert a.reshape(-1).is_contiguous()


@pytest.mark.parametrize("name", sorted(CASES))
def test_result_layout_matches_torch(name):
    torch = pytest.importorskip("torch")
    ours, theirs = CASES[name](engine, *_inputs(engine)), CASES[name](torch, *_inputs(torch))
    assert (tuple(ours.shape), ours.stride(), ours.is_contiguous()) == (
        tuple(theirs.shape),
        theirs.stride(),
        theirs.is_contiguous(),
    )
