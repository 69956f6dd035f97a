"""scatter's reduce= keyword ('add' / 'multiply', with a tensor or a number), and scatter_reduce /
index_reduce's integer mean, which stays in the input's integer dtype.

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

from tests.differential_sweep_cases import topic_tests

test_matches_recorded_pytorch, test_matches_torch = topic_tests("scatter")
