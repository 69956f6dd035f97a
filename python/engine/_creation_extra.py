"""Tensor creation PyTorch provides beyond the basics: logspace, tril_indices / triu_indices,
range (deprecated, inclusive end), scalar_tensor, empty_strided / empty_permuted, frombuffer,
asarray, vander."""

import builtins
import math
import warnings

import engine
from engine import _C
from engine._composite_ops import _tensor_arg, _type_name
from engine._joining import _dtype_word

_Tensor = _C.Tensor


def _from_numpy(a):
    import numpy as np

    a = np.asarray(a)
    return _C.from_numpy(np.ascontiguousarray(a).reshape(a.shape))


def _np_dtype(dtype):
    import numpy as np

    return {
        _C.float32: np.float32,
        _C.float64: np.float64,
        _C.int64: np.int64,
        _C.int32: np.int32,
        _C.bool: np.bool_,
    }[dtype]


def _finish(t, requires_grad):
    return t.requires_grad_() if requires_grad else t


def logspace(
    start,
    end,
    steps,
    base=10.0,
    *,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    out=None,
):
    """``steps`` values base ** s for s evenly spaced from start to end (inclusive)."""
    import numpy as np

    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dtype = dtype or _C.get_default_dtype()
    # The result first: a size past memory or int64 is refused before any value is computed.
    result = engine.empty((steps,), dtype=dtype)
    if dtype in (_C.float32, _C.float64) and steps > 1:
        # ATen's loop: start and end in the element type, the step and the exponents in double
        # counted from the nearer end, the power by the C library's pow (NumPy's own may differ
        # in the last bit): the same bits as PyTorch.
        ftype = _np_dtype(dtype)
        first, last = ftype(start), ftype(end)
        step = float(last - first) / (steps - 1)
        half = steps // 2
        exponents = [
            float(first) + step * i if i < half else float(last) - step * (steps - i - 1)
            for i in builtins.range(steps)
        ]
        values = np.array([math.pow(float(base), e) for e in exponents])
    else:
        exponents = np.linspace(float(start), float(end), steps, dtype=np.float64)
        values = np.power(float(base), exponents)
    result.copy_(_from_numpy(values.astype(_np_dtype(dtype))))
    return _finish(result, requires_grad)


def _indices(fname, row, col, offset, dtype, lower):
    import numpy as np

    if dtype not in (_C.int64, _C.int32):
        raise NotImplementedError(f"\"{fname}\" not implemented for '{_dtype_word(dtype)}'")
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    rows, cols = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return _from_numpy(np.stack([rows, cols]).astype(_np_dtype(dtype)).reshape(2, -1))


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """(2, n) coordinates of the lower triangle (on and below diagonal `offset`) of a row x col
    matrix, in row-major order."""
    return _indices("tril_indices", row, col, offset, dtype or _C.int64, True)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """(2, n) coordinates of the upper triangle (on and above diagonal `offset`) of a row x col
    matrix, in row-major order."""
    return _indices("triu_indices", row, col, offset, dtype or _C.int64, False)


