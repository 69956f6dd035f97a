"""The share of PyTorch's public CPU surface engine has, by name: reported on every run, and held
above the floor reached so far so that it never slips back."""

import pytest

from tests.api_coverage import GOALS, coverage

# The shares reached so far (raised as names land; the goals are in tests/api_coverage.py).
FLOORS = {"tensor": 0.99, "torch": 0.99, "nn_functional": 0.96}


@pytest.mark.parametrize("key", sorted(GOALS))
def test_share_of_pytorch_names(key, record_property):
    share, missing = coverage()[key]
    record_property(f"{key}_share", round(share, 4))
    print(f"{key}: {share:.1%} of PyTorch's names (goal {GOALS[key]:.0%})")
    assert share >= FLOORS[key], f"{key} coverage fell to {share:.1%}; missing: {missing}"
