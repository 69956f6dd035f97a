"""Which index mode, topk and kthvalue report among equal values (and NaNs), and var_mean /
std_mean's mean where a slice holds infinities: PyTorch 2.13's answers depend on its exact
algorithms (std::sort, std::partial_sort / std::nth_element, its quickselect, Welford's running
mean), which engine follows. Answers recorded from PyTorch 2.13
(tests/fixtures/differential_fixes.json); the live test compares with torch when it imports."""

import json
import pathlib

import differential_fixes_cases as cases
import engine
import pytest

FIXTURE = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_fixes.json").read_text()
)
ROWS = cases.selection_rows()


@pytest.mark.parametrize("number", range(len(ROWS)))
def test_selection_indices_match_recorded(number):
    assert cases.selection_outcome(engine, ROWS[number]) == FIXTURE["selection"][number]


@pytest.mark.parametrize("number", range(len(cases.MOMENT_ROWS)))
def test_moments_match_recorded(number):
    assert cases.moments_outcome(engine, cases.MOMENT_ROWS[number]) == FIXTURE["moments"][number]


def test_selection_indices_match_torch_on_many_rows():
    torch = pytest.importorskip("torch")
    import random

    rng = random.Random(11)
    for _ in range(150):
        n = rng.randint(1, 200)
        row = [rng.choice([1.0, 2.0, -1.0, float("nan")]) for _ in range(n)]
        assert cases.selection_outcome(engine, row) == cases.selection_outcome(torch, row), row


def test_selection_along_a_middle_dim_of_a_transposed_tensor():
    x = engine.tensor([[[1.0, 2.0, 1.0], [2.0, 1.0, 1.0]], [[1.0, 1.0, 1.0], [2.0, 2.0, 1.0]]])
    x = x.transpose(0, 2)
    top = engine.topk(x, 1, dim=1)
    assert top.indices.shape == (3, 1, 2)
    assert engine.kthvalue(x, 1, dim=1, keepdim=True).indices.shape == (3, 1, 2)


def test_mean_of_a_slice_ending_in_its_only_infinity_stays_infinite():
    spread, mean = engine.var_mean(engine.tensor([1.0, 2.0, float("inf")]))
    assert mean.item() == float("inf")
    assert engine.std_mean(engine.tensor([float("inf"), 1.0]))[1].isnan().item()
