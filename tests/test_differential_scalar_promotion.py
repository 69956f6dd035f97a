"""Integer kernels taking a float scalar in their own type (addmm / addmv / baddbmm's beta and
alpha, addcmul's value, hardtanh's limits: 0.5 becomes 0, the result stays integral), and
searchsorted / bucketize's refusal of bool (the promoted dtype of both operands).

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

from tests.differential_sweep_cases import topic_tests

test_matches_recorded_pytorch, test_matches_torch = topic_tests("scalar_promotion")
