"""``engine.func.vmap``: runs a function written for one sample over a batch of samples.

Each call of a vmapped function opens a *vmap level* (an interpreter on the transform stack of
:mod:`engine._transforms`). Inside it, a batched input is a plain ``engine.Tensor`` whose own
metadata is that of one sample (a view of sample 0 of the batch, so ``shape``, ``dtype`` and
``dim()`` are the logical ones for free) and which is *marked* with a :class:`BatchedState`
naming the level and the physical tensor, whose dimension 0 is the batch. The native module
routes every call on such a tensor to :meth:`VmapLevel.process`, which runs the op on the
physical tensors by the batching rule of :mod:`engine.func._batching_rules` (or a loop over the
batch where an op has none) and marks the results. Levels nest: a physical tensor may itself be
batched at an enclosing level, and the ops a rule runs on it reach that level the same way.
"""

from __future__ import annotations

import functools
import weakref
from typing import Any, Callable

from engine import _C, _transforms
from engine.func._tree import TreeSpec, tree_flatten, tree_unflatten

__all__ = ["vmap"]

_RANDOMNESS = ("error", "different", "same")


class BatchedState:
    """What a batched tensor carries: its level, the physical tensor (batch at dimension 0) and
    ``bdim``, where PyTorch's batched tensor holds the batch: the ``in_dims`` entry for a vmap
    input, 0 for what ops made (their batching rules move it to the front). A custom
    Function's ``vmap`` staticmethod is shown the physical tensor with the batch there."""

    __slots__ = ("level", "physical", "bdim")

    def __init__(self, level: int, physical: Any, bdim: int = 0) -> None:
        self.level = level
        self.physical = physical
        self.bdim = bdim

    def on_level_closed(self, tensor: Any) -> None:
        raise RuntimeError(
            "Either your tensor may have escaped from inside a function being vmapped and this is "
            "a user error (see https://pytorch.org/functorch/stable/ux_limitations.html), or "
            "there is an internal functorch error in `gen_vmap_plumbing` Please file an issue if "
            "it looks like the latter"
        )


class _Escaped:
    """Counts the logical tensors alive after their vmap closed; holds one transform open."""

    alive = 0

    @classmethod
    def track(cls, tensors: list) -> None:
        if cls.alive == 0:
            _C._enter_transform()
        cls.alive += len(tensors)
        for tensor in tensors:
            weakref.finalize(tensor, cls.freed).atexit = False

    @classmethod
    def freed(cls) -> None:
        cls.alive -= 1
        if cls.alive == 0:
            _C._exit_transform()


