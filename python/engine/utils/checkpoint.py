"""Activation checkpointing (``torch.utils.checkpoint``): trade compute for memory.

A checkpointed region keeps none of the tensors its operations save for backward; when backward
needs them, the region is run again from its inputs. Two implementations, as in PyTorch:

* **reentrant** (``use_reentrant=True``): the region runs under ``no_grad`` inside a custom
  ``Function``; its ``backward`` reruns the region with grad enabled and calls backward on that
  fresh graph (a backward inside a backward, hence the name).
* **non-reentrant** (``use_reentrant=False``, recommended): the region runs normally under
  ``saved_tensors_hooks`` whose pack hook stores a small placeholder instead of each tensor; the
  first unpack reruns the region once, under hooks that hand each recomputed tensor to its
  placeholder (in the same order the forward saved them), and stops as soon as every placeholder
  still in use is filled.

With ``preserve_rng_state`` (the default) the recomputation sees the random state the forward saw,
so dropout masks agree, and the state outside is left as it was.
"""

from __future__ import annotations

import contextlib
import threading
import warnings
import weakref
from typing import Any, Callable

import engine
from engine import _C
from engine.autograd.function import Function
from engine.autograd.graph import saved_tensors_hooks

__all__ = [
    "CheckpointError",
    "CheckpointFunction",
    "GraphExecGroup",
    "check_backward_validity",
    "checkpoint",
    "checkpoint_sequential",
    "detach_variable",
    "noop_context_fn",
    "set_checkpoint_debug_enabled",
    "set_checkpoint_early_stop",
]


class CheckpointError(RuntimeError):
    """The recomputation of a checkpointed region did not save what its forward saved."""


_early_stop_override: bool | None = None
_debug_override: bool | None = None


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool):
    """Within this block, non-reentrant checkpoints made stop (or not, ``enable=False``) their
    recomputation as soon as every tensor backward needs has been recomputed, whatever their
    ``early_stop`` argument says. Only needs to be active during the forward."""
    global _early_stop_override
    previous, _early_stop_override = _early_stop_override, enable
    try:
        yield
    finally:
        _early_stop_override = previous


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled: bool | None):
    """Overrides ``debug=`` of the checkpoints made in this block (``None``: no override).
    engine's checkpoint errors read the same either way: it records no operator trace."""
    global _debug_override
    previous, _debug_override = _debug_override, enabled
    try:
        yield
    finally:
        _debug_override = previous


def check_backward_validity(inputs) -> None:
    """Warns when no tensor among ``inputs`` requires grad (a reentrant checkpoint of such
    inputs produces no gradients)."""
    if not any(isinstance(i, _C.Tensor) and i.requires_grad for i in inputs):
        warnings.warn(
            "None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2
        )


def noop_context_fn():
    """The default ``context_fn``: no context around the forward or the recomputation."""
    return contextlib.nullcontext(), contextlib.nullcontext()


def detach_variable(inputs: tuple) -> tuple:
    """``inputs`` with each tensor detached, keeping its ``requires_grad``."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(
            "Only tuple of tensors is supported. Got Unsupported input type: "
            f"{type(inputs).__name__}"
        )
    out = []
    for inp in inputs:
        if isinstance(inp, _C.Tensor):
            detached = inp.detach()
            detached.requires_grad_(inp.requires_grad)
            inp = detached
        out.append(inp)
    return tuple(out)


# ---- random state --------------------------------------------------------------------------------


class _RngSnapshot:
    """The generator state a region's forward ran with, to rerun it with the same draws."""

    def __init__(self) -> None:
        self.state = engine.get_rng_state()

    @contextlib.contextmanager
    def replay(self):
        """Runs a block from the saved state and puts the state outside back afterwards."""
        outer = engine.get_rng_state()
        engine.set_rng_state(self.state)
        try:
            yield
        finally:
            engine.set_rng_state(outer)


def _replay_context(snapshot: _RngSnapshot | None):
    return snapshot.replay() if snapshot is not None else contextlib.nullcontext()


# ---- reentrant -----------------------------------------------------------------------------------


