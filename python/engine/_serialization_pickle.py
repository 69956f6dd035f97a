"""The pickler behind ``engine.save``: writes engine objects under PyTorch's global names.

A checkpoint must name ``torch._utils._rebuild_tensor_v2``, ``torch.FloatStorage``,
``torch.Size``, ``torch.float32``... so that PyTorch can read it, without importing torch here.
The standard C pickler insists on importing every global it writes, so this pickler derives from
the pure-Python one and writes :class:`TorchGlobal` markers as raw ``GLOBAL`` opcodes. Only the
small ``data.pkl`` goes through it; tensor bytes are written separately.
"""

import pickle

from engine import _C
from engine._device import device as _device_type


class TorchGlobal:
    """A global written by name (``module.name``) without being imported."""

    __slots__ = ("module", "name")

    def __init__(self, module, name):
        self.module, self.name = module, name

    def __repr__(self):
        return f"{self.module}.{self.name}"

    def __call__(self, *args, **kwargs):
        # Callable only so that pickle accepts it as a reduce function; it is never called.
        raise TypeError(f"{self!r} is a name written into a checkpoint, not a function")


def _save_torch_global(pickler, obj):
    pickler.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode())
    pickler.memoize(obj)


_DTYPE_GLOBALS = {
    _C.float32: "float32",
    _C.float64: "float64",
    _C.int64: "int64",
    _C.int32: "int32",
    _C.bool: "bool",
}


class TorchPickler(pickle._Pickler):
    """Pickles tensors with ``tensor_reducer`` and names storages with ``storage_id``."""

    dispatch = dict(pickle._Pickler.dispatch)
    dispatch[TorchGlobal] = _save_torch_global

    def __init__(self, file, protocol, tensor_reducer, storage_id):
        super().__init__(file, protocol)
        self._tensor_reducer = tensor_reducer
        self._storage_id = storage_id
        self._globals = {}

    def _global(self, module, name):
        key = (module, name)
        if key not in self._globals:
            self._globals[key] = TorchGlobal(module, name)
        return self._globals[key]

    def persistent_id(self, obj):
        return self._storage_id(obj)

    def reducer_override(self, obj):
        from engine._tensor import Size

        if isinstance(obj, _C.Tensor):
            return self._tensor_reducer(obj)
        if isinstance(obj, Size):
            return self._global("torch", "Size"), (tuple(obj),)
        if isinstance(obj, _device_type):
            return self._global("torch", "device"), (str(obj),)
        return NotImplemented

    def save(self, obj, save_persistent_id=True):
        # A dtype is a global constant (``torch.float32``), written as a bare GLOBAL, which
        # reducer_override cannot express; it is swapped for its marker here.
        if isinstance(obj, _C.dtype):
            obj = self._global("torch", _DTYPE_GLOBALS[obj])
        super().save(obj, save_persistent_id)
