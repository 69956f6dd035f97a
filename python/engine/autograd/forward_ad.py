"""Forward-mode automatic differentiation (``torch.autograd.forward_ad``).

Inside a ``dual_level``, ``make_dual(x, t)`` gives a *dual tensor*: a view of ``x`` that carries
the tangent ``t``. Every operation on dual tensors computes its result's tangent, the directional
derivative along ``t`` (a Jacobian-vector product), read back with ``unpack_dual``::

    with engine.autograd.forward_ad.dual_level():
        x = engine.autograd.forward_ad.make_dual(primal, tangent)
        y = f(x)
        jvp = engine.autograd.forward_ad.unpack_dual(y).tangent

Tangents are computed with differentiable operations, so ``autograd.grad`` of a tangent works
(reverse-over-forward, e.g. Hessian-vector products). How tangents travel through operations is
described in :mod:`engine.autograd._forward_level` and :mod:`engine.autograd._jvp_rules`.
"""

from __future__ import annotations

import collections

from engine import _C, _transforms
from engine.autograd._forward_level import DualState, ForwardLevel, _size_message, state_at

__all__ = [
    "UnpackedDualTensor",
    "dual_level",
    "enter_dual_level",
    "exit_dual_level",
    "make_dual",
    "unpack_dual",
]

_FLOATING = {_C.float16, _C.bfloat16, _C.float32, _C.float64}
_public_level: ForwardLevel | None = None  # the one dual_level PyTorch allows open at a time
# The index of the open dual_level, -1 when none is (PyTorch's module attribute of that name:
# code checks `_current_level >= 0` to know whether it runs under forward AD).
_current_level = -1


def enter_dual_level():
    """Opens a forward-AD level and returns its index (0, as in PyTorch); ``dual_level()`` is the
    context-manager form. Levels do not nest: a second one raises ``RuntimeError``.

    Example::

        >>> fwAD = engine.autograd.forward_ad
        >>> level = fwAD.enter_dual_level()
        >>> d = fwAD.make_dual(engine.tensor([1.0]), engine.tensor([2.0]))
        >>> fwAD.exit_dual_level()
    """
    global _public_level, _current_level
    if _public_level is not None:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    level = ForwardLevel()
    _transforms.push(level)
    _public_level = level
    _current_level = 0
    return 0


def exit_dual_level(*, level=None):
    """Closes the forward-AD level: its dual tensors lose their tangents.

    Args:
        level (int, optional): the level ``enter_dual_level`` returned (the last one opened).
    """
    global _public_level, _current_level
    current = 0 if _public_level is not None else -1
    if level is None:
        level = current
    if level != current:
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one that was created. This "
            "is not supported."
        )
    if _public_level is None:
        raise RuntimeError("Dual level must be a positive number.")
    _transforms.pop(_public_level)
    _public_level = None
    _current_level = -1


class dual_level:
    """Context manager of a forward-AD level: ``with dual_level(): ...``.

    Dual tensors made inside it only carry tangents until it exits."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()


def _level_for(level, what: str) -> ForwardLevel | None:
    if level is None or level == 0:
        if _public_level is not None:
            return _public_level
        if level is None:
            return _transforms.current(ForwardLevel)
        return None
    if isinstance(level, ForwardLevel):
        return level if _transforms.is_open(level.level) else None
    raise RuntimeError(f"Invalid level given to {what}")


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` carrying ``tangent`` at the forward-AD level (inside ``dual_level``).

    Operations on the result compute their results' tangents: the directional derivative
    along ``tangent``. The tangent is kept as given (not copied).

    Args:
        tensor (Tensor): the primal, a floating-point tensor.
        tangent (Tensor): its tangent, same shape, floating point.
        level (int, optional): the forward-AD level (default: the one open).

    Example::

        >>> fwAD = engine.autograd.forward_ad
        >>> with fwAD.dual_level():
        ...     x = fwAD.make_dual(engine.tensor([1.0, 2.0]), engine.tensor([1.0, 0.0]))
        ...     fwAD.unpack_dual(x * x).tangent
        tensor([2., 0.])
    """
    interpreter = _level_for(level, "_make_dual")
    if interpreter is None:
        if level is not None and _transforms.current(ForwardLevel) is not None:
            raise RuntimeError("Invalid level given to _make_dual")
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level exists, make sure to "
            "enter_dual_level() first."
        )
    if not isinstance(tensor, _C.Tensor):
        raise TypeError(
            f"make_dual(): argument 'tensor' must be Tensor, not {type(tensor).__name__}"
        )
    if not isinstance(tangent, _C.Tensor):
        raise TypeError(
            f"make_dual(): argument 'tangent' must be Tensor, not {type(tangent).__name__}"
        )
    if tensor.dtype not in _FLOATING:
        raise ValueError(
            f"Expected primal to be floating point or complex, but got: {tensor.dtype}"
        )
    if tangent.dtype not in _FLOATING:
        raise ValueError(
            f"Expected tangent to be floating point or complex, but got: {tangent.dtype}"
        )
    if tuple(tensor.shape) != tuple(tangent.shape):
        raise RuntimeError(_size_message(tensor, tangent))
    if state_at(tangent, interpreter.level) is not None:
        raise RuntimeError(
            "Setting a forward grad that itself has a forward gradient at the same level0 is not "
            "supported."
        )
    if state_at(tensor, interpreter.level) is not None:
        raise RuntimeError(
            "Making a dual Tensor based on a Tensor that already has a forward gradient at the "
            "same level 0 is not supported."
        )
    dual = tensor.view_as(tensor)  # lower levels (vmap, an outer jvp) see this view too
    state = DualState(interpreter.level, tangent, _C._transform_state(dual))
    _C._set_transform_state(dual, state)
    interpreter.sources.append((dual, state))
    return dual


# A named tuple without importing typing at `import engine`.
UnpackedDualTensor = collections.namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__module__ = __name__
UnpackedDualTensor.__doc__ = (
    "``unpack_dual``'s result: the primal (a view of the dual tensor) and its tangent."
)


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)`` of a dual tensor, a named tuple ``UnpackedDualTensor``.

    ``primal`` is a view of ``tensor`` without the tangent; ``tangent`` is None for a tensor
    that has none at the level (or when no level is open).

    Args:
        tensor (Tensor): any tensor.
        level (int, optional): the forward-AD level (default: the one open).

    Example::

        >>> fwAD = engine.autograd.forward_ad
        >>> with fwAD.dual_level():
        ...     y = fwAD.make_dual(engine.tensor([0.0]), engine.tensor([3.0])).exp()
        ...     primal, tangent = fwAD.unpack_dual(y)
        >>> tangent
        tensor([3.])
    """
    interpreter = _level_for(level, "unpack_dual")
    if interpreter is None:
        return UnpackedDualTensor(tensor, None)
    state = state_at(tensor, interpreter.level)
    if state is None:
        return UnpackedDualTensor(tensor.view_as(tensor), None)
    return UnpackedDualTensor(_primal_view(interpreter, tensor), state.tangent)


def _primal_view(interpreter: ForwardLevel, tensor):
    """A view of dual ``tensor`` without its tangent at ``interpreter``'s level."""
    taken = interpreter.take((tensor,), {})
    try:
        primal = tensor.view_as(tensor)
    finally:
        interpreter.give_back(taken)
    return primal


def _tangent_for_print(tensor):
    """The tangent ``repr`` shows (``tensor(..., tangent=...)``), innermost open level first."""
    state = _C._transform_state(tensor)
    while state is not None:
        if isinstance(state, DualState) and _transforms.is_open(state.level):
            return state.tangent
        state = getattr(state, "inner", None)
    return None
