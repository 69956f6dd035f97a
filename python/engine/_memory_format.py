"""Memory formats: ``engine.contiguous_format``, ``preserve_format``, ``channels_last`` and
``channels_last_3d``, and the ``memory_format=`` argument of ``contiguous``, ``clone``, ``to``,
``is_contiguous`` and the ``empty``/``*_like`` creators.

A channels-last tensor keeps its logical NCHW shape with strides that make the channel the
fastest dim (NHWC in memory), exactly as PyTorch lays it out, so code that asks for it gets the
same strides; values and every result are the same as for the contiguous layout.
"""

from engine import _C


class memory_format:
    """The memory layout a tensor is asked to have (``engine.channels_last``, ...)."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):
        return self._name


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")

_RANK = {channels_last: 4, channels_last_3d: 5}


def _check(fname, memory_format):
    if not isinstance(memory_format, globals()["memory_format"]):
        raise TypeError(
            f"{fname}(): argument 'memory_format' must be torch.memory_format, not {type(memory_format).__name__}"
        )


def _channels_last_order(ndim):
    # The dims from outermost to innermost in memory: N, spatial..., C.
    return (0, *range(2, ndim), 1)


def _channels_last_copy(t, memory_format):
    rank = _RANK[memory_format]
    if t.dim() != rank:
        name = "channels_last" if rank == 4 else "channels_last_3d"
        raise RuntimeError(f"required rank {rank} tensor to use {name} format")
    order = _channels_last_order(rank)
    inverse = [order.index(d) for d in range(rank)]
    return t.permute(*order).contiguous().permute(*inverse)


def is_contiguous(self, memory_format=contiguous_format):
    """Whether the tensor's elements lie densely in the order ``memory_format`` describes."""
    if memory_format is contiguous_format:
        return _native_is_contiguous(self)
    _check("is_contiguous", memory_format)
    if memory_format is preserve_format:
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    if self.dim() != _RANK[memory_format]:
        return False
    return _native_is_contiguous(self.permute(*_channels_last_order(self.dim())))


def contiguous(self, memory_format=contiguous_format):
    """The tensor itself if it is already laid out as ``memory_format``, else a copy that is."""
    if memory_format is contiguous_format:
        return _native_contiguous(self)
    _check("contiguous", memory_format)
    if memory_format is preserve_format:
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    if is_contiguous(self, memory_format):
        return self
    return _channels_last_copy(self, memory_format)


def clone(self, *, memory_format=preserve_format):
    """A copy with its own memory; ``preserve_format`` keeps a channels-last layout."""
    if memory_format is preserve_format:
        ndim = self.dim()
        if (ndim == 4 or ndim == 5) and not _native_is_contiguous(self):
            fmt = channels_last if ndim == 4 else channels_last_3d
            if is_contiguous(self, fmt):
                return _channels_last_copy(self, fmt)
        return _native_clone(self)
    if memory_format is contiguous_format:
        # A row-major copy in one pass (the native clone keeps a permuted input's layout).
        return _native_clone(self) if _native_is_contiguous(self) else _native_contiguous(self)
    _check("clone", memory_format)
    return _channels_last_copy(self, memory_format)


def to(self, *args, memory_format=None, **kwargs):
    """``Tensor.to`` with ``memory_format=``: the converted tensor in that layout."""
    target = _meta_target(self, args, kwargs)
    if target is not None:
        return target
    out = _native_to(self, *args, **kwargs)
    if out is self and kwargs.get("copy", False):
        # The native conversion hands back self when nothing changes; copy=True wants a new
        # tensor, which PyTorch makes as clone() does (a dense layout kept, else row-major).
        out = clone(self)
    if memory_format is None or memory_format is preserve_format:
        return out
    _check("to", memory_format)
    if out is self and not is_contiguous(self, memory_format):
        out = _native_clone(self)
    return contiguous(out, memory_format)


def _meta_target(self, args, kwargs):
    """``self.to(...)`` when it moves between the CPU and the meta device (None otherwise): to
    meta, a meta tensor of the same layout (in the requested dtype); from meta to the CPU,
    PyTorch's refusal (there is no data to copy)."""
    from engine import _meta_dispatch
    from engine._device import device as device_type

    device = kwargs.get("device")
    dtype = kwargs.get("dtype")
    for a in args:
        if isinstance(a, str) or isinstance(a, device_type):
            device = a
        elif isinstance(a, _C.Tensor):
            device, dtype = a.device, a.dtype
        elif a is not None and not isinstance(a, bool):
            dtype = a
    if device is None:
        return None
    to_meta = str(device).partition(":")[0] == "meta"
    if to_meta == _meta_dispatch.is_meta(self):
        return None
    if not to_meta:
        if str(device).partition(":")[0] != "cpu":
            return None  # the native conversion raises PyTorch's error for that device
        raise NotImplementedError(_meta_dispatch.META_DEVICE_ERROR)
    out = _meta_dispatch.to_meta(self, dtype)
    return out.requires_grad_() if self.requires_grad and self.is_leaf else out


def apply_to_new(tensor, memory_format):
    """For the creators (empty, *_like): the fresh tensor laid out as ``memory_format``."""
    if (
        memory_format is None
        or memory_format is preserve_format
        or memory_format is contiguous_format
    ):
        return tensor
    _check("empty", memory_format)
    return _channels_last_copy(tensor, memory_format)


_native_is_contiguous = _C.Tensor.is_contiguous
_native_contiguous = _C.Tensor.contiguous
_native_clone = _C.Tensor.clone
_native_to = _C.Tensor.to


def install():
    """Puts the memory_format-aware methods on Tensor (called once by engine/__init__)."""
    _C.Tensor.is_contiguous = is_contiguous
    _C.Tensor.contiguous = contiguous
    _C.Tensor.clone = clone
    _C.Tensor.to = to


def clone_function(input, *, memory_format=preserve_format):
    """``engine.clone(input, *, memory_format=engine.preserve_format)``: a copy of ``input``."""
    if not isinstance(input, _C.Tensor):
        raise TypeError(
            f"clone(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}"
        )
    return clone(input, memory_format=memory_format)
