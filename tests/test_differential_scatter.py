"""scatter's reduce= keyword ('add' / 'multiply', with a tensor or a number), and scatter_reduce /
index_reduce's integer mean, which stays in the input's integer dtype.

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

import json
import pathlib

import engine
import pytest

from tests.differential_sweep_cases import TOPICS, outcome, same

CASES = TOPICS["scatter"]
RECORDED = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_sweep.json").read_text()
)["scatter"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_recorded_pytorch(name):
    assert same(outcome(engine, CASES[name]), RECORDED[name])


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    torch = pytest.importorskip("torch")
    assert same(outcome(engine, CASES[name]), outcome(torch, CASES[name]))
