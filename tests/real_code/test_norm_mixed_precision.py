"""PyTorch's CPU norms take bfloat16/float16 activations with float32 parameters or running
statistics (what a module in mixed precision training holds): the result keeps the input's dtype,
the statistics stay float32, and gradients reach the float32 parameters. engine used to promote
the result to float32. Recorded from PyTorch 2.13."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("dtype_name", ["bfloat16", "float16"])
@pytest.mark.parametrize("kind", ["batch", "group", "instance", "layer"])
def test_reduced_precision_input_float32_module(lib, kind, dtype_name):
    dtype = getattr(lib, dtype_name)
    lib.manual_seed(0)
    module = {
        "batch": lambda: lib.nn.BatchNorm2d(4),
        "group": lambda: lib.nn.GroupNorm(2, 4),
        "instance": lambda: lib.nn.InstanceNorm2d(4, affine=True),
        "layer": lambda: lib.nn.LayerNorm([3, 3]),
    }[kind]()
    x = lib.randn(2, 4, 3, 3).to(dtype).requires_grad_()
    y = module(x)
    assert y.dtype == dtype
    y.float().sum().backward()
    assert x.grad.dtype == dtype
    assert module.weight.grad.dtype == lib.float32
    if kind == "batch":
        assert module.running_mean.dtype == lib.float32
        module.eval()
        assert module(x).dtype == dtype


def test_values_are_the_float32_computation_rounded(lib):
    lib.manual_seed(0)
    x = lib.randn(3, 8).bfloat16()
    weight, bias = lib.rand(8) + 0.5, lib.rand(8)
    mixed = lib.nn.functional.layer_norm(x, (8,), weight, bias)
    reference = lib.nn.functional.layer_norm(x.float(), (8,), weight, bias).bfloat16()
    assert (mixed.float() - reference.float()).abs().max().item() <= 2**-7


def test_same_dtype_parameters_are_unchanged(lib):
    x = lib.randn(2, 4, 3, 3).bfloat16()
    norm = lib.nn.GroupNorm(2, 4).bfloat16()
    assert norm(x).dtype == lib.bfloat16
