"""out= of div with a rounding mode, F.normalize, tensordot, conj_physical, mm and the add*
products (addmm, addmv, baddbmm, addbmm, addr: each its PyTorch dtype rule and message), which write
through the one out= writer: a float result refused into an integer out (it was truncated
silently), resizing, the refusal where autograd would record, and tensordot's same-dtype rule;
and eye's out=, resized silently and written in out's dtype (an empty out failed).

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

from tests.differential_sweep_cases import topic_tests

test_matches_recorded_pytorch, test_matches_torch = topic_tests("composed_out")
