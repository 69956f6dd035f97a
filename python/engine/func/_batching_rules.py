"""Batching rules: how each native op runs on batched tensors, in ONE table keyed by op name.

A rule gets the open :class:`~engine.func._vmap.VmapLevel`, the native function called and its
arguments (logical tensors, some batched at this level) and returns the (marked) result. Physical
tensors always carry the batch at dimension 0, so a rule only moves the op's own dimension
arguments past it. Most ops are one line in :data:`RULES`, made by a rule *kind*:

* ``elementwise``: batch dims at the front, logical ranks padded with size-1 dims so that
  broadcasting lines samples up; in-place variants refuse to write batched values into an
  unbatched tensor, as PyTorch does;
* ``dim_op``: reductions and other ops taking ``dim`` (int, tuple or ``None`` = every logical dim);
* views and shape ops, the matmul family, ``cat``/``stack``, ``*_like`` creation and random ops;
* ``logical`` (metadata read off the logical tensor) and ``physical_attr`` (autograd state read
  off the physical one).

An op without a rule (or whose rule declines a case by returning ``NotImplemented``) runs through
:func:`fallback`: once per sample, results stacked, as PyTorch's own fallback does (with its
performance warning).
"""

from __future__ import annotations

import sys
from typing import Any, Callable

from engine import _C, _transforms

_Rule = Callable[..., Any]

# ---- which op is this? ---------------------------------------------------------------------------

_keys: dict[int, str] = {}


def _build_keys() -> None:
    for name, value in vars(_C.Tensor).items():
        if type(value).__name__ == "instancemethod":
            _keys[id(value.__func__)] = "Tensor." + name
        elif isinstance(value, property):
            if type(value.fget).__name__ == "builtin_function_or_method":
                _keys[id(value.fget)] = "get:" + name
            if type(value.fset).__name__ == "builtin_function_or_method":
                _keys[id(value.fset)] = "set:" + name


def op_key(func: Any) -> str:
    """``'Tensor.<name>'`` for a Tensor method, ``'get:<name>'``/``'set:<name>'`` for a property
    accessor, ``'<name>'`` for a module function."""
    if not _keys:
        _build_keys()
    key = _keys.get(id(func))
    if key is None:
        key = getattr(func, "__name__", "")
        _keys[id(func)] = key
    return key


def _rule_for(key: str) -> _Rule | None:
    rule = RULES.get(key)
    if rule is None and key.startswith("Tensor."):
        rule = RULES.get(key[7:])
    return rule


