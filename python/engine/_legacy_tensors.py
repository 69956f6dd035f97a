"""PyTorch's legacy tensor types: ``engine.FloatTensor`` and friends, and ``Tensor.type()``.

Each legacy type is a class whose instances are never created: calling it builds an ordinary
tensor of its dtype (``FloatTensor(2, 3)`` uninitialised of that shape, ``FloatTensor([1, 2])``
from data), and ``isinstance(t, engine.FloatTensor)`` asks whether ``t`` is a float32 tensor, as
in PyTorch. ``engine.Tensor(...)`` constructs like the default dtype's type (though
``engine.Tensor()`` with no arguments is refused rather than giving an empty tensor).
"""

from engine import _C

_Tensor = _C.Tensor

# Legacy name -> dtype, in PyTorch's spelling.
_NAMES = {
    "torch.FloatTensor": _C.float32,
    "torch.DoubleTensor": _C.float64,
    "torch.HalfTensor": _C.float16,
    "torch.BFloat16Tensor": _C.bfloat16,
    "torch.ByteTensor": _C.uint8,
    "torch.CharTensor": _C.int8,
    "torch.ShortTensor": _C.int16,
    "torch.IntTensor": _C.int32,
    "torch.LongTensor": _C.int64,
    "torch.BoolTensor": _C.bool,
    "torch.ComplexFloatTensor": _C.complex64,
    "torch.ComplexDoubleTensor": _C.complex128,
}
_BY_DTYPE = {dtype: name for name, dtype in _NAMES.items()}


def _is_size_args(args):
    """Whether args are sizes (ints, or one engine.Size), not data."""
    from engine._tensor import Size

    if len(args) == 1 and isinstance(args[0], Size):
        return True
    return all(isinstance(a, int) and not isinstance(a, bool) for a in args) and len(args) > 0


def _construct(dtype, args, kwargs):
    """What ``<Legacy>Tensor(*args)`` returns: a tensor of ``dtype``."""
    if kwargs:
        bad = next(iter(kwargs))
        raise TypeError(
            f"new() received an invalid combination of arguments - got an unexpected "
            f"keyword argument '{bad}'"
        )
    if not args:
        return _C.empty(0, dtype=dtype)
    if _is_size_args(args):
        shape = tuple(args[0]) if len(args) == 1 and not isinstance(args[0], int) else args
        for s in shape:
            if s < 0:
                raise RuntimeError(
                    f"Trying to create tensor with negative dimension {s}: {list(shape)}"
                )
        return _C.empty(*shape, dtype=dtype)
    if len(args) == 1:
        data = args[0]
        if isinstance(data, _Tensor):
            if data.dtype != dtype:
                raise TypeError(
                    f"expected {_BY_DTYPE[dtype]} (got {_BY_DTYPE.get(data.dtype, data.dtype)})"
                )
            return data
        return _C.tensor(data, dtype=dtype)
    for i, a in enumerate(args):
        if not isinstance(a, int) or isinstance(a, bool):
            raise TypeError(
                f"new(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                f'"type must be tuple of ints,but got {type(a).__name__}"'
            )
    raise TypeError("new(): invalid arguments")


class _LegacyTensorMeta(type):
    """The type of the legacy classes: calling one constructs, isinstance compares dtypes."""

    def __call__(cls, *args, **kwargs):
        return _construct(cls.dtype, args, kwargs)

    def __instancecheck__(cls, obj):
        return isinstance(obj, _Tensor) and obj.dtype == cls.dtype

    def __repr__(cls):
        return f"<class '{cls._legacy_name}'>"


def _make(name, dtype):
    short = name.removeprefix("torch.")
    doc = f"Legacy constructor of {dtype} tensors (``{short}(*sizes)`` or ``{short}(data)``)."
    return _LegacyTensorMeta(short, (), {"dtype": dtype, "_legacy_name": name, "__doc__": doc})


