"""The safetensors format, read and written directly (the ``safetensors.torch`` functions' API).

A file is an 8-byte little-endian header length N, N bytes of JSON (padded with spaces to a multiple
of 8) mapping each name to ``{"dtype", "shape", "data_offsets": [begin, end]}`` plus an optional
``"__metadata__"`` dict of strings, then the tensors' raw little-endian bytes, back to back. No
pickle is involved, so loading a file cannot run code; every offset is checked before use.
"""

import json
import os
import struct

import numpy as np

from engine import _C

__all__ = ["load", "load_file", "save", "save_file"]

_CODES = {
    _C.float64: ("F64", np.dtype("<f8")),
    _C.float32: ("F32", np.dtype("<f4")),
    _C.int64: ("I64", np.dtype("<i8")),
    _C.int32: ("I32", np.dtype("<i4")),
    _C.bool: ("BOOL", np.dtype("?")),
    _C.float16: ("F16", np.dtype("<f2")),
    _C.uint8: ("U8", np.dtype("u1")),
    _C.int8: ("I8", np.dtype("i1")),
    _C.int16: ("I16", np.dtype("<i2")),
    # NumPy has no bfloat16: the 16-bit patterns are read and written (see _bits / _from_bits).
    _C.bfloat16: ("BF16", np.dtype("<u2")),
}
_DTYPES = {code: (dt, np_dtype) for dt, (code, np_dtype) in _CODES.items()}
_KNOWN_CODES = {"U16", "U32", "U64", "F8_E4M3", "F8_E5M2", "C64"}
_MAX_HEADER = 100_000_000  # the safetensors library's limit on the JSON header


def _bits(t):
    """A bfloat16 tensor's 16-bit patterns (the top half of its exact float32 value)."""
    wide = np.ascontiguousarray(t.detach().float().numpy())
    return (wide.view(np.uint32) >> 16).astype("<u2")


def _from_bits(bits):
    """The bfloat16 tensor of 16-bit patterns `bits` (widened to float32 exactly, then narrowed)."""
    wide = (bits.astype(np.uint32) << 16).view(np.float32)
    return _C.from_numpy(np.ascontiguousarray(wide)).to(_C.bfloat16)


class SafetensorError(Exception):
    """A malformed safetensors buffer (the safetensors library's exception name)."""


def _check_tensors(tensors, function):
    if not isinstance(tensors, dict):
        raise TypeError(f"{function}: expected a dict of tensors, got {type(tensors).__name__}")
    spans = []
    for name, t in tensors.items():
        if not isinstance(name, str):
            raise TypeError(f"{function}: tensor names must be str, got {type(name).__name__}")
        if not isinstance(t, _C.Tensor):
            raise TypeError(f"{function}: '{name}' is a {type(t).__name__}, not a tensor")
        if not t.is_contiguous():
            raise ValueError(
                f"You are trying to save a non contiguous tensor: `{name}` which is not allowed. "
                "It either means you are trying to save tensors which are reference of each other "
                "in which case it's recommended to save only the full tensors, and reslice at load "
                "time, or simply call `.contiguous()` on your tensor to pack it before saving."
            )
        if t.numel():
            spans.append((t.data_ptr(), t.data_ptr() + t.numel() * t.element_size(), name))
    spans.sort()
    for (_, end, first), (start, _, second) in zip(spans, spans[1:]):
        if start < end:
            raise RuntimeError(
                f"Some tensors share memory, this will lead to duplicate memory on disk and "
                f"potential differences when loading them again: [{first!r}, {second!r}]. "
                "Clone the tensors that view another one before saving."
            )


def _check_metadata(metadata, function):
    if metadata is None:
        return
    if not isinstance(metadata, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()
    ):
        raise TypeError(f"{function}: metadata must be a dict of str to str")


def _serialize(tensors, metadata, function):
    """The header bytes and the tensors' byte buffers, in file order."""
    _check_tensors(tensors, function)
    _check_metadata(metadata, function)
    # The library orders tensors by alignment (largest element first), then by name.
    order = sorted(tensors, key=lambda n: (-tensors[n].element_size(), n))
    header = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    chunks, offset = [], 0
    for name in order:
        t = tensors[name]
        if t.dtype not in _CODES:
            raise TypeError(f"{function}: cannot save '{name}' of dtype {t.dtype}")
        code, np_dtype = _CODES[t.dtype]
        data = (
            _bits(t)
            if t.dtype == _C.bfloat16
            else np.ascontiguousarray(t.detach().numpy(), dtype=np_dtype)
        )
        header[name] = {
            "dtype": code,
            "shape": list(t.shape),
            "data_offsets": [offset, offset + data.nbytes],
        }
        chunks.append(memoryview(data.reshape(-1).view(np.uint8)))
        offset += data.nbytes
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((-len(text)) % 8)
    return struct.pack("<Q", len(text)) + text, chunks


