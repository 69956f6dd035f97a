"""``engine.device``: where a tensor lives. engine computes on the CPU and shapes tensors without data
on the "meta" device (engine._meta_dispatch); CUDA and other devices can be named (device-selection
code builds them) but no tensor can be placed on them. A device is also a context manager that
makes itself the default device of the factories inside its block, as in PyTorch."""

# _thread's local is threading.local itself; importing threading would cost `import engine` a
# millisecond where the interpreter has not loaded it (tests/test_import_time.py).
from _thread import _local as _thread_local

_TYPES = (
    "cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
    "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone",
)  # fmt: skip


class device:
    """A device: ``engine.device('cpu')``, ``device('cuda', 0)``, ``device('cuda:1')``, as in PyTorch."""

    __slots__ = ("_type", "_index")

    def __init__(self, type, index=None):  # noqa: A002 - PyTorch's parameter name
        if isinstance(type, device):
            if index is not None:
                raise TypeError("device(): a device object takes no index")
            self._type, self._index = type._type, type._index
            return
        if isinstance(type, int) and not isinstance(type, bool) and index is None:
            type, index = "cuda", type  # torch.device(0) is a CUDA device index
        if not isinstance(type, str):
            raise TypeError(
                f"device() received an invalid combination of arguments - got ({_name(type)})"
            )
        kind, sep, number = type.partition(":")
        if kind not in _TYPES:
            raise RuntimeError(
                f"Expected one of {', '.join(_TYPES)} device type at start of device string: {type}"
            )
        if sep:
            if index is not None:
                raise RuntimeError(
                    f"type (string) must not include an index because index was passed explicitly: {type}"
                )
            if not number.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(number)
        if index is not None:
            if not isinstance(index, int) or isinstance(index, bool):
                raise TypeError(f"device(): argument 'index' must be int, not {_name(index)}")
            if index < 0:
                raise RuntimeError("Device index must not be negative")
        self._type, self._index = kind, index

    @property
    def type(self):
        """The device type: ``'cpu'``, ``'cuda'``, ..."""
        return self._type

    @property
    def index(self):
        """The device index, or None."""
        return self._index

    def __repr__(self):
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self):
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __eq__(self, other):
        if not isinstance(other, device):
            return NotImplemented
        return self._type == other._type and self._index == other._index

    def __hash__(self):
        return hash((self._type, self._index))

    def __reduce__(self):
        return (device, (self._type, self._index))

    def __enter__(self):
        check_cpu(self, allow_meta=True)
        _stack().append(self)
        _publish()
        return self

    def __exit__(self, *exc):
        _stack().pop()
        _publish()


CPU = device("cpu")
META = device("meta")

# The default device: set_default_device's choice, under the devices of open `with device(...)`
# blocks (per thread, innermost last).
_default = CPU
_local = _thread_local()


def _stack():
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


def default_device():
    """The device factories create on: the innermost ``with device(...)``, else the one
    ``set_default_device`` chose (the CPU unless changed)."""
    stack = _stack()
    return stack[-1] if stack else _default


def set_default(where):
    """Makes ``where`` (a device, a device string or None for the CPU) the default device."""
    global _default
    if where is None:
        _default = CPU
    else:
        check_cpu(where, allow_meta=True)
        _default = where if isinstance(where, device) else device(where)
        if _default.type == "cpu":
            _default = CPU
    _publish()


def _publish():
    from engine import _C

    _C._set_default_meta(default_device().type == "meta")


class default_device_set:
    """Runs a block with ``where`` as this thread's default device."""

    def __init__(self, where):
        self._device = device(where)

    def __enter__(self):
        _stack().append(self._device)
        _publish()

    def __exit__(self, *exc):
        _stack().pop()
        _publish()


def _name(value):
    return "type" if isinstance(value, type) else type(value).__name__


def check_cpu(where, allow_meta=False):
    """Raises unless `where` (a device, a device string, or None) is the CPU (or, with
    `allow_meta`, the meta device); PyTorch's CUDA error for CUDA, RuntimeError for other
    devices."""
    if where is None:
        return
    dev = where if isinstance(where, device) else device(where)
    if dev.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if dev.type == "meta" and allow_meta:
        return
    if dev.type != "cpu":
        raise RuntimeError(f"engine runs on the CPU only; got device '{dev}'")
