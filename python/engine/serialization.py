"""``engine.save`` / ``engine.load``: checkpoints in PyTorch's zip format.

A file is a zip archive (entries stored uncompressed, each aligned to 64 bytes) holding
``archive/data.pkl`` (the object, pickled with protocol 2), ``archive/data/<key>`` (the raw
little-endian bytes of each storage), ``archive/version``, ``archive/byteorder`` and PyTorch's
bookkeeping records. Tensors pickle as ``torch._utils._rebuild_tensor_v2(storage, offset, size,
stride, requires_grad, hooks)`` with the storage as a persistent id, exactly as PyTorch writes them,
so PyTorch loads engine's files and engine loads PyTorch's. Tensors that view one piece of memory
are written against one storage and come back sharing memory.

``load(..., weights_only=True)`` (the default, as in PyTorch) unpickles with an allow-list of
globals; anything else is refused with PyTorch's "Weights only load failed" message. Extend the
list with :func:`add_safe_globals` or the :class:`safe_globals` context manager.
"""

import _compat_pickle
import collections
import io
import os
import pickle
import struct
import sys
import zipfile

import numpy as np

from engine import _C
from engine._device import device as _device_type
from engine._serialization_pickle import TorchGlobal, TorchPickler

__all__ = [
    "add_safe_globals",
    "clear_safe_globals",
    "get_safe_globals",
    "load",
    "safe_globals",
    "save",
]

DEFAULT_PROTOCOL = 2
_ALIGNMENT = 64  # PyTorch aligns every record's data to 64 bytes (its .storage_alignment)

# PyTorch's legacy storage classes (how a storage's dtype is named in data.pkl) and engine's dtypes.
_STORAGE_DTYPES = {
    "FloatStorage": (_C.float32, np.float32),
    "DoubleStorage": (_C.float64, np.float64),
    "LongStorage": (_C.int64, np.int64),
    "IntStorage": (_C.int32, np.int32),
    "BoolStorage": (_C.bool, np.bool_),
    "HalfStorage": (_C.float16, np.float16),
    "ByteStorage": (_C.uint8, np.uint8),
    "CharStorage": (_C.int8, np.int8),
    "ShortStorage": (_C.int16, np.int16),
    # NumPy has no bfloat16: its storages travel as the 16-bit patterns (see _BFloat16Bits).
    "BFloat16Storage": (_C.bfloat16, np.uint16),
}
_STORAGE_NAMES = {dt: name for name, (dt, _) in _STORAGE_DTYPES.items()}
_UNSUPPORTED_STORAGES = {
    "ComplexFloatStorage": "complex64",
    "ComplexDoubleStorage": "complex128",
}
_DTYPE_NAMES = {
    "float32": _C.float32,
    "float": _C.float32,
    "float64": _C.float64,
    "double": _C.float64,
    "int64": _C.int64,
    "long": _C.int64,
    "int32": _C.int32,
    "int": _C.int32,
    "bool": _C.bool,
    "float16": _C.float16,
    "half": _C.float16,
    "bfloat16": _C.bfloat16,
    "uint8": _C.uint8,
    "int8": _C.int8,
    "int16": _C.int16,
    "short": _C.int16,
}


# ---------------------------------------------------------------- saving


class _StorageView:
    """What a tensor points into: one span of memory written as one ``data/<key>`` record."""

    __slots__ = ("key", "dtype", "lo", "numel", "anchor")

    def __init__(self, key, dtype, lo, numel, anchor):
        self.key, self.dtype, self.lo, self.numel, self.anchor = key, dtype, lo, numel, anchor

    def bytes_view(self):
        """The span's bytes, read in place from the anchor tensor's memory."""
        if self.dtype == _C.bfloat16:
            return memoryview(_bfloat16_bits(self.anchor, self.numel)).cast("B")
        arr = self.anchor.detach().numpy()
        itemsize = arr.itemsize
        flat = np.lib.stride_tricks.as_strided(arr, shape=(self.numel,), strides=(itemsize,))
        return memoryview(np.ascontiguousarray(flat)).cast("B")


class _BFloat16Bits(np.ndarray):
    """A bfloat16 storage as read from a checkpoint: its 16-bit patterns, as uint16."""


