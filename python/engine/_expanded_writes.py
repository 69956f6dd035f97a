"""Writes by index or mask into a tensor whose elements repeat memory (an ``expand()`` result: a
stride of 0 over a dim longer than 1).

PyTorch rejects elementwise writes there (copy_, add_, slice assignment), but index_put_ (so
``t[mask] = v``), masked_fill_ and index_fill_ only warn that this is deprecated and then write
each selected element's memory location, so every element sharing that location shows the new
value. Projects rely on it: XNOR-Net zeroes parts of an expanded mean with ``m[w.lt(-1)] = 0``.
Here the write goes to the tensor's memory seen once: the view narrowed to the first index of
each repeating dim, with the selection mapped onto it."""

from engine import _C, _user_warnings


def repeating_dims(t):
    """The dims along which t's elements repeat one memory location."""
    return [d for d in range(t.dim()) if t.shape[d] > 1 and t.stride(d) == 0]


def memory_view(t):
    """(view, dims): t narrowed to index 0 along each repeating dim, or None when none repeats
    or autograd records t. PyTorch's backward of such a write fails on the expanded gradient, so
    a recorded write keeps the overlap error, raised here at the write instead of in backward."""
    dims = repeating_dims(t)
    if not dims or (t.requires_grad and _C.is_grad_enabled()):
        return None
    view = t
    for d in dims:
        view = view.narrow(d, 0, 1)
    return view, dims


def warn_deprecated(op, example):
    """PyTorch's warning for op on an expanded tensor, at the user's line."""
    _user_warnings.warn(
        f"Use of {op} on expanded tensors is deprecated. Please clone() the tensor before "
        "performing this operation. This also applies to advanced indexing e.g. "
        f"{example}"
    )


def _positions_in_view(positions, shape, dims):
    """Row-major flat positions in `shape` mapped to the view that keeps index 0 of `dims`."""
    out = _C.zeros_like(positions)
    rest, step = positions, 1
    for d in reversed(range(len(shape))):
        coord = rest.remainder(shape[d])
        rest = rest.floor_divide(shape[d])
        if d not in dims:
            out = out + coord * step
            step *= shape[d]
    return out


def write_positions(t, mem, positions, values, accumulate=False):
    """Writes (or adds) values at t's row-major flat positions, through mem = memory_view(t):
    positions that share a memory location take the last value written, or the sum with
    accumulate, as PyTorch's sequential loop leaves them."""
    view, dims = mem
    pos = _positions_in_view(positions.reshape(-1), list(t.shape), dims)
    flat = view.reshape(-1)
    vals = values.reshape(-1)
    updated = flat.index_add(0, pos, vals) if accumulate else flat.index_copy(0, pos, vals)
    view.copy_(updated.view(list(view.shape)))
    return t


def masked_fill_(t, mem, mask, value):
    """t.masked_fill_(mask, value) for a t with repeating dims: a location is filled when any
    element sharing it is selected."""
    view, dims = mem
    hit = mask.expand(list(t.shape))
    for d in dims:
        hit = hit.any(d, keepdim=True)
    view.masked_fill_(hit, value)
    return t
