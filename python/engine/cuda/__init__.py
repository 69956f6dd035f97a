"""``engine.cuda``: the queries device-selection code makes. engine has no CUDA: ``is_available()``
is False, seeding is a no-op (as in PyTorch without a GPU), and anything that needs a GPU raises
PyTorch's "Torch not compiled with CUDA enabled"."""


def _no_cuda(*args, **kwargs):
    """Needs a CUDA device, which engine does not have: raises ``AssertionError("Torch not
    compiled with CUDA enabled")``, as PyTorch built without CUDA does."""
    raise AssertionError("Torch not compiled with CUDA enabled")


def is_available():
    """False: engine computes on the CPU."""
    return False


def device_count():
    """0: no CUDA device."""
    return 0


def is_initialized():
    """False: CUDA is never initialised."""
    return False


def manual_seed(seed):
    """Accepted and ignored, as PyTorch does when no GPU is present."""


def manual_seed_all(seed):
    """Accepted and ignored, as PyTorch does when no GPU is present."""


def empty_cache():
    """Nothing to release."""


def is_bf16_supported(including_emulation=True):
    """False: no CUDA device."""
    return False


current_device = _no_cuda
set_device = _no_cuda
synchronize = _no_cuda
get_device_name = _no_cuda
get_device_properties = _no_cuda
get_device_capability = _no_cuda
memory_allocated = _no_cuda
max_memory_allocated = _no_cuda
reset_peak_memory_stats = _no_cuda

from engine.cuda import amp as amp  # noqa: E402  (needs the names above)