FloatTensor = _make("torch.FloatTensor", _C.float32)
DoubleTensor = _make("torch.DoubleTensor", _C.float64)
HalfTensor = _make("torch.HalfTensor", _C.float16)
BFloat16Tensor = _make("torch.BFloat16Tensor", _C.bfloat16)
ByteTensor = _make("torch.ByteTensor", _C.uint8)
CharTensor = _make("torch.CharTensor", _C.int8)
ShortTensor = _make("torch.ShortTensor", _C.int16)
IntTensor = _make("torch.IntTensor", _C.int32)
LongTensor = _make("torch.LongTensor", _C.int64)
BoolTensor = _make("torch.BoolTensor", _C.bool)
_CLASSES = {
    c._legacy_name: c
    for c in (
        FloatTensor,
        DoubleTensor,
        HalfTensor,
        BFloat16Tensor,
        ByteTensor,
        CharTensor,
        ShortTensor,
        IntTensor,
        LongTensor,
        BoolTensor,
    )
}


def construct_default(args, kwargs):
    """``engine.Tensor(*args)``: the legacy constructor of the default dtype."""
    return _construct(_C.get_default_dtype(), args, kwargs)


def _type(self, dtype=None, non_blocking=False, **kwargs):
    """With no dtype, the legacy type name ('torch.FloatTensor'); otherwise this tensor as
    ``dtype`` (a dtype, a legacy class or its name), itself when nothing changes."""
    if dtype is None:
        return _BY_DTYPE[self.dtype]
    if isinstance(dtype, str):
        if dtype not in _NAMES:
            raise ValueError(f"invalid type: {dtype!r}")
        target = _NAMES[dtype]
    elif isinstance(dtype, _LegacyTensorMeta):
        target = dtype.dtype
    elif isinstance(dtype, _C.dtype):
        target = dtype
    else:
        raise TypeError("dtype must be a type, str, or dtype object")
    return self if target == self.dtype else self.to(target)


def _is_signed(self):
    """Whether the tensor's dtype is signed (False for bool and uint8)."""
    return self.dtype.is_signed


def _tensor_new(cls, *args, **kwargs):
    """``engine.Tensor(*sizes)`` / ``engine.Tensor(data)``: the default dtype's legacy
    constructor. For a subclass, as in PyTorch, ``Sub(t)`` is a view of all of ``t`` that stays
    in its graph (``AliasBackward0``) and ``Sub(data)`` / ``Sub(*sizes)`` a new tensor; Python
    then runs the subclass's own ``__init__`` with the same arguments. Without arguments nothing
    is created: an instance whose native part was never built must not exist."""
    if not (args or kwargs):
        raise TypeError(f"cannot create '{cls.__name__}' instances")
    if cls is _Tensor:
        return construct_default(args, kwargs)
    if len(args) == 1 and not kwargs and isinstance(args[0], _Tensor):
        return _Tensor._alias_subclass(cls, args[0])
    return _Tensor._make_subclass(cls, construct_default(args, kwargs))


def _tensor_init(self, *args, **kwargs):
    """The tensor was complete when ``__new__`` returned it."""


_VOLATILE_SET = "volatile was removed and now has no effect. Use `with torch.no_grad():` instead."


def _volatile_get(self):
    """Always False (PyTorch 0.3's flag, replaced by ``no_grad``); warns as PyTorch does."""
    import warnings

    warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning, 2)
    return False


def _volatile_set(self, value):
    import warnings

    warnings.warn(_VOLATILE_SET, UserWarning, 2)


def _install():
    T = _Tensor
    T.volatile = property(_volatile_get, _volatile_set, doc=_volatile_get.__doc__)
    T.__new__ = staticmethod(_tensor_new)
    T.__init__ = _tensor_init
    T.type = _type
    T.is_signed = _is_signed
    T.itemsize = property(lambda self: self.element_size(), doc="Bytes per element.")
    T.nbytes = property(
        lambda self: self.numel() * self.element_size(), doc="Bytes of the tensor's elements."
    )


_install()
