"""Which exceptions are acceptable answers to a hostile call, and which leak implementation details.

A hostile argument should get an ordinary Python exception whose message talks about the user's
call. Messages that name the binding layer or the C++ library, and exception types a user would not
expect from a tensor library, are reported as "unclear". Pure Python, so both processes can use it.
"""

import pickle
import re

# Exception types a tensor library legitimately raises (subclasses included).
ALLOWED_TYPES = (
    TypeError,
    ValueError,
    IndexError,
    RuntimeError,
    NotImplementedError,
    ZeroDivisionError,
    OverflowError,
    MemoryError,
    KeyError,
    AttributeError,
    StopIteration,
    pickle.PicklingError,
    pickle.UnpicklingError,
    Warning,  # the child turns warnings into errors, as the project's pytest config does
    AssertionError,  # PyTorch's type for "Torch not compiled with CUDA enabled"
)

# Substrings that only appear when an internal message escapes unedited.
INTERNAL_MARKERS = [
    "pybind11",
    "PYBIND11",
    "C++ type",
    "std::",
    "Invoked with",
    "bad_alloc",
    "bad_array_new_length",
    "incompatible function arguments",
    "internal assertion failed",
    "basic_string",
    "vector::",
    "_M_",
    "Unable to cast",
    "unknown exception",
    "returned NULL",
    "returned a result with an exception set",
    "without setting an exception",
    "terminate called",
    "libstdc++",
    "__cxa",
]

_CLASS_NAME_ONLY = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Warning|Interrupt|Exit)$")


def unclear_reason(exc, own_types=()):
    """Why ``exc`` is an unclear answer to a call, or None when it is a fine one.

    ``own_types`` are exception classes the caller's own objects raise: propagating those unchanged
    is correct."""
    if own_types and isinstance(exc, own_types):
        return None
    message = str(exc) if not isinstance(exc, KeyError) else repr(exc)
    for marker in INTERNAL_MARKERS:
        if marker in message:
            return f"mentions {marker!r}"
    if not isinstance(exc, ALLOWED_TYPES):
        return f"unexpected type {type(exc).__name__}"
    if _CLASS_NAME_ONLY.match(message.strip()):
        return "message is only a class name"
    # CPython's own MemoryError (a failed list or bytes allocation) has no message either.
    if not message.strip() and not isinstance(exc, (StopIteration, KeyError, MemoryError)):
        return "empty message"
    return None


_HEX = re.compile(r"0x[0-9a-fA-F]+")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(\.\d+)?(e[-+]?\d+)?")
_SPACES = re.compile(r"\s+")
# "must be an iterable, not numpy.float16": the offending type varies, the defect does not.
_TRAILING_TYPE = re.compile(r"\(([\w.]+)\)$")
_GOT_TYPE = re.compile(r"(, not|\bgot|of type) (a |an )?(<class '[^']*'>|[\w.]+)")


def normalise(message, limit=160):
    """A grouping key for a message: first line, before pybind11's argument dump, with addresses,
    quoted strings and numbers replaced so that one root cause is one group."""
    first = message.strip().split("\n", 1)[0]
    first = first.split("Invoked with", 1)[0]
    first = _HEX.sub("0x?", first)
    first = _GOT_TYPE.sub(r"\1 ?", first)
    first = _TRAILING_TYPE.sub("(?)", first)
    first = _QUOTED.sub("'?'", first)
    first = _NUMBER.sub("N", first)
    first = _SPACES.sub(" ", first).strip()
    return first[:limit]


def type_name(exc_type):
    """``TypeError`` for builtins, ``module.Qualname`` otherwise."""
    module = getattr(exc_type, "__module__", "")
    name = getattr(exc_type, "__qualname__", str(exc_type))
    return name if module in ("builtins", "") else f"{module}.{name}"
