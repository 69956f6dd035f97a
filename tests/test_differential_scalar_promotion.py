"""Integer kernels taking a float scalar in their own type (addmm / addmv / baddbmm's beta and
alpha, addcmul's value, hardtanh's limits: 0.5 becomes 0, the result stays integral), and
searchsorted / bucketize's refusal of bool (the promoted dtype of both operands).

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

import json
import pathlib

import engine
import pytest

from tests.differential_sweep_cases import TOPICS, outcome, same

CASES = TOPICS["scalar_promotion"]
RECORDED = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_sweep.json").read_text()
)["scalar_promotion"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_recorded_pytorch(name):
    assert same(outcome(engine, CASES[name]), RECORDED[name])


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    torch = pytest.importorskip("torch")
    assert same(outcome(engine, CASES[name]), outcome(torch, CASES[name]))
