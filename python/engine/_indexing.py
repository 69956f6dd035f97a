"""Tensor.__getitem__ and __setitem__ with PyTorch's semantics.

Basic indices (ints, slices with steps and negative bounds, None, ``...``) give views of the
tensor. Advanced indices (integer tensors or lists, boolean masks) are broadcast together and
gathered with ``index_select`` over the advanced dims flattened into one, so the result and its
gradient come from differentiable ops; as in PyTorch, the broadcast index dims go where the first
advanced index stood when the advanced indices are adjacent, and to the front otherwise.

Assignment writes through the basic view with ``copy_`` (an advanced part first becomes an
``index_copy`` into the flattened view), so versions and gradients follow the in-place rules.
"""

import operator
import warnings

from engine import _C, _expanded_writes, _transforms
from engine.autograd.grad_mode import no_grad

_Tensor = _C.Tensor


def _index_tensor(k):
    """k as an index tensor, or None if k is not an advanced index."""
    if isinstance(k, _Tensor):
        return k
    if isinstance(k, list):
        return _C.tensor(k, dtype=_C.bool if _all_bool(k) else _C.int64)
    if type(k).__module__ == "numpy" and hasattr(k, "ndim") and k.ndim > 0:
        return _C.tensor(k)
    return None


def _all_bool(seq):
    flat = list(seq)
    while flat and isinstance(flat[0], list):
        flat = [x for s in flat for x in s]
    return bool(flat) and all(isinstance(x, bool) for x in flat)


_SEQUENCE_INDEX = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed "
    "in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be "
    "interpreted as tensor index, x[torch.tensor(seq)], which will result either in an error or "
    "a different result"
)


def _sequence_as_tuple(key):
    """PyTorch's legacy rule for a list index: one holding tensors, sequences, slices, None or
    ``...`` (and shorter than 32) is a tuple of indices, ``x[[rows, cols]]`` meaning
    ``x[rows, cols]``, with a deprecation warning; a list of numbers is one index tensor."""
    if not isinstance(key, list) or len(key) >= 32:
        return False
    return any(
        isinstance(k, (_Tensor, list, tuple, slice)) or k is None or k is Ellipsis for k in key
    )


def _normalize(key):
    if _sequence_as_tuple(key):
        warnings.warn(_SEQUENCE_INDEX, UserWarning, stacklevel=4)
        key = tuple(key)
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    for k in key:
        t = _index_tensor(k)
        if t is not None:
            if t.dtype == _C.uint8:
                # A uint8 index is a mask, as in PyTorch (which warns that it is deprecated).
                warnings.warn(
                    "indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                    "torch.bool instead.",
                    UserWarning,
                    stacklevel=4,
                )
                t = t.bool()
            if t.dtype == _C.bool and t.dim() == 0:
                k = bool(t.item())
            elif t.dtype in (_C.int64, _C.int32) and t.dim() == 0:
                k = int(t.item())
            else:
                if t.dtype not in (_C.int64, _C.int32, _C.bool):
                    raise IndexError(
                        "tensors used as indices must be long, int, byte or bool tensors"
                    )
                k = t
        out.append(k)
    return out


def _consumed(k):
    if k is None or k is Ellipsis or isinstance(k, bool):
        return 0
    if isinstance(k, _Tensor) and k.dtype == _C.bool:
        return k.dim()
    return 1


def _covers(start, stop, n):
    """Whether start:stop (as given, either may be None or negative) spans all n elements."""
    start = 0 if start is None else (start + n if start < 0 else start)
    stop = n if stop is None else (stop + n if stop < 0 else stop)
    return start <= 0 and stop >= n