def run(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """Runs ``func(*args, **kwargs)`` at ``level`` by its batching rule or the fallback."""
    key = op_key(func)
    if key != "_run_backward" and any(
        k > level.level and hasattr(v, "own") for k, v in _transforms._open.items()
    ):
        args = tuple(_per_sample_input(level, a) for a in args)
        kwargs = {k: _per_sample_input(level, v) for k, v in kwargs.items()}
    rule = _rule_for(key)
    if rule is not None:
        result = rule(level, func, args, kwargs)
        if result is not NotImplemented:
            return result
    return fallback(level, func, args, kwargs, key)


def _per_sample_input(level: Any, value: Any) -> Any:
    """An unbatched input of a grad transform opened inside this vmap, replaced by a batched
    copy of itself (expanded, a leaf of its own) the first time an op meets it: the gradient
    with respect to that copy is then the per-sample gradient, from one backward pass."""
    if type(value) in (list, tuple):
        return type(value)(_per_sample_input(level, v) for v in value)
    if not isinstance(value, _C.Tensor) or _C._transform_state(value) is not None:
        return value
    found = level.substitutes.get(id(value))
    if found is not None:
        return found[1]
    if not value.requires_grad or value.grad_fn is not None:
        return value
    owners = [
        v
        for k, v in _transforms._open.items()
        if k > level.level and id(value) in getattr(v, "own", ())
    ]
    if not owners:
        return value
    size = level.batch_size
    physical = value.detach().unsqueeze(0).expand((size, *value.shape)).requires_grad_()
    logical = level.wrap(physical)
    level.substitutes[id(value)] = (value, logical, physical)
    # The copy stands for the grad level's own input: results tied only to it leave that level
    # detached, as results tied only to the input itself do.
    for owner in owners:
        owner.own[id(physical)] = physical
        owner.own[id(logical)] = logical
    return logical


def _op_name(key: str) -> str:
    return key.split(":")[-1].split(".")[-1]


# ---- the fallback: one sample at a time ----------------------------------------------------------

_DATA_DEPENDENT = (
    "vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. "
    "We don't support that yet, please file an issue at https://github.com/pytorch/pytorch/issues ."
)

_INPLACE_MESSAGE = (
    "vmap: {op}(self, *extra_args) is not possible because there exists a Tensor `other` in "
    "extra_args that has more elements than `self`. This happened due to `other` being vmapped "
    "over but `self` not being vmapped over in a vmap. Please try to use out-of-place operators "
    "instead of {op}. If said operator is being called inside the PyTorch framework, please file "
    "a bug report instead."
)


def _is_inplace(name: str) -> bool:
    if name.startswith("__i") and name.endswith("__"):
        return True
    return name.endswith("_") and not name.endswith("__")


def _check_inplace(level: Any, args: tuple, kwargs: dict, op: str = "inplace arithmetic") -> bool:
    """Whether ``args[0]`` is batched; raises PyTorch's error when it is not but another is."""
    if level.physical(args[0]) is not None:
        return True
    if any(level.is_batched(a) for a in args[1:]) or any(
        level.is_batched(v) for v in kwargs.values()
    ):
        raise RuntimeError(_INPLACE_MESSAGE.format(op=op))
    return False


_warned: set[str] = set()


def _warn_fallback(name: str) -> None:
    """PyTorch's performance note, written (once per op) to stderr as its C++ warning is, not
    raised through ``warnings``."""
    if name in _warned:
        return
    _warned.add(name)
    sys.stderr.write(
        "Warning: There is a performance drop because we have not yet implemented the batching "
        f"rule for {name}. Please file us an issue on GitHub so that we can prioritize its "
        "implementation. (function warnFallback)\n"
    )


def fallback(level: Any, func: Any, args: tuple, kwargs: dict, key: str) -> Any:
    """Runs ``func`` once per sample and stacks the results (PyTorch's slow path)."""
    name = _op_name(key)
    _warn_fallback(name)
    inplace = _is_inplace(name)
    if inplace and not _check_inplace(level, args, kwargs):
        return func(*args, **kwargs)
    results = [
        func(
            *[level.sample(a, b) for a in args],
            **{k: level.sample(v, b) for k, v in kwargs.items()},
        )
        for b in range(level.batch_size)
    ]
    if inplace:
        return args[0]
    if level.batch_size == 0:
        # Nothing ran: learn the result's form from the logical tensors (paused: metadata only).
        with _transforms.paused():
            probe = func(*args, **kwargs)
        return _stack_like(level, probe, [])
    return _stack_like(level, results[0], results)


def _stack_like(level: Any, first: Any, results: list) -> Any:
    if isinstance(first, _C.Tensor):
        if not results:
            return level.wrap(_C.empty((0, *first.shape), dtype=first.dtype))
        return level.wrap(_C.stack(results))
    if isinstance(first, (tuple, list)):
        columns = [
            _stack_like(level, item, [r[i] for r in results]) for i, item in enumerate(first)
        ]
        if hasattr(type(first), "_fields") or type(first) not in (tuple, list):
            try:
                return type(first)(columns)
            except TypeError:
                return type(first)(*columns)
        return type(first)(columns)
    if first is None or all(r == first for r in results):
        return first
    raise RuntimeError(_DATA_DEPENDENT)


# ---- helpers ------------------------------------------------------------------------------------


def _logical_dim(level: Any, value: Any) -> int:
    physical = level.physical(value)
    if physical is not None:
        return physical.dim() - 1
    return value.dim() if isinstance(value, _C.Tensor) else 0


def _pad_to(physical: Any, rank: int) -> Any:
    """``physical`` (batch first) with size-1 dims after the batch up to logical ``rank``."""
    missing = rank - (physical.dim() - 1)
    if missing <= 0:
        return physical
    shape = tuple(physical.shape)
    return physical.reshape((shape[0], *([1] * missing), *shape[1:]))


def _wrap_dim(dim: Any, rank: int) -> int | None:
    """``dim`` wrapped into ``[0, rank)``, or None when it is not a valid dim of that rank."""
    if not isinstance(dim, int) or isinstance(dim, bool):
        return None
    bound = max(rank, 1)
    if not -bound <= dim < bound:
        return None
    return dim % bound


def _batched_args(level: Any, args: tuple, kwargs: dict) -> bool:
    return any(level.is_batched(a) for a in args) or any(
        level.is_batched(v) for v in kwargs.values()
    )


# ---- rule kinds ---------------------------------------------------------------------------------


def logical(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """Metadata (shape, dtype, dim, ...) read off the logical tensor itself."""
    with _transforms.paused():
        return func(*args, **kwargs)


def physical_attr(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """Autograd state (requires_grad, grad_fn, ...) read off the physical tensor."""
    return level.wrap_result(func(level.unwrap(args[0]), *args[1:], **kwargs))


def physical_setter(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    return func(level.unwrap(args[0]), *args[1:], **kwargs)


def physical_inplace(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``requires_grad_``/``retain_grad``: applied to the physical tensor; returns the logical."""
    physical = level.physical(args[0])
    if physical is None:
        return NotImplemented
    func(physical, *args[1:], **kwargs)
    return args[0]


def elementwise(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """n-ary elementwise op (broadcasting, type promotion)."""
    tensors = [a for a in (*args, *kwargs.values()) if isinstance(a, _C.Tensor)]
    rank = max(_logical_dim(level, t) for t in tensors)

    def align(value: Any) -> Any:
        physical = level.physical(value)
        return value if physical is None else _pad_to(physical, rank)

    result = func(*[align(a) for a in args], **{k: align(v) for k, v in kwargs.items()})
    # A 0-d sample is physically 1-d: with other tensors of another dtype around, promotion
    # would treat it as a dimensioned tensor, so the result's dtype is taken from the samples.
    if len(tensors) > 1 and any(
        level.physical(t) is not None and _logical_dim(level, t) == 0 for t in tensors
    ):
        with _transforms.paused():
            expected = func(*args, **kwargs)
        result = _cast_like(result, expected)
    wrapped = level.wrap_result(result)
    if len(tensors) == 1 and op_key(func).split(".")[-1] not in _SCALAR_OPERAND_OPS:
        _keep_bdim(tensors[0], wrapped)
    return wrapped


# Arithmetic whose Python-number operand PyTorch wraps as a tensor: its binary batching rule moves
# the batch to the front, where unary rules (exp, pow(x, 2), clamp, ...) leave it in place.
_SCALAR_OPERAND_OPS = set(
    """add sub subtract mul multiply div divide true_divide floor_divide remainder fmod
    __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __floordiv__
    __rfloordiv__ __mod__ __rmod__ __rpow__ where""".split()
)


def _keep_bdim(source: Any, result: Any) -> None:
    """Gives ``result`` the batch position PyTorch's batched ``source`` has (``BatchedState``'s
    ``bdim``, what a custom Function's vmap staticmethod is shown)."""
    if not isinstance(result, _C.Tensor):
        return
    state, result_state = _C._transform_state(source), _C._transform_state(result)
    if (
        state is not None
        and result_state is not None
        and hasattr(state, "bdim")
        and state.level == result_state.level
    ):
        result_state.bdim = state.bdim


def _cast_like(result: Any, expected: Any) -> Any:
    if isinstance(result, _C.Tensor):
        return result if result.dtype == expected.dtype else result.to(expected.dtype)
    if isinstance(result, (tuple, list)):
        return type(result)(_cast_like(r, e) for r, e in zip(result, expected))
    return result


def _broadcast_shapes(*shapes: tuple) -> list:
    rank = max(len(s) for s in shapes)
    out = [1] * rank
    for shape in shapes:
        for i, size in enumerate(shape, rank - len(shape)):
            out[i] = size if out[i] == 1 else out[i]
    return out


def inplace_elementwise(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """In-place elementwise op: the batched ``self`` is written through its physical tensor.
    An unbatched ``self`` cannot hold batched values: PyTorch's broadcast error (``copy_``:
    its vmap message)."""
    if level.physical(args[0]) is None and "copy_" not in op_key(func):
        others = [a for a in (*args[1:], *kwargs.values()) if level.physical(a) is not None]
        if others:
            rank = max(_logical_dim(level, a) for a in (args[0], *others))
            with _transforms.paused():
                own = tuple(args[0].shape)
            shapes = [tuple(_pad_to(level.physical(a), rank).shape) for a in others]
            raise RuntimeError(
                f"output with shape {list(own)} doesn't match the broadcast shape "
                f"{_broadcast_shapes(own, *shapes)}"
            )
    if not _check_inplace(level, args, kwargs):
        return func(*args, **kwargs)
    self_rank = _logical_dim(level, args[0])

    def align(value: Any) -> Any:
        physical = level.physical(value)
        return value if physical is None else _pad_to(physical, self_rank)

    func(
        level.physical(args[0]),
        *[align(a) for a in args[1:]],
        **{k: align(v) for k, v in kwargs.items()},
    )
    return args[0]


def unary_like(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """An op on ``args[0]`` alone whose result keeps the batch first (clone, ``*_like``, ...)."""
    physical = level.physical(args[0])
    if physical is None or _batched_args(level, args[1:], kwargs):
        return NotImplemented
    wrapped = level.wrap_result(func(physical, *args[1:], **kwargs))
    _keep_bdim(args[0], wrapped)
    return wrapped


def alias_subclass_rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``x[...]`` / ``x[:, :]`` of a batched tensor: an alias of the whole physical tensor, the
    batch where it was."""
    physical = level.physical(args[1]) if len(args) == 2 and not kwargs else None
    if physical is None:
        return NotImplemented
    wrapped = level.wrap_result(func(type(physical), physical))
    _keep_bdim(args[1], wrapped)
    return wrapped


def new_creation(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``self.new_zeros(size)`` and its kin on a batched ``self``: one fresh tensor per sample
    (a batched result, as PyTorch's rule gives, so a backward that fills it per sample works)."""
    physical = level.physical(args[0])
    if physical is None or _batched_args(level, args[1:], kwargs):
        return NotImplemented
    sample = func(physical, *args[1:], **kwargs)
    return level.wrap(sample.unsqueeze(0).expand((level.batch_size, *sample.shape)).contiguous())


def dim_op(
    pos: int = 1,
    keyword: str = "dim",
    none: str = "tuple",
    default: Any = None,
    multi: bool = False,
) -> _Rule:
    """An op on ``args[0]`` taking a ``dim`` at position ``pos`` (or keyword ``keyword``).

    ``none`` says what an absent/``None`` dim means: ``'tuple'`` every logical dim (the op takes
    a tuple), ``'flatten'`` reduce the flattened sample (dim 1 after flattening), ``'fallback'``
    not handled here. ``default`` is the op's own default when it is not None (``amax``'s ``()``).
    ``multi``: several int dims follow at ``pos`` (``transpose(d0, d1)``).
    """

    def rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
        physical = level.physical(args[0])
        if physical is None or _batched_args(level, args[1:], kwargs):
            return NotImplemented
        rank = physical.dim() - 1
        args = list(args)
        if multi:
            count = multi if isinstance(multi, int) and not isinstance(multi, bool) else 2
            dims = args[pos : pos + count]
            wrapped = [_wrap_dim(d, rank) for d in dims]
            if len(dims) != count or rank == 0 or any(w is None for w in wrapped):
                return NotImplemented
            args[pos : pos + count] = [w + 1 for w in wrapped]
            return level.wrap_result(func(physical, *args[1:], **kwargs))
        positional = len(args) > pos
        dim = args[pos] if positional else kwargs.get(keyword, default)
        if dim is None or (default is not None and dim == default):
            if none == "tuple" and rank > 0:
                new = tuple(range(1, rank + 1))
            elif (
                none == "flatten"
                and not kwargs.get("keepdim", False)
                and (len(args) <= pos + 1 or args[pos + 1] is False)
            ):
                physical = physical.reshape((physical.shape[0], -1))
                new = 1
            elif none == "tuple" and rank == 0:
                return NotImplemented
            else:
                return NotImplemented
        elif isinstance(dim, (tuple, list)):
            if rank == 0:
                return NotImplemented
            wrapped = [_wrap_dim(d, rank) for d in dim]
            if any(w is None for w in wrapped):
                return NotImplemented
            new = tuple(w + 1 for w in wrapped)
        else:
            wrapped = _wrap_dim(dim, rank)
            if wrapped is None or rank == 0:
                return NotImplemented
            new = wrapped + 1
        if positional:
            args[pos] = new
        else:
            kwargs = {**kwargs, keyword: new}
        return level.wrap_result(func(physical, *args[1:], **kwargs))

    return rule


def max_min(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``max``/``min``: of everything, along a dim, or elementwise against another tensor."""
    other = args[1] if len(args) > 1 else kwargs.get("other")
    if isinstance(other, _C.Tensor):
        return elementwise(level, func, args, kwargs)
    if len(args) == 1 and not kwargs:
        physical = level.physical(args[0])
        if physical is None or physical.dim() == 1 and physical.shape[0] == 0:
            return NotImplemented
        flat = physical.reshape((physical.shape[0], -1))
        if flat.shape[1] == 0:
            return NotImplemented
        reduce = flat.amax if "max" in op_key(func) else flat.amin
        return level.wrap(reduce(1))
    return _MAX_MIN_DIM(level, func, args, kwargs)


_MAX_MIN_DIM = dim_op(none="fallback")


# ---- views and shape ops --------------------------------------------------------------------------


def _sizes(args: tuple, start: int = 1) -> tuple | None:
    rest = args[start:]
    if len(rest) == 1 and isinstance(rest[0], (tuple, list)):
        rest = tuple(rest[0])
    if all(isinstance(s, int) and not isinstance(s, bool) for s in rest):
        return tuple(rest)
    return None


def _shape_rule(build: Callable[[Any, tuple, int], Any]) -> _Rule:
    """A shape op on ``args[0]`` whose size arguments follow as varargs or one sequence."""

    def rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
        physical = level.physical(args[0])
        sizes = _sizes(args)
        if physical is None or kwargs or sizes is None:
            return NotImplemented
        return level.wrap(build(physical, sizes, physical.dim() - 1))

    return rule


def _view(physical: Any, sizes: tuple, rank: int) -> Any:
    return physical.view((physical.shape[0], *sizes))


def _reshape(physical: Any, sizes: tuple, rank: int) -> Any:
    return physical.reshape((physical.shape[0], *sizes))


def _expand(physical: Any, sizes: tuple, rank: int) -> Any:
    if len(sizes) < rank:
        raise RuntimeError(
            f"expand: the number of sizes provided ({len(sizes)}) must be greater or equal to "
            f"the number of dimensions in the tensor ({rank})"
        )
    return _pad_to(physical, len(sizes)).expand((physical.shape[0], *sizes))


def _permute(physical: Any, dims: tuple, rank: int) -> Any:
    wrapped = [_wrap_dim(d, rank) for d in dims]
    if len(dims) != rank or any(w is None for w in wrapped):
        return None
    return physical.permute((0, *[w + 1 for w in wrapped]))


def permute(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    physical = level.physical(args[0])
    dims = _sizes(args)
    if physical is None or kwargs or dims is None:
        return NotImplemented
    result = _permute(physical, dims, physical.dim() - 1)
    return NotImplemented if result is None else level.wrap(result)


def squeeze(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    physical = level.physical(args[0])
    if physical is None:
        return NotImplemented
    dim = args[1] if len(args) > 1 else kwargs.get("dim")
    if dim is None:
        shape = tuple(physical.shape)
        return level.wrap(physical.reshape((shape[0], *[s for s in shape[1:] if s != 1])))
    return dim_op(none="fallback")(level, func, args, kwargs)


def unsqueeze(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    physical = level.physical(args[0])
    dim = args[1] if len(args) > 1 else kwargs.get("dim")
    if physical is None:
        return NotImplemented
    wrapped = _wrap_dim(dim, physical.dim())  # the result has one dim more than the sample
    if wrapped is None:
        return NotImplemented
    return level.wrap(physical.unsqueeze(wrapped + 1))


def transpose_2d(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``t()``: transposes a matrix sample, leaves vectors and scalars as they are."""
    physical = level.physical(args[0])
    if physical is None:
        return NotImplemented
    if physical.dim() < 3:
        return level.wrap(physical)
    if physical.dim() > 3:
        return NotImplemented
    return level.wrap(physical.transpose(1, 2))


def like_other(method: str) -> _Rule:
    """``view_as``/``reshape_as``/``expand_as``/``type_as``: the other tensor's logical shape."""

    def rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
        if len(args) != 2 or kwargs or not isinstance(args[1], _C.Tensor):
            return NotImplemented
        target = args[1]  # batched or not, its own metadata is the logical shape
        with _transforms.paused():
            shape = tuple(target.shape)
        return getattr(args[0], method)(shape)

    return rule


def slice_rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``_slice(t, dim, start, stop, step)``."""
    return dim_op(none="fallback")(level, func, args, kwargs)


def index_rule(pos_dim: int = 1, pos_index: int = 2) -> _Rule:
    """``index_select``/``gather``-like ops: dim shifted; a batched index falls back."""
    return dim_op(none="fallback")


# ---- matmul family --------------------------------------------------------------------------------


def _matmul_physical(level: Any, a: Any, b: Any) -> Any:
    pa, pb = level.physical(a), level.physical(b)
    if pa is None and pb is None:
        return _C.matmul(a, b)
    ra = _logical_dim(level, a)
    rb = _logical_dim(level, b)
    if ra == 0 or rb == 0:
        return None
    squeeze_a = squeeze_b = False
    if pa is not None and ra == 1:
        pa = pa.unsqueeze(-2)
        squeeze_a = True
    if pb is not None and rb == 1:
        pb = pb.unsqueeze(-1)
        squeeze_b = True
    if pa is not None and pb is not None:
        rank = max(pa.dim(), pb.dim()) - 1
        pa, pb = _pad_to(pa, rank), _pad_to(pb, rank)
    elif pa is not None:
        if rb >= 2:
            pa = _pad_to(pa, max(pa.dim() - 1, rb))
        pb = b
    else:
        if ra >= 2:
            pb = _pad_to(pb, max(pb.dim() - 1, ra))
        pa = a
    result = _C.matmul(pa, pb)
    if squeeze_b:
        result = result.squeeze(-1)
    if squeeze_a:
        result = result.squeeze(-1 if squeeze_b else -2)
    return result


def matmul_rule(ranks: tuple | None = None, swap: bool = False) -> _Rule:
    """``matmul`` (and ``mm``/``bmm``/``mv``/``dot`` once their sample ranks are checked)."""

    def rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
        if len(args) != 2 or kwargs:
            return NotImplemented
        a, b = (args[1], args[0]) if swap else args
        if not isinstance(a, _C.Tensor) or not isinstance(b, _C.Tensor):
            return NotImplemented
        if ranks is not None and (
            _logical_dim(level, a) != ranks[0] or _logical_dim(level, b) != ranks[1]
        ):
            return NotImplemented
        if a.dtype != b.dtype:
            return NotImplemented  # the per-sample error message
        result = _matmul_physical(level, a, b)
        return NotImplemented if result is None else level.wrap(result)

    return rule


def outer(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    if len(args) != 2 or kwargs or _logical_dim(level, args[0]) != 1:
        return NotImplemented
    if _logical_dim(level, args[1]) != 1:
        return NotImplemented
    return args[0].unsqueeze(-1) * args[1]


def linear(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    x, weight = args[0], args[1] if len(args) > 1 else kwargs.get("weight")
    bias = args[2] if len(args) > 2 else kwargs.get("bias")
    if weight is None or _logical_dim(level, weight) not in (1, 2):
        return NotImplemented
    out = x.matmul(weight.t())
    return out if bias is None else out + bias


# ---- joining --------------------------------------------------------------------------------------


def _join(stacking: bool) -> _Rule:
    def rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
        tensors = args[0] if args else kwargs.get("tensors")
        dim = args[1] if len(args) > 1 else kwargs.get("dim", 0)
        if not isinstance(tensors, (list, tuple)) or not tensors:
            return NotImplemented
        ranks = {_logical_dim(level, t) for t in tensors}
        if len(ranks) != 1:
            return NotImplemented
        rank = ranks.pop()
        wrapped = _wrap_dim(dim, rank + 1 if stacking else rank)
        if wrapped is None or (not stacking and rank == 0):
            return NotImplemented
        size = level.batch_size
        physical = []
        for t in tensors:
            p = level.physical(t)
            if p is None:
                p = t.unsqueeze(0).expand((size, *t.shape))
            physical.append(p)
        return level.wrap(func(physical, wrapped + 1))

    return rule


def unbind_like(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``split``/``chunk``/``unbind``-style ops returning several tensors along a dim."""
    return dim_op(none="fallback")(level, func, args, kwargs)


# ---- data access ----------------------------------------------------------------------------------


_PLUMBING = (
    "engine._transforms",
    "engine.func._vmap",
    "engine.func._batching_rules",
    "engine.func._routes",
)


def _called_inside_engine() -> bool:
    """Whether the Python code that made this native call is engine's own (not the user's):
    engine's Python ops validate arguments by reading values (``bool``, ``item``), which vmap
    answers when every sample agrees."""
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module not in _PLUMBING:
            return module.startswith("engine.") and not module.startswith("engine.func")
        frame = frame.f_back
    return False


def _agreed_value(level: Any, func: Any, args: tuple, kwargs: dict, message: str) -> Any:
    """The value every sample gives (engine-internal reads), else PyTorch's error."""
    if not _called_inside_engine() or level.batch_size == 0:
        raise RuntimeError(message)
    values = [
        func(
            *[level.sample(a, b) for a in args],
            **{k: level.sample(v, b) for k, v in kwargs.items()},
        )
        for b in range(level.batch_size)
    ]
    if any(v != values[0] for v in values[1:]):
        raise RuntimeError(message)
    return values[0]


_ITEM = (
    "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
    "calling .item() on a Tensor, please try to rewrite what you're doing with other "
    "operations. If error is occurring somewhere inside PyTorch internals, please file a bug "
    "report."
)


def item(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    return _agreed_value(level, func, args, kwargs, _ITEM)


def data_dependent(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    return _agreed_value(level, func, args, kwargs, _DATA_DEPENDENT)


def no_storage(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    if _called_inside_engine():
        raise RuntimeError(
            "vmap: this operation is computed by engine from the tensor's values in Python "
            "(NumPy) and has no batching rule yet; call it outside vmap or loop over the batch"
        )
    raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")


# ---- gather / scatter / index ops -----------------------------------------------------------------


def _with_batch(level: Any, value: Any) -> Any:
    physical = level.physical(value)
    if physical is not None:
        return physical
    return value.unsqueeze(0).expand((level.batch_size, *value.shape))


def gather_like(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``gather``/``scatter``/``scatter_add``(self, dim, index, src): every tensor gets the batch
    (index and src included: their ranks match self's), dim shifted past it."""
    if kwargs or len(args) < 3 or not isinstance(args[2], _C.Tensor):
        return NotImplemented
    inplace = _is_inplace(_op_name(op_key(func)))
    if inplace and not _check_inplace(level, args, kwargs):
        return func(*args, **kwargs)
    rank = _logical_dim(level, args[0])
    dim = _wrap_dim(args[1], rank)
    if dim is None or rank == 0 or _logical_dim(level, args[2]) != rank:
        return NotImplemented
    rest = [_with_batch(level, a) if isinstance(a, _C.Tensor) else a for a in args[2:]]
    result = func(_with_batch(level, args[0]), dim + 1, *rest)
    return args[0] if inplace else level.wrap(result)


def index_like(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``index_select``/``index_add``/``index_copy``(self, dim, index, ...): a 1-d index shared
    by the samples (a batched index falls back), other tensors get the batch."""
    if kwargs or len(args) < 3 or level.is_batched(args[2]):
        return NotImplemented
    inplace = _is_inplace(_op_name(op_key(func)))
    if inplace and not _check_inplace(level, args, kwargs):
        return func(*args, **kwargs)
    rank = _logical_dim(level, args[0])
    dim = _wrap_dim(args[1], rank)
    if dim is None or rank == 0:
        return NotImplemented
    rest = [_with_batch(level, a) if isinstance(a, _C.Tensor) else a for a in args[3:]]
    result = func(_with_batch(level, args[0]), dim + 1, args[2], *rest)
    return args[0] if inplace else level.wrap(result)


# ---- randomness ------------------------------------------------------------------------------------

_RANDOM_ERROR = (
    "vmap: called random operation while in randomness error mode. Please either use the 'same' "
    "or 'different' randomness flags on vmap or perform the randomness operation out of vmap"
)


def random_op(per_sample: _Rule) -> _Rule:
    """A random op: PyTorch's error in ``'error'`` mode; ``'different'`` draws for the whole
    batch at once (``per_sample`` is the rule that does); ``'same'`` replays one draw for every
    sample (the generator reseeded identically before each)."""

    def rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
        if level.randomness == "error":
            raise RuntimeError(_RANDOM_ERROR)
        if level.randomness == "different":
            return _drawn(level, per_sample, (level, func, args, kwargs), {})
        return _drawn(level, _same_randomness, (level, func, args, kwargs), {})

    return rule


_DIFFERENT_INPLACE = (
    "vmap: Cannot ask for different inplace randomness on an unbatched tensor. This will appear "
    "like same randomness. If this is necessary for your usage, please file an issue with "
    "functorch."
)


def _drawn(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``func(*args, **kwargs)`` with ``level`` marked as having drawn: the call reaches the
    enclosing vmaps (or the generator itself), not this one again."""
    level.drawing = True
    try:
        return func(*args, **kwargs)
    finally:
        level.drawing = False


def random_creation(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``rand``/``randn``/``randint`` (no batched argument: routed while a vmap is open) and the
    in-place ``normal_``/``uniform_`` on an unbatched tensor, by ``level.randomness``: ``'error'``
    raises; ``'same'`` draws once, an unbatched result every sample shares; ``'different'`` draws
    ``batch_size`` samples at once, a batched result."""
    if level.randomness == "error":
        raise RuntimeError(_RANDOM_ERROR)
    if level.randomness == "same":
        return _drawn(level, func, args, kwargs)
    size = level.batch_size
    name = op_key(func)
    if name.startswith("Tensor."):
        # An unbatched tensor filled in place cannot hold one draw per sample (PyTorch's error)
        # unless engine's own sampler made it to fill it (normal(0, 1, size), bernoulli_):
        # then it becomes batched.
        target = args[0]
        if not _called_inside_engine():
            raise RuntimeError(_DIFFERENT_INPLACE)
        with _transforms.paused():
            physical = _C.empty((size, *target.shape), dtype=target.dtype)
        _drawn(level, func, (physical, *args[1:]), kwargs)
        return level.mark(target, physical)
    if name == "randint":
        if "size" in kwargs:
            kwargs = {**kwargs, "size": (size, *kwargs["size"])}
        else:
            args = (*args[:-1], (size, *args[-1]))
    elif "size" in kwargs:
        kwargs = {**kwargs, "size": (size, *kwargs["size"])}
    else:
        sizes = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
        args = ((size, *sizes),)
    return level.wrap(_drawn(level, func, args, kwargs))


def _draw_seed() -> int:
    return int(_C.randint(0, 2**62, ()).item())


def _same_randomness(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    generator = _C.default_generator
    seed, after = _draw_seed(), _draw_seed()
    inplace = _is_inplace(_op_name(op_key(func)))
    if inplace and not _check_inplace(level, args, kwargs, "random"):
        return func(*args, **kwargs)
    results = []
    try:
        for b in range(level.batch_size):
            generator.manual_seed(seed)
            results.append(
                func(
                    *[level.sample(a, b) for a in args],
                    **{k: level.sample(v, b) for k, v in kwargs.items()},
                )
            )
    finally:
        generator.manual_seed(after)
    if inplace:
        return args[0]
    if not results:
        return NotImplemented
    return _stack_like(level, results[0], results)


# ---- autograd -------------------------------------------------------------------------------------


def run_backward(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``_C._run_backward`` (autograd.grad/backward) on batched outputs or inputs.

    Gradients with respect to batched inputs come from one backward pass over the physical
    graph (samples are independent). An unbatched input with batched outputs needs one gradient
    per sample: those take one backward pass per sample (one-hot cotangents).
    """
    outputs, grads, keep_graph, create_graph, inputs, allow_unused, accumulate = args
    if accumulate:
        return NotImplemented
    size = level.batch_size
    phys_out, phys_grads = [], []
    for out, grad in zip(outputs, grads):
        po = level.physical(out)
        pg = level.physical(grad) if isinstance(grad, _C.Tensor) else None
        if po is None and pg is not None:
            return _backward_per_cotangent(level, func, args)
        if po is not None and grad is None:
            pg = _C.ones_like(po)  # the implicit 1 of a scalar sample, per sample
        elif po is not None and pg is None:
            pg = grad.unsqueeze(0).expand((size, *grad.shape))
        phys_out.append(out if po is None else po)
        phys_grads.append(grad if pg is None else pg)
    batched_out = any(level.physical(o) is not None for o in outputs)
    phys_in = [level.unwrap(i) for i in inputs]
    # Inputs replaced by batched copies (_per_sample_input): differentiate the copy, and the
    # original too in case some path reaches it outside the ops vmap saw.
    copied = {
        k: level.substitutes[id(i)][2]
        for k, i in enumerate(inputs)
        if isinstance(i, _C.Tensor) and id(i) in level.substitutes
    }
    per_sample = [
        batched_out and level.physical(i) is None and isinstance(i, _C.Tensor) and k not in copied
        for k, i in enumerate(inputs)
    ]
    loop = any(per_sample) and size > 0
    targets = [copied.get(k, p) for k, p in enumerate(phys_in)] + [phys_in[k] for k in copied]
    raw = list(
        func(
            phys_out,
            phys_grads,
            keep_graph or loop or bool(copied),
            create_graph,
            targets,
            True,
            False,
        )
    )
    result = raw[: len(inputs)]
    for extra, k in zip(raw[len(inputs) :], copied):
        if extra is not None:
            per_sample[k] = True  # reached outside vmap's ops too: add the per-sample remainder
            loop = size > 0
    for k, inp in enumerate(inputs):
        if (level.physical(inp) is not None or k in copied) and result[k] is not None:
            result[k] = level.wrap(result[k])
        elif result[k] is None and not allow_unused and not per_sample[k]:
            raise RuntimeError(
                "One of the differentiated Tensors appears to not have been used in the graph. "
                "Set allow_unused=True if this is the desired behavior."
            )
    if loop:
        columns: dict[int, list] = {k: [] for k, flag in enumerate(per_sample) if flag}
        for b in range(size):
            onehot = []
            for po, pg in zip(phys_out, phys_grads):
                if level.physical(po) is None and po.dim() == 0:
                    onehot.append(pg)
                    continue
                mask = _C.zeros((size,), dtype=po.dtype)
                mask[b] = 1
                g = _C.ones_like(po) if pg is None else pg
                onehot.append(g * mask.reshape((size, *[1] * (po.dim() - 1))))
            targets = [phys_in[k] for k in columns]
            grads_b = func(
                phys_out, onehot, keep_graph or b + 1 < size, create_graph, targets, True, False
            )
            for k, g in zip(columns, grads_b):
                columns[k].append(_C.zeros_like(phys_in[k]) if g is None else g)
        for k, column in columns.items():
            stacked = _C.stack(column)
            if k in copied and result[k] is not None:
                stacked = stacked + level.physical(result[k])
            result[k] = level.wrap(stacked)
    return result


def _backward_per_cotangent(level: Any, func: Any, args: tuple) -> Any:
    """Unbatched outputs with batched cotangents (``vmap`` of a ``vjp_fn``): one backward pass
    per sample of the cotangents (the autograd graph itself is not batched)."""
    outputs, grads, keep_graph, create_graph, inputs, allow_unused, _ = args
    size = level.batch_size
    phys_in = [level.unwrap(i) for i in inputs]
    columns: list[list] = [[] for _ in inputs]
    for b in range(size):
        grads_b = [level.sample(g, b) if isinstance(g, _C.Tensor) else g for g in grads]
        result = func(
            [level.sample(o, b) for o in outputs],
            grads_b,
            keep_graph or b + 1 < size,
            create_graph,
            phys_in,
            allow_unused,
            False,
        )
        for column, g in zip(columns, result):
            column.append(g)
    out = []
    for k, column in enumerate(columns):
        if size == 0 or all(g is None for g in column):
            out.append(None if allow_unused else level.wrap(_C.zeros((0, *inputs[k].shape))))
            continue
        column = [_C.zeros_like(phys_in[k]) if g is None else g for g in column]
        stacked = _C.stack(column)
        if level.physical(inputs[k]) is not None:
            stacked = stacked.diagonal(0, 0, 1).movedim(-1, 0)  # sample b's grad w.r.t. sample b
        out.append(level.wrap(stacked))
    return out


def leading_batch(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """Ops that treat every leading dimension as a batch already (the LAPACK drivers): each
    tensor argument gets the vmap batch in front (unbatched ones expanded)."""
    if kwargs:
        return NotImplemented
    new = [_with_batch(level, a) if isinstance(a, _C.Tensor) else a for a in args]
    return level.wrap_result(func(*new))


def merged_batch(spatial: Callable[[tuple], int]) -> _Rule:
    """Convolution/pooling ops on ``(N, C, *spatial)`` or ``(C, *spatial)`` samples: the vmap
    batch is merged into N (or becomes it), so one native call does the whole batch."""

    def rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
        x = level.physical(args[0])
        if x is None or kwargs or _batched_args(level, args[1:], {}):
            return NotImplemented
        dims = spatial(args)
        rank = x.dim() - 1
        if rank == dims + 2:
            size, n = x.shape[0], x.shape[1]
            out = func(x.reshape((size * n, *x.shape[2:])), *args[1:])

            def unmerge(t: Any) -> Any:
                return t.reshape((size, n, *t.shape[1:]))
        elif rank == dims + 1:
            out = func(x, *args[1:])

            def unmerge(t: Any) -> Any:
                return t
        else:
            return NotImplemented
        if isinstance(out, tuple):
            return level.wrap_result(tuple(unmerge(t) for t in out))
        return level.wrap(unmerge(out))

    return rule


def mark_views(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``_mark_multi_output_views``: marks the physical views instead."""
    return func(level.unwrap(args[0]), *args[1:], **kwargs)


_NORM_DIMS = dim_op(pos=2, none="flatten")


def norm(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    p = args[1] if len(args) > 1 else kwargs.get("p", "fro")
    if isinstance(p, str) and p != "fro":
        return NotImplemented
    return _NORM_DIMS(level, func, args, kwargs)


def function_apply(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``Function.apply`` on batched tensors: see :mod:`engine.func._vmap_function`."""
    from engine.func._vmap_function import apply_rule

    return apply_rule(level, func, args, kwargs)


# ---- the table ------------------------------------------------------------------------------------

_ELEMENTWISE = """
abs absolute acos arccos acosh arccosh asin arcsin asinh arcsinh atan arctan atanh arctanh ceil
cos cosh deg2rad digamma erf erfc erfinv exp exp2 expm1 fix floor frac i0 lgamma log log10 log1p
log2 logical_not bitwise_not neg negative rad2deg reciprocal relu round rsqrt sigmoid sign signbit
sin sinc sinh sqrt tan tanh trunc isfinite isinf isnan logit _special_i1 _normal_cdf frexp
add sub subtract mul multiply div divide true_divide floor_divide remainder fmod pow atan2 arctan2
hypot copysign nextafter xlogy logaddexp logaddexp2 maximum minimum fmax fmin heaviside gcd lcm
igamma igammac polygamma eq ne not_equal lt less le less_equal gt greater ge greater_equal
logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor bitwise_left_shift
bitwise_right_shift lerp where clamp clip clamp_min clamp_max
gelu silu mish hardsigmoid hardswish log_sigmoid elu leaky_relu softplus hardtanh threshold
__abs__ __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__
__floordiv__ __rfloordiv__ __mod__ __rmod__ __pow__ __rpow__ __and__ __rand__ __or__ __ror__
__xor__ __rxor__ __lshift__ __rlshift__ __rshift__ __rrshift__ __eq__ __ne__ __lt__ __le__
__gt__ __ge__ __neg__ __pos__ __invert__
"""

_UNARY_LIKE = """
clone contiguous detach to float double half bfloat16 bool byte char short int long cpu type_as
zeros_like ones_like full_like empty_like
"""

_NEW_CREATION = "new_zeros new_ones new_empty new_full"

_INPLACE = """
abs_ absolute_ acos_ arccos_ acosh_ asin_ arcsin_ asinh_ atan_ arctan_ atanh_ ceil_ cos_ cosh_
erf_ exp_ exp2_ expm1_ fix_ floor_ log_ log10_ log1p_ log2_ logical_not_ bitwise_not_ neg_
negative_ reciprocal_ relu_ round_ rsqrt_ sigmoid_ sign_ sin_ sinh_ sqrt_ tan_ tanh_ trunc_
add_ sub_ subtract_ mul_ multiply_ div_ divide_ true_divide_ floor_divide_ remainder_ fmod_ pow_
atan2_ arctan2_ maximum_ minimum_ lerp_ clamp_ clip_ bitwise_and_ bitwise_or_ bitwise_xor_
bitwise_left_shift_ bitwise_right_shift_ copy_ fill_ zero_ elu_ leaky_relu_ silu_ hardtanh_
__iadd__ __isub__ __imul__ __itruediv__ __ifloordiv__ __imod__ __iand__ __ior__ __ixor__
__ilshift__ __irshift__
"""

_LOGICAL = """
get:_shape get:dtype get:ndim get:output_nr Tensor.dim Tensor.ndimension Tensor.numel
Tensor.nelement Tensor.stride Tensor.is_contiguous Tensor.is_floating_point Tensor.element_size
Tensor.__len__ Tensor._is_view numel get:_base Tensor.__hash__ is_tensor result_type can_cast
"""

RULES: dict[str, _Rule] = {}
RULES.update({name: elementwise for name in _ELEMENTWISE.split()})
RULES.update({name: unary_like for name in _UNARY_LIKE.split()})
RULES.update({name: new_creation for name in _NEW_CREATION.split()})
RULES.update({name: inplace_elementwise for name in _INPLACE.split()})
RULES.update({name: logical for name in _LOGICAL.split()})
RULES.update(
    {
        # autograd state lives on the physical tensor
        "get:requires_grad": physical_attr,
        "get:is_leaf": physical_attr,
        "get:grad_fn": physical_attr,
        "get:grad": physical_attr,
        "get:data": physical_attr,
        "get:_version": physical_attr,
        "get:retains_grad": physical_attr,
        "set:requires_grad": physical_setter,
        "set:grad": NotImplemented,
        "Tensor.requires_grad_": physical_inplace,
        "Tensor.retain_grad": physical_inplace,
        "Tensor.detach_": physical_inplace,
        "_run_backward": run_backward,
        "_function_apply": function_apply,
        "_mark_multi_output_views": mark_views,
        "norm": norm,
        "convolution": merged_batch(lambda a: a[1].dim() - 2),
        "_max_pool": merged_batch(lambda a: len(a[1])),
        "_avg_pool": merged_batch(lambda a: len(a[1])),
        "_adaptive_max_pool": merged_batch(lambda a: len(a[1])),
        "_adaptive_avg_pool": merged_batch(lambda a: len(a[1])),
        "_im2col": merged_batch(lambda a: 2),
        "_col2im": merged_batch(lambda a: 1),
        # reductions and dim-taking ops
        "sum": dim_op(),
        "mean": dim_op(),
        "prod": dim_op(none="flatten"),
        "amax": dim_op(default=()),
        "amin": dim_op(default=()),
        "all": dim_op(none="flatten"),
        "any": dim_op(none="flatten"),
        "argmax": dim_op(none="flatten"),
        "argmin": dim_op(none="flatten"),
        "logsumexp": dim_op(),
        "std": dim_op(),
        "var": dim_op(),
        "max": max_min,
        "min": max_min,
        "cumsum": dim_op(none="fallback"),
        "cumprod": dim_op(none="fallback"),
        "select": dim_op(none="fallback"),
        "narrow": dim_op(none="fallback"),
        "_slice": dim_op(none="fallback"),
        "unfold": dim_op(none="fallback"),
        "transpose": dim_op(multi=2),
        "gather": gather_like,
        "scatter": gather_like,
        "scatter_add": gather_like,
        "index_select": index_like,
        "index_add": index_like,
        "index_copy": index_like,
        "diagonal": NotImplemented,
        # views and shape ops
        "reshape": _shape_rule(_reshape),
        "view": _shape_rule(_view),
        "expand": _shape_rule(_expand),
        "permute": permute,
        "squeeze": squeeze,
        "unsqueeze": unsqueeze,
        "t": transpose_2d,
        "view_as": like_other("view"),
        "reshape_as": like_other("reshape"),
        "expand_as": like_other("expand"),
        # matmul family
        "matmul": matmul_rule(),
        "__matmul__": matmul_rule(),
        "__rmatmul__": matmul_rule(swap=True),
        "mm": matmul_rule((2, 2)),
        "bmm": matmul_rule((3, 3)),
        "mv": matmul_rule((2, 1)),
        "dot": matmul_rule((1, 1)),
        "outer": outer,
        "ger": outer,
        "linear": linear,
        # joining
        "cat": _join(stacking=False),
        "stack": _join(stacking=True),
        # data access
        "Tensor.item": item,
        "Tensor.__bool__": data_dependent,
        "Tensor.__float__": data_dependent,
        "Tensor.__int__": data_dependent,
        "Tensor.__index__": data_dependent,
        "Tensor.tolist": no_storage,
        "Tensor.numpy": no_storage,
        "Tensor.data_ptr": no_storage,
        # random ops
        "Tensor.uniform_": random_op(inplace_elementwise),
        "Tensor.normal_": random_op(inplace_elementwise),
    }
)
RULES.update({name: leading_batch for name in dir(_C) if name.startswith("_lapack_")})
RULES = {k: v for k, v in RULES.items() if v is not NotImplemented}


def _diagonal(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    physical = level.physical(args[0])
    if physical is None or kwargs:
        return NotImplemented
    offset = args[1] if len(args) > 1 else 0
    dims = [args[2] if len(args) > 2 else 0, args[3] if len(args) > 3 else 1]
    rank = physical.dim() - 1
    wrapped = [_wrap_dim(d, rank) for d in dims]
    if rank < 2 or any(w is None for w in wrapped):
        return NotImplemented
    return level.wrap(physical.diagonal(offset, wrapped[0] + 1, wrapped[1] + 1))


RULES["diagonal"] = _diagonal
RULES["_alias_subclass"] = alias_subclass_rule


# ---- operations engine computes from values (engine._transforms.values_op) -------------------------
#
# sort, quantile, unique, ... are Python code reading their tensor's values through NumPy. They
# reach vmap through their decorator; these rules run them once on the physical tensor with the
# dim shifted past the batch. Without a rule they run one sample at a time (the fallback); where
# each sample's result would have its own shape, PyTorch's error.


def values_dim_op(
    pos: int, keyword: str = "dim", default: Any = -1, flatten: bool = False
) -> _Rule:
    """An operation on ``args[0]`` taking a ``dim`` at position ``pos`` (or ``keyword``). With
    ``flatten``, ``dim=None`` means the flattened sample: its values only, as the op returns."""

    def rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
        physical = level.physical(args[0])
        if physical is None or _batched_args(level, args[1:], kwargs):
            return NotImplemented
        rank = physical.dim() - 1
        positional = len(args) > pos
        dim = args[pos] if positional else kwargs.get(keyword, default)
        if dim is None:
            if not flatten or physical.numel() == 0 or kwargs or len(args) > pos + 1:
                return NotImplemented
            flat = physical.reshape((physical.shape[0], -1))
            return level.wrap(func(flat, 1).values)
        wrapped = _wrap_dim(dim, rank)
        if wrapped is None or rank == 0:
            return NotImplemented  # the per-sample call raises the op's own error
        args = [physical, *args[1:]]
        if positional:
            args[pos] = wrapped + 1
        else:
            kwargs = {**kwargs, keyword: wrapped + 1}
        return level.wrap_result(func(*args, **kwargs))

    return rule


def msort_rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    physical = level.physical(args[0])
    if physical is None or physical.dim() < 2 or kwargs or len(args) != 1:
        return NotImplemented
    from engine._sorting import sort

    return level.wrap(sort(physical, 1).values)


def quantile_rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``quantile``/``nanquantile(input, q, dim=None, keepdim=False, *, interpolation)``: a q
    tensor puts its dimension first, before the batch, which is moved back to the front."""
    physical = level.physical(args[0])
    if physical is None or _batched_args(level, args[1:], kwargs) or len(args) < 2:
        return NotImplemented
    if "out" in kwargs or len(args) > 4:
        return NotImplemented
    rank = physical.dim() - 1
    q = args[1]
    dim = args[2] if len(args) > 2 else kwargs.get("dim")
    keepdim = args[3] if len(args) > 3 else kwargs.get("keepdim", False)
    rest = {k: v for k, v in kwargs.items() if k == "interpolation"}
    if len(rest) != len(kwargs) - ("dim" in kwargs) - ("keepdim" in kwargs):
        return NotImplemented
    size = physical.shape[0]
    if dim is None:
        if rank == 0 or physical.numel() == 0:
            return NotImplemented
        result = func(physical.reshape((size, -1)), q, 1, False, **rest)
    else:
        wrapped = _wrap_dim(dim, rank)
        if wrapped is None or rank == 0:
            return NotImplemented
        result = func(physical, q, wrapped + 1, keepdim, **rest)
    vector_q = isinstance(q, _C.Tensor) and q.dim() == 1
    if vector_q:
        result = result.movedim(1, 0)
    if dim is None and keepdim:
        result = result.reshape((size, *result.shape[1 : 1 + int(vector_q)], *[1] * rank))
    return level.wrap(result)


_MASKED_SELECT = (
    "vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot support "
    "this because for each batch this would return a differently shaped Tensor. Please file an "
    "issue at https://github.com/pytorch/pytorch/issues if you need this feature."
)


def masked_select_rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """A batched input with a mask shared by every sample: the same count of elements each."""
    mask = args[1] if len(args) > 1 else kwargs.get("mask")
    if level.is_batched(mask):
        raise RuntimeError(_MASKED_SELECT)
    physical = level.physical(args[0])
    if physical is None or len(args) != 2 or kwargs or physical.shape[0] == 0:
        return NotImplemented
    if not isinstance(mask, _C.Tensor) or mask.dtype != _C.bool:
        return NotImplemented
    rank = max(physical.dim() - 1, mask.dim())
    logical = tuple(_pad_to(physical, rank).shape[1:])
    shape = _broadcast_shapes(logical, tuple(mask.shape))
    size = physical.shape[0]
    try:
        x = _pad_to(physical, rank).expand((size, *shape))
        m = mask.expand(shape).unsqueeze(0).expand((size, *shape))
    except RuntimeError:
        return NotImplemented  # the per-sample call raises the broadcast error
    return level.wrap(func(x, m).reshape((size, -1)))


_BOOLEAN_MASK = (
    "vmap: We do not support batching operators that can support dynamic shape. Attempting to "
    "batch over indexing with a boolean mask."
)


def getitem_rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``tensor[key]``: basic indexing of a batched tensor is native ops (the plain function);
    a batched index tensor goes one sample at a time; a batched boolean mask is PyTorch's error
    (every sample would select its own count)."""
    key = args[1] if len(args) > 1 else None
    items = key if isinstance(key, tuple) else (key,)
    batched_index = False
    for item in items:
        if isinstance(item, _C.Tensor) and level.is_batched(item):
            if item.dtype == _C.bool:
                raise RuntimeError(_BOOLEAN_MASK)
            batched_index = True
    if batched_index or kwargs:
        return NotImplemented
    return func.__wrapped__(*args)


def dynamic_shape(aten: str) -> _Rule:
    """Operations whose output shape depends on the values: PyTorch's error under vmap."""

    def rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
        name = aten(args, kwargs) if callable(aten) else aten
        raise RuntimeError(
            "vmap: We do not support batching operators that can output dynamic shape. Attempted "
            f"to vmap over aten::{name}. Please file an issue at "
            "https://github.com/pytorch/pytorch/issues if you need this feature."
        )

    return rule


def _unique_name(args: tuple, kwargs: dict) -> str:
    dim = args[4] if len(args) > 4 else kwargs.get("dim")
    return "_unique2" if dim is None else "unique_dim"


def scatter_reduce_rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``scatter_reduce(input, dim, index, src, reduce, *, include_self)``: index and src have
    the input's rank; every tensor gets the batch, dim shifted past it."""
    if len(args) != 5 or set(kwargs) - {"include_self"}:
        return NotImplemented
    rank = _logical_dim(level, args[0])
    dim = _wrap_dim(args[1], rank)
    if dim is None or rank == 0 or any(_logical_dim(level, a) != rank for a in args[2:4]):
        return NotImplemented
    if not all(isinstance(a, _C.Tensor) for a in (args[0], args[2], args[3])):
        return NotImplemented
    batched = [_with_batch(level, a) for a in (args[0], args[2], args[3])]
    return level.wrap(func(batched[0], dim + 1, batched[1], batched[2], args[4], **kwargs))


def index_reduce_rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """``index_reduce(input, dim, index, source, reduce, *, include_self)``: a 1-d index shared
    by the samples (a batched one goes one sample at a time)."""
    if len(args) != 5 or set(kwargs) - {"include_self"} or level.is_batched(args[2]):
        return NotImplemented
    rank = _logical_dim(level, args[0])
    dim = _wrap_dim(args[1], rank)
    if dim is None or rank == 0 or _logical_dim(level, args[3]) != rank:
        return NotImplemented
    x, source = _with_batch(level, args[0]), _with_batch(level, args[3])
    return level.wrap(func(x, dim + 1, args[2], source, args[4], **kwargs))


def every_leading_dim(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """Ops that treat every leading dimension as a batch already (``matrix_exp``)."""
    physical = level.physical(args[0])
    if physical is None or len(args) != 1 or kwargs or physical.dim() < 3:
        return NotImplemented
    return level.wrap(func(physical))


def elementwise_in(pos: int) -> _Rule:
    """Ops elementwise in the tensor at ``pos`` against an unbatched lookup table (``isin``'s
    test elements, ``bucketize``'s boundaries, ``searchsorted``'s 1-d sorted sequence)."""

    def rule(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
        if len(args) <= pos:
            return NotImplemented
        physical = level.physical(args[pos])
        others = [a for i, a in enumerate(args) if i != pos]
        if physical is None or _batched_args(level, tuple(others), kwargs):
            return NotImplemented
        if pos == 1 and (not isinstance(args[0], _C.Tensor) or args[0].dim() != 1):
            return NotImplemented
        new = list(args)
        new[pos] = physical
        return level.wrap(func(*new, **kwargs))

    return rule


_SAME_WITH_BATCHED_INPUT = (
    "Vmap does not currently support same randomness with a batched tensor input. Please file an "
    "issue with functorch"
)


def random_sampler(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """Samplers with a batched tensor argument (``bernoulli(p)``, ``normal(mean)``,
    ``poisson``, ``multinomial``): PyTorch's errors in ``'error'`` and ``'same'`` mode; in
    ``'different'`` mode ``bernoulli``/``normal`` run as written (their draws are batched
    creation calls), the NumPy samplers one sample at a time, each its own draw."""
    if level.randomness == "error":
        raise RuntimeError(_RANDOM_ERROR)
    if level.randomness == "same":
        raise RuntimeError(_SAME_WITH_BATCHED_INPUT)
    name = op_key(func)
    if name in ("bernoulli", "normal"):
        return func.__wrapped__(*args, **kwargs)
    return _drawn(level, fallback, (level, func, args, kwargs, name), {})


def elementwise_check(level: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    """A validation of ``args[0]``'s values that returns nothing and tests each element alone
    (nll_loss's target bounds): run once on the physical tensor, whose elements are all the
    samples' elements."""
    physical = level.physical(args[0])
    if physical is None or _batched_args(level, args[1:], kwargs):
        return NotImplemented
    return func(physical, *args[1:], **kwargs)


RULES.update(
    {
        "bernoulli": random_sampler,
        "normal": random_sampler,
        "poisson": random_sampler,
        "multinomial": random_sampler,
        "isin": elementwise_in(0),
        "bucketize": elementwise_in(0),
        "searchsorted": elementwise_in(1),
        "matrix_exp": every_leading_dim,
        "sort": values_dim_op(1),
        "argsort": values_dim_op(1),
        "msort": msort_rule,
        "topk": values_dim_op(2),
        "kthvalue": values_dim_op(2),
        "median": values_dim_op(1, default=None, flatten=True),
        "nanmedian": values_dim_op(1, default=None, flatten=True),
        "mode": values_dim_op(1),
        "logcumsumexp": values_dim_op(1, default=None),
        "cummax": values_dim_op(1, default=None),
        "cummin": values_dim_op(1, default=None),
        "quantile": quantile_rule,
        "nanquantile": quantile_rule,
        "masked_select": masked_select_rule,
        "getitem": getitem_rule,
        "unique": dynamic_shape(_unique_name),
        "unique_consecutive": dynamic_shape("unique_consecutive"),
        "nonzero": dynamic_shape("nonzero"),
        "scatter_reduce": scatter_reduce_rule,
        "index_reduce": index_reduce_rule,
        "_check_target_bounds": elementwise_check,
    }
)
