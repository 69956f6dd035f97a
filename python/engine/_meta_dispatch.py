"""The meta device: tensors with a shape, strides and a dtype but no data.

A meta tensor's storage has a size in bytes and no memory (the native core refuses any read of
it). Once the meta device is in use, every native call that takes a meta tensor, names
``device="meta"``, or creates a tensor while the default device is meta comes here (through the
door function transforms use, ``engine._transforms.dispatch``), and :func:`run` works out the
result without data, by one rule for all operations:

1. Calls that never touch data (shape queries, views, ``as_strided``, ``detach``,
   ``requires_grad_``, ``empty_like``...) run on the meta tensors themselves. A fresh tensor such
   a call makes (``empty_like``) becomes a meta tensor of its layout.
2. A call that needs data runs on *stand-ins*: CPU tensors with the meta tensors' exact layout
   over fresh memory. What it returns gives the results' shapes, strides and dtypes, so every
   operation's own shape and dtype rules (broadcasting, promotion, reductions, errors) apply
   unchanged. It runs twice, on two different fillings: a result whose shape changes with the
   values (``nonzero``, ``unique``) has no meta equivalent and is refused, as in PyTorch. An
   in-place operation on a meta tensor with no other tensor operand (``uniform_``, ``fill_``,
   ``zero_``: what ``nn.init`` does) runs on a one-element stand-in and leaves the meta tensor as
   it is, so building a large model on the meta device costs no memory.
3. What reads values (``item``, ``tolist``, ``numpy``, ``bool(t)``) is refused with PyTorch's
   messages, as is mixing meta and CPU tensors in one operation.

The global random generator is left as it was: a random operation on the meta device draws
nothing, as in PyTorch.
"""

from engine import _C

META_DEVICE_ERROR = "Cannot copy out of meta tensor; no data!"
_ITEM_ERROR = "Tensor.item() cannot be called on meta tensors"
_NUMPY_ERROR = (
    "can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host "
    "memory first."
)

# Calls that read values: name -> (exception type, message).
_VALUE_READS = {
    "tolist": (NotImplementedError, META_DEVICE_ERROR),
    "cpu": (NotImplementedError, META_DEVICE_ERROR),
    "numpy": (TypeError, _NUMPY_ERROR),
    "__array__": (TypeError, _NUMPY_ERROR),
    "__dlpack__": (NotImplementedError, META_DEVICE_ERROR),
}
# Conversions to one Python number: a meta tensor of one element has no value to give.
_SCALAR_READS = frozenset(
    ("item", "__float__", "__int__", "__bool__", "__index__", "__complex__", "is_nonzero")
)


def is_meta(value):
    """Whether ``value`` is a meta tensor."""
    return isinstance(value, _C.Tensor) and _C._meta_is(value)


# Whether a meta tensor was ever made (engine._transforms.values_op checks it first).
in_use = [False]


def empty(size, stride=None, dtype=None, *, requires_grad=False):
    """A meta tensor of the given size, strides (None: contiguous) and dtype."""
    import engine

    in_use[0] = True
    t = _C._meta_empty_strided(
        tuple(size), None if stride is None else tuple(stride), dtype or engine.get_default_dtype()
    )
    return t.requires_grad_() if requires_grad else t


def _dense_strides(t):
    """``t``'s strides when its elements fill a block without gaps or overlaps (a permuted
    contiguous tensor), else None: the layout ``preserve_format`` keeps."""
    order = sorted(range(t.dim()), key=lambda d: -t.stride(d))
    expected = 1
    for d in reversed(order):
        if t.shape[d] != 1 and t.stride(d) != expected:
            return None
        expected *= t.shape[d]
    return t.stride()


def to_meta(t, dtype=None):
    """The meta tensor ``t.to("meta")`` gives: ``t``'s shape, dense layout and dtype (or ``dtype``)."""
    if is_meta(t) and (dtype is None or dtype == t.dtype):
        return t
    return empty(t.shape, _dense_strides(t), dtype or t.dtype, requires_grad=False)


# ---- the handler -----------------------------------------------------------------------------


def _tensors(args, kwargs):
    for value in (*args, *kwargs.values()):
        if isinstance(value, (list, tuple)):
            yield from (v for v in value if isinstance(v, _C.Tensor))
        elif isinstance(value, _C.Tensor):
            yield value


