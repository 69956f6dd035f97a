"""Custom ``autograd.Function`` under ``vmap``: the ``vmap`` staticmethod or a generated rule.

A Function applied to batched tensors needs ``setup_context`` (PyTorch's rule for every function
transform; engine's tutorial style ``forward(ctx, ...)`` + ``setup_context`` counts) and either

* a ``vmap(info, in_dims, *args)`` staticmethod, called with the physical tensors (batch at the
  ``in_dims`` entry, ``None`` for unbatched arguments) and returning ``(output, out_dims)``; or
* ``generate_vmap_rule = True``: ``forward`` + ``setup_context`` run under a vmap of their own,
  and so does ``backward``, inside one autograd node on the physical tensors. What ``forward``
  saves for backward is kept as physical tensors and re-batched when ``backward`` runs.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine import _C, _transforms
from engine.autograd.function import Function
from engine.func._tree import tree_flatten, tree_unflatten

_DOCS = "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"


class VmapInfo(NamedTuple):
    """What a Function's ``vmap`` staticmethod is told about the vmap it runs under."""

    batch_size: int
    randomness: str


def _overrides(cls: type, name: str) -> bool:
    for klass in cls.__mro__:
        if klass is Function:
            return False
        if name in vars(klass):
            return True
    return False


def apply_rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """The batching rule of ``Function.apply`` (native ``_function_apply(cls, *args)``)."""
    cls, inputs = args[0], args[1:]
    if not isinstance(cls, type) or not issubclass(cls, Function):
        return NotImplemented
    if cls.__module__.startswith("engine.") and not _overrides(cls, "vmap"):
        return NotImplemented  # engine's own Functions: one sample at a time (the fallback)
    if not _overrides(cls, "setup_context"):
        raise RuntimeError(
            "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, "
            "jacrev, ...), it must override the setup_context staticmethod. " + _DOCS
        )
    custom = _overrides(cls, "vmap")
    generate = bool(getattr(cls, "generate_vmap_rule", False))
    if custom and generate:
        raise RuntimeError(
            f"You tried to vmap over {cls.__name__}, but it has both generate_vmap_rule=True and "
            "an overridden vmap staticmethod. Please set generate_vmap_rule=False or delete the "
            "overridden vmap staticmethod to avoid ambiguity. " + _DOCS
        )
    if custom:
        return _custom_vmap(level, cls, inputs, kwargs)
    if generate:
        return _generated_vmap(level, cls, inputs, kwargs)
    raise RuntimeError(
        f"You tried to vmap over {cls.__name__}, but it does not have vmap support. Please "
        "override and implement the vmap staticmethod or set generate_vmap_rule=True. " + _DOCS
    )


def _custom_vmap(level: Any, cls: type, inputs: tuple, kwargs: dict) -> Any:
    # Each batched input as PyTorch shows it: the physical tensor with the batch where its
    # batched tensor holds it (a vmap input's in_dims entry), that position in in_dims.
    in_dims, physical = [], []
    for a in inputs:
        p = level.physical(a)
        if p is None:
            in_dims.append(None)
            physical.append(level.unwrap(a))
            continue
        bdim = _C._transform_state(a).bdim
        in_dims.append(bdim)
        physical.append(p.movedim(0, bdim) if bdim else p)
    in_dims = tuple(in_dims)
    result = cls.vmap(VmapInfo(level.batch_size, level.randomness), in_dims, *physical, **kwargs)
    if not (isinstance(result, tuple) and len(result) == 2):
        raise RuntimeError(
            "Expected the vmap staticmethod to have two returns, an output and out_dims with "
            f"pytree structure compatible with the output. Got a {type(result)} instead"
        )
    output, out_dims = result
    flat_out, out_spec = tree_flatten(output)
    from engine.func._vmap import _broadcast_dims, _spec_repr

    flat_dims = _broadcast_dims(out_dims, out_spec)
    if flat_dims is None:
        raise RuntimeError(
            "The autograd.Function's vmap staticmethod returned an incompatible (output, "
            f"out_dims) tuple. Expected out_dims={out_dims} to be compatible with the structure "
            f"of `output`. out_dims has structure {_spec_repr(tree_flatten(out_dims)[1])} but "
            f"output has structure {_spec_repr(out_spec)}. " + _DOCS
        )
    wrapped = [
        value
        if dim is None or not isinstance(value, _C.Tensor)
        else level.wrap(value.movedim(dim, 0))
        for value, dim in zip(flat_out, flat_dims)
    ]
    return tree_unflatten(wrapped, out_spec)


