"""Small Tensor queries and legacy helpers: typename, is_inference, layout / strided, is_cpu,
dim_order, const_data_ptr, H / mH / adjoint, is_same_size, is_nonzero, is_signed, new,
as_subclass, resize_ / resize_as_ (and the deprecated resize / resize_as), apply_ / map_ / map2_
(which call a Python function per element by definition, as in PyTorch), and the
warn-always switch."""

import builtins
import warnings

from engine import _C
from engine._composite_ops import _tensor_arg
from engine._joining import _broadcast_shape_of
from engine._tensor import Size

_Tensor = _C.Tensor


class layout:
    """A memory layout; engine has one, ``engine.strided``."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"torch.{self._name}"

    __str__ = __repr__

    def __reduce__(self):
        return (_strided_layout, ())


def _strided_layout():
    return strided


strided = layout("strided")

_TYPE_NAMES = {
    _C.float32: "torch.FloatTensor",
    _C.float64: "torch.DoubleTensor",
    _C.int64: "torch.LongTensor",
    _C.int32: "torch.IntTensor",
    _C.bool: "torch.BoolTensor",
}


def typename(obj):
    """A tensor's legacy type name ('torch.FloatTensor'), else the object's qualified class name."""
    if isinstance(obj, _Tensor):
        return _TYPE_NAMES.get(obj.dtype, f"torch.{obj.dtype}Tensor")
    module, name = "", ""
    if hasattr(obj, "__module__") and obj.__module__ not in ("builtins", "__builtin__", None):
        module = obj.__module__ + "."
    if hasattr(obj, "__qualname__"):
        name = obj.__qualname__
    elif hasattr(obj, "__name__"):
        name = obj.__name__
    else:
        name = type(obj).__qualname__
        module = "" if type(obj).__module__ == "builtins" else type(obj).__module__ + "."
    return module + name


_warn_always = [False]


def set_warn_always(b):
    """Makes warnings that PyTorch issues once per process issue every time (a flag engine keeps
    for code that reads it back)."""
    _warn_always[0] = bool(b)


def is_warn_always_enabled():
    """Whether ``set_warn_always(True)`` is in effect."""
    return _warn_always[0]


# ---- Tensor properties and queries ----


def is_inference(self):
    """True for an inference tensor: one allocated inside ``inference_mode()`` (or a view of
    one)."""
    return _C.is_inference(self)


def _is_cpu(self):
    return not _C._meta_is(self)


def _is_meta(self):
    """True for a tensor on the meta device: a shape, strides and a dtype, and no data."""
    return _C._meta_is(self)


def _layout(self):
    return strided


def dim_order(self, *, ambiguity_check=False):
    """The dims from outermost to innermost in memory (by decreasing stride; ties keep dim order)."""
    strides = self.stride()
    return tuple(sorted(builtins.range(self.dim()), key=lambda d: (-strides[d], d)))


def const_data_ptr(self):
    """The address of the first element (``data_ptr``)."""
    return self.data_ptr()


def _H(self):
    if self.dim() != 2:
        raise RuntimeError(
            f"tensor.H is only supported on matrices (2-D tensors). Got {self.dim()}-D tensor."
        )
    return self.transpose(0, 1).conj()  # a real tensor's conjugate is the tensor itself


def _mH(self):
    if self.dim() < 2:
        raise RuntimeError(
            "tensor.mH is only supported on matrices or batches of matrices. "
            f"Got {self.dim()}-D tensor."
        )
    return self.transpose(-2, -1).conj()


def adjoint(input):
    """The conjugate transpose of the last two dims (their transpose, for real tensors)."""
    _tensor_arg("adjoint", input, "input", 1)
    return _mH(input)


def is_same_size(self, other):
    """Whether self and other have the same shape."""
    _tensor_arg("is_same_size", self, "input", 1)
    _tensor_arg("is_same_size", other, "other", 2)
    return tuple(self.shape) == tuple(other.shape)


def is_nonzero(self):
    """The truth of a one-element tensor."""
    _tensor_arg("is_nonzero", self, "input", 1)
    if self.numel() == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if self.numel() > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(self.item())


def is_signed(self):
    """Whether the dtype holds negative values (every engine dtype but bool)."""
    _tensor_arg("is_signed", self, "input", 1)
    return self.dtype != _C.bool


def new(self, *args, **kwargs):
    """Legacy constructor of self's dtype: ``new()`` empty, ``new(2, 3)`` / ``new(Size)``
    uninitialised of that shape, ``new(data)`` from a sequence or tensor."""
    dtype = kwargs.pop("dtype", self.dtype)
    kwargs.pop("device", None)
    if kwargs:
        raise TypeError(f"new() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if not args:
        return _C.empty((0,), dtype=dtype)
    if len(args) == 1 and isinstance(args[0], Size):
        return _C.empty(list(args[0]), dtype=dtype)
    if len(args) == 1 and isinstance(args[0], _Tensor):
        return args[0].detach().to(dtype)
    if len(args) == 1 and not isinstance(args[0], int):
        return _C.tensor(args[0], dtype=dtype)
    return _C.empty(list(args), dtype=dtype)


def as_subclass(self, cls):
    """self's data (shared) as an instance of the Tensor subclass cls: a view of self that stays
    in its graph (``AliasBackward0``), as in PyTorch."""
    if not (isinstance(cls, type) and issubclass(cls, _Tensor)):
        raise TypeError(f"as_subclass(): argument 'cls' must be a Tensor subclass, not {cls!r}")
    return _Tensor._alias_subclass(cls, self)


def _sizes(args):
    return list(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else list(args)


def resize_(self, *sizes, memory_format=None):
    """Gives self the shape `sizes`, keeping its first elements in row-major order (new
    elements, when it grows, are uninitialised). Views of self keep the old memory."""
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    shape = _sizes(sizes)
    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {shape}")
    fresh = _C.empty(shape, dtype=self.dtype)
    keep = builtins.min(fresh.numel(), self.numel())
    if keep:
        fresh.view(-1).narrow(0, 0, keep).copy_(self.detach().reshape(-1).narrow(0, 0, keep))
    self.data = fresh
    return self


def resize_as_(self, the_template, *, memory_format=None):
    """``resize_`` to the_template's shape."""
    _tensor_arg("resize_as_", self, "input", 1)
    _tensor_arg("resize_as_", the_template, "the_template", 2)
    return resize_(self, list(the_template.shape))