class VmapLevel(_transforms.Interpreter):
    """One open ``vmap`` call: its batch size, its randomness mode and how it runs ops."""

    functorch = True
    takes_random = True
    takes_values_ops = True

    def __init__(self, batch_size: int, randomness: str) -> None:
        self.batch_size = batch_size
        self.randomness = randomness
        self.drawing = False  # running a random creation call on behalf of its samples
        # id(unbatched grad input) -> (it, its batched copy's logical and physical tensors)
        self.substitutes: dict[int, tuple] = {}
        self.made: list = []  # weak references to the logical tensors of this level

    # ---- marking ---------------------------------------------------------------------------

    def physical(self, value: Any) -> Any:
        """The physical tensor (batch first) of a tensor batched at this level, else None."""
        if isinstance(value, _C.Tensor):
            state = _C._transform_state(value)
            if state is not None and state.level == self.level and type(state) is BatchedState:
                return state.physical
        return None

    def wrap(self, physical: Any) -> Any:
        """The logical tensor of ``physical`` (whose dimension 0 is this level's batch)."""
        with _transforms.paused():
            previous = _C.is_grad_enabled()
            _C._set_grad_enabled(False)
            try:
                if physical.shape[0] > 0:
                    logical = physical.select(0, 0)
                else:
                    logical = _C.empty(tuple(physical.shape[1:]), dtype=physical.dtype)
            finally:
                _C._set_grad_enabled(previous)
        return self.mark(logical, physical)

    def mark(self, logical: Any, physical: Any) -> Any:
        """Makes ``logical`` (a tensor of one sample's shape) the batched tensor of ``physical``."""
        _C._set_transform_state(logical, BatchedState(self.level, physical))
        self.made.append(weakref.ref(logical))
        return logical

    def close(self) -> None:
        """Closes the level; logical tensors still alive escaped the function (PyTorch raises
        when they are used): native calls keep being routed while any of them lives, so that
        their state can raise."""
        self.substitutes.clear()
        alive = [t for t in (r() for r in self.made) if t is not None]
        self.made.clear()
        if alive:
            _Escaped.track(alive)

    def wrap_result(self, value: Any) -> Any:
        """Marks every tensor of a (possibly nested) op result."""
        if isinstance(value, _C.Tensor):
            return self.wrap(value)
        if isinstance(value, (tuple, list)):
            items = [self.wrap_result(v) for v in value]
            if type(value) in (tuple, list):
                return type(value)(items)
            return (
                type(value)(items) if not hasattr(type(value), "_fields") else type(value)(*items)
            )
        return value

    def unwrap(self, value: Any) -> Any:
        """``value`` with this level's batched tensors replaced by their physical tensors."""
        physical = self.physical(value)
        if physical is not None:
            return physical
        if type(value) in (list, tuple):
            return type(value)(self.unwrap(v) for v in value)
        return value

    def sample(self, value: Any, index: int) -> Any:
        """``value`` with this level's batched tensors replaced by their sample ``index``."""
        physical = self.physical(value)
        if physical is not None:
            return physical.select(0, index)
        if type(value) in (list, tuple):
            return type(value)(self.sample(v, index) for v in value)
        return value

    def is_batched(self, value: Any) -> bool:
        if self.physical(value) is not None:
            return True
        if type(value) in (list, tuple):
            return any(self.physical(v) is not None for v in value)
        return False

    # ---- running ops -----------------------------------------------------------------------

    def process(self, func: Any, args: tuple, kwargs: dict) -> Any:
        from engine.func import _batching_rules

        return _batching_rules.run(self, func, args, kwargs)


# ---- in_dims / out_dims ----------------------------------------------------------------------


def _func_name(func: Any) -> str:
    return getattr(func, "__name__", repr(func))


def _in_dims_error(func: Any, in_dims: Any, message: str) -> ValueError:
    return ValueError(f"vmap({_func_name(func)}, in_dims={in_dims}, ...)(<inputs>): {message}")


def _broadcast_dims(dims: Any, spec: TreeSpec) -> list | None:
    """``dims`` (an int/None, or a tree that is a prefix of ``spec``) per leaf of ``spec``."""
    if not isinstance(dims, (tuple, list, dict)):
        return [dims] * _count(spec)  # a leaf of dims applies to the whole subtree
    if spec.kind is None or type(dims) is not spec.kind:
        return None
    if isinstance(dims, dict):
        if set(dims) != set(spec.keys):
            return None
        children = [dims[k] for k in spec.keys]
    else:
        children = list(dims)
        if len(children) != len(spec.children):
            return None
    out: list = []
    for child_dims, child_spec in zip(children, spec.children):
        sub = _broadcast_dims(child_dims, child_spec)
        if sub is None:
            return None
        out.extend(sub)
    return out


def _count(spec: TreeSpec) -> int:
    if spec.kind is None:
        return 1
    return sum(_count(c) for c in spec.children)


