"""The complex dtypes at the Python surface: torch.view_as_real / view_as_complex / complex /
polar, the Tensor.real and Tensor.imag properties, and the refusal of complex32.

A complex64 (complex128) tensor stores (real, imaginary) pairs of float32 (float64); the native
core computes every complex op on that real view, so autograd gives PyTorch's gradients (the
conjugate Wirtinger convention) by construction."""

import functools

from engine import _C
from engine._composite_ops import _tensor_arg
from engine._out_param import accepts_out
from engine._scalar_type_names import scalar_type_name

DTYPES = {
    "complex64": _C.complex64,
    "cfloat": _C.complex64,
    "complex128": _C.complex128,
    "cdouble": _C.complex128,
}

# PyTorch's 32-bit complex (two float16 halves): engine has no such dtype.
UNSUPPORTED = ("complex32", "chalf")


def unsupported_dtype(name):
    """The error for ``engine.complex32`` / ``engine.chalf``: named, with the dtypes to use."""
    return AttributeError(
        f"engine.{name} (ComplexHalf) is not supported: engine's complex dtypes are "
        "complex64 (cfloat) and complex128 (cdouble)"
    )


def view_as_real(input):
    """A real view of a complex tensor: its shape plus a last dim of 2 holding (real, imaginary),
    sharing its memory (float32 for complex64, float64 for complex128).

    Example::

        >>> engine.view_as_real(engine.tensor([1 + 2j, 3 - 1j]))
        tensor([[ 1.,  2.],
                [ 3., -1.]])
    """
    _tensor_arg("view_as_real", input, "input", 1)
    return _C.view_as_real(input)


def view_as_complex(input):
    """A complex view of a float32/float64 tensor whose last dim (size 2, stride 1) holds
    (real, imaginary) pairs, sharing its memory.

    Example::

        >>> engine.view_as_complex(engine.tensor([[1.0, 2.0], [3.0, -1.0]]))
        tensor([1.+2.j, 3.-1.j])
    """
    _tensor_arg("view_as_complex", input, "input", 1)
    return _C.view_as_complex(input)


def _exact_dtype_out(fname, inputs, out, result, field=None):
    """complex / polar: out must have the result's complex dtype (PyTorch's message)."""
    if out.dtype != result.dtype:
        raise RuntimeError(
            f"Expected object of scalar type {scalar_type_name(result.dtype)} but got scalar type "
            f"{scalar_type_name(out.dtype)} for argument 'out'"
        )


@accepts_out(_exact_dtype_out)
def complex(real, imag, *, out=None):
    """The complex tensor ``real + imag * 1j`` from two float32 (or two float64) tensors of
    broadcastable shapes.

    Example::

        >>> engine.complex(engine.tensor([1.0, -2.0]), engine.tensor([0.5, 3.0]))
        tensor([ 1.+0.5000j, -2.+3.0000j])
    """
    _tensor_arg("complex", real, "real", 1)
    _tensor_arg("complex", imag, "imag", 2)
    return _C.complex(real, imag)


@accepts_out(_exact_dtype_out)
def polar(abs, angle, *, out=None):
    """The complex tensor with magnitude ``abs`` and phase ``angle``:
    ``abs * (cos(angle) + sin(angle) * 1j)``.

    Example::

        >>> engine.polar(engine.tensor([2.0]), engine.tensor([0.0]))
        tensor([2.+0.j])
    """
    _tensor_arg("polar", abs, "abs", 1)
    _tensor_arg("polar", angle, "angle", 2)
    return _C.polar(abs, angle)


# Functions composed in Python that would cast a complex input to a real dtype on the way (and
# so compute on its real part alone): they refuse complex tensors instead, as PyTorch's kernels
# without a complex path do.
NO_COMPLEX_PATH = (
    "corrcoef", "cov", "cumulative_trapezoid", "float_power", "gradient", "mvlgamma", "mvlgamma_",
    "take", "trapezoid", "trapz", "unravel_index",
)  # fmt: skip


# Functions whose real implementation would order or compare complex numbers as if they were
# real (sorting, medians, uniqueness): they refuse complex tensors with PyTorch's words, naming
# the kernel it names ("" marks PyTorch's RuntimeError for sorting).
NO_ORDER_ON_COMPLEX = {
    "sort": "", "argsort": "", "msort": "", "median": "median_cpu", "nanmedian": "median_cpu",
    "unique": "unique", "unique_consecutive": "unique", "searchsorted": "searchsorted_out_cpu",
}  # fmt: skip


def refuse_complex(fname, *args):
    """Raises PyTorch's NotImplementedError when a tensor among args is complex (for sorting,
    PyTorch's RuntimeError)."""
    for a in args:
        if isinstance(a, _C.Tensor) and a.dtype.is_complex:
            if fname == "":
                raise RuntimeError(" Sort does not support complex dtypes on CPU")
            name = "ComplexFloat" if a.dtype == _C.complex64 else "ComplexDouble"
            raise NotImplementedError(f"\"{fname}\" not implemented for '{name}'")


def _refusing(fname, fn):
    def refusing(*args, **kwargs):
        refuse_complex(fname, *args, *kwargs.values())
        return fn(*args, **kwargs)

    return functools.wraps(fn)(refusing)


def guard_functions(namespace):
    """Wraps the functions of NO_COMPLEX_PATH and NO_ORDER_ON_COMPLEX (in namespace and as
    Tensor methods) so that they refuse complex tensors."""
    kernels = {**{name: name for name in NO_COMPLEX_PATH}, **NO_ORDER_ON_COMPLEX}
    for name, kernel in kernels.items():
        if callable(namespace.get(name)):
            namespace[name] = _refusing(kernel, namespace[name])
        method = getattr(_C.Tensor, name, None)
        if callable(method):
            setattr(_C.Tensor, name, _refusing(kernel, method))


def _real(self):
    return _C._real(self)


def _set_real(self, value):
    _C._real(self).copy_(value)


def _imag(self):
    return _C._imag(self)


def _set_imag(self, value):
    _C._imag(self).copy_(value)


FUNCTIONS = {f.__name__: f for f in (view_as_real, view_as_complex, complex, polar)}


def install():
    """Adds Tensor.real and Tensor.imag (views of one half; real of a real tensor is itself)."""
    _C.Tensor.real = property(
        _real,
        _set_real,
        doc="The real part of a complex tensor, as a view (a real tensor is its own real part).",
    )
    _C.Tensor.imag = property(
        _imag,
        _set_imag,
        doc="The imaginary part of a complex tensor, as a view (an error for real tensors).",
    )