class CheckpointFunction(Function):
    """The reentrant checkpoint (``use_reentrant=True``) as a custom Function: forward runs
    without saving intermediates, backward recomputes them and differentiates through. Its node
    shows as ``CheckpointFunctionBackward``, PyTorch's name."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.rng = _RngSnapshot() if preserve_rng_state else None
        ctx.inputs = [None if isinstance(a, _C.Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, _C.Tensor)]
        ctx.save_for_backward(*(args[i] for i in ctx.tensor_indices))
        with engine.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        if not _C._is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible"
                " with .grad() or passing an `inputs` parameter to .backward()."
                " To resolve this error, you can either set use_reentrant=False,"
                " or call .backward() without passing the `inputs` argument."
            )
        inputs = list(ctx.inputs)
        for i, tensor in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = tensor
        with _replay_context(ctx.rng):
            detached = detach_variable(tuple(inputs))
            with engine.enable_grad():
                outputs = ctx.run_function(*detached)
        if isinstance(outputs, _C.Tensor):
            outputs = (outputs,)
        pairs = [
            (out, g)
            for out, g in zip(outputs, grads)
            if isinstance(out, _C.Tensor) and out.requires_grad
        ]
        if not pairs:
            raise RuntimeError(
                "none of output has requires_grad=True, this checkpoint() is not necessary"
            )
        engine.autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(
            inp.grad if isinstance(inp, _C.Tensor) else None for inp in detached
        )


# ---- non-reentrant -------------------------------------------------------------------------------


class _Handle:
    """One backward pass's claim on a recomputed tensor: dropping it frees the tensor."""

    __slots__ = ("__weakref__",)


class _Holder:
    """What the forward's pack hook saves in place of a tensor: per backward pass (graph task id),
    the handle under which that pass's recomputation stored the tensor."""

    __slots__ = ("handles", "__weakref__")

    def __init__(self) -> None:
        self.handles: dict = {}


class _StopRecomputation(Exception):
    pass


def _metadata(tensor) -> dict:
    return {"shape": tensor.shape, "dtype": tensor.dtype, "device": tensor.device}


_METADATA_FNS = {"default": _metadata, "none": lambda tensor: None}

_DEBUG_TIP = (
    "\nTip: To see a more detailed error message, either pass `debug=True` to\n"
    "`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n"
    "with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to\n"
    "enable checkpoint‑debug mode globally.\n"
)

_DEBUG_ERROR = (
    "torch.utils.checkpoint: detected non-determinism while running activation checkpointing.\n"
    "\n"
    " You are seeing this error because you passed `debug=True` to checkpoint and\n"
    " tensors to be saved during the original forward differ from those saved\n"
    " during recomputation. This can happen if different operators were run in the\n"
    " original forward and in the recomputation.\n"
    "\n"
    " What differs:\n"
)

_group_state = threading.local()


class GraphExecGroup:
    """Backward calls made inside one ``with GraphExecGroup():`` block share their
    recomputations: each non-reentrant checkpointed region they reach is recomputed at most
    once, even across several calls. The calls must then use disjoint parts of the graph (no
    saved activation needed twice), even with ``retain_graph=True``. Reentrant checkpoints
    ignore it."""

    def __enter__(self) -> GraphExecGroup:
        current = getattr(_group_state, "group", None)
        if current is not None:
            raise RuntimeError(
                f"GraphExecGroup contexts cannot be nested. Already inside group {current}"
            )
        _group_state.group = self
        return self

    def __exit__(self, *args: object) -> None:
        _group_state.group = None

    @classmethod
    def _get_current_group(cls) -> GraphExecGroup | None:
        return getattr(_group_state, "group", None)


