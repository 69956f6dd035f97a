"""Custom ``autograd.Function`` in forward mode: ``Function.jvp`` gives the outputs' tangents.

``Function.apply`` is native; on dual arguments it arrives at the forward level's interpreter like
any native call. The forward runs on the primals through a shadow of the class's call description
whose ``forward``/``setup_context`` see a :class:`_JvpCtx`: the real ctx, plus a record of what
forward mode needs (``save_for_forward``, ``mark_non_differentiable``). Then
``jvp(ctx, *tangents)`` runs, with PyTorch's checks on what it returns.
"""

from __future__ import annotations

import types

from engine import _C
from engine.autograd import function as _function
from engine.autograd._forward_level import _size_message
from engine.autograd._jvp_rules import _FLOATING

_shadows: dict = {}  # Function class -> its shadow _FunctionInfo
_open_contexts: list = []  # ctx proxies of the applies in flight, innermost last


class _JvpCtx:
    """The ctx a Function's forward, setup_context and jvp see during a forward-mode call."""

    __slots__ = ("_ctx", "_for_forward", "_non_differentiable", "_dirty", "_in_jvp")

    def __init__(self, ctx) -> None:
        object.__setattr__(self, "_ctx", ctx)
        object.__setattr__(self, "_for_forward", None)
        object.__setattr__(self, "_non_differentiable", ())
        object.__setattr__(self, "_dirty", ())
        object.__setattr__(self, "_in_jvp", False)

    def __getattr__(self, name):
        return getattr(self._ctx, name)

    def __setattr__(self, name, value) -> None:
        setattr(self._ctx, name, value)

    def __delattr__(self, name) -> None:
        delattr(self._ctx, name)

    def save_for_forward(self, *tensors) -> None:
        """Keeps ``tensors`` for ``jvp``, where ``ctx.saved_tensors`` gives them back."""
        self._ctx.save_for_forward(*tensors)
        object.__setattr__(self, "_for_forward", tensors)

    def mark_non_differentiable(self, *tensors) -> None:
        self._ctx.mark_non_differentiable(*tensors)
        object.__setattr__(self, "_non_differentiable", tensors)

    def mark_dirty(self, *tensors) -> None:
        self._ctx.mark_dirty(*tensors)
        object.__setattr__(self, "_dirty", tensors)

    @property
    def saved_tensors(self):
        # In jvp, PyTorch gives what save_for_forward kept, and nothing else: tensors saved for
        # backward only are not there.
        if self._in_jvp:
            return tuple(self._for_forward or ())
        return self._ctx.saved_tensors


class _CaptureCtx:
    """Wraps ``forward`` or ``setup_context`` so that it receives the _JvpCtx of this call.

    It keeps the wrapped function's code object and defaults in view: the class's call
    description reads the forward's parameters from them."""

    def __init__(self, fn, first: bool) -> None:
        self.fn = fn
        self.first = first
        code = getattr(fn, "__code__", None)
        if code is not None:
            self.__code__ = code
            self.__defaults__ = fn.__defaults__

    def __call__(self, ctx, *args, **kwargs):
        if self.first:
            proxy = _JvpCtx(ctx)
            _open_contexts.append(proxy)
        else:
            proxy = _open_contexts[-1] if _open_contexts else _JvpCtx(ctx)
            if proxy._ctx is not ctx:
                proxy = _JvpCtx(ctx)
                _open_contexts.append(proxy)
        return self.fn(proxy, *args, **kwargs)


def _shadow_info(cls):
    info = _shadows.get(cls)
    if info is not None:
        return info
    forward = cls.forward
    has_setup = cls.setup_context is not _function.Function.setup_context
    code = getattr(forward, "__code__", None)
    forward_takes_ctx = not has_setup or (
        code is not None and code.co_argcount and code.co_varnames[0] == "ctx"
    )
    namespace = types.SimpleNamespace(
        __name__=cls.__name__,
        forward=_CaptureCtx(forward, True) if forward_takes_ctx else forward,
        setup_context=(
            _CaptureCtx(cls.setup_context, not forward_takes_ctx)
            if has_setup
            else _function.Function.setup_context
        ),
    )
    info = _function._make_info(namespace, cls._backward_cls)
    _shadows[cls] = info
    return info


def _overrides_setup_context(cls) -> bool:
    return cls.setup_context is not _function.Function.setup_context


def _overrides_jvp(cls) -> bool:
    return cls.jvp is not _function.Function.jvp


