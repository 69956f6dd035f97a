"""The backward graph as Python sees it (``torch.autograd.graph``).

Every built-in node is an instance of its own class, named for it (``type(y.grad_fn).__name__ ==
'MulBackward0'``), a subclass of ``Node``. A node is callable (``grad_fn(*grads)`` runs its
backward rule), has ``name()``, ``next_functions``, a ``metadata`` dict, its saved tensors as
``_saved_<name>`` (and ``_raw_saved_<name>``, whose ``register_hooks(pack, unpack)`` re-packs
one), and ``register_hook`` / ``register_prehook``.

Hooks: ``Tensor.register_hook(fn)``: ``fn(grad)`` runs when the tensor's gradient is computed and
may return a replacement. On a leaf it runs before accumulation; on a non-leaf it is a pre-hook of
the tensor's ``grad_fn`` for its output slot, as in PyTorch. ``Tensor.register_post_accumulate_
grad_hook(fn)``: ``fn(leaf)`` after ``.grad`` was updated. ``grad_fn.register_prehook(fn(grad_
outputs))`` and ``grad_fn.register_hook(fn(grad_inputs, grad_outputs))`` on built-in and custom
nodes alike. Each returns a ``RemovableHandle``.
"""

from _thread import _local
from abc import ABCMeta as _ABCMeta

from engine import _C
from engine.autograd import _legacy_hooks

__all__ = [
    "GradientEdge",
    "Node",
    "disable_saved_tensors_hooks",
    "get_gradient_edge",
    "increment_version",
    "register_multi_grad_hook",
    "save_on_cpu",
    "saved_tensors_hooks",
]


class Node(metaclass=_ABCMeta):  # noqa: B024 (a type to check against, nothing to implement)
    """The type every graph node is an instance of: the built-in nodes (each of its own class,
    all subclasses of the native node type) and custom Functions' nodes (their ctx objects)."""

    @classmethod
    def __subclasshook__(cls, subclass):
        if cls is Node:
            return subclass is Node or issubclass(subclass, (_C.Node, _C._FunctionCtx))
        return NotImplemented


_state = _local()  # per thread: the message of an active disable_saved_tensors_hooks


class GradientEdge(tuple):
    """Where a gradient enters the graph: input ``output_nr`` of ``node`` (a named tuple, as in
    PyTorch). Usable wherever ``autograd.grad`` / ``backward`` take ``inputs``."""

    __slots__ = ()
    _fields = ("node", "output_nr", "ownership_token")

    def __new__(cls, node, output_nr, ownership_token=None):
        return tuple.__new__(cls, (node, output_nr, ownership_token))

    node = property(lambda self: self[0], doc="The node the gradient flows into.")
    output_nr = property(lambda self: self[1], doc="Which of the node's inputs it is.")
    ownership_token = property(lambda self: self[2], doc="Keeps the node alive (unused here).")

    def __repr__(self):
        return f"GradientEdge(node={self[0]!r}, output_nr={self[1]!r}, ownership_token={self[2]!r})"


def get_gradient_edge(tensor):
    """The ``GradientEdge`` a gradient for ``tensor`` flows into: its ``grad_fn`` (or, for a leaf,
    its ``AccumulateGrad`` node) and the slot."""
    node, output_nr = _C._gradient_edge(tensor)
    return GradientEdge(node, output_nr)


def increment_version(tensor):
    """Bumps the version counter of ``tensor`` (or of each tensor in an iterable), as an in-place
    write would: saved copies of it then fail their check on unpack."""
    if not isinstance(tensor, _C.Tensor):
        try:
            tensor = list(tensor)
        except TypeError:
            tensor = None
        if tensor is None or not all(isinstance(t, _C.Tensor) for t in tensor):
            raise RuntimeError("increment_version expect a Iterable[Tensor] as input")
    _C._increment_version(tensor)


