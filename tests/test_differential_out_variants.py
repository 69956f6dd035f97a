"""out= on sum / mean with a dim, sort, topk, kthvalue, msort, cat (concat, concatenate), stack,
where, tril, triu, gather, index_select, take, diag, inner and heaviside, with PyTorch 2.13's dtype
rule of each (its own message), its resizing of a wrong-shaped out, and the refusal where
autograd would record. Outcomes recorded from PyTorch 2.13 (tests/fixtures/differential_fixes.json);
the live test compares with torch itself when it imports."""

import warnings

import differential_fixes_cases as cases
import engine
import numpy as np
import pytest

test_out_matches_recorded_pytorch, test_out_matches_torch = cases.section_tests(
    "out", cases.out_case_outcome
)


def test_wrong_shaped_out_is_resized_with_a_warning():
    x = engine.arange(12.0).reshape(3, 4)
    out = engine.zeros(5)
    with pytest.warns(UserWarning, match="was resized"):
        assert engine.sum(x, 1, out=out) is out
    np.testing.assert_array_equal(out.numpy(), [6.0, 22.0, 38.0])
    values, indices = engine.zeros(7), engine.zeros(7, dtype=engine.int64)
    with pytest.warns(UserWarning, match="was resized"):
        got = engine.topk(x, 2, out=(values, indices))
    assert got.values is values and got.indices is indices
    assert values.shape == (3, 2) and indices.tolist() == [[3, 2], [3, 2], [3, 2]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        engine.cat([x, x], out=engine.empty(0))  # an empty out is resized silently


def test_sum_into_out_is_taken_in_outs_dtype():
    x = engine.tensor([[0.6, 0.6], [1.5, 1.5]])
    out = engine.empty(0, dtype=engine.int64)
    engine.sum(x, 1, out=out)  # each element cast first, as PyTorch's sum(dtype=int64)
    assert out.tolist() == [0, 2]


def test_out_refuses_inputs_that_require_grad():
    x = engine.ones(2, 3, requires_grad=True)
    for call in (
        lambda o: engine.sum(x, 1, out=o),
        lambda o: engine.cat([x, x], out=o),
        lambda o: engine.tril(x, out=o),
    ):
        with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
            call(engine.empty(0))


def test_calls_without_out_are_unchanged():
    x = engine.arange(6.0).reshape(2, 3).requires_grad_()
    assert engine.sum(x, 1).grad_fn is not None
    assert engine.where(x > 2, x, 0.0).tolist() == [[0.0, 0.0, 0.0], [3.0, 4.0, 5.0]]
    assert engine.gather(x, 1, engine.tensor([[0], [2]]), sparse_grad=False).tolist() == [
        [0.0],
        [5.0],
    ]


def test_mean_with_a_wider_dtype_adds_in_that_dtype():
    # PyTorch 2.13 converts float32 elements to float64 before adding (values recorded from it).
    x = engine.tensor([0.1, 0.2, 0.7, 0.35])
    assert x.mean(dtype=engine.float64).item() == 0.33749999664723873
    assert x.reshape(2, 2).mean(0, dtype=engine.float64).tolist() == [
        0.3999999947845936,
        0.2749999985098839,
    ]
    out = engine.empty(0, dtype=engine.float64)
    assert engine.mean(x, 0, out=out).item() == 0.33749999664723873
