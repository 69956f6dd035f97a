"""Reductions' dim and dtype arguments: nansum's dtype= (an int32 result stays int32), nanmean's
refusal of an integer dtype=, and all / any / count_nonzero over an empty dim list (all / any
reduce nothing there, count_nonzero everything).

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

import json
import pathlib

import engine
import pytest

from tests.differential_sweep_cases import TOPICS, outcome, same

CASES = TOPICS["reduction_dims"]
RECORDED = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_sweep.json").read_text()
)["reduction_dims"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_recorded_pytorch(name):
    assert same(outcome(engine, CASES[name]), RECORDED[name])


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    torch = pytest.importorskip("torch")
    assert same(outcome(engine, CASES[name]), outcome(torch, CASES[name]))