def _bfloat16_bits(t, numel):
    """The first `numel` elements of bfloat16 tensor `t`'s memory as little-endian 16-bit patterns
    (bfloat16 is the top half of a float32, so the conversion through float32 is exact)."""
    flat = t.detach()
    if not flat.is_contiguous():
        flat = flat.contiguous()
    wide = flat.float().numpy().reshape(-1)[:numel]
    return (wide.view(np.uint32) >> 16).astype("<u2")


def _extent(t):
    """Elements from a tensor's first element to its last, inclusive (strides are non-negative)."""
    if t.numel() == 0:
        return 0
    return 1 + sum((n - 1) * s for n, s in zip(t.shape, t.stride()))


class _StorageTable:
    """Assigns each saved tensor a storage: the whole memory block behind it, shared by all of its
    views (saved once, and loaded as one block again, offsets and strides kept), as PyTorch does."""

    def __init__(self):
        self.storages = []
        self._by_block = {}  # (block identity, dtype) -> _StorageView

    def locate(self, t):
        from engine import storage

        key = (_C._storage_id(t), t.dtype)
        s = self._by_block.get(key)
        if s is None:
            whole = storage._elements(t)
            s = _StorageView(str(len(self.storages)), t.dtype, 0, whole.numel(), whole)
            self._by_block[key] = s
            self.storages.append(s)
        return s, t.storage_offset()


def _parameter_type():
    try:
        from engine.nn.parameter import Parameter
    except ImportError:
        return None
    return Parameter


def _tensor_reducer(table):
    rebuild_tensor = TorchGlobal("torch._utils", "_rebuild_tensor_v2")
    rebuild_parameter = TorchGlobal("torch._utils", "_rebuild_parameter")
    ordered_dict = collections.OrderedDict
    parameter = _parameter_type()

    def reduce(t):
        if t.dtype not in _STORAGE_NAMES:
            raise TypeError(f"engine.save: cannot save a tensor of dtype {t.dtype}")
        storage, offset = table.locate(t)
        args = (storage, offset, tuple(t.shape), t.stride(), t.requires_grad, ordered_dict())
        if parameter is not None and isinstance(t, parameter):
            data = (rebuild_tensor, args[:4] + (False, ordered_dict()))
            return rebuild_parameter, (_Rebuilt(*data), t.requires_grad, ordered_dict())
        return rebuild_tensor, args

    return reduce


class _Rebuilt:
    """A nested ``callable(*args)`` reduction (a Parameter's data) for the pickler."""

    __slots__ = ("func", "args")

    def __init__(self, func, args):
        self.func, self.args = func, args

    def __reduce__(self):
        return self.func, self.args