def _basic(self, key, masks=None):
    """Applies the basic part of `key`: (view, [(dim, int64 index array)]). A bool mask gives one
    index array per dim it covers; with `masks` (a dict), its first dim maps to the mask."""
    import numpy as np

    key = _normalize(key)
    consumed = sum(_consumed(k) for k in key)
    if consumed > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
    t, d, adv, seen_ellipsis = self, 0, [], False
    for k in key:
        if k is None:
            t = t.unsqueeze(d)
            d += 1
        elif k is Ellipsis:
            if seen_ellipsis:
                raise IndexError("an index can only have a single ellipsis ('...')")
            seen_ellipsis = True
            d += self.dim() - consumed
        elif isinstance(k, bool):
            t = t.unsqueeze(d)
            if not k:
                t = _C._slice(t, d, 0, 0, 1)
            d += 1
        elif isinstance(k, slice):
            idx = [None if v is None else operator.index(v) for v in (k.start, k.stop, k.step)]
            step = 1 if idx[2] is None else idx[2]
            # A slice covering its whole dim is skipped inside a longer key, as PyTorch does (so
            # x[:, i] records no SliceBackward0); alone (x[:]) it still makes a view.
            whole = step == 1 and len(key) > 1 and _covers(idx[0], idx[1], t.shape[d])
            if not whole:
                t = _C._slice(t, d, idx[0], idx[1], step)
            d += 1
        elif isinstance(k, _Tensor):
            arr = k.detach().numpy()
            if k.dtype == _C.bool:
                for j in range(k.dim()):
                    if arr.shape[j] != t.shape[d + j]:
                        raise IndexError(
                            f"The shape of the mask [{', '.join(map(str, arr.shape))}] at index {j} does "
                            f"not match the shape of the indexed tensor "
                            f"[{', '.join(map(str, self.shape))}] at index {d + j}"
                        )
                for j, nz in enumerate(np.nonzero(arr)):
                    adv.append((d + j, nz.astype(np.int64)))
                if masks is not None:
                    masks[d] = k
                d += k.dim()
            else:
                adv.append((d, arr.astype(np.int64)))
                d += 1
        else:
            try:
                i = operator.index(k)
            except TypeError:
                raise IndexError(
                    "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
                    f"are valid indices (got {type(k).__name__})"
                ) from None
            n = t.shape[d]
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for dimension {d} with size {n}")
            t = t.select(d, i)
    return t, adv


def _advanced(t, adv):
    return _advanced_with_plan(t, adv)[0]


def _advanced_with_plan(t, adv):
    """The values of t's advanced indexing and how they were gathered: (values, (flat positions,
    gather order, flat shape, output permutation)), for the IndexBackward0 node."""
    import numpy as np

    dims = [d for d, _ in adv]
    try:
        bshape = np.broadcast_shapes(*[a.shape for _, a in adv])
    except ValueError:
        shapes = ", ".join("[" + ", ".join(map(str, a.shape)) + "]" for _, a in adv)
        raise IndexError(
            f"shape mismatch: indexing tensors could not be broadcast together with shapes {shapes}"
        ) from None
    lin = np.zeros(bshape, dtype=np.int64)
    for d, a in adv:
        n = t.shape[d]
        bad = a[(a < -n) | (a >= n)]
        if bad.size:
            raise IndexError(
                f"index {bad.flat[0]} is out of bounds for dimension {d} with size {n}"
            )
        lin = lin * n + np.where(a < 0, a + n, a)
    rest = [d for d in range(t.dim()) if d not in dims]
    rest_shape = [t.shape[d] for d in rest]
    size = 1
    for d in dims:
        size *= t.shape[d]
    flat = t.permute(*(dims + rest)).reshape(size, *rest_shape)
    positions = _C.from_numpy(np.ascontiguousarray(lin.reshape(-1)))
    out = flat.index_select(0, positions)
    out = out.reshape(*bshape, *rest_shape)
    p, nb = dims[0], len(bshape)
    perm = []
    if dims == list(range(p, p + len(dims))) and p > 0 and nb > 0:
        perm = list(range(nb, nb + p)) + list(range(nb)) + list(range(nb + p, out.dim()))
        # PyTorch's result is row-major here too (not the permuted gather).
        out = out.permute(*perm).contiguous()
    return out, (positions, dims + rest, [size, *rest_shape], perm)


