"""out= of the engine.special functions composed in Python, through the one out= writer: a
float result refused into an integer or bool out (it was silently truncated), the resizing of a
wrong-shaped out, and PyTorch's TypeError naming the function for a non-tensor out.

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

from tests.differential_sweep_cases import topic_tests

test_matches_recorded_pytorch, test_matches_torch = topic_tests("special_out")
