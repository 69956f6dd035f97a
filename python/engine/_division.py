"""``torch.div``'s rounding modes: ``div(a, b, rounding_mode="trunc" | "floor")`` as a function
(``engine.div`` / ``engine.divide``), a Tensor method and in place. Without a rounding mode the
native true division runs, as the ``/`` operator does; the rounded quotients are compositions of
native ops computed without recording and given PyTorch's one ``DivBackward2`` node (a zero
gradient, as PyTorch's); ``rounding_mode=None`` given by name records ``DivBackward2`` too."""

from engine import _C, _out_param
from engine.autograd.grad_mode import no_grad

_Tensor = _C.Tensor
_native_div = _C.div
_native_div_method = _Tensor.div
_native_div_inplace = _Tensor.div_


def _check_mode(rounding_mode):
    if rounding_mode not in (None, "trunc", "floor"):
        raise RuntimeError(
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
            f"'{rounding_mode}'"
        )


def _needs_grad(*operands):
    return any(isinstance(t, _Tensor) and t.requires_grad for t in operands)


# div's rounding_mode when the caller did not give one: PyTorch then records DivBackward0 (plain
# true division), while rounding_mode=None given by name records DivBackward2.
class _NotGiven:
    __slots__ = ()

    def __repr__(self):
        return "None"  # signatures and stubs show PyTorch's default


_NOT_GIVEN = _NotGiven()


def _rounded_values(input, other, rounding_mode):
    """The quotient rounded toward zero ("trunc") or down ("floor"), in the operands' promoted
    dtype (integers stay integers; an integer division by zero raises PyTorch's
    RuntimeError("ZeroDivisionError")). Computed without recording."""
    if rounding_mode is None:
        return _native_div(input, other)
    if rounding_mode == "floor":
        return _C.floor_divide(input, other)
    if _C.result_type(input, other).is_floating_point:
        return _C.trunc(_native_div(input, other))
    # Integer division toward zero: the floor quotient, one up where it was rounded down across
    # zero (a remainder with the operands' signs differing).
    q = _C.floor_divide(input, other)
    crossed = (input - q * other != 0) & ((input < 0) != (other < 0))
    return q + crossed.to(q.dtype)


def _mode_div(input, other, rounding_mode):
    """div with ``rounding_mode`` given: the quotient with PyTorch's one DivBackward2 node (edges to
    both operands; true division's gradient without rounding, zero with it)."""
    with no_grad():
        out = _rounded_values(input, other, rounding_mode)
    if not (_C.is_grad_enabled() and _needs_grad(input, other)):
        return out
    if not isinstance(other, _Tensor) and isinstance(other, float):
        other = _C.tensor(
            other, dtype=_C.float64
        )  # a Python float shows as float64, as PyTorch wraps it
    return _C._with_div_mode_history(out, input, other, rounding_mode)


def div(input, other, *, rounding_mode=_NOT_GIVEN, out=None):
    """``input / other``; with ``rounding_mode="trunc"`` the quotient rounded toward zero, with
    ``"floor"`` rounded down (then integer inputs give an integer result, as in PyTorch).

    Args:
        input (Tensor): the dividend.
        other (Tensor or Number): the divisor.

    Keyword args:
        rounding_mode (str, optional): None (true division), ``"trunc"`` or ``"floor"``.
        out (Tensor, optional): the output tensor.

    Example::

        >>> engine.div(engine.tensor([7, -7]), 2, rounding_mode="trunc")
        tensor([ 3, -3])
    """
    if rounding_mode is _NOT_GIVEN:
        return _native_div(input, other) if out is None else _native_div(input, other, out=out)
    _check_mode(rounding_mode)
    if rounding_mode is None and out is not None:
        return _native_div(input, other, out=out)
    result = _mode_div(input, other, rounding_mode)
    if out is None:
        return result
    inputs = [t for t in (input, other) if isinstance(t, _C.Tensor)]
    return _out_param.write(out, result, inputs, "div")


def _div_method(self, other, *, rounding_mode=_NOT_GIVEN):
    """Tensor.div: see :func:`engine.div`."""
    if rounding_mode is _NOT_GIVEN:
        return _native_div_method(self, other)
    _check_mode(rounding_mode)
    return _mode_div(self, other, rounding_mode)


def _div_inplace(self, other, *, rounding_mode=_NOT_GIVEN):
    """In-place version of :meth:`Tensor.div`."""
    if rounding_mode is _NOT_GIVEN:
        return _native_div_inplace(self, other)
    _check_mode(rounding_mode)
    others = [other] if isinstance(other, _Tensor) else []
    return _C._inplace_apply(self, lambda x: _mode_div(x, other, rounding_mode), others)


def install(namespace):
    """Puts the rounding-mode forms in place of the native div on ``engine`` and ``Tensor``."""
    namespace["div"] = namespace["divide"] = namespace["true_divide"] = div
    _Tensor.div = _Tensor.divide = _Tensor.true_divide = _div_method
    _Tensor.div_ = _Tensor.divide_ = _Tensor.true_divide_ = _div_inplace
