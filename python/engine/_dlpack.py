"""DLPack exchange, PyTorch's way: ``Tensor.__dlpack__`` / ``__dlpack_device__`` and
``engine.from_dlpack``. The capsules are made and read natively (cpp/engine/python/py_dlpack.cpp);
this module holds the protocol's argument handling, as ``torch/_tensor.py`` and
``torch/utils/dlpack.py`` do."""

from engine import _C

__all__ = ["DLDeviceType", "from_dlpack", "to_dlpack"]  # noqa: F822 (DLDeviceType: __getattr__)


def __getattr__(name):
    # DLDeviceType lives in engine/_dlpack_device.py, loaded with the first exchange (its enum
    # import would cost `import engine` about a millisecond).
    if name == "DLDeviceType":
        from engine._dlpack_device import DLDeviceType

        return DLDeviceType
    raise AttributeError(f"module 'engine._dlpack' has no attribute '{name}'")


def to_dlpack(tensor):
    """to_dlpack(tensor) -> PyCapsule

    Returns an opaque DLPack capsule (named ``"dltensor"``) that shares ``tensor``'s memory. A
    legacy interface: consumers now call ``from_dlpack`` on the tensor itself, which uses
    ``Tensor.__dlpack__``. Consume each capsule once.

    Example::

        >>> capsule = engine.utils.dlpack.to_dlpack(engine.arange(4))
        >>> engine.from_dlpack(capsule)
        tensor([0, 1, 2, 3])
    """
    return _C._to_dlpack(tensor)


def _dlpack(self, *, stream=-1, max_version=None, dl_device=None, copy=None):
    """Exports the tensor as a DLPack capsule sharing its memory (the array API's ``__dlpack__``).

    Args:
        stream (int or None): CUDA stream of the consumer; on the CPU only ``None`` and ``-1``
            (no synchronisation) are valid.
        max_version (tuple[int, int] or None): the newest DLPack version the consumer reads. With
            a major version of 1 or more the capsule is ``"dltensor_versioned"`` (DLPack 1.0),
            otherwise the legacy ``"dltensor"``.
        dl_device (tuple[DLDeviceType, int] or None): the device the consumer wants the data on;
            only the CPU is possible (``BufferError`` otherwise).
        copy (bool or None): ``True`` exports a copy, ``False`` and ``None`` share the memory.

    A tensor that requires grad is refused (``BufferError``), as in PyTorch: use ``detach()``.
    """
    if self.requires_grad:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    if stream is not None and type(stream) is not int:
        raise TypeError("stream must be ``int`` or ``none``")
    if stream is not None and stream != -1:
        raise AssertionError("stream should be None on cpu.")
    if max_version is None or max_version[0] < 1:
        return _C._to_dlpack(self, dl_device=dl_device, copy=copy)
    return _C._to_dlpack_versioned(self, dl_device=dl_device, copy=copy)


def _dlpack_device(self):
    """The DLPack device of the tensor: ``(DLDeviceType.kDLCPU, 0)``."""
    from engine._dlpack_device import DLDeviceType

    return (DLDeviceType.kDLCPU, 0)


def _target_device(device):
    # engine.device or a string, as PyTorch accepts (an int is refused there too).
    from engine._device import check_cpu
    from engine._device import device as device_type
    from engine._dlpack_device import DLDeviceType

    if isinstance(device, str):
        device = device_type(device)
    if not isinstance(device, device_type):
        raise AssertionError(f"from_dlpack: unsupported device type: {type(device)}")
    check_cpu(device)
    return (DLDeviceType.kDLCPU, 0)


def from_dlpack(ext_tensor, *, device=None, copy=None):
    """from_dlpack(ext_tensor, *, device=None, copy=None) -> Tensor

    Converts a tensor from another library into an engine tensor that shares its memory: writes
    through either are seen by the other, and the producer's memory stays alive as long as the
    engine tensor (or a view of it) does.

    Args:
        ext_tensor: an object with ``__dlpack__`` and ``__dlpack_device__`` (a NumPy array, a
            PyTorch or JAX tensor, an engine tensor), or a DLPack capsule (``to_dlpack``'s
            result), which is consumed.
        device (engine.device or str or None): where the tensor should be: only the CPU.
        copy (bool or None): ``True`` always copies, ``False`` never does (an error where a copy
            would be needed), ``None`` copies only if necessary.

    Data engine cannot share is refused with a clear error: a dtype engine lacks (complex,
    uint16, ...), negative strides, data not aligned to its element size, a non-CPU device.
    A read-only producer (DLPack 1.0's read-only flag, as a NumPy array with
    ``writeable=False`` sets) gives a ``UserWarning``: engine tensors are always writable.

    Example::

        >>> import numpy as np
        >>> a = np.arange(4.0)
        >>> t = engine.from_dlpack(a)
        >>> t[0] = -1.0
        >>> a
        array([-1.,  1.,  2.,  3.])
    """
    if not hasattr(ext_tensor, "__dlpack__"):
        if device is not None or copy is not None:
            raise AssertionError(
                "device and copy kwargs not supported when ext_tensor is already a DLPack capsule."
            )
        return _C._from_dlpack(ext_tensor)

    kwargs = {"max_version": (1, 0)}
    if copy is not None:
        kwargs["copy"] = copy
    from engine._dlpack_device import DLDeviceType

    ext_device = ext_tensor.__dlpack_device__()
    if device is not None:
        target = _target_device(device)
        if tuple(ext_device) != target and copy is False:
            raise ValueError(
                f"cannot move DLPack tensor from device {ext_device} to {target} "
                "without copying. Set copy=None or copy=True."
            )
        kwargs["dl_device"] = target
    elif ext_device[0] != DLDeviceType.kDLCPU:
        # Engine reads CPU memory only: ask the producer for a CPU copy, which it may refuse.
        kwargs["dl_device"] = (DLDeviceType.kDLCPU, 0)

    # Older producers take fewer keywords: drop them one at a time, as PyTorch does.
    producer_copied = True
    capsule = None
    for drop in (None, "max_version", "copy", "dl_device"):
        if drop is not None:
            kwargs.pop(drop, None)
            producer_copied = producer_copied and drop != "copy"
        if drop == "dl_device":
            capsule = ext_tensor.__dlpack__(**kwargs)
            break
        try:
            capsule = ext_tensor.__dlpack__(**kwargs)
            break
        except TypeError:
            continue
    tensor = _C._from_dlpack(capsule)
    if copy is True and not producer_copied:
        tensor = tensor.clone()
    return tensor


# The protocol's methods on Tensor, added when engine imports this module.
_C.Tensor.__dlpack__ = _dlpack
_C.Tensor.__dlpack_device__ = _dlpack_device
