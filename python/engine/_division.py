"""``torch.div``'s rounding modes: ``div(a, b, rounding_mode="trunc" | "floor")`` as a function
(``engine.div`` / ``engine.divide``), a Tensor method and in place. Without a rounding mode the
native true division runs, as the ``/`` operator does; the rounded quotients are compositions of
native ops whose node shows as PyTorch's ``DivBackward2`` (a zero gradient, as PyTorch's)."""

from engine import _C, _grad_fn_names, _out_param
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


def _rounded(input, other, rounding_mode):
    """The quotient rounded toward zero ("trunc") or down ("floor"), in the operands' promoted
    dtype (integers stay integers; an integer division by zero raises PyTorch's
    RuntimeError("ZeroDivisionError"))."""
    if rounding_mode == "floor":
        out = _C.floor_divide(input, other)
        if out.is_floating_point() and _C.is_grad_enabled() and _needs_grad(input, other):
            # floor_divide records no history; PyTorch's quotient carries a zero gradient. The
            # values stay floor_divide's (exact where floor(a / b) is not): written, without
            # recording, over a floor of the quotient, whose node has that zero gradient.
            graph = _C.floor(_native_div(input, other))
            with no_grad():
                graph.copy_(out)
            out = graph
    elif _C.result_type(input, other).is_floating_point:
        out = _C.trunc(_native_div(input, other))
    else:
        # Integer division toward zero: the floor quotient, one up where it was rounded down
        # across zero (a remainder with the operands' signs differing).
        q = _C.floor_divide(input, other)
        crossed = (input - q * other != 0) & ((input < 0) != (other < 0))
        out = q + crossed.to(q.dtype)
    # PyTorch's node keeps the divisor (a Number as a 0-d tensor) and, when the divisor requires
    # grad, the dividend.
    if isinstance(other, _C.Tensor):
        other_t = other
    else:  # a Python float shows as float64, as PyTorch wraps it
        other_t = _C.tensor(other, dtype=_C.float64 if isinstance(other, float) else None)
    shown = {
        "other": other_t,
        "rounding_mode": rounding_mode,
        "self": input if other_t.requires_grad else None,
    }
    return _grad_fn_names.name_grad_fn(out, "DivBackward2", (input,), shown, only_shown=True)


def div(input, other, *, rounding_mode=None, out=None):
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
    _check_mode(rounding_mode)
    if rounding_mode is None:
        return _native_div(input, other) if out is None else _native_div(input, other, out=out)
    result = _rounded(input, other, rounding_mode)
    if out is None:
        return result
    inputs = [t for t in (input, other) if isinstance(t, _C.Tensor)]
    return _out_param.write(out, result, inputs, "div")


def _div_method(self, other, *, rounding_mode=None):
    """Tensor.div: see :func:`engine.div`."""
    _check_mode(rounding_mode)
    if rounding_mode is None:
        return _native_div_method(self, other)
    return _rounded(self, other, rounding_mode)


def _div_inplace(self, other, *, rounding_mode=None):
    """In-place version of :meth:`Tensor.div`."""
    _check_mode(rounding_mode)
    if rounding_mode is None:
        return _native_div_inplace(self, other)
    others = [other] if isinstance(other, _Tensor) else []
    return _C._inplace_apply(self, lambda x: _rounded(x, other, rounding_mode), others)


def install(namespace):
    """Puts the rounding-mode forms in place of the native div on ``engine`` and ``Tensor``."""
    namespace["div"] = namespace["divide"] = namespace["true_divide"] = div
    _Tensor.div = _Tensor.divide = _Tensor.true_divide = _div_method
    _Tensor.div_ = _Tensor.divide_ = _Tensor.true_divide_ = _div_inplace