# ---- generate_vmap_rule -------------------------------------------------------------------------


class _InnerCtx:
    """The ``ctx`` a Function sees when its forward/backward run under a generated vmap rule."""

    def __init__(self, needs_input_grad: tuple) -> None:
        self.needs_input_grad = needs_input_grad
        self.materialize_grads = True
        self._saved: tuple = ()
        self._frozen: list = []
        self._level: Any = None

    def save_for_backward(self, *tensors: Any) -> None:
        self._saved = tensors

    def save_for_forward(self, *tensors: Any) -> None:
        self.saved_for_forward = tensors

    def mark_non_differentiable(self, *tensors: Any) -> None:
        pass

    def mark_dirty(self, *tensors: Any) -> None:
        pass

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value

    @property
    def saved_tensors(self) -> tuple:
        if self._level is None:
            return self._saved
        return tuple(self._level.wrap(p) if batched else p for p, batched in self._frozen)

    def freeze(self, level: Any) -> None:
        """Keeps what forward saved as physical tensors (its vmap level is about to close)."""
        self._frozen = [
            (level.physical(t), True) if level.physical(t) is not None else (t, False)
            for t in self._saved
        ]
        self._saved = ()

    def thaw(self, level: Any) -> None:
        self._level = level


def _takes_ctx(forward: Any) -> bool:
    code = getattr(forward, "__code__", None)
    return bool(code and code.co_argcount and code.co_varnames[0] == "ctx")


def _run_batched(batch_size: int, randomness: str, physical: list, batched: list, body: Any):
    """Runs ``body(level, *logical)`` under a fresh vmap level over ``physical`` (batch first
    where ``batched``); returns the level and the body's flat outputs made physical again."""
    from engine.func._vmap import VmapLevel

    level = VmapLevel(batch_size, randomness)
    _transforms.push(level)
    try:
        logical = [level.wrap(p) if b else p for p, b in zip(physical, batched)]
        output = body(level, *logical)
        flat, spec = tree_flatten(output)
        out = []
        for value in flat:
            p = level.physical(value)
            if p is None and isinstance(value, _C.Tensor):
                p = value.unsqueeze(0).expand((batch_size, *value.shape))
            out.append(value if p is None else p)
        del logical, output, flat
    finally:
        _transforms.pop(level)
        level.close()
    return out, spec


class _GeneratedVmap(Function):
    """One autograd node on the physical tensors whose forward and backward are the user
    Function's, each run under vmap."""

    @staticmethod
    def forward(ctx, plan, *physical):
        cls, batched, size, randomness = plan["cls"], plan["batched"], plan["size"], plan["rnd"]
        inner = _InnerCtx(tuple(isinstance(p, _C.Tensor) and p.requires_grad for p in physical))

        def body(level, *logical):
            if _takes_ctx(cls.forward):
                output = cls.forward(inner, *logical)
            else:
                output = cls.forward(*logical)
            cls.setup_context(inner, logical, output)
            inner.freeze(level)
            return output

        flat, spec = _run_batched(size, randomness, list(physical), batched, body)
        plan["spec"] = spec
        ctx.plan, ctx.inner = plan, inner
        return tuple(flat) if len(flat) > 1 or spec.kind is not None else flat[0]

    @staticmethod
    def backward(ctx, *grads):
        plan, inner = ctx.plan, ctx.inner
        size, randomness, batched = plan["size"], plan["rnd"], plan["batched"]
        cls = plan["cls"]

        def body(level, *logical_grads):
            inner.thaw(level)
            result = cls.backward(inner, *logical_grads)
            return result if isinstance(result, tuple) else (result,)

        flat, _ = _run_batched(size, randomness, list(grads), [True] * len(grads), body)
        out: list = [None]
        for g, was_batched in zip(flat, batched):
            if g is not None and isinstance(g, _C.Tensor) and not was_batched:
                g = g.sum(0)  # an unbatched input served every sample
            out.append(g)
        return tuple(out)


def _generated_vmap(level: Any, cls: type, inputs: tuple, kwargs: dict) -> Any:
    if kwargs:
        return NotImplemented
    batched = [level.physical(a) is not None for a in inputs]
    physical = [level.unwrap(a) for a in inputs]
    plan = {"cls": cls, "batched": batched, "size": level.batch_size, "rnd": level.randomness}
    result = _GeneratedVmap.apply(plan, *physical)
    flat = list(result) if isinstance(result, tuple) else [result]
    wrapped = [level.wrap(p) if isinstance(p, _C.Tensor) else p for p in flat]
    return tree_unflatten(wrapped, plan["spec"])