def save(tensors, metadata=None):
    """The safetensors bytes of ``tensors`` (a dict of name to contiguous tensor)."""
    head, chunks = _serialize(tensors, metadata, "save")
    return b"".join([head, *chunks])


def save_file(tensors, filename, metadata=None):
    """Writes ``tensors`` (a dict of name to contiguous tensor) to ``filename`` as safetensors."""
    head, chunks = _serialize(tensors, metadata, "save_file")
    with open(filename, "wb") as f:
        f.write(head)
        for chunk in chunks:
            f.write(chunk)


def _parse_header(buffer):
    if len(buffer) < 8:
        raise SafetensorError("Error while deserializing header: HeaderTooSmall")
    (n,) = struct.unpack("<Q", bytes(buffer[:8]))
    if n > _MAX_HEADER:
        raise SafetensorError("Error while deserializing header: HeaderTooLarge")
    if 8 + n > len(buffer):
        raise SafetensorError("Error while deserializing header: InvalidHeaderLength")
    try:
        header = json.loads(bytes(buffer[8 : 8 + n]).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SafetensorError(
            f"Error while deserializing header: InvalidHeaderDeserialization ({exc})"
        ) from None
    if not isinstance(header, dict):
        raise SafetensorError("Error while deserializing header: InvalidHeaderDeserialization")
    return header, 8 + n


def _entries(header, data_len):
    """(name, dtype, numpy dtype, shape, begin, end) for each tensor, validated and in file order."""
    entries = []
    for name, info in header.items():
        if name == "__metadata__":
            continue
        try:
            code, shape, (begin, end) = info["dtype"], info["shape"], info["data_offsets"]
        except (KeyError, TypeError, ValueError):
            raise SafetensorError(
                f"Error while deserializing header: invalid entry for '{name}'"
            ) from None
        if code not in _DTYPES:
            if code in _KNOWN_CODES:
                raise TypeError(f"load: '{name}' has dtype {code}, which engine does not support")
            raise SafetensorError(f"Error while deserializing header: unknown dtype {code!r}")
        dt, np_dtype = _DTYPES[code]
        ints = [begin, end, *shape] if isinstance(shape, list) else None
        if ints is None or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in ints
        ):
            raise SafetensorError(
                f"Error while deserializing header: invalid shape or offsets for '{name}'"
            )
        numel = 1
        for s in shape:
            numel *= s
        if end < begin or end - begin != numel * np_dtype.itemsize:
            raise SafetensorError(
                f"Error while deserializing header: TensorInvalidInfo for '{name}'"
            )
        entries.append((begin, end, name, dt, np_dtype, shape))
    entries.sort()
    position = 0
    for begin, end, name, *_ in entries:
        if begin != position:
            raise SafetensorError(f"Error while deserializing header: InvalidOffset('{name}')")
        position = end
    if position != data_len:
        raise SafetensorError("Error while deserializing header: MetadataIncompleteBuffer")
    return entries


def _deserialize(buffer):
    header, start = _parse_header(buffer)
    metadata = header.get("__metadata__")
    if metadata is not None and not isinstance(metadata, dict):
        raise SafetensorError("Error while deserializing header: __metadata__ must be a dict")
    out = {}
    for begin, end, name, _dt, np_dtype, shape in _entries(header, len(buffer) - start):
        arr = np.frombuffer(
            buffer, dtype=np_dtype, count=(end - begin) // np_dtype.itemsize, offset=start + begin
        )
        arr = arr.astype(np_dtype.newbyteorder("="), copy=True).reshape(shape)
        out[name] = _from_bits(arr) if _dt == _C.bfloat16 else _C.from_numpy(arr)
    # Keep the header's order of names, as the library does.
    return {name: out[name] for name in header if name in out}


def load(data):
    """The tensors held in safetensors bytes ``data``."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"load: expected bytes, got {type(data).__name__}")
    return _deserialize(memoryview(data))


def load_file(filename, device="cpu"):
    """The tensors held in the safetensors file ``filename`` (loaded onto the CPU)."""
    if str(device) != "cpu":
        raise RuntimeError(f"load_file: engine holds tensors on the CPU only, not on {device!r}")
    with open(os.fspath(filename), "rb") as f:
        return _deserialize(memoryview(f.read()))


def load_metadata(filename):
    """The ``__metadata__`` dict of a safetensors file (None when it has none)."""
    with open(os.fspath(filename), "rb") as f:
        head = f.read(8)
        if len(head) < 8:
            raise SafetensorError("Error while deserializing header: HeaderTooSmall")
        (n,) = struct.unpack("<Q", head)
        if n > _MAX_HEADER:
            raise SafetensorError("Error while deserializing header: HeaderTooLarge")
        header, _ = _parse_header(head + f.read(n))
    return header.get("__metadata__")