def _write_record(zf, name, data):
    """Writes one uncompressed entry whose data starts at a multiple of 64 bytes, like PyTorch."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    zip64 = len(data) >= 0x7FFFFFFF
    # Local header: 30 fixed bytes, the name, zipfile's zip64 field (20 bytes) if any, then ours.
    header_end = zf.fp.tell() + 30 + len(name.encode("utf-8")) + (20 if zip64 else 0) + 4
    pad = (-header_end) % _ALIGNMENT
    info.extra = struct.pack("<HH", 0x4246, pad) + b"Z" * pad  # PyTorch's "FB" padding field
    with zf.open(info, "w", force_zip64=zip64) as out:
        out.write(data)
    # The padding belongs to the local header only; the central directory lists the entry without
    # it, as PyTorch's does (so an archive's size does not depend on where its records fell).
    info.extra = b""


def save(
    obj,
    f,
    pickle_module=pickle,
    pickle_protocol=DEFAULT_PROTOCOL,
    _use_new_zipfile_serialization=True,
    _disable_byteorder_record=False,
):
    """Saves ``obj`` (tensors, state dicts, nested containers, numbers, strings) to ``f``.

    ``f`` is a path (str or os.PathLike) or a writable binary file object. The file is PyTorch's
    zip checkpoint format; ``torch.load`` reads it.
    """
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("engine.save: only the zip file format is supported")
    if pickle_module is not pickle:
        raise NotImplementedError("engine.save: pickle_module must be the standard pickle module")
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as opened:
            _save(obj, opened, pickle_protocol)
        return
    if not hasattr(f, "write"):
        raise AttributeError(
            f"engine.save: expected 'f' to be a path or a file-like object, got {type(f).__name__}"
        )
    _save(obj, f, pickle_protocol)


def _save(obj, f, protocol):
    table = _StorageTable()
    buffer = io.BytesIO()
    pickler = TorchPickler(buffer, protocol, _tensor_reducer(table), _storage_id)
    pickler.dump(obj)
    with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as zf:
        # PyTorch's writer streams: each record is followed by a 16-byte data descriptor, which
        # zipfile writes for an output it cannot seek back in. Written the same way, records land
        # at PyTorch's offsets and archives have PyTorch's sizes.
        zf._seekable = False
        _write_record(zf, "archive/data.pkl", buffer.getvalue())
        _write_record(zf, "archive/.format_version", b"1")
        _write_record(zf, "archive/.storage_alignment", str(_ALIGNMENT).encode())
        _write_record(zf, "archive/byteorder", sys.byteorder.encode())
        for s in table.storages:
            _write_record(zf, f"archive/data/{s.key}", s.bytes_view())
        _write_record(zf, "archive/version", b"3\n")
        _write_record(zf, "archive/.data/serialization_id", os.urandom(20).hex().encode())


def _storage_id(obj):
    if isinstance(obj, _StorageView):
        kind = TorchGlobal("torch", _STORAGE_NAMES[obj.dtype])
        return ("storage", kind, obj.key, "cpu", obj.numel)
    return None


# ---------------------------------------------------------------- safe globals

_user_safe_globals = []


def add_safe_globals(safe_globals):
    """Allows these globals (classes or functions, or ``(obj, "module.name")`` pairs) in
    ``load(..., weights_only=True)``."""
    if not isinstance(safe_globals, list):
        raise TypeError("add_safe_globals: expected a list of globals")
    _user_safe_globals.extend(safe_globals)


def get_safe_globals():
    """The globals added with :func:`add_safe_globals`."""
    return list(_user_safe_globals)


def clear_safe_globals():
    """Forgets every global added with :func:`add_safe_globals`."""
    _user_safe_globals.clear()


class safe_globals:
    """Context manager adding globals to the weights-only allow-list for its duration."""

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        self._before = len(_user_safe_globals)
        add_safe_globals(self.safe_globals)

    def __exit__(self, *exc):
        del _user_safe_globals[self._before :]


def _global_name(obj):
    if isinstance(obj, tuple) and len(obj) == 2:
        return obj[1]
    return f"{obj.__module__}.{obj.__qualname__}"


def _user_globals():
    return {_global_name(g): (g[0] if isinstance(g, tuple) else g) for g in _user_safe_globals}


# ---------------------------------------------------------------- loading


def _as_size(*args):
    from engine import Size

    return Size(*args)


def _as_device(*args):
    return _device_type(*args)


def _rebuild_parameter(data, requires_grad, backward_hooks, *state):
    parameter = _parameter_type()
    if parameter is not None:
        return parameter(data, requires_grad)
    return data.detach().requires_grad_(requires_grad)


def _rebuild_from_type_v2(func, new_type, args, state):
    return func(*args)


def _storage_kind(name):
    def refuse(*_args, **_kwargs):
        raise TypeError(f"engine.load: cannot construct torch.{name} directly")

    refuse.storage_name = name
    return refuse


# torch.* globals a checkpoint may name, and what engine builds for them (all weights-only safe).
def _torch_globals(rebuild_tensor):
    table = {
        "torch._utils._rebuild_tensor_v2": rebuild_tensor,
        "torch._utils._rebuild_parameter": _rebuild_parameter,
        "torch._utils._rebuild_parameter_with_state": _rebuild_parameter,
        "torch._tensor._rebuild_from_type_v2": _rebuild_from_type_v2,
        "torch.Size": _as_size,
        "torch.device": _as_device,
        "torch.nn.parameter.Parameter": _parameter_type() or _C.Tensor,
        "torch.Tensor": _C.Tensor,
    }
    for name, dt in _DTYPE_NAMES.items():
        table[f"torch.{name}"] = dt
    for name in list(_STORAGE_DTYPES) + list(_UNSUPPORTED_STORAGES):
        table[f"torch.{name}"] = _storage_kind(name)
    return table


_SAFE_BUILTINS = {
    "collections.OrderedDict": collections.OrderedDict,
    "collections.Counter": collections.Counter,
    "collections.defaultdict": collections.defaultdict,
    "builtins.set": set,
    "builtins.frozenset": frozenset,
    "builtins.bytearray": bytearray,
    "builtins.complex": complex,
    "builtins.slice": slice,
    "builtins.range": range,
    "_codecs.encode": __import__("codecs").encode,
}


def _weights_only_error(detail):
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, "
        "do those steps only if you trust the source of the checkpoint. \n"
        "\t(1) Re-running `engine.load` with `weights_only` set to `False` will likely succeed, "
        "but it can result in arbitrary code execution. Do it only if you got the file from a "
        "trusted source.\n"
        "\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps "
        "in the following error message.\n"
        f"\tWeightsUnpickler error: {detail}\n\n"
        "Check the documentation of engine.load to learn more about types accepted by default "
        "with weights_only."
    )


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, weights_only, torch_globals, persistent_load):
        super().__init__(file, encoding="utf-8")
        self._weights_only = weights_only
        self._torch = torch_globals
        self._persistent = persistent_load

    def persistent_load(self, pid):
        return self._persistent(pid)

    def find_class(self, module, name):
        # Protocol-2 files name Python 2's modules (``__builtin__.set``): read them as Python 3's.
        if (module, name) in _compat_pickle.NAME_MAPPING:
            module, name = _compat_pickle.NAME_MAPPING[(module, name)]
        elif module in _compat_pickle.IMPORT_MAPPING:
            module = _compat_pickle.IMPORT_MAPPING[module]
        full = f"{module}.{name}"
        if full in self._torch:
            return self._torch[full]
        if full in _SAFE_BUILTINS:
            return _SAFE_BUILTINS[full]
        if self._weights_only:
            user = _user_globals()
            if full in user:
                return user[full]
            raise _weights_only_error(
                f"Unsupported global: GLOBAL {full} was not an allowed global by default. Please "
                f"use `engine.serialization.add_safe_globals([{full}])` or the "
                f"`engine.serialization.safe_globals([{full}])` context manager to allowlist "
                "this global if you trust this class/function."
            )
        if module == "torch" or module.startswith("torch."):
            module = "engine" + module[len("torch") :]
        return super().find_class(module, name)


def _location_target(map_location, location):
    """Where a storage saved at ``location`` goes; engine holds every tensor on the CPU."""
    target = location
    if isinstance(map_location, dict):
        target = map_location.get(location, location)
    elif isinstance(map_location, (str, _device_type)):
        target = str(map_location)
    if callable(map_location):
        return "cpu"
    if not str(target).startswith("cpu"):
        raise RuntimeError(
            f"Attempting to deserialize object on a {str(target).split(':')[0].upper()} device "
            "but engine computes on the CPU only. Please use engine.load with "
            "map_location='cpu' to map your storages to the CPU."
        )
    return "cpu"


def _record_offset(zf, info):
    """Byte offset of an uncompressed entry's data in the archive file (for mmap)."""
    zf.fp.seek(info.header_offset)
    header = zf.fp.read(30)
    name_len, extra_len = struct.unpack("<HH", header[26:30])
    return info.header_offset + 30 + name_len + extra_len