def apply_with_jvp(level, func, args, kwargs):
    """``cls.apply(*args)`` with dual arguments: forward on the primals, then ``cls.jvp``."""
    cls = args[0]
    inputs = args[1:]
    if not _overrides_jvp(cls) and cls.__module__.startswith("engine."):
        # engine's own operations written as Functions (linear algebra, a few losses) have
        # differentiable backwards: the generic rule derives their tangents. Those whose
        # backward is NumPy have rules of their own.
        from engine.autograd import _function_jvp_rules

        rule = _function_jvp_rules.RULES.get(cls.__name__)
        if rule is not None:
            return _function_jvp_rules.run(level, func, args, kwargs, rule)
        return level.run_generic(func, args, kwargs, cls.__name__)
    if level.transform and not _overrides_setup_context(cls):
        # engine.func.jvp is a function transform: PyTorch's rule for those.
        raise RuntimeError(
            "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, "
            "jacrev, ...), it must override the setup_context staticmethod. For more details, "
            "please see https://pytorch.org/docs/main/notes/extending.func.html"
        )
    taken = level.take(args, kwargs)
    tangents = {id(value): state.tangent for value, state in taken}
    depth = len(_open_contexts)
    real_info = cls.__dict__.get("_engine_info")
    try:
        cls._engine_info = _shadow_info(cls)
        try:
            out = func(*args, **kwargs)
        finally:
            cls._engine_info = real_info
        # The ctx forward saw (a forward without __code__ has none recorded: a bare one).
        ctx = _open_contexts[depth] if len(_open_contexts) > depth else _JvpCtx(_BareCtx())
        del _open_contexts[depth:]
        if not _overrides_jvp(cls):
            raise NotImplementedError(
                "You must implement the jvp function for custom autograd.Function to use it with "
                "forward mode AD."
            )
        grad_inputs = [
            # PyTorch's convention: zeros for a tensor without a tangent, None for non-tensors.
            (tangents[id(x)] if id(x) in tangents else _C.zeros_like(x))
            if isinstance(x, _C.Tensor) and x.dtype in _FLOATING
            else None
            for x in inputs
        ]
        # Versions of the given tangents: the jvp of an in-place forward must update its
        # input's tangent in place.
        versions = {id(t): t._version for t in tangents.values() if isinstance(t, _C.Tensor)}
        object.__setattr__(ctx, "_in_jvp", True)
        try:
            result = cls.jvp(ctx, *grad_inputs)
        finally:
            object.__setattr__(ctx, "_in_jvp", False)
    finally:
        del _open_contexts[depth:]
        level.give_back(taken)
    outs = out if isinstance(out, tuple) else (out,)
    result = result if isinstance(result, tuple) else (result,)
    if len(result) != len(outs):
        raise RuntimeError(
            "Function's jvp returned an invalid number of forward gradients (expected "
            f"{len(outs)} but got {len(result)})"
        )
    non_differentiable = {id(t) for t in ctx._non_differentiable}
    dirty = {id(t) for t in ctx._dirty}
    tensor_inputs = [x for x in inputs if isinstance(x, _C.Tensor)]
    for i, (o, t) in enumerate(zip(outs, result)):
        differentiable = (
            isinstance(o, _C.Tensor) and id(o) not in non_differentiable and o.dtype in _FLOATING
        )
        if not differentiable:
            if t is not None:
                raise RuntimeError(
                    f"Function's jvp returned a gradient at position {i}, but  the corresponding "
                    "forward output is not a differentiable Tensor.You should return None at "
                    "that position instead."
                )
            continue
        if t is None:
            continue
        if not isinstance(t, _C.Tensor) or t.dtype not in _FLOATING:
            raise RuntimeError("Expected both tensor and its forward grad to be floating point")
        if tuple(t.shape) != tuple(o.shape):
            raise RuntimeError(_size_message(o, t))
        if id(o) in dirty:
            _check_dirty_tangent(level, o, t, tangents, versions, tensor_inputs)
            continue
        source = _view_source(o, tensor_inputs)
        if source is not None:
            given = tangents.get(id(source))
            if given is None:
                # A view of an input without a tangent gets one: as an in-place write would.
                level.set_tangent(o, t, in_place=True)
                continue
            _check_view_tangent(t, given)
        level.set_tangent(o, t)
    return out


def _check_dirty_tangent(level, out, tangent, tangents, versions, tensor_inputs) -> None:
    """An input the forward modified in place (mark_dirty): jvp must update that input's
    tangent in place and return it, or give one to an input that had none."""
    if not any(out is x for x in tensor_inputs):
        raise RuntimeError(
            "Only input Tensors should be given to ctx.mark_dirty(). If a Tensor is not an input, "
            "there is no need to pass it to mark_dirty()."
        )
    given = tangents.get(id(out))
    if given is None:
        level.set_tangent(out, tangent, in_place=True)
        return
    if tangent._version == versions.get(id(given)):
        raise RuntimeError(
            "An inplace custom Function is not modifying the forward mode gradients inplace. If "
            "the forward is modifying an input inplace, then the jvp function must modify the "
            "corresponding gradient inplace."
        )
    if tangent is not given:
        raise RuntimeError(
            "An inplace custom Function is not returning the forward mode gradients as-is. If "
            "the forward is modifying an input inplace, then the jvp function must modify the "
            "gradient inplace and return it as-is."
        )


def _view_source(out, tensor_inputs):
    """The input ``out`` is a view of (or shares a base with), or None. An input returned
    as-is counts: PyTorch treats it as ``input.view_as(input)``."""
    # (``_base`` rather than ``_is_view()``: on a dual tensor of this level the latter answers
    # for its primal)
    base = out._base
    if base is None:
        # Without an input that requires grad, the input comes back as a plain alias.
        for x in tensor_inputs:
            if out is x or _same_alias(out, x):
                return x
        return None
    for x in tensor_inputs:
        if x is base or x._base is base:
            return x
    return None


def _same_alias(a, b) -> bool:
    return (
        a.data_ptr() == b.data_ptr()
        and a.dtype == b.dtype
        and a.shape == b.shape
        and a.stride() == b.stride()
    )


def _check_view_tangent(tangent, given) -> None:
    """The tangent of a view of an input must be a view of that input's tangent (or of its
    base), so that in-place updates of one reach the other, as PyTorch requires."""
    if tangent._base is None:
        raise RuntimeError(
            "A custom Function's forward is returning a view (or an input as-is) but the jvp is "
            "not returning a view."
        )
    if given._base is not None:
        if tangent._base is not given._base:
            raise RuntimeError(
                "A custom Function is returning a view but the jvp is not returning a view of the "
                "same base as the given grad input."
            )
    elif tangent._base is not given:
        raise RuntimeError(
            "A custom Function is returning a view but the jvp is not returning a view of the "
            "given grad input."
        )


class _BareCtx:
    """Stands in for a ctx that was not recorded: attributes only, nothing saved."""

    saved_tensors = ()