# The native factories that create on the default device (PyTorch's device constructors);
# ``*_like`` functions follow their input instead.
FACTORIES = (
    "arange",
    "empty",
    "full",
    "linspace",
    "ones",
    "rand",
    "randint",
    "randn",
    "tensor",
    "zeros",
)
_factory_ids = set()


def register_factories():
    """Routes the native factories to :func:`run` while the default device is meta."""
    for name in FACTORIES:
        func = getattr(_C, name)
        _C._route_meta_factory(func)
        _factory_ids.add(id(func))


def is_factory(func):
    """Whether ``func`` is one of the native factories of :data:`FACTORIES`."""
    return id(func) in _factory_ids


def wants(func, args, kwargs):
    """Whether a call routed to the transform handler without transform state is the meta
    device's: a meta tensor among the arguments, a meta ``device=``, or a factory called while the
    default device is meta."""
    return (
        any(_C._meta_is(t) for t in _tensors(args, kwargs))
        or _names_meta(kwargs.get("device"))
        or (id(func) in _factory_ids and kwargs.get("device") is None and _default_is_meta())
    )


def on_default_device(func, follows_input=False):
    """Wraps a factory written in Python so that ``device="meta"`` (or, with ``device=None``, a
    meta default device, or a meta first argument when the factory ``follows_input`` as
    ``*_like`` and ``Tensor.new_*`` do) makes a meta tensor: the native calls inside then create
    on that device."""
    import functools

    @functools.wraps(func)
    def factory(*args, device=None, **kwargs):
        from engine import _device

        if device is None and follows_input and args and isinstance(args[0], _C.Tensor):
            device = args[0].device
        if device is None:
            device = _device.default_device()
        target = "meta" if _names_meta(device) else "cpu"
        if target == "cpu":
            with _device.default_device_set(target):
                return func(*args, device=device, **kwargs)
        with _device.default_device_set(target), _kept_rng():
            # A result computed on the CPU after all (randperm draws its values) moves over.
            return _fresh_to_meta(func(*args, **kwargs), [])

    return factory


def _names_meta(device):
    return device is not None and str(device).partition(":")[0] == "meta"


def _default_is_meta():
    from engine import _device

    return _device.default_device().type == "meta"


def _name(func):
    return getattr(func, "__name__", "")


class _Paused:
    """Native calls inside reach the kernels directly (the call is already the meta device's)."""

    def __enter__(self):
        self._previous = _C._set_transform_dispatch_paused(True)

    def __exit__(self, *exc):
        _C._set_transform_dispatch_paused(self._previous)


def has_meta(args, kwargs):
    """Whether a meta tensor is among the arguments (or in a list or tuple argument)."""
    return any(_C._meta_is(t) for t in _tensors(args, kwargs))


def run_values_op(func, args, kwargs):
    """An operation engine writes in Python from its tensors' values (through NumPy), called
    with meta tensors: computed on stand-ins like a native operation that reads data."""
    name = _name(func)
    _check_one_device(name, args, kwargs)
    with _on_cpu():
        return _on_stand_ins(func, args, kwargs, name)


def _on_cpu():
    from engine import _device

    return _device.default_device_set("cpu")


def run(func, args, kwargs):
    """``func(*args, **kwargs)`` where an argument is a meta tensor or the device is meta."""
    in_use[0] = True
    with _on_cpu():
        return _run(func, args, kwargs)


def _run(func, args, kwargs):
    metas = [t for t in _tensors(args, kwargs) if _C._meta_is(t)]
    device = kwargs.get("device")
    if not metas or (_names_meta(device) and not _is_like(func)):
        return _factory(func, args, kwargs)
    if _names_meta(device):
        kwargs = {k: v for k, v in kwargs.items() if k != "device"}
        device = None
    name = _name(func)
    if name in _VALUE_READS:
        error, message = _VALUE_READS[name]
        raise error(message)
    if name in _SCALAR_READS:
        return _scalar_read(func, args, kwargs)
    if name == "copy_":
        return _copy(args, kwargs)
    try:
        with _Paused():
            result = func(*args, **kwargs)
    except NotImplementedError as e:
        if str(e) != META_DEVICE_ERROR:
            raise
    else:
        if device is not None and not _names_meta(device):
            return result  # empty_like(meta, device="cpu"): a real tensor asked for
        return _fresh_to_meta(result, metas)
    _check_one_device(name, args, kwargs)
    if _is_plain_in_place(name, args, kwargs):
        return _in_place(func, args, kwargs)
    return _on_stand_ins(func, args, kwargs, name)


