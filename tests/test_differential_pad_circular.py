"""F.pad's circular mode with negative amounts: PyTorch crops first and wraps around what is
left (not around the uncropped input).

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

from tests.differential_sweep_cases import topic_tests

test_matches_recorded_pytorch, test_matches_torch = topic_tests("pad_circular")