def _flat_in_dims(func: Any, in_dims: Any, args: tuple) -> tuple[list, list, TreeSpec]:
    if not (in_dims is None or isinstance(in_dims, (int, tuple)) and not isinstance(in_dims, bool)):
        raise _in_dims_error(
            func,
            in_dims,
            "expected `in_dims` to be int or a (potentially nested) tuple matching the structure "
            f"of inputs, got: {type(in_dims)}.",
        )
    if isinstance(in_dims, int) or in_dims is None:
        if in_dims is None:
            raise _in_dims_error(
                func,
                in_dims,
                "expected `in_dims` to be int or a (potentially nested) tuple matching the "
                f"structure of inputs, got: {type(in_dims)}.",
            )
    if not args:
        raise ValueError(
            f"vmap({_func_name(func)})(<inputs>): got no inputs. Maybe you forgot to add inputs, "
            "or you are trying to vmap over a function with no inputs. The latter is unsupported."
        )
    flat_args, args_spec = tree_flatten(args)
    if isinstance(in_dims, tuple) and len(in_dims) != len(args):
        flat_dims = None
    else:
        flat_dims = _broadcast_dims(in_dims, args_spec)
    if flat_dims is None:
        dims_spec = tree_flatten(in_dims)[1]
        raise _in_dims_error(
            func,
            in_dims,
            "in_dims is not compatible with the structure of `inputs`. in_dims has structure "
            f"{_spec_repr(dims_spec)} but inputs has structure {_spec_repr(args_spec)}.",
        )
    for dim, arg in zip(flat_dims, flat_args):
        if dim is None:
            continue
        if not isinstance(dim, int):
            raise _in_dims_error(
                func,
                in_dims,
                f"Got in_dim={dim} for an input but in_dim must be either an integer dimension or "
                "None.",
            )
        if not isinstance(arg, _C.Tensor):
            raise _in_dims_error(
                func,
                in_dims,
                f"Got in_dim={dim} for an input but the input is of type {type(arg)}. We cannot "
                "vmap over non-Tensor arguments, please use None as the respective in_dim",
            )
        ndim = arg.dim()
        if not -ndim <= dim < ndim:
            raise _in_dims_error(
                func,
                in_dims,
                f"Got in_dim={dim} for some input, but that input is a Tensor of dimensionality "
                f"{ndim} so expected in_dim to satisfy -{ndim} <= in_dim < {ndim}.",
            )
    return flat_args, flat_dims, args_spec


def _spec_repr(spec: TreeSpec, depth: int = 1) -> str:
    """PyTorch's TreeSpec text (what its vmap messages print)."""
    if spec.kind is None:
        return "*"
    kind = {tuple: "tuple", list: "list", dict: "dict"}.get(spec.kind, spec.kind.__name__)
    context = list(spec.keys) if spec.kind is dict else None
    children = (",\n" + "  " * depth).join(_spec_repr(c, depth + 1) for c in spec.children)
    return f"TreeSpec({kind}, {context}, [{children}])"


def _batch_size(flat_args: list, flat_dims: list) -> int:
    sizes = [arg.shape[dim] for arg, dim in zip(flat_args, flat_dims) if dim is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError(
            "vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
            f"{sizes} for the mapped dimension"
        )
    return sizes[0]


def _check_out_dims(func: Any, out_dims: Any) -> None:
    flat, _ = tree_flatten(out_dims)
    for dim in flat:
        if not (dim is None or isinstance(dim, int)):
            raise ValueError(
                f"vmap({_func_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an int, "
                "None or a python collection of ints representing where in the outputs the "
                "vmapped dimension should appear."
            )


def _move_out(level: VmapLevel, func: Any, value: Any, dim: Any) -> Any:
    """One output leaf as the caller of vmap sees it: the batch at ``dim``."""
    name = _func_name(func)
    if not isinstance(value, _C.Tensor):
        if dim is None:
            return value
        raise ValueError(
            f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(value)}. Did "
            "you mean to set out_dims= to None for output?"
        )
    physical = level.physical(value)
    if dim is None:
        if physical is not None:
            raise ValueError(
                f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None"
            )
        return value
    if physical is None:
        # Unbatched output: the same value for every sample.
        physical = value.unsqueeze(0).expand((level.batch_size, *value.shape))
    return physical.movedim(0, dim)


def _flat_out_dims(func: Any, out_dims: Any, out_spec: TreeSpec) -> list:
    if out_dims is None or isinstance(out_dims, int):
        return (
            [int(out_dims)] * _count(out_spec)
            if out_dims is not None
            else [None] * _count(out_spec)
        )
    dims = None
    if isinstance(out_dims, (tuple, list, dict)):
        if out_spec.kind is None:
            dims = None
        elif (
            isinstance(out_dims, tuple)
            and out_spec.kind is tuple
            and len(out_dims) == len(out_spec.children)
        ):
            dims = _broadcast_dims(out_dims, out_spec)
        else:
            dims = _broadcast_dims(out_dims, out_spec)
    if dims is None:
        dims_spec = tree_flatten(out_dims)[1]
        raise ValueError(
            f"vmap({_func_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims is not "
            "compatible with the structure of `outputs`. out_dims has structure "
            f"{_spec_repr(dims_spec)} but outputs has structure {_spec_repr(out_spec)}."
        )
    return dims