def _is_like(func):
    return _name(func).endswith("_like")


def _scalar_read(func, args, kwargs):
    t = args[0]
    if t.numel() != 1:
        # The tensor's own error (several elements): a stand-in of one broadcast element says it.
        stand_in = _C.zeros(1, dtype=t.dtype).expand(t.shape)
        return func(stand_in, *args[1:], **kwargs)
    raise RuntimeError(_ITEM_ERROR)


def _copy(args, kwargs):
    dst, src = args[0], args[1] if len(args) > 1 else kwargs.get("src")
    if not is_meta(dst):
        raise NotImplementedError(META_DEVICE_ERROR)
    if isinstance(src, _C.Tensor):
        # The shapes must broadcast (checked on a stand-in of one broadcast element).
        _C.zeros(1).expand(src.shape).expand(dst.shape)
    return dst


def _check_one_device(name, args, kwargs):
    """PyTorch's error for a computation mixing meta tensors and CPU tensors (CPU 0-dim tensors
    join any device, as numbers do)."""
    expected = None
    for t in _tensors(args, kwargs):
        meta = _C._meta_is(t)
        if not meta and t.dim() == 0:
            continue
        kind = "meta" if meta else "cpu"
        if expected is None:
            expected = kind
        elif kind != expected:
            raise RuntimeError(f"Tensor on device {kind} is not on the expected device {expected}!")


def _is_plain_in_place(name, args, kwargs):
    if not name.endswith("_") or name.startswith("__") or not args or not is_meta(args[0]):
        return False
    return all(t is args[0] or t.numel() <= 1 for t in _tensors(args[1:], kwargs))


def _in_place(func, args, kwargs):
    self = args[0]
    tiny = _C.ones(*[min(s, 1) for s in self.shape], dtype=self.dtype)
    swapped = [_stand_in_for(a, self, tiny) for a in args[1:]]
    with _kept_rng():
        func(tiny, *swapped, **kwargs)
    return self


def _stand_in_for(value, meta, stand_in):
    return stand_in if value is meta else value


class _kept_rng:
    """Restores the global generator: the meta device draws no random numbers."""

    def __enter__(self):
        self._state = _C.default_generator.get_state()

    def __exit__(self, *exc):
        _C.default_generator.set_state(self._state)