@_transforms.values_op
def getitem(self, key):
    masks = {}
    t, adv = _basic(self, key, masks)
    if not adv:
        # Indexing always gives a new tensor: x[...] or x[:, :] is a view of all of x
        # (AliasBackward0), as in PyTorch.
        return _Tensor._alias_subclass(type(self), self) if t is self else t
    if _transforms._open or not (t.requires_grad and _C.is_grad_enabled()):
        return _advanced(t, adv)
    # PyTorch's advanced indexing is one operator: the values are gathered without history and
    # one IndexBackward0 node, saving the index tensors, scatters the gradient back.
    with no_grad():
        out, (positions, order, flat_shape, perm) = _advanced_with_plan(t, adv)
    out = _C.detach(out)  # a tensor of its own, not a view made without history
    # The node keeps the index tensors as given, one per indexed position: a bool mask is kept
    # whole (for all the dims it covers), as PyTorch keeps it.
    given = dict(adv)
    indices, d = [], 0
    while d <= max(given):
        if d in masks:
            indices.append(masks[d])
            d += max(masks[d].dim(), 1)
        else:
            indices.append(_C.from_numpy(given[d]) if d in given else None)
            d += 1
    _C._record_index(out, t, positions, order, flat_shape, perm, indices)
    return out


def _broadcast_value(value, shape):
    """``value`` brought to ``shape``: leading size-1 dims dropped, then expanded where the shapes
    still differ (as PyTorch's graph shows: a value of the right shape is linked as it is)."""
    vshape, target = tuple(value.shape), tuple(shape)
    ok = len(vshape) <= len(target) or all(s == 1 for s in vshape[: len(vshape) - len(target)])
    if ok:
        v = vshape[len(vshape) - len(target) :] if len(vshape) > len(target) else vshape
        ok = all(a in (1, b) for a, b in zip(reversed(v), reversed(target)))
    if not ok:
        raise RuntimeError(
            f"shape mismatch: value tensor of shape [{', '.join(map(str, vshape))}] cannot be "
            f"broadcast to indexing result of shape [{', '.join(map(str, target))}]"
        )
    if len(vshape) > len(target):
        value = _C.reshape(value, vshape[len(vshape) - len(target) :])
    return value if tuple(value.shape) == target else value.expand(*target)


def _assignable_number(value):
    # PyTorch takes Python numbers (float's and int's subclasses too) and NumPy integers, and no
    # sequence, array or other number type.
    import numpy as np

    return isinstance(value, (bool, int, float, complex, np.integer))


def _c_type_name(value):
    # The name CPython gives the type in messages: a class defined in Python by its name alone, a
    # built-in extension type with its module ("numpy.ndarray", "decimal.Decimal").
    cls = type(value)
    if cls.__flags__ & (1 << 9) or cls.__module__ == "builtins":  # Py_TPFLAGS_HEAPTYPE
        return cls.__name__
    return f"{cls.__module__}.{cls.__name__}"


def setitem(self, key, value):
    if not isinstance(value, _Tensor):
        if not _assignable_number(value):
            raise TypeError(f"can't assign a {_c_type_name(value)} to a {self.type()}")
        value = _C.tensor(value, dtype=self.dtype)
    masks = {}
    t, adv = _basic(self, key, masks)
    if not adv:
        t.copy_(_broadcast_value(value, t.shape))  # copy_ converts the dtype
        return
    if value.dtype != self.dtype:
        value = value.to(self.dtype)
    positions = _advanced(_C.arange(t.numel()).reshape(*t.shape), adv)
    v = _broadcast_value(value, positions.shape)
    mem = _expanded_writes.memory_view(t)
    if mem is not None:
        # index_put_ on an expanded tensor: deprecated but allowed, see _expanded_writes.
        _expanded_writes.warn_deprecated("index_put_", "tensor[indices] = tensor")
        # One mask over the leading dims with a 0-d value goes on to masked_fill_ in PyTorch.
        if list(masks) == [0] and len(adv) == masks[0].dim() and value.dim() == 0:
            _expanded_writes.warn_deprecated("masked_fill_", "tensor[mask] = scalar")
        _expanded_writes.write_positions(t, mem, positions, v)
        return
    updated = t.reshape(-1).index_copy(0, positions.reshape(-1), v.reshape(-1))
    t.copy_(updated.view(*t.shape))
