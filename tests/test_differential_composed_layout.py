"""The layout of composed results: special.zeta and the orthogonal polynomials follow their first
full-shaped operand's layout when the other is a number; logsigmoid and rrelu return contiguous
results whatever the input's layout.

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

import json
import pathlib

import engine
import pytest

from tests.differential_sweep_cases import TOPICS, outcome, same

CASES = TOPICS["composed_layout"]
RECORDED = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_sweep.json").read_text()
)["composed_layout"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_recorded_pytorch(name):
    assert same(outcome(engine, CASES[name]), RECORDED[name])


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    torch = pytest.importorskip("torch")
    assert same(outcome(engine, CASES[name]), outcome(torch, CASES[name]))
