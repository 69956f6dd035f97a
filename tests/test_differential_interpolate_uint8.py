"""interpolate of a uint8 input in the nearest modes (PyTorch's kernels take uint8 there, and
only there: an int64 input, or uint8 with linear, is refused with the kernel's error).

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

import json
import pathlib

import engine
import pytest

from tests.differential_sweep_cases import TOPICS, outcome

CASES = TOPICS["interpolate_uint8"]
RECORDED = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_sweep.json").read_text()
)["interpolate_uint8"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_recorded_pytorch(name):
    assert outcome(engine, CASES[name]) == RECORDED[name]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    torch = pytest.importorskip("torch")
    assert outcome(engine, CASES[name]) == outcome(torch, CASES[name])
