"""einsum with any number of operands, '...', implicit outputs and broadcasting: values against
numpy.einsum in float64 and gradients by gradcheck."""

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck

CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("ji", [(2, 3)]),
    ("iij->j", [(3, 3, 2)]),
    ("...ij,...jk->...ik", [(5, 2, 3), (5, 3, 4)]),
    ("...ij,...jk", [(2, 1, 2, 3), (7, 3, 4)]),
    ("...", [(2, 3)]),
    ("i...->...", [(3, 2, 2)]),
    ("...i,...i->...", [(4, 3), (3,)]),
    ("a,b,c->abc", [(2,), (3,), (4,)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("i,i,i->", [(3,), (3,), (3,)]),
    ("bij,bjk,bkl->bl", [(2, 2, 3), (2, 3, 4), (2, 4, 5)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("ij,ij->ij", [(2, 3), (1, 3)]),
    ("ab,ba->", [(2, 3), (3, 2)]),
]


@pytest.mark.parametrize("equation, shapes", CASES, ids=[c[0] for c in CASES])
def test_einsum_matches_numpy_and_gradcheck(equation, shapes):
    rng = np.random.default_rng(len(equation))
    arrays = [rng.standard_normal(s) for s in shapes]
    tensors = [engine.tensor(a, dtype=engine.float64, requires_grad=True) for a in arrays]
    got = engine.einsum(equation, *tensors)
    want = np.einsum(equation, *arrays)
    assert tuple(got.shape) == np.shape(want)
    np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-12, atol=1e-12)
    assert gradcheck(lambda *xs: engine.einsum(equation, *xs), tensors)


def test_ellipsis_dims_missing_from_an_explicit_output_are_summed():
    a = engine.arange(24.0).reshape(2, 3, 4)
    assert engine.einsum("b...,b...->b", a, a).tolist() == (a * a).sum((1, 2)).tolist()


def test_operands_as_a_list():
    a, b = engine.ones(2, 3), engine.ones(3)
    assert engine.einsum("ij,j->i", [a, b]).tolist() == [3.0, 3.0]


@pytest.mark.parametrize(
    "equation, shapes, message",
    [
        (
            "ij,jk->ik",
            [(2, 3), (4, 5)],
            "subscript j has size 4 for operand 1 which does not broadcast",
        ),
        ("ij->ii", [(2, 2)], "output subscript i appears more than once in the output"),
        (
            "ij->k",
            [(2, 2)],
            "output subscript k does not appear in the equation for any input operand",
        ),
        (
            "ijk",
            [(2, 2)],
            "the number of subscripts in the equation \\(3\\) does not match the number of dimensions",
        ),
        ("ij,jk", [(2, 2)], "fewer operands were provided than specified in the equation"),
        ("i1", [(2, 2)], "invalid subscript given at index 1"),
    ],
)
def test_einsum_errors(equation, shapes, message):
    with pytest.raises(RuntimeError, match=message):
        engine.einsum(equation, *[engine.ones(*s) for s in shapes])
