"""nn.Parameter and nn.Buffer: tensors a Module registers when they are assigned as attributes."""

from engine import _C
from engine._tensor import _rebuild_tensor

__all__ = ["Buffer", "Parameter"]


def _rebuild_parameter(data, requires_grad, state):
    param = Parameter(data, requires_grad)
    param.__dict__.update(state)
    return param


class Parameter(_C.Tensor):
    """A Tensor that a Module treats as one of its parameters.

    Assigned as an attribute of a ``Module``, it appears in ``parameters()`` and ``state_dict()``.
    It shares memory with ``data`` and is a leaf that requires grad unless ``requires_grad=False``.
    Operations on a Parameter return plain Tensors, as in PyTorch.

    Example::

        >>> p = engine.nn.Parameter(engine.zeros(2))
        >>> p
        Parameter containing:
        tensor([0., 0.], requires_grad=True)
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = _C.empty((0,))
        if not isinstance(data, _C.Tensor):
            raise TypeError(
                f"Parameter(): argument 'data' must be Tensor, not {type(data).__name__}"
            )
        return _C.Tensor._make_subclass(cls, data, requires_grad)

    def __init__(self, data=None, requires_grad=True):
        pass  # everything happens in __new__

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        import copy

        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        result.__dict__.update(copy.deepcopy(self.__dict__, memo))
        if self.grad is not None:
            result.grad = copy.deepcopy(self.grad, memo)
        return result

    def __reduce_ex__(self, protocol):
        data = self.detach().contiguous().numpy().tobytes()
        tensor = (_rebuild_tensor, (data, self.dtype, tuple(self.shape), False))
        return (_rebuild_from_tensor, (tensor, self.requires_grad, dict(self.__dict__)))


def _rebuild_from_tensor(tensor, requires_grad, state):
    rebuild, args = tensor
    return _rebuild_parameter(rebuild(*args), requires_grad, state)


class _BufferMeta(type):
    # isinstance(t, Buffer) holds for a tensor flagged by Buffer(...), as PyTorch's metaclass does.
    def __instancecheck__(cls, instance):
        if cls is Buffer:
            return isinstance(instance, _C.Tensor) and getattr(instance, "_is_buffer", False)
        return super().__instancecheck__(instance)


class Buffer(metaclass=_BufferMeta):
    """Marks a tensor to be registered as a buffer when assigned to a Module attribute.

    ``Buffer(data, persistent=True)`` returns a tensor sharing ``data``'s memory, flagged; a non-persistent buffer is
    left out of ``state_dict()``.
    """

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = _C.empty((0,))
        # engine's own Tensor carries no attributes: the flags live on a tensor subclass instance.
        t = _C.Tensor._make_subclass(_BufferTensor, data, data.requires_grad)
        t._is_buffer = True
        t.persistent = persistent
        return t


class _BufferTensor(_C.Tensor):
    """A plain tensor that can carry the Buffer flags (engine's Tensor has no __dict__)."""

    def __init__(self, *args, **kwargs):
        pass
