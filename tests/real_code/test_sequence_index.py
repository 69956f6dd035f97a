"""A list index holding tensors, lists, slices or None is a tuple of indices (PyTorch's legacy
rule, with its deprecation warning), as label-smoothing losses write ``onehot[[rows, cols]] = 0``;
a list of numbers stays one index tensor.

Golden values recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest

DEPRECATED = "Using a non-tuple sequence for multidimensional indexing is deprecated"


def test_list_of_lists_is_a_tuple(lib):
    x = lib.arange(12).reshape(3, 4)
    with pytest.warns(UserWarning, match=DEPRECATED):
        assert x[[[0, 1], [1, 2]]].tolist() == [1, 6]


def test_list_of_tensors_and_slices(lib):
    x = lib.arange(12).reshape(3, 4)
    with pytest.warns(UserWarning, match=DEPRECATED):
        assert x[[lib.tensor([0, 2]), lib.tensor([1, 3])]].tolist() == [1, 11]
    with pytest.warns(UserWarning, match=DEPRECATED):
        assert x[[0, slice(1, 3)]].tolist() == [1, 2]
    with pytest.warns(UserWarning, match=DEPRECATED):
        assert tuple(x[[0, None]].shape) == (1, 4)


def test_assignment_through_a_list_of_tensors(lib):
    y = lib.zeros(3, 4)
    with pytest.warns(UserWarning, match=DEPRECATED):
        y[[lib.tensor([[0], [2]]), lib.arange(4)]] = 1
    assert y.sum(1).tolist() == [4.0, 0.0, 4.0]


def test_plain_lists_stay_index_tensors(lib, recwarn):
    x = lib.arange(12).reshape(3, 4)
    assert x[[0, 2]].tolist() == [[0, 1, 2, 3], [8, 9, 10, 11]]
    assert x[[True, False, True]].shape[0] == 2
    assert not [w for w in recwarn if DEPRECATED in str(w.message)]
