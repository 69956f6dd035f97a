"""Storages: the memory block behind a tensor and all of its views.

``Tensor.untyped_storage()`` gives an :class:`UntypedStorage`, the block as bytes; the deprecated
``Tensor.storage()`` gives a :class:`TypedStorage`, the same block as elements of the tensor's
dtype. Both share the tensor's memory (writing through one is seen by the tensor), and all views
of a tensor give storages of one block (``a.untyped_storage().data_ptr() ==
a[1:].untyped_storage().data_ptr()``). Storages never change size: engine's views hold addresses
into the block, so ``resize_`` is refused unless it keeps the size.
"""

import warnings

from engine import _C

_META_ERROR = "Not available for 'meta' device type"
_TYPED_WARNING = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the "
    "only storage class. This should only matter to you if you are using storages directly.  To "
    "access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()"
)
_warned = [False]


class _StorageBase:
    """What both storage kinds share: a 1-D tensor (``_data``) over the whole block."""

    __slots__ = ("_data",)

    def __init__(self, data):
        self._data = data

    @property
    def device(self):
        """The device of the block: the CPU, or meta (no memory)."""
        return self._data.device

    @property
    def is_meta(self):
        """Whether the block is on the meta device."""
        return self._data.is_meta

    @property
    def is_cuda(self):
        """False: engine has no CUDA device."""
        return False

    def nbytes(self):
        """The block's size in bytes."""
        return _C._storage_nbytes(self._data)

    def data_ptr(self):
        """The address of the block's first byte (0 on the meta device or for no bytes)."""
        if self.nbytes() == 0:
            return 0
        return _C._storage_data_ptr(self._data) + self._data.storage_offset() * (
            self._data.element_size()
        )

    def type(self):
        """The storage's type name (``'torch.storage.UntypedStorage'``, as PyTorch spells it)."""
        return f"torch.storage.{type(self).__name__}"

    def is_shared(self):
        """False: the block is not in shared memory."""
        return False

    def is_pinned(self, device="cuda"):
        """False: there is no pinned memory without CUDA."""
        return False

    def __len__(self):
        return self.size()

    def __iter__(self):
        return iter(self.tolist())

    def _check_data(self):
        if self.is_meta:
            raise NotImplementedError(_META_ERROR)

    def tolist(self):
        """The elements as a Python list."""
        self._check_data()
        return self._data.tolist()

    def _index(self, i):
        n = self.size()
        if not isinstance(i, int) or isinstance(i, bool):
            raise TypeError(f"can't index a {type(self).__name__} with {type(i).__name__}")
        if not -n <= i < n:
            raise IndexError(f"index {i} out of range for storage of size {n}")
        return i + n if i < 0 else i

    def __getitem__(self, i):
        if isinstance(i, slice):
            start, stop, step = i.indices(self.size())
            if step != 1:
                raise RuntimeError(f"slices with step != 1 are not supported: step={step}")
            return type(self)._wrap(self._data[start : max(start, stop)])
        self._check_data()
        return self._data[self._index(i)].item()

    def __setitem__(self, i, value):
        self._check_data()
        if isinstance(i, slice):
            self._data[i] = value
        else:
            self._data[self._index(i)] = value

    def fill_(self, value):
        """Sets every element to ``value``; returns this storage."""
        if not self.is_meta:
            self._data.fill_(value)
        return self

    def copy_(self, source, non_blocking=None):
        """Copies ``source`` (a storage of the same size) into this one; returns this storage."""
        if not self.is_meta:
            self._data.copy_(source._data.view(self._data.dtype).reshape(self._data.shape))
        return self

    def cpu(self):
        """This storage (it is on the CPU already)."""
        if self.is_meta:
            raise NotImplementedError("Cannot copy out of meta tensor; no data!")
        return self

    def clone(self):
        """A copy in a new block."""
        return type(self)._wrap(self._data.clone())

    def resize_(self, size):
        """Refused unless ``size`` is the current size: engine's storages keep their size."""
        if not isinstance(size, int) or isinstance(size, bool):
            raise TypeError(f"resize_(): argument 'size' must be int, not {type(size).__name__}")
        if size < 0:
            raise RuntimeError(f"resize_(): size must be non-negative, got {size}")
        if size != self.size():
            raise RuntimeError("Trying to resize storage that is not resizable")
        return self

    def __repr__(self):
        head = f"[{self._type_name()} of size {self.size()}]"
        if self.is_meta:
            return "...\n" + head
        return "\n".join([*(f" {v}" for v in self.tolist()), head])

    __str__ = __repr__

    def __eq__(self, other):
        return self is other

    __hash__ = object.__hash__