def resize(self, *sizes):
    """Deprecated non-in-place resize: self reshaped to `sizes` (same number of elements)."""
    warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=2)
    return self.reshape(_sizes(sizes))


def resize_as(self, tensor):
    """Deprecated non-in-place resize_as."""
    warnings.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=2)
    return self.reshape(list(tensor.shape))


def _require_no_grad(self, name):
    if self.requires_grad:
        raise RuntimeError(
            f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() instead."
        )


def _write_values(self, values):
    self.copy_(_C.tensor(values, dtype=self.dtype).reshape(list(self.shape)))
    return self


def apply_(self, callable):
    """Replaces each element x by callable(x) (a Python call per element, as in PyTorch)."""
    _require_no_grad(self, "apply_")
    return _write_values(self, [callable(x) for x in self.detach().reshape(-1).tolist()])


def map_(self, tensor, callable):
    """Replaces each element x by callable(x, y), y the matching element of tensor (broadcast)."""
    _require_no_grad(self, "map_")
    other = tensor.detach().expand(list(self.shape)).reshape(-1).tolist()
    mine = self.detach().reshape(-1).tolist()
    return _write_values(self, [callable(x, y) for x, y in zip(mine, other)])


def map2_(self, x, y, callable):
    """Replaces each element a by callable(a, b, c), b and c the matching elements of x and y."""
    _require_no_grad(self, "map2_")
    _broadcast_shape_of([self, x, y])
    bs = x.detach().expand(list(self.shape)).reshape(-1).tolist()
    cs = y.detach().expand(list(self.shape)).reshape(-1).tolist()
    mine = self.detach().reshape(-1).tolist()
    return _write_values(self, [callable(a, b, c) for a, b, c in zip(mine, bs, cs)])


FUNCTIONS = {
    "typename": typename,
    "set_warn_always": set_warn_always,
    "is_warn_always_enabled": is_warn_always_enabled,
    "is_anomaly_check_nan_enabled": _C.is_anomaly_check_nan_enabled,
    "adjoint": adjoint,
    "is_same_size": is_same_size,
    "is_nonzero": is_nonzero,
    "is_signed": is_signed,
    "is_inference": is_inference,
    "resize_as_": resize_as_,
    "strided": strided,
    "layout": layout,
}
METHODS = {
    "is_inference": is_inference,
    "dim_order": dim_order,
    "const_data_ptr": const_data_ptr,
    "adjoint": adjoint,
    "is_same_size": is_same_size,
    "is_nonzero": is_nonzero,
    "is_signed": is_signed,
    "new": new,
    "as_subclass": as_subclass,
    "resize_": resize_,
    "resize_as_": resize_as_,
    "resize": resize,
    "resize_as": resize_as,
    "apply_": apply_,
    "map_": map_,
    "map2_": map2_,
}


def _is_sparse(self):
    """Whether this is a sparse tensor: False for dense ones (see ``engine.sparse_coo_tensor``)."""
    return False


def to_dense(self, dtype=None, *, masked_grad=None):
    """A dense tensor is its own dense form (``self``, or a copy in ``dtype``)."""
    return self if dtype is None else self.to(dtype)


def to_sparse(self, *args, **kwargs):
    """This tensor as a sparse COO tensor (see engine/_sparse.py)."""
    from engine._sparse import to_sparse

    return to_sparse(self, *args, **kwargs)


METHODS["to_dense"] = to_dense
METHODS["to_sparse"] = to_sparse
PROPERTIES = {
    "H": _H,
    "mH": _mH,
    "is_cpu": _is_cpu,
    "is_meta": _is_meta,
    "layout": _layout,
    "is_sparse": _is_sparse,
}


def install():
    """Adds the Tensor methods and properties (existing native ones are kept)."""
    for name, fn in METHODS.items():
        if not hasattr(_Tensor, name):
            setattr(_Tensor, name, fn)
    for name, fn in PROPERTIES.items():
        if not hasattr(_Tensor, name):
            setattr(_Tensor, name, property(fn))
