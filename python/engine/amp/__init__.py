"""engine.amp: automatic mixed precision, as ``torch.amp``.

A CPU ``autocast`` region runs each op in the dtype PyTorch 2.13's CPU policy gives it
(``engine/amp/_policy.py``: matrix products and convolutions in bfloat16 or the region's dtype,
losses and accuracy-sensitive ops in float32, joins in the widest input dtype). A CUDA
``autocast`` disables itself with PyTorch's warning, and ``GradScaler`` for CUDA is the disabled
pass-through PyTorch makes it on a machine without a GPU. ``custom_fwd`` / ``custom_bwd``
decorate custom Functions as in PyTorch, so code written for mixed precision runs unchanged.
"""

import _thread  # threading.local is _thread._local; importing threading itself costs ~1 ms
import functools
import warnings

import engine
from engine.amp import _policy

__all__ = ["GradScaler", "autocast", "custom_bwd", "custom_fwd", "is_autocast_available"]

# PyTorch's device types, in the order its "Expected one of ..." message lists them.
_DEVICE_TYPES = (
    "cpu cuda ipu xpu mkldnn opengl opencl ideep hip ve fpga maia xla lazy vulkan mps meta hpu "
    "mtia privateuseone"
).split()


class _ThreadState(_thread._local):
    """Autocast's settings, per thread as PyTorch's are: per device type whether a region is on
    and its dtype (PyTorch's defaults: bfloat16 on the CPU, float16 elsewhere), the open regions
    (all devices), and whether casts are cached inside them."""

    def __init__(self):
        self.slots = {}
        self.nesting = 0
        self.cache_enabled = True


_tls = _ThreadState()


def _slot(device_type):
    if device_type not in _DEVICE_TYPES:
        raise RuntimeError(
            f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of device string: "
            f"{device_type}"
        )
    slot = _tls.slots.get(device_type)
    if slot is None:
        dtype = engine.bfloat16 if device_type == "cpu" else engine.float16
        slot = _tls.slots[device_type] = {"enabled": False, "dtype": dtype}
    return slot


def _sync_cpu():
    # The casts follow the CPU slot: engine's ops all run on the CPU.
    slot = _slot("cpu")
    _policy.sync(slot["enabled"], slot["dtype"], _tls.cache_enabled)


def set_autocast_enabled(device_type, enabled):
    """Turns autocast on ``device_type`` on or off outside a region (as ``torch``'s)."""
    _slot(device_type)["enabled"] = bool(enabled)
    _sync_cpu()


def set_autocast_dtype(device_type, dtype):
    """Sets the dtype autocast regions on ``device_type`` use."""
    _slot(device_type)["dtype"] = dtype
    _sync_cpu()


def is_autocast_cache_enabled():
    """Whether casts of float32 parameters are cached inside autocast regions (default True)."""
    return _tls.cache_enabled


def set_autocast_cache_enabled(enabled):
    """Turns the cache of casted parameters on or off."""
    _tls.cache_enabled = bool(enabled)
    _sync_cpu()


def autocast_increment_nesting():
    """Counts one more open autocast region; returns how many are open."""
    _tls.nesting += 1
    return _tls.nesting


def autocast_decrement_nesting():
    """Counts one region closed; returns how many are still open."""
    _tls.nesting = max(_tls.nesting - 1, 0)
    return _tls.nesting


def clear_autocast_cache():
    """Drops the cached casts of float32 parameters."""
    _policy.clear_cache()


def get_autocast_dtype(device_type):
    """The dtype autocast regions on ``device_type`` use (bfloat16 on 'cpu' unless set)."""
    return _slot(device_type)["dtype"]


def _deprecated(old, new):
    warnings.warn(
        f"torch.{old}() is deprecated. Please use torch.{new} instead.", DeprecationWarning, 3
    )


