"""The layout of composed results: special.zeta and the orthogonal polynomials follow their first
full-shaped operand's layout when the other is a number; logsigmoid and rrelu return contiguous
results whatever the input's layout.

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

from tests.differential_sweep_cases import topic_tests

test_matches_recorded_pytorch, test_matches_torch = topic_tests("composed_layout")
