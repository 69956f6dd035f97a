"""``engine.cuda.amp``: PyTorch's deprecated CUDA spellings of ``engine.amp``, with its
FutureWarnings; on this CPU-only engine they disable themselves as PyTorch's do without a GPU."""

import functools
import warnings

from engine import amp as _amp

__all__ = ["GradScaler", "autocast", "custom_bwd", "custom_fwd"]


class autocast(_amp.autocast):  # noqa: N801 - PyTorch's name
    """Deprecated: ``engine.amp.autocast('cuda', ...)``."""

    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        warnings.warn(
            "`torch.cuda.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cuda', args...)` "
            "instead.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


class GradScaler(_amp.GradScaler):
    """Deprecated: ``engine.amp.GradScaler('cuda', ...)``."""

    def __init__(
        self,
        init_scale=2.0**16,
        growth_factor=2.0,
        backoff_factor=0.5,
        growth_interval=2000,
        enabled=True,
    ):
        warnings.warn(
            "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` "
            "instead.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__(
            "cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled
        )


def custom_fwd(fwd=None, *, cast_inputs=None):
    """Deprecated: ``engine.amp.custom_fwd(device_type='cuda')``."""
    warnings.warn(
        "`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use `torch.amp.custom_fwd(args..., "
        "device_type='cuda')` instead.",
        FutureWarning,
        stacklevel=2,
    )
    return functools.partial(_amp.custom_fwd, device_type="cuda", cast_inputs=cast_inputs)(fwd) if fwd else (
        functools.partial(_amp.custom_fwd, device_type="cuda", cast_inputs=cast_inputs)
    )  # fmt: skip


def custom_bwd(bwd):
    """Deprecated: ``engine.amp.custom_bwd(device_type='cuda')``."""
    warnings.warn(
        "`torch.cuda.amp.custom_bwd(args...)` is deprecated. Please use `torch.amp.custom_bwd(args..., "
        "device_type='cuda')` instead.",
        FutureWarning,
        stacklevel=2,
    )
    return _amp.custom_bwd(bwd, device_type="cuda")
