"""Inputs PyTorch 2.13 refuses (bool, half and integer dtypes its kernels lack, out dtypes its
rules reject), and errors whose type, message or order of checks follow PyTorch's: ldexp, isin,
addcmul, trapezoid, cov, corrcoef, cdist, histogram, special.round, linalg.vander, heaviside,
inner, index_select, einsum, cross, logcumsumexp. Outcomes recorded from PyTorch 2.13
(tests/fixtures/differential_fixes.json); the live test compares with torch when it imports."""

import differential_fixes_cases as cases
import engine

test_refusals_matches_recorded_pytorch, test_refusals_matches_torch = cases.section_tests(
    "refusals", cases.refusal_outcome
)


def test_accepted_neighbours_still_work():
    x = engine.tensor([1.0, 2.0, 3.0])
    assert engine.ldexp(x, engine.tensor([1, 0, 2])).tolist() == [2.0, 2.0, 12.0]
    assert engine.isin(engine.tensor([1, 5]), engine.tensor([5])).tolist() == [False, True]
    assert engine.special.round(engine.tensor([1.4, 2.6])).tolist() == [1.0, 3.0]
    assert engine.linalg.vander(engine.tensor([2, 3])).tolist() == [[1, 2], [1, 3]]


def test_scatter_reduce_extremes_accept_bfloat16():
    # PyTorch 2.13 has amax / amin in bfloat16 (values recorded from it).
    x = engine.tensor([[1.5, 2.0, 3.0, 4.0], [0.5, 9.0, 1.0, 2.0]]).to(engine.bfloat16)
    index = engine.tensor([[0, 1, 1, 0]])
    got = engine.scatter_reduce(x, 0, index, x, "amin", include_self=False)
    assert got.dtype == engine.bfloat16
    assert got.float().tolist() == [[1.5, 2.0, 3.0, 4.0], [0.5, 2.0, 3.0, 2.0]]
