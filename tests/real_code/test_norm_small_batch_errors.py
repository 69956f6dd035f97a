"""Batch, instance and group norms refuse a single value per channel with PyTorch's messages
(the input's ``torch.Size`` for batch and instance norm, a list for group norm), instance norm
without input statistics needs running statistics, and an empty batch passes through leaving
the running statistics as they were.

Messages from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest

PER_CHANNEL = "Expected more than 1 value per channel when training, got input size "


def test_batch_norm_single_value(lib):
    msg = PER_CHANNEL + r"torch\.Size\(\[1, 3\]\)$"
    with pytest.raises(ValueError, match=msg):
        lib.nn.BatchNorm1d(3)(lib.randn(1, 3))
    with pytest.raises(ValueError, match=msg):
        lib.nn.functional.batch_norm(lib.randn(1, 3), None, None, training=True)
    lib.nn.BatchNorm1d(3).eval()(lib.randn(1, 3))


def test_instance_norm_single_spatial_element(lib):
    with pytest.raises(
        ValueError,
        match=r"^Expected more than 1 spatial element when training, got input size torch\.Size\(\[1, 3, 1\]\)$",
    ):
        lib.nn.InstanceNorm1d(3)(lib.randn(1, 3, 1))
    with pytest.raises(
        RuntimeError,
        match="^Expected running_mean and running_var to be defined when use_input_stats is false$",
    ):
        lib.nn.functional.instance_norm(lib.randn(1, 3, 4), use_input_stats=False)


def test_group_norm_single_value(lib):
    with pytest.raises(ValueError, match=PER_CHANNEL.replace("(", r"\(") + r"\[1, 3, 1\]$"):
        lib.nn.GroupNorm(3, 3)(lib.randn(1, 3, 1))
    assert tuple(lib.nn.GroupNorm(1, 3)(lib.randn(1, 3)).shape) == (1, 3)


def test_empty_batches(lib):
    bn = lib.nn.BatchNorm1d(3)
    x = lib.randn(0, 3, requires_grad=True)
    out = bn(x)
    out.sum().backward()
    assert tuple(out.shape) == (0, 3)
    assert bn.running_mean.tolist() == [0.0, 0.0, 0.0]
    assert bn.running_var.tolist() == [1.0, 1.0, 1.0]
    assert bn.weight.grad.tolist() == [0.0, 0.0, 0.0]
    assert tuple(lib.nn.functional.group_norm(lib.randn(0, 4, 2), 2).shape) == (0, 4, 2)
