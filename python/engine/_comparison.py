"""isclose / allclose / equal with PyTorch's rules (same dtype for isclose, broadcasting, inf equal
to itself, NaN equal only with ``equal_nan``)."""

from engine import _C
from engine._scalar_type_names import scalar_type_name
from engine.autograd.grad_mode import no_grad


def _need_tensor(fname, value, arg, position):
    if not _C.is_tensor(value):
        kind = "type" if isinstance(value, type) else type(value).__name__
        raise TypeError(
            f"{fname}(): argument '{arg}' (position {position}) must be Tensor, not {kind}"
        )


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|input - other| <= atol + rtol * |other|`` (exact equality for bools), as a bool
    tensor of the broadcast shape; both inputs must have the same dtype.

    Args:
        input (Tensor): the first tensor.
        other (Tensor): the second tensor.
        rtol (float): the relative tolerance. Default: 1e-5.
        atol (float): the absolute tolerance. Default: 1e-8.
        equal_nan (bool): count NaNs in the same places as equal. Default: ``False``.

    Example::

        >>> engine.isclose(engine.tensor([1.0, 2.0, float('nan')]), engine.tensor([1.0, 2.1, float('nan')]))
        tensor([ True, False, False])
    """
    _need_tensor("isclose", input, "input", 1)
    _need_tensor("isclose", other, "other", 2)
    if input.dtype != other.dtype:
        a, b = scalar_type_name(input.dtype), scalar_type_name(other.dtype)
        raise RuntimeError(f"{a} did not match {b}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol}")
    with no_grad():
        close = input == other
        if input.dtype == _C.bool:
            return close
        if input.dtype.is_complex:
            a, b = input.to(_C.complex128), other.to(_C.complex128)
            finite_a = _C.isfinite(a.real) & _C.isfinite(a.imag)
            finite_b = _C.isfinite(b.real) & _C.isfinite(b.imag)
            if equal_nan:
                nan_a = _C.isnan(a.real) | _C.isnan(a.imag)
                close = close | (nan_a & (_C.isnan(b.real) | _C.isnan(b.imag)))
        else:
            a, b = input.double(), other.double()
            finite_a, finite_b = _C.isfinite(a), _C.isfinite(b)
            if input.is_floating_point() and equal_nan:
                close = close | (_C.isnan(a) & _C.isnan(b))
        within = _C.abs(a - b) <= atol + rtol * _C.abs(b)
        # |a - b| of two infinities is inf or nan: only their equality above makes them close.
        return close | (within & finite_a & finite_b)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element of ``input`` is close to the matching one of ``other``:
    ``|input - other| <= atol + rtol * |other|`` everywhere (see :func:`isclose`).

    Args:
        input (Tensor): the first tensor.
        other (Tensor): the second tensor, broadcast with ``input``.
        rtol (float): the relative tolerance. Default: 1e-5.
        atol (float): the absolute tolerance. Default: 1e-8.
        equal_nan (bool): count NaNs in the same places as equal. Default: ``False``.

    Example::

        >>> engine.allclose(engine.tensor([1.0, 2.0]), engine.tensor([1.0, 2.0 + 1e-6]))
        True
    """
    _need_tensor("allclose", input, "input", 1)
    _need_tensor("allclose", other, "other", 2)
    return bool(isclose(input, other, rtol, atol, equal_nan).all())


def equal(input, other):
    """True when both tensors have the same shape and equal elements (NaN is never equal)."""
    _need_tensor("equal", input, "input", 1)
    _need_tensor("equal", other, "other", 2)
    if tuple(input.shape) != tuple(other.shape):
        return False
    with no_grad():
        return bool((input == other).all())