class _Frame:
    """One checkpointed region's bookkeeping between its forward and its backward.

    Each backward pass (graph task) that needs the region's saved tensors recomputes the region
    once and hands every recomputed tensor out once: a tensor is freed as soon as its node has
    read it, so the recomputation costs no more memory than the forward did."""

    def __init__(self, recompute: Callable[[], None], metadata_fn, early_stop: bool) -> None:
        self.recompute = recompute
        self.metadata_fn = metadata_fn
        self.early_stop = early_stop
        self.weak_holders: list = []  # in save order
        self.metadata: list = []
        self.recomputed: dict = {}  # graph task -> WeakKeyDictionary(handle -> tensor)
        self.recomputed_count: dict = {}  # graph task -> tensors saved by its recomputation
        self.forward_completed = False
        self.ignore_saved_mismatch = False
        self.on_error: Callable | None = None

    def pack(self, tensor):
        holder = _Holder()
        self.weak_holders.append(weakref.ref(holder))
        with engine.no_grad():
            self.metadata.append(self.metadata_fn(tensor))
        return holder

    def unpack(self, holder: _Holder):
        try:
            return self._unpack(holder)
        except CheckpointError as error:
            if self.on_error is None:
                raise
            self.on_error(error)
            raise

    def _unpack(self, holder: _Holder):
        gid = GraphExecGroup._get_current_group()
        temporary = False
        if gid is None:
            gid = _C._current_graph_task_id()
            if gid == -1:
                # Read outside any backward: a pass of its own, forgotten once read.
                gid, temporary = object(), True
        try:
            if gid not in self.recomputed:
                self._recompute(gid)
            handle = holder.handles.get(gid)
            if handle is None:
                extra = ""
                if GraphExecGroup._get_current_group() is not None:
                    extra = (
                        "Performing two backward calls that overlap (i.e. require the same saved "
                        "activation in order to compute gradients) is not allowed while under "
                        "the torch.utils.checkpoint.GraphExecGroup context. "
                    )
                raise CheckpointError(
                    "torch.utils.checkpoint: Unpack is being triggered for a tensor that was "
                    f"already unpacked once. {extra}If you are calling ctx.saved_tensors in "
                    "backward, make sure to do so only once. Otherwise please open an issue "
                    "with details on your use case."
                )
            holder.handles[gid] = None
            return self.recomputed[gid].pop(handle)
        finally:
            if temporary:
                self._forget(gid)

    def _forget(self, gid) -> None:
        self.recomputed.pop(gid, None)
        self.recomputed_count.pop(gid, None)
        for ref in self.weak_holders:
            holder = ref()
            if holder is not None:
                holder.handles.pop(gid, None)

    def _recompute(self, gid) -> None:
        store = self.recomputed[gid] = weakref.WeakKeyDictionary()
        self.recomputed_count[gid] = 0

        def pack(tensor):
            index = self.recomputed_count[gid]
            self.recomputed_count[gid] = index + 1
            if index >= len(self.weak_holders):
                if not self.forward_completed:
                    # A backward inside the checkpointed function itself (early stop off): the
                    # counts cannot be compared.
                    self.ignore_saved_mismatch = True
                    return None
                raise CheckpointError(
                    "torch.utils.checkpoint: trying to save more tensors during recomputation "
                    f"than during the original forward pass.\n{_DEBUG_TIP}"
                )
            holder = self.weak_holders[index]()
            if holder is not None:  # its node may already have released it
                handle = _Handle()
                holder.handles[gid] = handle
                store[handle] = tensor
            if self.early_stop and index + 1 == len(self.weak_holders):
                raise _StopRecomputation
            return None

        try:
            with saved_tensors_hooks(pack, lambda _: None), engine.enable_grad():
                self.recompute()
        except _StopRecomputation:
            pass
        self._check_recomputed(gid)

    def _check_recomputed(self, gid) -> None:
        if self.ignore_saved_mismatch:
            return
        count = self.recomputed_count[gid]
        if count != len(self.weak_holders):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.weak_holders)}\n"
                f"Number of tensors saved during recomputation: {count}.\n{_DEBUG_TIP}"
            )
        mismatched = ""
        store = self.recomputed[gid]
        for index, ref in enumerate(self.weak_holders):
            holder = ref()
            if holder is None:
                continue
            got = self.metadata_fn(store[holder.handles[gid]])
            if got != self.metadata[index]:
                mismatched += (
                    f"tensor at position {index}:\nsaved metadata: {self.metadata[index]}\n"
                    f"recomputed metadata: {got}\n"
                )
        if mismatched:
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                f"different metadata than during the forward pass.\n{mismatched}.\n{_DEBUG_TIP}"
            )


