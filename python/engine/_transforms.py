"""The stack of open function transforms and the one door native calls on their tensors go through.

Forward-mode AD (``engine.autograd.forward_ad``) and ``engine.func.vmap`` are *interpreters*: each
open ``dual_level`` or ``vmap`` call pushes one, with a level number larger than every open one.
A transform marks the tensors it owns by attaching a state object to them
(``_C._set_transform_state``); the state names its level. While any transform is open, the native
module sends every call whose arguments include a marked tensor to :func:`dispatch`, which hands
it to the interpreter of the highest level among the arguments. That interpreter unwraps its own
tensors, runs the operation (which reaches lower levels the same way, so transforms nest and
compose) and wraps the results. With no transform open, native calls cost one integer test more.

A tensor carries one mark, the highest level's. A transform that marks a tensor another level
already marked keeps that mark reachable as ``state.inner`` and shows it while it runs the
operation (forward-mode AD does: a dual tensor can be batched or dual at a lower level too); a
transform that runs operations on a separate physical tensor (vmap) can simply replace it.
Code that searches a tensor's marks walks ``state.inner``.

A few native functions take no marked tensor and still answer to the transforms (see
:func:`route_unmarked`): random creation inside ``vmap`` follows its ``randomness``, and
``Function.apply`` inside any ``engine.func`` transform checks the Function's style. They are
routed while a counter is positive (open vmap levels; open ``engine.func`` levels), which
:func:`push` and :func:`pop` keep.
"""

from __future__ import annotations

import functools

from engine import _C


class Interpreter:
    """One open transform: its level and how it runs an operation on its tensors."""

    level: int = 0
    # An engine.func transform (grad, vjp, jvp, vmap...), as opposed to forward_ad's dual_level.
    functorch: bool = False
    # Random creation functions called while this interpreter is open come to it (vmap).
    takes_random: bool = False
    # Python-level operations computed from values (``values_op``) come to it (vmap).
    takes_values_ops: bool = False

    def process(self, func: object, args: tuple, kwargs: dict) -> object:
        """Runs native ``func(*args, **kwargs)`` where some arguments carry this level's state."""
        raise NotImplementedError

    def on_dead_state(self, func: object, args: tuple, kwargs: dict) -> object:  # pragma: no cover
        raise NotImplementedError


_open: dict[int, Interpreter] = {}
_counter = 0


def push(interpreter: Interpreter) -> int:
    """Opens ``interpreter`` at a level above every open one and returns that level."""
    global _counter
    _counter += 1
    interpreter.level = _counter
    _open[_counter] = interpreter
    _C._enter_transform()
    _count_routes()
    return _counter


def pop(interpreter: Interpreter) -> None:
    """Closes ``interpreter``; tensors still marked with its level are left to their transform."""
    if _open.pop(interpreter.level, None) is not None:
        _C._exit_transform()
        _count_routes()


# Conditions of _C._route_unmarked: which counter a routed function needs to be positive.
FUNCTORCH = 0  # an engine.func transform is open
RANDOM = 1  # an interpreter that takes random creation (vmap) is open

_unmarked: dict[int, object] = {}  # id(native function) -> handler(func, args, kwargs)


def _count_routes() -> None:
    _C._set_route_counter(FUNCTORCH, sum(1 for i in _open.values() if i.functorch))
    _C._set_route_counter(RANDOM, sum(1 for i in _open.values() if i.takes_random))


def route_unmarked(func: object, condition: int, handler: object) -> None:
    """Sends calls of native ``func`` to ``handler(func, args, kwargs)`` while ``condition``'s
    counter is positive, whether or not an argument is marked; ``handler`` runs ``func`` itself
    with :func:`call_unrouted`."""
    _C._route_unmarked(func, condition)
    target = func.__func__ if hasattr(func, "__func__") else func
    _unmarked[id(target)] = handler


def call_unrouted(func: object, *args: object, **kwargs: object) -> object:
    """``func(*args, **kwargs)`` past the routing of :func:`route_unmarked` (once)."""
    return _C._call_unrouted(func, *args, **kwargs)


def is_open(level: int) -> bool:
    """Whether the transform at ``level`` is still open."""
    return level in _open


def current(kind: type | None = None) -> Interpreter | None:
    """The innermost open interpreter (of class ``kind`` if given)."""
    for level in sorted(_open, reverse=True):
        if kind is None or isinstance(_open[level], kind):
            return _open[level]
    return None


def state_of(value: object) -> object:
    """The transform state attached to ``value`` if it is a marked tensor, else None."""
    if isinstance(value, _C.Tensor):
        return _C._transform_state(value)
    return None


def _states(args: tuple, kwargs: dict):
    for value in (*args, *kwargs.values()):
        if isinstance(value, (list, tuple)):
            for item in value:
                state = state_of(item)
                if state is not None:
                    yield item, state
        else:
            state = state_of(value)
            if state is not None:
                yield value, state


def dispatch(func: object, args: tuple, kwargs: dict) -> object:
    """Called by the native module for ``func(*args, **kwargs)`` when an argument is marked."""
    top = None
    marked = False
    for tensor, state in _states(args, kwargs):
        marked = True
        interpreter = _open.get(state.level)
        if interpreter is None:
            # The tensor outlived its transform: its owner decides (a dual tensor becomes a plain
            # one; a batched tensor that escaped vmap is an error).
            state.on_level_closed(tensor)
            continue
        if top is None or interpreter.level > top.level:
            top = interpreter
    if top is None:
        if _meta_dispatch.wants(func, args, kwargs):
            return _meta_dispatch.run(func, args, kwargs)
        if not marked:
            handler = _unmarked.get(id(func))
            if handler is not None:
                return handler(func, args, kwargs)
            if _meta_dispatch.is_factory(func):  # device="cpu" under a meta default device
                return call_unrouted(func, *args, **kwargs)
        return func(*args, **kwargs)
    return top.process(func, args, kwargs)


class paused:
    """Runs a block with transform dispatch off on this thread (native calls see plain tensors)."""

    def __enter__(self) -> None:
        self._previous = _C._set_transform_dispatch_paused(True)

    def __exit__(self, *exc: object) -> None:
        _C._set_transform_dispatch_paused(self._previous)


_C._set_transform_handler(dispatch)

from engine import _meta_dispatch  # noqa: E402 - the meta device shares this door

_meta_dispatch.register_factories()


def values_op(func: object) -> object:
    """Decorates an operation engine writes in Python and computes from its tensors' values
    (through NumPy: sorting, selection, data-dependent shapes). Such code cannot run on a tensor
    batched by vmap, whose values are not one sample's: while a transform is open and the
    innermost interpreter among the arguments takes these operations, the call goes to it like a
    native call does (vmap batches it by rule, or one sample at a time). Elsewhere, it is the
    plain function, one dict test more."""

    @functools.wraps(func)
    def op(*args: object, **kwargs: object) -> object:
        if _meta_dispatch.in_use[0] and _meta_dispatch.has_meta(args, kwargs):
            return _meta_dispatch.run_values_op(func, args, kwargs)
        if _open:
            top = None
            for _tensor, state in _states(args, kwargs):
                interpreter = _open.get(state.level)
                if interpreter is not None and (top is None or interpreter.level > top.level):
                    top = interpreter
            if top is not None and top.takes_values_ops:
                return top.process(op, args, kwargs)
        return func(*args, **kwargs)

    return op
