"""interpolate of a uint8 input in the nearest modes (PyTorch's kernels take uint8 there, and
only there: an int64 input, or uint8 with linear, is refused with the kernel's error), and
antialias=True for bilinear and bicubic (down- and upsampling, align_corners, scale factors);
a gradient check of the antialiased forms, whose node has PyTorch's name.

Each case's outcome (dtype, shape, strides, values, or the exception) was recorded from PyTorch
2.13 into tests/fixtures/differential_sweep.json; the live test compares with torch itself."""

import engine
import pytest

from tests.differential_sweep_cases import topic_tests

test_matches_recorded_pytorch, test_matches_torch = topic_tests("interpolate")


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_antialias_gradient_and_node(mode):
    F = engine.nn.functional
    x = engine.rand(1, 2, 7, 5, dtype=engine.float64, requires_grad=True)
    y = F.interpolate(x, size=(3, 4), mode=mode, antialias=True)
    assert y.grad_fn.name() == f"Upsample{mode.capitalize()}2DAaBackward0"
    assert engine.autograd.gradcheck(
        lambda t: F.interpolate(t, scale_factor=0.6, mode=mode, antialias=True), (x,)
    )