def _wrap_input(level: VmapLevel, arg: Any, dim: int) -> Any:
    logical = level.wrap(arg.movedim(dim, 0))
    _C._transform_state(logical).bdim = dim % arg.dim()
    return logical


def _vmap_call(func, in_dims, out_dims, randomness, args, kwargs):
    flat_args, flat_dims, args_spec = _flat_in_dims(func, in_dims, args)
    batch_size = _batch_size(flat_args, flat_dims)
    level = VmapLevel(batch_size, randomness)
    _transforms.push(level)
    try:
        batched = [
            arg if dim is None else _wrap_input(level, arg, dim)
            for arg, dim in zip(flat_args, flat_dims)
        ]
        output = func(*tree_unflatten(batched, args_spec), **kwargs)
        flat_out, out_spec = tree_flatten(output)
        dims = _flat_out_dims(func, out_dims, out_spec)
        moved = [_move_out(level, func, v, d) for v, d in zip(flat_out, dims)]
        del batched, output, flat_out
    finally:
        _transforms.pop(level)
        level.close()
    return tree_unflatten(moved, out_spec)


def _chunked_call(func, in_dims, out_dims, randomness, chunk_size, args, kwargs):
    flat_args, flat_dims, args_spec = _flat_in_dims(func, in_dims, args)
    batch_size = _batch_size(flat_args, flat_dims)
    if chunk_size >= batch_size:
        return _vmap_call(func, in_dims, out_dims, randomness, args, kwargs)
    pieces = []
    # 'same' randomness holds across chunks: each chunk starts from the same generator state.
    state = _C.default_generator.get_state() if randomness == "same" else None
    for start in range(0, batch_size, chunk_size):
        if state is not None:
            _C.default_generator.set_state(state)
        length = min(chunk_size, batch_size - start)
        chunk = [
            arg if dim is None else arg.narrow(dim, start, length)
            for arg, dim in zip(flat_args, flat_dims)
        ]
        pieces.append(
            _vmap_call(
                func, in_dims, out_dims, randomness, tree_unflatten(chunk, args_spec), kwargs
            )
        )
    flat_pieces = [tree_flatten(p) for p in pieces]
    out_spec = flat_pieces[0][1]
    dims = _flat_out_dims(func, out_dims, out_spec)
    joined = []
    for i, dim in enumerate(dims):
        values = [leaves[i] for leaves, _ in flat_pieces]
        joined.append(values[0] if dim is None else _C.cat(values, dim))
    return tree_unflatten(joined, out_spec)


def vmap(
    func: Callable,
    in_dims: Any = 0,
    out_dims: Any = 0,
    randomness: str = "error",
    *,
    chunk_size: int | None = None,
) -> Callable:
    """Vectorises ``func`` over a batch dimension of its inputs (``torch.func.vmap``).

    ``in_dims`` says which dimension of each positional input is the batch: an int for all, or a
    tree matching the inputs with an int or ``None`` (not batched) per tensor. ``out_dims`` says
    where the batch goes in each output. Keyword arguments are passed unbatched. ``randomness``
    is ``'error'`` (random ops on batched tensors raise), ``'different'`` (each sample draws its
    own numbers) or ``'same'`` (all samples share one draw). ``chunk_size`` runs the batch in
    chunks of that many samples. Nested ``vmap`` calls map over several dimensions.

    Example::

        >>> batched_dot = engine.func.vmap(engine.dot)
        >>> batched_dot(engine.ones(5, 3), engine.ones(5, 3)).shape
        engine.Size([5])
    """
    if randomness not in _RANDOMNESS:
        raise RuntimeError(
            "Only allowed values for randomness are 'error', 'different', or 'same'. Got "
            f"{randomness}"
        )
    if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")
    _check_out_dims(func, out_dims)

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        if chunk_size is not None:
            return _chunked_call(func, in_dims, out_dims, randomness, chunk_size, args, kwargs)
        return _vmap_call(func, in_dims, out_dims, randomness, args, kwargs)

    return wrapped
