"""PyTorch's C++ names of the dtypes ("Float", "Long", "Byte", ...), as its error messages spell them."""

from engine import _C

_NAMES = {
    _C.float32: "Float",
    _C.float64: "Double",
    _C.float16: "Half",
    _C.bfloat16: "BFloat16",
    _C.int64: "Long",
    _C.int32: "Int",
    _C.int16: "Short",
    _C.int8: "Char",
    _C.uint8: "Byte",
    _C.bool: "Bool",
    _C.complex64: "ComplexFloat",
    _C.complex128: "ComplexDouble",
}


def scalar_type_name(dtype):
    """The name PyTorch's messages give ``dtype`` (``str(dtype)`` for one it has no name for)."""
    return _NAMES.get(dtype, str(dtype))
