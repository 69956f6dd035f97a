"""``testing.assert_close``'s message reports the greatest absolute and relative differences
among the mismatched elements only: an element that matches (0 == 0, whose relative difference
0/0 is NaN) never stands in for the real offender.

Messages recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest


def _message(lib, actual, expected, **kw):
    with pytest.raises(AssertionError) as info:
        lib.testing.assert_close(actual, expected, **kw)
    return str(info.value)


def test_matching_zeros_do_not_give_nan(lib):
    msg = _message(lib, lib.zeros(4), lib.tensor([0.0, 0.0, 1e-3, 0.0]))
    assert "Mismatched elements: 1 / 4 (25.0%)" in msg
    assert "Greatest absolute difference: 0.0010000000474974513 at index (2,)" in msg
    assert "Greatest relative difference: 1.0 at index (2,) (up to 1.3e-06 allowed)" in msg


def test_close_elements_with_larger_differences_are_ignored(lib):
    # Element 0 is within tolerance (large values, small relative error) but has the largest
    # absolute difference; the report names element 1, the one that fails.
    actual = lib.tensor([1000.0, 1.0])
    expected = lib.tensor([1000.5, 1.1])
    msg = _message(lib, actual, expected, rtol=1e-3, atol=0.0)
    assert "Mismatched elements: 1 / 2 (50.0%)" in msg
    assert "Greatest absolute difference: 0.10000002384185791 at index (1,)" in msg


def test_nan_where_a_number_was_expected_is_reported(lib):
    msg = _message(lib, lib.tensor([1.0, float("nan")]), lib.tensor([1.0, 2.0]))
    assert "Greatest absolute difference: nan at index (1,)" in msg
    assert "Greatest relative difference: nan at index (1,)" in msg


def test_integer_mismatch_message(lib):
    msg = _message(lib, lib.tensor([[0, 5], [7, 0]]), lib.tensor([[0, 5], [9, 0]]))
    assert "Greatest absolute difference: 2 at index (1, 0)" in msg
    assert "Greatest relative difference: 0.2222222238779068 at index (1, 0)" in msg
