"""Process-wide settings PyTorch scripts set at start-up: deterministic algorithms, float32
matmul precision, the default tensor type and device.

engine's kernels are deterministic for a given thread count (reductions split work the same way
every run, no atomics), so ``use_deterministic_algorithms(True)`` changes no result; the flags
are kept and reported as PyTorch does. float32 matrix products always run in float32
("highest"): the precision setting is recorded, as on a CPU PyTorch build.
"""

import warnings

_deterministic = {"mode": False, "warn_only": False}
_debug_modes = {"default": 0, "warn": 1, "error": 2}
_matmul_precision = ["highest"]


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Requires deterministic algorithms (``warn_only``: warn instead of raising where one is not
    deterministic). engine's are deterministic already."""
    if not isinstance(mode, bool):
        raise TypeError(
            f"_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not {type(mode).__name__}"
        )
    _deterministic["mode"], _deterministic["warn_only"] = mode, bool(warn_only)


def are_deterministic_algorithms_enabled():
    """Whether :func:`use_deterministic_algorithms` turned the requirement on."""
    return _deterministic["mode"]


def is_deterministic_algorithms_warn_only_enabled():
    """Whether the requirement only warns."""
    return _deterministic["warn_only"]


def set_deterministic_debug_mode(debug_mode):
    """``"default"``/0 (off), ``"warn"``/1 or ``"error"``/2: the same switch as
    :func:`use_deterministic_algorithms`."""
    if isinstance(debug_mode, str):
        if debug_mode not in _debug_modes:
            raise RuntimeError(
                f"invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got {debug_mode}"
            )
        debug_mode = _debug_modes[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(
            f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}"
        )
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    """0, 1 or 2, as :func:`set_deterministic_debug_mode` takes it."""
    if not _deterministic["mode"]:
        return 0
    return 1 if _deterministic["warn_only"] else 2


def set_float32_matmul_precision(precision):
    """Records ``"highest"``, ``"high"`` or ``"medium"`` (float32 products stay float32 here)."""
    if precision not in ("highest", "high", "medium"):
        warnings.warn(
            f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
            "setFloat32MatmulPrecision call has no effect.",
            UserWarning,
            stacklevel=2,
        )
        return
    _matmul_precision[0] = precision


def get_float32_matmul_precision():
    """The value :func:`set_float32_matmul_precision` recorded (``"highest"`` by default)."""
    return _matmul_precision[0]


_TENSOR_TYPE_DTYPES = {
    "torch.FloatTensor": "float32",
    "torch.DoubleTensor": "float64",
    "torch.HalfTensor": "float16",
    "torch.BFloat16Tensor": "bfloat16",
}


def set_default_tensor_type(t):
    """Deprecated in PyTorch 2.1: sets the default floating dtype from a tensor type
    (``engine.DoubleTensor`` or ``"torch.DoubleTensor"``)."""
    import engine

    warnings.warn(
        "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and "
        "torch.set_default_device() as alternatives.",
        UserWarning,
        stacklevel=2,
    )
    name = t if isinstance(t, str) else f"torch.{getattr(t, '__name__', '')}"
    if name not in _TENSOR_TYPE_DTYPES:
        if isinstance(t, str) and t.startswith("torch.cuda."):
            from engine._device import check_cpu

            check_cpu("cuda")
        raise TypeError(
            f"invalid type: '{name}'; only floating-point tensor types can be the default"
        )
    engine.set_default_dtype(getattr(engine, _TENSOR_TYPE_DTYPES[name]))


def set_default_device(device):
    """Sets the device factory functions create tensors on: the CPU (``None`` or ``"cpu"``) or
    ``"meta"`` (tensors with a shape and no data)."""
    from engine import _device

    _device.set_default(device)


def get_default_device():
    """The device factory functions create tensors on: the innermost ``with engine.device(...)``
    block's, else the one :func:`set_default_device` chose (the CPU unless changed)."""
    from engine import _device

    return _device.default_device()


__all__ = [
    "are_deterministic_algorithms_enabled",
    "get_default_device",
    "get_deterministic_debug_mode",
    "get_float32_matmul_precision",
    "is_deterministic_algorithms_warn_only_enabled",
    "set_default_device",
    "set_default_tensor_type",
    "set_deterministic_debug_mode",
    "set_float32_matmul_precision",
    "use_deterministic_algorithms",
]