def is_autocast_cpu_enabled():
    """Deprecated: ``is_autocast_enabled('cpu')``."""
    _deprecated("is_autocast_cpu_enabled", "is_autocast_enabled('cpu')")
    return _slot("cpu")["enabled"]


def get_autocast_cpu_dtype():
    """Deprecated: ``get_autocast_dtype('cpu')``."""
    _deprecated("get_autocast_cpu_dtype", "get_autocast_dtype('cpu')")
    return get_autocast_dtype("cpu")


def get_autocast_gpu_dtype():
    """Deprecated: ``get_autocast_dtype('cuda')``."""
    _deprecated("get_autocast_gpu_dtype", "get_autocast_dtype('cuda')")
    return get_autocast_dtype("cuda")


def is_autocast_available(device_type):
    """True for the devices whose autocast PyTorch knows ('cpu', 'cuda', ...)."""
    return device_type in ("cpu", "cuda", "xpu", "mps", "hpu", "xla", "mtia", "maia")


class autocast:  # noqa: N801 - PyTorch's name
    """A region (context manager or decorator) where each op runs in the dtype of PyTorch's CPU
    autocast policy (bfloat16 for matrix products and convolutions unless ``dtype`` says
    float16; float32 for losses); see the module docstring."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        if not is_autocast_available(device_type):
            raise RuntimeError(
                f"User specified an unsupported autocast device_type '{device_type}'"
            )
        self.device = device_type
        # Unset, the dtype is the device's current one (what an enclosing region chose).
        self.fast_dtype = dtype if dtype is not None else get_autocast_dtype(device_type)
        self._cache_enabled = (
            is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        )
        if device_type == "cuda" and enabled:
            warnings.warn(
                "CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2
            )
            enabled = False
        if (
            device_type == "cpu"
            and enabled
            and self.fast_dtype
            not in (
                engine.bfloat16,
                engine.float16,
            )
        ):
            warnings.warn(
                "In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                "CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.",
                stacklevel=2,
            )
            enabled = False
        self._enabled = enabled

    def __enter__(self):
        slot = _slot(self.device)
        self._previous = dict(slot)
        self._previous_cache_enabled = _tls.cache_enabled
        slot.update(enabled=self._enabled, dtype=self.fast_dtype)
        autocast_increment_nesting()
        _tls.cache_enabled = self._cache_enabled
        _sync_cpu()
        return self

    def __exit__(self, *exc):
        # Casts cached in the outermost region die with it.
        if autocast_decrement_nesting() == 0:
            clear_autocast_cache()
        _slot(self.device).update(self._previous)
        _tls.cache_enabled = self._previous_cache_enabled
        _sync_cpu()
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return decorate_autocast


def is_autocast_enabled(device_type=None):
    """Whether an autocast region is active on ``device_type`` ('cuda' when not given, as in
    PyTorch)."""
    return _slot("cuda" if device_type is None else device_type)["enabled"]


def _cast(value, dtype):
    # PyTorch casts the floating tensors autocast would touch: float64 ones keep their dtype.
    if (
        isinstance(value, engine.Tensor)
        and value.is_floating_point()
        and value.dtype != engine.float64
    ):
        return value.to(dtype)
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, dtype) for v in value)
    if isinstance(value, dict):
        return {k: _cast(v, dtype) for k, v in value.items()}
    return value


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    """Decorates a custom Function's ``forward``: with ``cast_inputs``, floating tensor inputs are
    cast to that dtype inside an autocast region, and the forward runs with autocast off."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        ctx = args[0]
        ctx._dtype = get_autocast_dtype(device_type)
        if cast_inputs is None:
            ctx._fwd_used_autocast = is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        # Inputs cast: forward and backward both run outside autocast, as PyTorch's do.
        ctx._fwd_used_autocast = False
        if not is_autocast_enabled(device_type):
            return fwd(*args, **kwargs)
        with autocast(device_type=device_type, enabled=False):
            return fwd(*_cast(args, cast_inputs), **_cast(kwargs, cast_inputs))

    return decorate_fwd


