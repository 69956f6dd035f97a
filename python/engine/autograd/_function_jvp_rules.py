"""Forward-mode rules of engine's own operations written as once-differentiable Functions.

Most of engine's Functions have backward passes written with differentiable operations, from
which the generic (double-vjp) rule derives tangents. ``logcumsumexp`` and the product
reduction of ``scatter_reduce``/``index_reduce`` compute their backward in NumPy instead, so
their tangents are written here, keyed by the Function's class name, with engine's
differentiable operations (a tangent has a graph of its own, and vmap batches them).
"""

from __future__ import annotations

from engine import _C


def _logcumsumexp(inputs, out, tangent_of):
    """PyTorch's formula: ``cumsum(exp(x - m) * t) / cumsum(exp(x - m))`` along ``dim``, with m
    the slice's maximum (which cancels; it keeps ``exp`` from overflowing)."""
    x, dim = inputs[0], inputs[1]
    t = tangent_of(x)
    if t is None:
        return None
    if x.dim() == 0 or x.numel() == 0:
        return t.clone()
    d = dim % x.dim()
    shift = x.detach().amax(d, keepdim=True)
    shift = _C.where(shift.isinf(), _C.zeros_like(shift), shift)
    e = (x - shift).exp()
    return (e * t).cumsum(d) / e.cumsum(d)


def _scatter_prod(inputs, out, tangent_of):
    """``out[k] = prod of the factors scattered into k`` (and ``flat[k]`` when it takes part):
    the tangent is ``sum_f t_f * (product of the other factors)``, exact where factors are 0:
    the other factors' product is ``P / f`` when no factor is 0, ``P`` (the product of the
    nonzero factors) for the only zero factor, and 0 otherwise."""
    flat, pos, src, include_self = inputs
    t_flat, t_src = tangent_of(flat), tangent_of(src)
    if t_flat is None and t_src is None:
        return None
    n = flat.shape[0]
    touched = _C.zeros((n,), dtype=_C.int64).index_add(0, pos, _C.ones_like(pos)) > 0
    takes_part = ~touched if not include_self else _C.ones((n,), dtype=_C.bool)
    one = _C.ones((), dtype=flat.dtype)
    zero = _C.zeros((), dtype=flat.dtype)
    own = _C.where(takes_part, flat, one)  # flat's factor, 1 where it does not take part
    own_zero = (own == 0).to(_C.int64)
    src_zero = (src == 0).to(_C.int64)
    zeros = own_zero.index_add(0, pos, src_zero)
    nonzero = _C.where(own == 0, one, own)
    nonzero = nonzero.scatter_reduce(0, pos, _C.where(src == 0, one, src), "prod")

    def others(value, at_zero, product, count):
        safe = _C.where(at_zero, one, value)
        alone = _C.where(count == 1, product, zero)
        return _C.where(at_zero, alone, _C.where(count == 0, product / safe, zero))

    tangent = _C.zeros_like(flat)
    if t_flat is not None:
        factor = others(own, own == 0, nonzero, zeros)
        tangent = tangent + _C.where(takes_part, t_flat * factor, zero)
    if t_src is not None:
        factor = others(src, src == 0, nonzero.index_select(0, pos), zeros.index_select(0, pos))
        tangent = tangent.index_add(0, pos, t_src * factor)
    return tangent


RULES = {
    "LogCumSumExp": _logcumsumexp,
    "ScatterProd": _scatter_prod,
}


def run(level, func, args, kwargs, rule):
    """Runs ``cls.apply`` (``func(*args)``) on the primals at ``level`` and marks the output
    with the tangent ``rule`` gives."""
    taken = level.take(args, kwargs)
    tangents = {id(value): state.tangent for value, state in taken}

    def tangent_of(value):
        return tangents.get(id(value)) if isinstance(value, _C.Tensor) else None

    try:
        out = func(*args, **kwargs)
        tangent = rule(args[1:], out, tangent_of)
    finally:
        level.give_back(taken)
    level._mark(out, tangent)
    return out