class UntypedStorage(_StorageBase):
    """The memory block behind a tensor, as bytes (``Tensor.untyped_storage()``).

    ``size()``, ``nbytes()`` and ``len()`` count bytes; indexing reads and writes one byte as an
    int; ``data_ptr()`` is the same for every view of one tensor.

    Example::

        >>> a = engine.arange(6.0)
        >>> a.untyped_storage().nbytes()
        24
        >>> a.untyped_storage().data_ptr() == a[1:].untyped_storage().data_ptr()
        True
    """

    __slots__ = ()

    def __init__(self, size=0, *, device=None):
        from engine._device import check_cpu

        check_cpu(device, allow_meta=True)
        meta = device is not None and str(device).partition(":")[0] == "meta"
        if not isinstance(size, int) or isinstance(size, bool):
            raise TypeError(
                f"UntypedStorage(): argument 'size' must be int, not {type(size).__name__}"
            )
        data = _C.zeros(size, dtype=_C.uint8, device="meta" if meta else None)
        super().__init__(_C._storage_bytes(data))

    @classmethod
    def _wrap(cls, data):
        out = cls.__new__(cls)
        out._data = data
        return out

    def size(self):
        """The size in bytes."""
        return self._data.numel()

    def nbytes(self):
        """The size in bytes."""
        return self._data.numel()

    def element_size(self):
        """1: an untyped storage counts bytes."""
        return 1

    def untyped(self):
        """This storage."""
        return self

    def _type_name(self):
        return f"torch.storage.UntypedStorage(device={self.device})"


class TypedStorage(_StorageBase):
    """The memory block behind a tensor as elements of its dtype (``Tensor.storage()``,
    deprecated in PyTorch in favour of :class:`UntypedStorage`)."""

    __slots__ = ()

    @classmethod
    def _wrap(cls, data):
        out = cls.__new__(cls)
        out._data = data
        return out

    @property
    def dtype(self):
        """The element type."""
        return self._data.dtype

    def size(self):
        """The number of elements."""
        return self._data.numel()

    def element_size(self):
        """The size of one element in bytes."""
        return self._data.element_size()

    def untyped(self):
        """The same block as an :class:`UntypedStorage`."""
        return UntypedStorage._wrap(_C._storage_bytes(self._data))

    def _type_name(self):
        return f"torch.storage.TypedStorage(dtype={self.dtype}, device={self.device})"


def untyped_storage(self):
    """The memory block behind this tensor and its views, as an :class:`engine.UntypedStorage`."""
    return UntypedStorage._wrap(_C._storage_bytes(self))


def _elements(self):
    """A 1-D tensor of this tensor's dtype over its whole storage."""
    whole = _C._storage_bytes(self)
    size = self.element_size()
    usable = whole.numel() - whole.numel() % size
    return whole[:usable].view(self.dtype) if size > 1 else whole.view(self.dtype)


def storage(self):
    """The memory block behind this tensor as a :class:`engine.TypedStorage` of its dtype
    (deprecated, as in PyTorch: warns once; :meth:`untyped_storage` is the replacement)."""
    if not _warned[0]:
        _warned[0] = True
        warnings.warn(_TYPED_WARNING, UserWarning, stacklevel=2)
    return TypedStorage._wrap(_elements(self))


_native_set = _C.Tensor.set_


def set_(self, *args, **kwargs):
    """``set_()`` (empty), ``set_(tensor)``, ``set_(tensor or storage, storage_offset, size,
    stride=None)``: makes this tensor a view of ``source``'s memory with the given layout (a
    storage alone: all of it as a 1-D tensor)."""
    source = args[0] if args else kwargs.get("source")
    if not isinstance(source, _StorageBase):
        return _native_set(self, *args, **kwargs)
    rest = dict(zip(("storage_offset", "size", "stride"), args[1:]))
    rest.update((k, v) for k, v in kwargs.items() if k != "source")
    whole = _C._storage_bytes(source._data)
    itemsize = self.element_size()
    elements = whole[: whole.numel() - whole.numel() % itemsize].view(self.dtype)
    size = rest.get("size")
    if size is None:
        size = (elements.numel(),)
    return _native_set(self, elements, rest.get("storage_offset", 0), size, rest.get("stride"))


def install(T):
    """Adds ``untyped_storage``, ``storage`` and the storage form of ``set_`` to Tensor."""
    T.untyped_storage = untyped_storage
    T.storage = storage
    T.set_ = set_