def _open_archive(f):
    try:
        zf = zipfile.ZipFile(f)
    except zipfile.BadZipFile:
        raise RuntimeError(
            "engine.load: the file is not a zip checkpoint (PyTorch's format since 1.6); "
            "legacy checkpoints are not supported"
        ) from None
    names = zf.namelist()
    prefix = names[0].split("/", 1)[0] if names else ""
    if f"{prefix}/data.pkl" not in names:
        zf.close()
        raise RuntimeError("engine.load: the archive holds no data.pkl record")
    return zf, prefix


def load(
    f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args
):
    """Loads an object saved by ``engine.save`` or ``torch.save``.

    ``f`` is a path or a readable, seekable binary file object. ``weights_only`` (default True)
    restricts unpickling to tensors, containers, numbers, strings and allow-listed globals.
    ``mmap=True`` maps the storages from the file (copy-on-write) instead of reading them.
    """
    if weights_only is None:
        weights_only = pickle_module is None
    if pickle_module not in (None, pickle):
        raise NotImplementedError("engine.load: pickle_module must be the standard pickle module")
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as opened:
            return _load(opened, map_location, weights_only, mmap, os.fspath(f))
    if mmap:
        raise ValueError("f must be a file path in order to use the mmap argument")
    return _load(f, map_location, weights_only, False, None)


