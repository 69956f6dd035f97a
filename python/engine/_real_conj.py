"""angle and the conjugation family (conj, conj_physical, resolve_conj, is_conj, resolve_neg,
is_neg), for real and complex tensors as PyTorch 2.13 defines them. The conjugate of a real tensor
is the tensor itself (PyTorch returns the very same object from conj, conj_physical and
resolve_conj); the angle of a real number is 0 (x >= 0, also -0.0) or pi (x < 0), NaN staying NaN,
with a zero gradient. A complex tensor's conjugate is computed eagerly (engine keeps no lazy
conjugate bit, so is_conj() is always False and resolve_conj() returns its input); its angle is
atan2(imag, real), with PyTorch's gradient (0 at 0)."""

import math

from engine import _C
from engine._composite_ops import _tensor_arg
from engine._out_param import accepts_out, write
from engine.autograd import Function


class _Angle(Function):
    """The angle of real x: pi where x < 0, else 0 (NaN where x is NaN); its derivative is 0."""

    _backward_name = "AngleBackward0"

    @staticmethod
    def forward(x):
        pi = _C.full_like(x, math.pi)
        value = _C.where(x < 0, pi, _C.zeros_like(x))
        return _C.where(_C.isnan(x), x, value)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return _C.zeros_like(grad)


@accepts_out()
def angle(input, *, out=None):
    """The angle (argument) of each element: for real input, ``pi`` where it is negative and 0
    elsewhere (also at -0.0), NaN at NaN. Integer and bool inputs give the default float dtype.

    Args:
        input (Tensor): the input tensor.

    Keyword args:
        out (Tensor, optional): the output tensor.

    Example::

        >>> engine.angle(engine.tensor([-2.0, 0.0, 3.0]))
        tensor([3.1416, 0.0000, 0.0000])
    """
    _tensor_arg("angle", input, "input", 1)
    if input.dtype.is_complex:
        return _C._complex_angle(input)
    x = input if input.is_floating_point() else input.to(_C.get_default_dtype())
    return _Angle.apply(x)


def conj(input):
    """The complex conjugate: a new tensor for a complex ``input``, ``input`` itself for a real
    one (as PyTorch returns a real tensor unchanged).

    Example::

        >>> x = engine.tensor([1.0, -2.0])
        >>> engine.conj(x) is x
        True
    """
    _tensor_arg("conj", input, "input", 1)
    if input.dtype.is_complex:
        return _C._conj_physical(input)
    return input


def conj_physical(input, *, out=None):
    """The conjugate, computed eagerly: for a real tensor ``input`` itself (PyTorch returns it
    unchanged), or ``out`` holding a copy of it.

    Example::

        >>> engine.conj_physical(engine.tensor([1.0, -2.0]))
        tensor([ 1., -2.])
    """
    _tensor_arg("conj_physical", input, "input", 1)
    value = _C._conj_physical(input) if input.dtype.is_complex else input
    if out is None:
        return value
    return write(out, value, [input], "conj_physical")


def resolve_conj(input):
    """``input`` with its conjugate bit resolved: engine conjugates eagerly and keeps no such
    bit, so ``input`` itself."""
    _tensor_arg("resolve_conj", input, "input", 1)
    return input


def resolve_neg(input):
    """``input`` with its negative bit resolved: engine's tensors have none, so ``input`` itself."""
    _tensor_arg("resolve_neg", input, "input", 1)
    return input


def is_conj(input):
    """Whether ``input`` is a lazily conjugated view: never in engine, which conjugates eagerly."""
    _tensor_arg("is_conj", input, "input", 1)
    return False


def is_neg(input):
    """Whether ``input`` carries a lazy negation bit: never in engine."""
    _tensor_arg("is_neg", input, "input", 1)
    return False


def conj_physical_(input):
    """In-place ``conj_physical``: a real tensor is its own conjugate, so it is returned as is;
    a complex one has its imaginary part negated in place."""
    if input.dtype.is_complex:
        input.imag.neg_()
    return input


FUNCTIONS = {
    f.__name__: f
    for f in (
        angle,
        conj,
        conj_physical,
        conj_physical_,
        resolve_conj,
        resolve_neg,
        is_conj,
        is_neg,
    )
}

METHODS = {
    "angle": angle,
    "conj": conj,
    "conj_physical": conj_physical,
    "conj_physical_": conj_physical_,
    "resolve_conj": resolve_conj,
    "resolve_neg": resolve_neg,
    "is_conj": is_conj,
    "is_neg": is_neg,
}


def install():
    """Adds the Tensor methods (existing native methods of the same name are kept)."""
    for name, fn in METHODS.items():
        if not hasattr(_C.Tensor, name):
            setattr(_C.Tensor, name, fn)
