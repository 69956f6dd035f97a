"""Reductions' dim and dtype arguments: nansum's dtype= (an int32 result stays int32), nanmean's
refusal of an integer dtype=, and all / any / count_nonzero over an empty dim list (all / any
reduce nothing there, count_nonzero everything).

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

from tests.differential_sweep_cases import topic_tests

test_matches_recorded_pytorch, test_matches_torch = topic_tests("reduction_dims")
