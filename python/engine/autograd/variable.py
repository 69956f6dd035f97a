"""``torch.autograd.Variable``: the legacy name of ``Tensor`` (every tensor is an instance), and
``Variable._execution_engine.queue_callback``."""

from engine import _C

__all__ = ["Variable"]


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return _C.is_tensor(other)


class _ExecutionEngine:
    """The backward executor as PyTorch exposes it to Python."""

    @staticmethod
    def queue_callback(callback):
        """Runs ``callback()`` once the backward pass now running has finished; raises outside
        of one."""
        _C._queue_callback(callback)


class Variable(metaclass=_VariableMeta):
    """``Variable(tensor, requires_grad=False)``: a new tensor sharing ``tensor``'s data
    (legacy API; a plain tensor is all a Variable ever was)."""

    _execution_engine = _ExecutionEngine()

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        if data is None:
            data = _C.empty((0,))
        if not _C.is_tensor(data):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if volatile:
            import warnings

            from engine._legacy_tensors import _VOLATILE_SET

            warnings.warn(_VOLATILE_SET, UserWarning, 2)
        out = data.detach()
        if requires_grad:
            out.requires_grad_(True)
        return out