def range(
    start=0,
    end=None,
    step=1,
    *,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    out=None,
):  # noqa: A001
    """Deprecated: values start, start + step, ... up to and including end (arange excludes it)."""
    import numpy as np

    warnings.warn(
        "torch.range is deprecated and will be removed in a future release because its behavior "
        "is inconsistent with Python's range builtin. Instead, use torch.arange, which produces "
        "values in [start, end).",
        UserWarning,
        stacklevel=2,
    )
    if end is None:
        start, end = 0, start
    for arg, v in (("start", start), ("end", end), ("step", step)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"range(): argument '{arg}' must be Number, not {_type_name(v)}")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0 and end != start:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    dtype = dtype or _C.get_default_dtype()
    n = int((end - start) // step) + 1
    values = float(start) + np.arange(n, dtype=np.float64) * float(step)
    return _finish(_from_numpy(values.astype(_np_dtype(dtype))), requires_grad)


def scalar_tensor(
    s, *, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False
):
    """A 0-d tensor holding s (in the default floating dtype unless dtype is given)."""
    if isinstance(s, _Tensor) or not isinstance(s, (int, float, bool)):
        raise TypeError(
            "scalar_tensor(): argument 's' (position 1) must be Number, not " + _type_name(s)
        )
    return _finish(_C.full((), s, dtype=dtype or _C.get_default_dtype()), requires_grad)


def empty_permuted(
    size,
    physical_layout,
    *,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    pin_memory=False,
):
    """Uninitialised tensor of `size` whose memory is laid out in the order physical_layout (the
    dims from outermost to innermost)."""
    from engine._joining import _int_sequence

    size = _int_sequence("empty_permuted", size, "size", 1)
    order = _int_sequence("empty_permuted", physical_layout, "physical_layout", 2)
    if len(order) != len(size):
        raise RuntimeError(
            f"Number of dimensions in size does not match the length of the physical_layout; "
            f"i.e. len(size) = {len(size)} is not equal to len(physical_layout) = {len(order)}"
        )
    if sorted(order) != list(builtins.range(len(size))):
        raise RuntimeError("Duplicate dim not allowed")
    physical = _C.empty([size[d] for d in order], dtype=dtype or _C.get_default_dtype())
    inverse = [order.index(d) for d in builtins.range(len(size))]
    return _finish(physical.permute(*inverse), requires_grad)


def empty_strided(
    size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False
):
    """Uninitialised tensor with the given strides, for strides that lay the elements out densely
    in some order of the dims (every layout a permutation of a contiguous tensor has)."""
    from engine._joining import _int_sequence

    size = _int_sequence("empty_strided", size, "size", 1)
    stride = _int_sequence("empty_strided", stride, "stride", 2)
    if len(size) != len(stride):
        raise RuntimeError(
            f"dimensionality of sizes ({len(size)}) must match dimensionality of strides ({len(stride)})"
        )
    for s in size:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {size}")
    # Outermost first: larger strides first; size-1 dims may sit anywhere.
    order = sorted(builtins.range(len(size)), key=lambda d: (-stride[d], d))
    expected = 1
    dense = True
    for d in reversed(order):
        if size[d] != 1 and stride[d] != expected:
            dense = False
        expected *= size[d]
    if not dense:
        raise NotImplementedError(
            "empty_strided: engine makes strided tensors only for dense layouts (a permutation "
            f"of a contiguous tensor); sizes {size} with strides {stride} are not one"
        )
    return empty_permuted(size, order, dtype=dtype, requires_grad=requires_grad)


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """1-D tensor sharing the memory of an object implementing the buffer protocol."""
    import numpy as np

    nbytes = memoryview(buffer).nbytes
    item = np.dtype(_np_dtype(dtype)).itemsize
    if nbytes == 0 and count == -1 or count == 0:
        raise ValueError(f"both buffer length ({nbytes}) and count ({count}) must not be 0")
    if offset < 0 or offset > nbytes:
        raise ValueError(
            f"offset ({offset} bytes) must be non-negative and no greater than buffer length ({nbytes} bytes) minus 1"
        )
    if count == -1:
        if (nbytes - offset) % item:
            raise ValueError(
                f"buffer length ({nbytes - offset} bytes) after offset ({offset} bytes) must be a "
                f"multiple of element size ({item})"
            )
        count = (nbytes - offset) // item
    if offset + count * item > nbytes:
        raise ValueError(
            f"requested buffer length ({count} * {item} bytes) after offset ({offset} bytes) must "
            f"not be greater than actual buffer length ({nbytes} bytes)"
        )
    a = np.frombuffer(buffer, dtype=_np_dtype(dtype), count=count, offset=offset)
    if not a.flags.writeable:
        warnings.warn(
            "The given buffer is not writable, and PyTorch does not support non-writable tensors. "
            "This means you can write to the underlying (supposedly non-writable) buffer using the "
            "tensor. You may want to copy the buffer to protect its data or make it writable before "
            "converting it to a tensor. This type of warning will be suppressed for the rest of "
            "this program.",
            UserWarning,
            stacklevel=2,
        )
        a = a.copy()  # engine needs writable memory; the copy no longer shares the buffer
    return _finish(_C.from_numpy(a), requires_grad)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """obj as a tensor, sharing memory where it can (a tensor of the right dtype, a NumPy array)
    unless copy=True; copy=False refuses to copy."""
    if isinstance(obj, _Tensor):
        same = dtype is None or dtype == obj.dtype
        if same and not copy:
            out = obj
        elif copy is False:
            raise ValueError("asarray(): can't satisfy copy=False: a dtype conversion is needed")
        else:
            out = obj.to(dtype or obj.dtype).clone() if same else obj.to(dtype)
        return _finish(out, requires_grad) if requires_grad else out
    if type(obj).__module__ == "numpy" and hasattr(obj, "dtype") and getattr(obj, "ndim", 0) >= 0:
        import numpy as np

        a = np.asarray(obj)
        if dtype is not None and a.dtype != _np_dtype(dtype):
            if copy is False:
                raise ValueError(
                    "asarray(): can't satisfy copy=False: a dtype conversion is needed"
                )
            a = a.astype(_np_dtype(dtype))
        elif copy:
            a = a.copy()
        if a.flags.c_contiguous and a.flags.writeable and a.ndim:
            return _finish(_C.from_numpy(a), requires_grad)
        return _finish(_C.tensor(a.tolist(), dtype=dtype), requires_grad)
    if copy is False:
        raise ValueError("asarray(): can't satisfy copy=False for a Python object")
    return _finish(_C.tensor(obj, dtype=dtype), requires_grad)


def vander(x, N=None, increasing=False):
    """Vandermonde matrix of a 1-D x: columns x**(N-1), ..., x**0 (reversed if increasing)."""
    _tensor_arg("vander", x, "x", 1)
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    base = x.to(_C.int64) if x.dtype in (_C.bool, _C.int32) else x
    if n == 0:
        return _C.empty((x.shape[0], 0), dtype=base.dtype)
    # 1, x, x^2, ... as a running product, so the gradient comes from cumprod's rule.
    columns = [_C.ones((x.shape[0], 1), dtype=base.dtype)]
    if n > 1:
        columns.append(base.unsqueeze(1).expand(x.shape[0], n - 1))
    powers = _C.cat(columns, 1).cumprod(1)
    return powers if increasing else powers.flip(1)


def new_empty_strided(
    self, size, stride, *, dtype=None, device=None, requires_grad=False, **kwargs
):
    """``empty_strided`` with self's dtype unless dtype is given."""
    return empty_strided(size, stride, dtype=dtype or self.dtype, requires_grad=requires_grad)


FUNCTIONS = {
    f.__name__: f
    for f in (
        logspace, tril_indices, triu_indices, range, scalar_tensor, empty_strided,
        empty_permuted, frombuffer, asarray, vander,
    )
}  # fmt: skip


def install():
    """Adds Tensor.new_empty_strided."""
    if not hasattr(_Tensor, "new_empty_strided"):
        _Tensor.new_empty_strided = new_empty_strided
