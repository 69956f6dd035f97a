"""Average pooling of int64 inputs, which PyTorch computes in integers (each window's sum
divided by its divisor, truncating) for avg_pool1d / 2d / 3d with padding, ceil_mode,
count_include_pad and divisor_override; other integer dtypes stay refused.

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

from tests.differential_sweep_cases import topic_tests

test_matches_recorded_pytorch, test_matches_torch = topic_tests("pooling_int64")
