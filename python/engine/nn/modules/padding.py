"""Padding modules over ``F.pad``: constant, zero, reflection, replication and circular."""

from engine.nn import functional as F
from engine.nn.modules.module import Module
from engine.nn.modules.utils import _ntuple

__all__ = [
    "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
    "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d",
    "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
]  # fmt: skip


class _PadNd(Module):
    """``padding`` (an int for every side, or a 2*n-tuple, last dim first) and ``mode``."""

    _dims = 1
    _mode = "constant"

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(2 * self._dims)(padding)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pads the last dim with ``value``."""

    _dims = 1


class ConstantPad2d(_ConstantPadNd):
    """Pads the last 2 dims with ``value``."""

    _dims = 2


class ConstantPad3d(_ConstantPadNd):
    """Pads the last 3 dims with ``value``."""

    _dims = 3


class ZeroPad1d(ConstantPad1d):
    """Pads the last dim with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pads the last 2 dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    """Pads the last 3 dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    """Pads the last dim with its reflection (edge not repeated)."""

    _dims, _mode = 1, "reflect"


class ReflectionPad2d(_PadNd):
    """Pads the last 2 dims with their reflection (edge not repeated)."""

    _dims, _mode = 2, "reflect"


class ReflectionPad3d(_PadNd):
    """Pads the last 3 dims with their reflection (edge not repeated)."""

    _dims, _mode = 3, "reflect"


class ReplicationPad1d(_PadNd):
    """Pads the last dim by repeating its edge value."""

    _dims, _mode = 1, "replicate"


class ReplicationPad2d(_PadNd):
    """Pads the last 2 dims by repeating their edge values."""

    _dims, _mode = 2, "replicate"


class ReplicationPad3d(_PadNd):
    """Pads the last 3 dims by repeating their edge values."""

    _dims, _mode = 3, "replicate"


class CircularPad1d(_PadNd):
    """Pads the last dim by wrapping around."""

    _dims, _mode = 1, "circular"


class CircularPad2d(_PadNd):
    """Pads the last 2 dims by wrapping around."""

    _dims, _mode = 2, "circular"


class CircularPad3d(_PadNd):
    """Pads the last 3 dims by wrapping around."""

    _dims, _mode = 3, "circular"