class saved_tensors_hooks:
    """Context manager: every tensor saved for backward while it is active (by built-in ops and
    custom Functions alike) is passed to ``pack_hook`` when saved, and what that returned to
    ``unpack_hook`` when backward reads it back.

    Like PyTorch, no version check applies to a packed tensor (``pack_hook`` may have copied it)."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        message = getattr(_state, "disabled", None)
        if message is not None:
            raise RuntimeError(message)
        _C._push_saved_tensors_hooks(self.pack_hook, self.unpack_hook)
        return self

    def __exit__(self, *exc):
        _C._pop_saved_tensors_hooks()
        return False


class save_on_cpu(saved_tensors_hooks):
    """Context manager: tensors saved for backward inside it are kept in CPU memory and moved
    back to their device when backward reads them (``torch.autograd.graph.save_on_cpu``).

    engine's tensors all live on the CPU, so each tensor is kept as it is; ``pin_memory`` and
    ``device_type`` are accepted for PyTorch's signature.

    Example::

        >>> x = engine.tensor([1.0, 2.0], requires_grad=True)
        >>> with engine.autograd.graph.save_on_cpu():
        ...     y = (x * x).sum()
        >>> y.backward()
        >>> x.grad
        tensor([2., 4.])
    """

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack_to_cpu(tensor):
            return (tensor.device, tensor.cpu())

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:
    """Context manager (and decorator) under which entering ``saved_tensors_hooks`` raises
    ``RuntimeError(error_message)``."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        self._prev = getattr(_state, "disabled", None)
        _state.disabled = self.error_message
        return self

    def __exit__(self, *exc):
        _state.disabled = self._prev
        return False

    def __call__(self, fn):
        from engine.autograd.grad_mode import _wraps

        @_wraps(fn)
        def wrapper(*args, **kwargs):
            with disable_saved_tensors_hooks(self.error_message):
                return fn(*args, **kwargs)

        return wrapper


class _MultiHandle:
    """Removes the hooks ``register_multi_grad_hook`` put on each tensor."""

    def __init__(self, handles):
        self.handles = handles

    def remove(self):
        for h in self.handles:
            h.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Registers ``fn`` on several tensors at once.

    ``mode="all"``: once per backward pass, after the gradients of all the tensors that pass
    computes are known, ``fn(grads)`` with ``None`` for those it does not reach. ``mode="any"``:
    ``fn(grad)`` once, for the first of the tensors whose gradient is computed."""
    supported = ("all", "any")
    if mode not in supported:
        raise ValueError(f"Expects mode to be one of {supported} but got {mode}")
    tensors = tuple(tensors)
    if mode == "any":
        fired = {}

        def any_hook(grad):
            task = _C._current_graph_task_id()
            if fired.get("task") != task:
                fired["task"] = task
                fn(grad)

        return _MultiHandle([t.register_hook(any_hook) for t in tensors if t.requires_grad])

    count = {}
    buffers = {}

    def make_hook(i):
        def hook(grad):
            task = _C._current_graph_task_id()
            if task not in count:
                # How many of the tensors this pass will reach: fn runs once all of them did.
                count[task] = sum(
                    _C._will_engine_execute_node(get_gradient_edge(t).node)
                    for t in tensors
                    if t.requires_grad
                )
                buffers[task] = [None] * len(tensors)
            buffers[task][i] = grad
            count[task] -= 1
            if count[task] == 0:
                grads = buffers.pop(task)
                del count[task]
                fn(grads)

        return hook

    return _MultiHandle(
        [t.register_hook(make_hook(i)) for i, t in enumerate(tensors) if t.requires_grad]
    )


def _register_hook(self, hook):
    """Registers ``hook(grad_inputs, grad_outputs)``, run after this node; may return new
    grad_inputs."""
    return _C._register_node_hook(self, hook)


def _register_prehook(self, hook):
    """Registers ``hook(grad_outputs)``, run before this node; may return new grad_outputs."""
    return _C._register_node_prehook(self, hook)


def _tensor_register_hook(self, hook):
    """Registers ``hook(grad)``, run when this tensor's gradient is computed; may return a new
    one. The hook is listed in ``self._backward_hooks`` under the handle's id."""
    return _legacy_hooks.register_listed(self, hook)


def _tensor_register_post_accumulate_grad_hook(self, hook):
    """Registers ``hook(tensor)``, run after the gradient was accumulated into this leaf's
    ``.grad``."""
    return _C._tensor_register_post_accumulate_grad_hook(self, hook)


_C.Node.register_hook = _register_hook
_C.Node.register_prehook = _register_prehook
_C.Tensor.register_hook = _tensor_register_hook
_C.Tensor.register_post_accumulate_grad_hook = _tensor_register_post_accumulate_grad_hook


def __getattr__(name):
    # The saved-memory report loads when first used (engine.autograd.graph.saved_memory).
    if name in ("saved_memory", "SavedMemoryReport"):
        from engine.autograd import _saved_memory

        return getattr(_saved_memory, name)
    raise AttributeError(f"module 'engine.autograd.graph' has no attribute '{name}'")
