"""``engine.cpu``: the CPU device module, as ``torch.cpu`` (engine runs on one CPU device)."""

from engine.cpu import amp

__all__ = ["amp", "current_device", "device_count", "is_available", "synchronize"]


def current_device():
    """The current CPU device's name: ``'cpu'``."""
    return "cpu"


def device_count():
    """How many CPU devices there are: 1."""
    return 1


def is_available():
    """Whether the CPU device is available: always True."""
    return True


def synchronize(device=None):
    """Waits for the CPU's work to finish: CPU ops complete before they return, so nothing to do."""
    return None