def _raise_debug_error(error: CheckpointError):
    # PyTorch's debug report adds operator logs captured by a dispatch mode; engine has no
    # dispatch layer to log, so it gives the same verdict around the mismatch found.
    raise CheckpointError(_DEBUG_ERROR + str(error)) from error


def _autocast_state():
    from engine import amp

    return {
        "enabled": amp.is_autocast_enabled("cpu"),
        "dtype": amp.get_autocast_dtype("cpu"),
        "cache_enabled": amp.is_autocast_cache_enabled(),
    }


def _checkpoint_without_reentrant(
    function, preserve_rng_state, context_fn, determinism_check, debug, early_stop, args, kwargs
):
    debug_on = _debug_override if _debug_override is not None else debug
    if debug_on and context_fn is not noop_context_fn:
        raise ValueError("debug=True is incompatible with non-default context_fn")
    if determinism_check not in _METADATA_FNS:
        raise ValueError(
            f"determinism_check should be one of {list(_METADATA_FNS)}, but got {determinism_check}"
        )
    forward_context, recompute_context = context_fn()
    if not engine.is_grad_enabled():
        with forward_context:
            return function(*args, **kwargs)
    rng = _RngSnapshot() if preserve_rng_state else None
    autocast = _autocast_state()

    def recompute() -> None:
        # On the inputs themselves: the recomputed tensors then hang off the same graph as the
        # forward's did, so a backward with create_graph=True can be differentiated again. The
        # autocast state is the forward's, so the recomputed tensors get the same dtypes.
        from engine import amp

        with _replay_context(rng), amp.autocast("cpu", **autocast), recompute_context:
            function(*args, **kwargs)

    if _early_stop_override is not None:
        early_stop = _early_stop_override
    frame = _Frame(recompute, _METADATA_FNS[determinism_check], early_stop)
    if debug_on:
        frame.on_error = _raise_debug_error
    with saved_tensors_hooks(frame.pack, frame.unpack), forward_context:
        result = function(*args, **kwargs)
    frame.forward_completed = True
    return result


# ---- public entry points -------------------------------------------------------------------------


def checkpoint(
    function: Callable,
    *args: Any,
    use_reentrant: bool | None = None,
    context_fn: Callable = noop_context_fn,
    determinism_check: str = "default",
    debug: bool = False,
    early_stop: bool = True,
    **kwargs: Any,
) -> Any:
    """Runs ``function(*args, **kwargs)`` without keeping the tensors it saves for backward; they
    are recomputed when backward needs them (``torch.utils.checkpoint.checkpoint``).

    Pass ``use_reentrant`` explicitly (``False`` is recommended); ``preserve_rng_state=False``
    skips saving and restoring the random state. ``context_fn``, ``determinism_check``,
    ``early_stop`` and keyword arguments for ``function`` need ``use_reentrant=False``.

    Example::

        >>> from engine.utils.checkpoint import checkpoint
        >>> x = engine.tensor([0.0, 1.0], requires_grad=True)
        >>> y = checkpoint(lambda v: v.exp().sin(), x, use_reentrant=False)
        >>> y.sum().backward()
        >>> x.grad
        tensor([ 0.5403, -2.4783])
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError(
                "Passing `context_fn` or `debug` is only supported when use_reentrant=False."
            )
        return CheckpointFunction.apply(function, preserve, *args)
    return _checkpoint_without_reentrant(
        function, preserve, context_fn, determinism_check, debug, early_stop, args, kwargs
    )


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Runs a sequence of modules/functions in ``segments`` chunks, checkpointing all but the
    last (``torch.utils.checkpoint.checkpoint_sequential``)."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be "
            "passed explicitly. In version 2.9 we will raise an exception if use_reentrant is "
            "not passed. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    from engine.nn import Sequential

    if isinstance(functions, Sequential):
        functions = list(functions.children())

    def run(start, end):
        def forward(value):
            for j in range(start, end + 1):
                value = functions[j](value)
            return value

        return forward

    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(
            run(start, end), input, use_reentrant=use_reentrant, preserve_rng_state=preserve
        )
    return run(end + 1, len(functions) - 1)(input)