def _filling(t, pattern):
    """A CPU tensor with meta tensor ``t``'s layout over fresh memory of its storage's size.
    Pattern 0 is ones for floating dtypes, zeros (always a valid index) for integers and bools.
    Pattern 1 varies: 0, 1, ..., 6, 0, ... for floating dtypes (square matrices of it are
    invertible), 1, 2, 1, ... for integers (no division by zero), False, True, ... for bools. A
    result whose shape differs between the two depends on the values."""
    itemsize = t.element_size()
    n = -(-_C._storage_nbytes(t) // itemsize) if itemsize else 0
    floating = t.dtype.is_floating_point or t.dtype.is_complex
    if pattern == 0:
        buffer = (_C.ones if floating else _C.zeros)(n, dtype=t.dtype)
    elif floating:
        buffer = (_C.arange(n) % 7).to(t.dtype)
    elif t.dtype == _C.bool:
        buffer = (_C.arange(n) % 2).to(t.dtype)
    else:
        buffer = (_C.arange(n) % 2 + 1).to(t.dtype)
    return buffer.as_strided(t.shape, t.stride(), t.storage_offset())


def _on_stand_ins(func, args, kwargs, name):
    metas = {}  # id(meta tensor) -> meta tensor, in order of appearance
    for t in _tensors(args, kwargs):
        if _C._meta_is(t):
            metas.setdefault(id(t), t)
    results, errors = [], []
    for pattern in (0, 1):
        stand_ins = {key: _filling(t, pattern) for key, t in metas.items()}
        try:
            with _kept_rng():
                out = func(*_swap(args, stand_ins), **_swap_kwargs(kwargs, stand_ins))
        except Exception as e:  # noqa: BLE001 - a data-specific failure: the other filling decides
            errors.append(e)
            continue
        results.append((out, stand_ins))
    if not results:
        raise errors[0]
    out, stand_ins = results[0]
    if len(results) == 2 and _shapes(results[0][0]) != _shapes(results[1][0]):
        raise NotImplementedError(
            f"{name or 'this operator'}: attempted to run this operator with Meta tensors, but its result's shape "
            "depends on the data, which a meta tensor does not have"
        )
    by_storage = {_C._storage_id(s): (s, metas[key]) for key, s in stand_ins.items()}
    return _to_meta_result(out, by_storage, name)


def _swap(args, stand_ins):
    out = []
    for a in args:
        if isinstance(a, (list, tuple)) and not hasattr(a, "_fields"):
            out.append(type(a)(stand_ins.get(id(v), v) for v in a))
        else:
            out.append(stand_ins.get(id(a), a) if isinstance(a, _C.Tensor) else a)
    return out


def _swap_kwargs(kwargs, stand_ins):
    return dict(zip(kwargs, _swap(list(kwargs.values()), stand_ins)))


def _shapes(value):
    if isinstance(value, _C.Tensor):
        return tuple(value.shape)
    if isinstance(value, (list, tuple)):
        return tuple(_shapes(v) for v in value)
    return None


def _to_meta_result(value, by_storage, name):
    if value is None:
        return None
    if isinstance(value, _C.Tensor):
        found = by_storage.get(_C._storage_id(value))
        if found is not None:
            stand_in, meta = found
            if value is stand_in:
                return meta  # in place
            return _C._meta_alias(meta, value.shape, value.stride(), value.storage_offset())
        return _C._meta_empty_strided(
            value.shape, value.stride(), value.dtype, value.storage_offset()
        )
    if isinstance(value, (list, tuple)):
        items = [_to_meta_result(v, by_storage, name) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    raise NotImplementedError(
        f"{name or 'this operator'}: attempted to run this operator with Meta tensors, but its result is a value "
        "computed from the data, which a meta tensor does not have"
    )


def _fresh_to_meta(value, metas):
    """Results of a call that read no data: fresh real tensors it made become meta tensors."""
    if isinstance(value, _C.Tensor):
        if _C._meta_is(value) or any(value is m for m in metas):
            return value
        return to_meta_keeping_grad(value)
    if isinstance(value, (list, tuple)):
        items = [_fresh_to_meta(v, metas) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    return value


def to_meta_keeping_grad(t):
    """``t`` as a meta tensor of the same layout and dtype, requiring grad if ``t`` does."""
    out = _C._meta_empty_strided(t.shape, t.stride(), t.dtype, t.storage_offset())
    return out.requires_grad_() if t.requires_grad and t.is_leaf else out


# ---- factories -------------------------------------------------------------------------------

# Factories whose result's shape is their size argument: made without computing anything, after
# a call at size 0 has checked the other arguments and chosen the dtype.
_SIZED = frozenset(("empty", "zeros", "ones", "rand", "randn", "full", "randint"))


def _factory(func, args, kwargs):
    """A factory called with ``device="meta"`` or under a meta default device."""
    kwargs = {k: v for k, v in kwargs.items() if k != "device"}
    name = _name(func)
    with _kept_rng():
        if name in _SIZED:
            size, small_args, small_kwargs = _split_size(name, args, kwargs)
            if size is not None:
                with _Paused():
                    small = func(*small_args, **small_kwargs)
                return empty(size, None, small.dtype, requires_grad=small.requires_grad)
        with _Paused():
            result = func(*args, **kwargs)
    return _fresh_to_meta(result, [])


def _split_size(name, args, kwargs):
    """(size, args, kwargs of the same call at size 0), or (None, ...) when the call's form is
    not the usual one (the full computation then decides)."""
    kwargs = dict(kwargs)
    if name == "full":
        if args:
            size, args = args[0], ((0,), *args[1:])
        elif "size" in kwargs:
            size, kwargs["size"] = kwargs["size"], (0,)
        else:
            return None, args, kwargs
    elif name == "randint":
        if "size" in kwargs:
            size, kwargs["size"] = kwargs["size"], (0,)
        elif args and isinstance(args[-1], (tuple, list)):
            size, args = args[-1], (*args[:-1], (0,))
        else:
            return None, args, kwargs
    elif "size" in kwargs:
        size, kwargs["size"] = kwargs["size"], (0,)
    elif len(args) == 1 and isinstance(args[0], (tuple, list)):
        size, args = args[0], ((0,),)
    elif args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        size, args = args, (0,)
    else:
        return None, args, kwargs
    size = tuple(size)
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in size):
        return None, args, kwargs
    return size, args, kwargs
