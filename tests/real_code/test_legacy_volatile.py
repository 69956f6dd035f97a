"""``volatile``, PyTorch 0.3's inference flag that old scripts still pass and read: accepted,
always False, with PyTorch's UserWarnings.

Messages recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest

SET = "volatile was removed and now has no effect. Use `with torch.no_grad\\(\\):` instead."
GET = "volatile was removed \\(Variable.volatile is always False\\)"


def test_variable_volatile_keyword_warns(lib):
    with pytest.warns(UserWarning, match=SET):
        v = lib.autograd.Variable(lib.ones(2), volatile=True)
    assert v.requires_grad is False


def test_reading_volatile_is_false_with_a_warning(lib):
    with pytest.warns(UserWarning, match=GET):
        assert lib.ones(2).volatile is False


def test_setting_volatile_has_no_effect(lib):
    t = lib.ones(2)
    with pytest.warns(UserWarning, match=SET):
        t.volatile = True
    with pytest.warns(UserWarning, match=GET):
        assert t.volatile is False
