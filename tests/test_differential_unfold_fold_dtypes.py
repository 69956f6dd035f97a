"""F.unfold / F.fold of bool inputs, which PyTorch's kernels take (fold's overlapping blocks
combine as "any"), and their refusal of integer inputs with the kernels' names.

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

from tests.differential_sweep_cases import topic_tests

test_matches_recorded_pytorch, test_matches_torch = topic_tests("unfold_fold_dtypes")
