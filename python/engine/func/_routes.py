"""Native calls that answer to the ``engine.func`` transforms without a marked argument.

* Random creation (``rand``, ``randn``, ``randint`` and the in-place ``normal_``/``uniform_``
  fills that engine's other samplers are built on) inside a vmapped function follows that vmap's
  ``randomness``: ``'error'`` raises, ``'same'`` draws once for every sample, ``'different'``
  draws a batch (see :func:`engine.func._batching_rules.random_creation`). Nested vmaps each
  add their dimension, innermost first.
* ``Function.apply`` of an old-style Function (``forward(ctx, ...)`` without ``setup_context``)
  raises PyTorch's message under any ``engine.func`` transform, as PyTorch's does; engine's own
  Functions (its operations written as Functions) are exempt.
"""

from __future__ import annotations

from typing import Any

from engine import _C, _transforms

_SETUP_CONTEXT = (
    "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, jacrev, "
    "...), it must override the setup_context staticmethod. For more details, please see "
    "https://pytorch.org/docs/main/notes/extending.func.html"
)


def _drawing_level() -> Any:
    """The innermost open vmap that has not drawn for this call yet (None: none is left)."""
    for level in sorted(_transforms._open, reverse=True):
        interpreter = _transforms._open[level]
        if interpreter.takes_random and not interpreter.drawing:
            return interpreter
    return None


def _random_call(func: Any, args: tuple, kwargs: dict) -> Any:
    level = _drawing_level()
    if level is None:
        return _transforms.call_unrouted(func, *args, **kwargs)
    from engine.func._batching_rules import random_creation

    return random_creation(level, func, args, kwargs)


def _function_apply(func: Any, args: tuple, kwargs: dict) -> Any:
    from engine.autograd.function import Function
    from engine.func._vmap_function import _overrides

    cls = args[0] if args else None
    if (
        isinstance(cls, type)
        and issubclass(cls, Function)
        and not cls.__module__.startswith("engine.")
        and not _overrides(cls, "setup_context")
    ):
        raise RuntimeError(_SETUP_CONTEXT)
    return _transforms.call_unrouted(func, *args, **kwargs)


def install() -> None:
    for func in (
        _C.rand,
        _C.randn,
        _C.randint,
        vars(_C.Tensor)["normal_"],
        vars(_C.Tensor)["uniform_"],
    ):
        _transforms.route_unmarked(func, _transforms.RANDOM, _random_call)
    _transforms.route_unmarked(_C._function_apply, _transforms.FUNCTORCH, _function_apply)
