"""nn.Parameter and nn.Buffer: tensors a Module registers when they are assigned as attributes."""

from engine import _C
from engine._tensor import _rebuild_tensor

__all__ = ["Buffer", "Parameter", "UninitializedBuffer", "UninitializedParameter", "is_lazy"]


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
        # As PyTorch's Parameter: only the data and requires_grad are copied; unlike a plain
        # Tensor's deepcopy, the .grad and any Python attributes stay behind.
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
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


class _Uninitialized:
    """What an uninitialized parameter or buffer refuses until ``materialize`` gives it a shape."""

    cls_to_become = None

    def materialize(self, shape, device=None, dtype=None):
        """Gives the tensor ``shape`` (uninitialized memory) and turns it into ``cls_to_become``."""
        from engine import empty

        self.data = empty(shape, dtype=self.data.dtype if dtype is None else dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
            "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
            "`forward` to initialize the parameters before accessing their attributes."
        )

    def size(self, dim=None):
        return self.shape

    def share_memory_(self):
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to initialize the "
            "parameters before calling `module.share_memory()`."
        )

    def __repr__(self):
        return f"<{self.__class__.__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        return (self.__class__, (self.requires_grad,))

    def __deepcopy__(self, memo):
        result = type(self)(self.requires_grad, dtype=self.data.dtype)
        memo[id(self)] = result
        return result


def is_lazy(param):
    """Whether ``param`` is an :class:`UninitializedParameter` or :class:`UninitializedBuffer`."""
    return isinstance(param, _Uninitialized)


class UninitializedParameter(_Uninitialized, Parameter):
    """A parameter whose shape is not known yet (lazy modules): it has no data until
    ``materialize(shape)`` turns it into an ordinary :class:`Parameter`."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        from engine import empty, get_default_dtype

        data = empty((0,), dtype=get_default_dtype() if dtype is None else dtype)
        return _C.Tensor._make_subclass(cls, data, requires_grad)

    def __init__(self, requires_grad=True, device=None, dtype=None):
        pass


class _MaterializedBuffer(_C.Tensor):
    # What an UninitializedBuffer becomes in place: an ordinary tensor in every respect (a native
    # Tensor's class cannot be assigned to a Python subclass instance). Lazy modules replace it
    # by a plain Tensor sharing its memory once initialised.
    pass


class UninitializedBuffer(_Uninitialized, _C.Tensor):
    """A buffer whose shape is not known yet (lazy modules); ``materialize(shape)`` turns it into
    an ordinary tensor."""

    cls_to_become = _MaterializedBuffer

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        from engine import empty, get_default_dtype

        data = empty((0,), dtype=get_default_dtype() if dtype is None else dtype)
        return _C.Tensor._make_subclass(cls, data, requires_grad)

    def __init__(self, requires_grad=False, device=None, dtype=None):
        pass
