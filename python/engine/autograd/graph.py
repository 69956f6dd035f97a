"""Graph hooks: ``saved_tensors_hooks`` and the ``register_*hook`` methods of tensors and nodes.

``Tensor.register_hook(fn)``: ``fn(grad)`` runs when the tensor's gradient is computed and may
return a replacement. On a leaf it runs before accumulation; on a non-leaf it is a pre-hook of the
tensor's ``grad_fn`` for its output slot, as in PyTorch. ``Tensor.register_post_accumulate_grad_hook
(fn)``: ``fn(leaf)`` after ``.grad`` was updated. ``grad_fn.register_prehook(fn(grad_outputs))`` and
``grad_fn.register_hook(fn(grad_inputs, grad_outputs))`` on built-in and custom nodes alike. Each
returns a ``RemovableHandle``.
"""

from engine import _C

__all__ = ["Node", "saved_tensors_hooks"]

Node = _C.Node


class saved_tensors_hooks:
    """Context manager: tensors a custom Function saves with ``save_for_backward`` are passed to
    ``pack_hook`` when saved, and what it returned to ``unpack_hook`` when read back.

    Like PyTorch, no version check applies to a packed tensor (``pack_hook`` may have copied it).
    Built-in ops keep their saved tensors natively and are not affected."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        _C._push_saved_tensors_hooks(self.pack_hook, self.unpack_hook)
        return self

    def __exit__(self, *exc):
        _C._pop_saved_tensors_hooks()
        return False


def _register_hook(self, hook):
    """Registers ``hook(grad_inputs, grad_outputs)``, run after this node; may return new "
    "grad_inputs."""
    return _C._register_node_hook(self, hook)


def _register_prehook(self, hook):
    """Registers ``hook(grad_outputs)``, run before this node; may return new grad_outputs."""
    return _C._register_node_prehook(self, hook)


def _tensor_register_hook(self, hook):
    """Registers ``hook(grad)``, run when this tensor's gradient is computed; may return a new "
    "one."""
    return _C._tensor_register_hook(self, hook)


def _tensor_register_post_accumulate_grad_hook(self, hook):
    """Registers ``hook(tensor)``, run after the gradient was accumulated into this leaf's "
    "``.grad``."""
    return _C._tensor_register_post_accumulate_grad_hook(self, hook)


Node.register_hook = _register_hook
Node.register_prehook = _register_prehook
_C.Tensor.register_hook = _tensor_register_hook
_C.Tensor.register_post_accumulate_grad_hook = _tensor_register_post_accumulate_grad_hook