def _load(f, map_location, weights_only, mmap, path):
    zf, prefix = _open_archive(f)
    with zf:
        byteorder = "little"
        if f"{prefix}/byteorder" in zf.namelist():
            byteorder = zf.read(f"{prefix}/byteorder").decode()
        storages = {}

        def storage(pid):
            if not isinstance(pid, tuple) or len(pid) != 5 or pid[0] != "storage":
                raise pickle.UnpicklingError(f"engine.load: unknown persistent id {pid!r}")
            _, kind, key, location, numel = pid
            name = getattr(kind, "storage_name", None)
            if name in _UNSUPPORTED_STORAGES:
                raise TypeError(
                    f"engine.load: the checkpoint holds a {_UNSUPPORTED_STORAGES[name]} tensor "
                    f"(torch.{name}); engine has no complex dtypes"
                )
            if name not in _STORAGE_DTYPES:
                raise pickle.UnpicklingError(f"engine.load: unknown storage type {kind!r}")
            _location_target(map_location, location)
            if key not in storages:
                storages[key] = _read_storage(zf, prefix, key, name, numel, byteorder, mmap, path)
            return storages[key]

        unpickler = _Unpickler(
            io.BytesIO(zf.read(f"{prefix}/data.pkl")),
            weights_only,
            _torch_globals(_rebuild_tensor),
            storage,
        )
        try:
            return unpickler.load()
        finally:
            _blocks.clear()


def _read_storage(zf, prefix, key, name, numel, byteorder, mmap, path):
    dtype = np.dtype(_STORAGE_DTYPES[name][1])
    info = zf.getinfo(f"{prefix}/data/{key}")
    if not isinstance(numel, int) or numel < 0 or info.file_size != numel * dtype.itemsize:
        raise RuntimeError(
            f"engine.load: storage {key} holds {info.file_size} bytes, "
            f"not {numel} elements of {dtype}"
        )
    if mmap and info.compress_type == zipfile.ZIP_STORED and byteorder == sys.byteorder:
        offset = _record_offset(zf, info)
        if offset % dtype.itemsize == 0 and numel > 0:
            mapped = np.memmap(path, dtype=dtype, mode="c", offset=offset, shape=(numel,))
            return mapped.view(_BFloat16Bits) if name == "BFloat16Storage" else mapped
    arr = np.empty(numel, dtype)
    with zf.open(info) as src:
        src.readinto(memoryview(arr).cast("B"))
    if byteorder != sys.byteorder:
        arr.byteswap(inplace=True)
    return arr.view(_BFloat16Bits) if name == "BFloat16Storage" else arr


# id(storage array) -> (the array, the tensor over all of it), while one load runs.
_blocks = {}


def _rebuild_tensor(
    storage, storage_offset, size, stride, requires_grad=False, backward_hooks=None, metadata=None
):
    """A tensor viewing ``storage`` (a NumPy array); bounds are checked against the storage."""
    if not isinstance(storage, np.ndarray):
        raise pickle.UnpicklingError("engine.load: _rebuild_tensor_v2 expects a storage")
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride) or any(
        not isinstance(v, int) or v < 0 for v in (storage_offset, *size, *stride)
    ):
        raise RuntimeError(
            f"engine.load: invalid tensor layout (offset {storage_offset}, size {size}, "
            f"stride {stride})"
        )
    numel = 1
    for n in size:
        numel *= n
    extent = 0 if numel == 0 else 1 + sum((n - 1) * s for n, s in zip(size, stride))
    if storage_offset + extent > storage.shape[0]:
        raise RuntimeError(
            f"engine.load: tensor of size {list(size)} and stride {list(stride)} at offset "
            f"{storage_offset} does not fit in a storage of {storage.shape[0]} elements"
        )
    base = storage[storage_offset:] if numel else storage[:0]
    strides = tuple(s * storage.itemsize for s in stride)
    view = np.lib.stride_tricks.as_strided(base, shape=size, strides=strides)
    if isinstance(storage, _BFloat16Bits):  # widened to float32 exactly, then narrowed (a copy)
        wide = (np.asarray(view).astype(np.uint32) << 16).view(np.float32)
        t = _C.from_numpy(np.ascontiguousarray(wide)).to(_C.bfloat16)
    else:
        # One engine block per stored storage: tensors saved as views of one tensor share it
        # again (offsets and strides kept), as in PyTorch.
        entry = _blocks.get(id(storage))
        if entry is None:
            entry = _blocks[id(storage)] = (storage, _C.from_numpy(storage))
        t = _C.empty(0, dtype=entry[1].dtype).set_(entry[1], storage_offset, size, stride)
    if requires_grad:
        t.requires_grad_(True)
    return t
