"""out= of the engine.special functions composed in Python, through the one out= writer: a
float result refused into an integer or bool out (it was silently truncated), the resizing of a
wrong-shaped out, and PyTorch's TypeError naming the function for a non-tensor out.

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

import json
import pathlib

import engine
import pytest

from tests.differential_sweep_cases import TOPICS, outcome, same

CASES = TOPICS["special_out"]
RECORDED = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_sweep.json").read_text()
)["special_out"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_recorded_pytorch(name):
    assert same(outcome(engine, CASES[name]), RECORDED[name])


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    torch = pytest.importorskip("torch")
    assert same(outcome(engine, CASES[name]), outcome(torch, CASES[name]))
