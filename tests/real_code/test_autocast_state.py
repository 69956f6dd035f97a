"""Autocast's state as scripts read it (``torch.is_autocast_enabled``, ``get_autocast_dtype``,
the deprecated ``*_cpu_*`` / ``*_gpu_*`` spellings), kept per device type, and what
``amp.custom_fwd`` / ``custom_bwd`` see: with ``cast_inputs`` the forward gets float32 inputs
(float64 ones kept) and both passes run outside autocast; without it both run inside.

Recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest


def test_state_per_device(lib):
    assert lib.is_autocast_enabled() is False
    assert lib.get_autocast_dtype("cpu") == lib.bfloat16
    assert lib.get_autocast_dtype("cuda") == lib.float16
    with lib.autocast("cpu"):
        assert lib.is_autocast_enabled("cpu") is True
        assert lib.is_autocast_enabled() is False  # no argument: CUDA's, as in PyTorch
    with lib.autocast("cpu", dtype=lib.float16):
        assert lib.get_autocast_dtype("cpu") == lib.float16
        with lib.autocast("cpu", enabled=False):
            assert lib.is_autocast_enabled("cpu") is False
            assert lib.get_autocast_dtype("cpu") == lib.float16  # the enclosing region's
    assert lib.get_autocast_dtype("cpu") == lib.bfloat16


def test_deprecated_spellings_warn(lib):
    with pytest.warns(DeprecationWarning, match="is_autocast_cpu_enabled"):
        assert lib.is_autocast_cpu_enabled() is False
    with pytest.warns(DeprecationWarning, match="get_autocast_cpu_dtype"):
        assert lib.get_autocast_cpu_dtype() == lib.bfloat16
    with pytest.warns(DeprecationWarning, match="get_autocast_gpu_dtype"):
        assert lib.get_autocast_gpu_dtype() == lib.float16


def test_unknown_device_type(lib):
    with pytest.raises(RuntimeError, match="device type at start of device string: foo"):
        lib.get_autocast_dtype("foo")


def test_custom_fwd_bwd_under_cpu_autocast(lib):
    seen = []

    class Cast(lib.autograd.Function):
        @staticmethod
        @lib.amp.custom_fwd(device_type="cpu", cast_inputs=lib.float32)
        def forward(ctx, x, y):
            seen.append(("fwd", x.dtype, y.dtype, lib.is_autocast_enabled("cpu")))
            return x * 2

        @staticmethod
        @lib.amp.custom_bwd(device_type="cpu")
        def backward(ctx, g):
            seen.append(("bwd", lib.is_autocast_enabled("cpu")))
            return g * 2, None

    class Plain(lib.autograd.Function):
        @staticmethod
        @lib.amp.custom_fwd(device_type="cpu")
        def forward(ctx, x):
            seen.append(("plain fwd", lib.is_autocast_enabled("cpu")))
            return x * 3

        @staticmethod
        @lib.amp.custom_bwd(device_type="cpu")
        def backward(ctx, g):
            seen.append(
                ("plain bwd", lib.is_autocast_enabled("cpu"), lib.get_autocast_dtype("cpu"))
            )
            return g * 3

    x = lib.ones(2, dtype=lib.bfloat16, requires_grad=True)
    y = lib.ones(2, dtype=lib.float64)
    with lib.autocast("cpu", dtype=lib.float16):
        out = Cast.apply(x, y)
        out2 = Plain.apply(lib.ones(2, requires_grad=True))
    (out.sum() + out2.sum()).backward()
    assert seen == [
        ("fwd", lib.float32, lib.float64, False),
        ("plain fwd", True),
        ("plain bwd", True, lib.float16),
        ("bwd", False),
    ] or seen == [
        ("fwd", lib.float32, lib.float64, False),
        ("plain fwd", True),
        ("bwd", False),
        ("plain bwd", True, lib.float16),
    ]
    assert out.dtype == lib.float32