def custom_bwd(bwd=None, *, device_type):
    """Decorates a custom Function's ``backward`` to run in the autocast state its forward saw."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        enabled = getattr(args[0], "_fwd_used_autocast", False)
        dtype = getattr(args[0], "_dtype", None)
        with autocast(
            device_type=device_type, enabled=enabled and device_type != "cuda", dtype=dtype
        ):
            return bwd(*args, **kwargs)

    return decorate_bwd


class GradScaler:
    """Loss scaling for mixed precision. On this CPU-only engine a CUDA scaler disables itself
    (PyTorch's warning); a disabled scaler passes losses and steps through unchanged, an enabled
    CPU scaler scales, unscales and skips steps with infinite gradients as PyTorch's does."""

    def __init__(self, device="cuda", init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):  # fmt: skip
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled:
            warnings.warn(
                "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                stacklevel=2,
            )
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
        self._scale = float(init_scale)
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        self._growth_tracker = 0
        self._found_inf = {}
        self._unscaled = set()

    def is_enabled(self):
        """Whether scaling is active."""
        return self._enabled

    def scale(self, outputs):
        """``outputs`` multiplied by the current scale (unchanged when disabled)."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, engine.Tensor):
            return outputs * self._scale
        return type(outputs)(self.scale(o) for o in outputs)

    def unscale_(self, optimizer):
        """Divides the optimizer's gradients by the scale, recording whether any is infinite."""
        if not self._enabled:
            return
        if id(optimizer) in self._unscaled:
            raise RuntimeError(
                "unscale_() has already been called on this optimizer since the last update()."
            )
        found_inf = False
        inv = 1.0 / self._scale
        with engine.no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        p.grad.mul_(inv)
                        if not bool(engine.isfinite(p.grad).all()):
                            found_inf = True
        self._found_inf[id(optimizer)] = found_inf
        self._unscaled.add(id(optimizer))

    def step(self, optimizer, *args, **kwargs):
        """Unscales if needed, then ``optimizer.step()`` unless a gradient was infinite."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if id(optimizer) not in self._unscaled:
            self.unscale_(optimizer)
        if self._found_inf.get(id(optimizer)):
            return None
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        """Backs the scale off after infinite gradients, grows it after ``growth_interval``
        clean steps."""
        if not self._enabled:
            return
        if new_scale is not None:
            self._scale = float(
                new_scale.item() if isinstance(new_scale, engine.Tensor) else new_scale
            )
        elif any(self._found_inf.values()):
            self._scale *= self._backoff_factor
            self._growth_tracker = 0
        else:
            self._growth_tracker += 1
            if self._growth_tracker == self._growth_interval:
                self._scale *= self._growth_factor
                self._growth_tracker = 0
        self._found_inf.clear()
        self._unscaled.clear()

    def get_scale(self):
        """The current scale (1.0 when disabled)."""
        return self._scale if self._enabled else 1.0

    def get_growth_factor(self):
        """The factor the scale grows by."""
        return self._growth_factor

    def get_backoff_factor(self):
        """The factor the scale backs off by."""
        return self._backoff_factor

    def get_growth_interval(self):
        """Clean steps between growths."""
        return self._growth_interval

    def state_dict(self):
        """The scaler's state (empty when disabled), as PyTorch's."""
        if not self._enabled:
            return {}
        return {
            "scale": self._scale,
            "growth_factor": self._growth_factor,
            "backoff_factor": self._backoff_factor,
            "growth_interval": self._growth_interval,
            "_growth_tracker": self._growth_tracker,
        }

    def load_state_dict(self, state_dict):
        """Restores :meth:`state_dict`'s values."""
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError(
                "The source state dict is empty, possibly because it was saved from a disabled instance of GradScaler."
            )
        self._scale = float(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._growth_tracker = state_dict["_growth_tracker"]
