"""Which ops CPU autocast runs in which dtype: PyTorch 2.13's per-op policy, as one table.

Inside a CPU ``autocast`` region, PyTorch casts the floating inputs of a listed op before it runs:

- ``lower_precision_fp``: to the region's dtype (bfloat16 unless chosen), so matrix products and
  convolutions run in lower precision;
- ``fp32``: to float32, for ops whose accuracy suffers in bfloat16 (losses, pooling in 3-D,
  linear algebra);
- ``promote``: to the widest floating dtype among the inputs (and the region's).

float64 inputs are never cast, and unlisted ops run on their inputs' dtypes. The op itself runs
with autocast set aside, so whatever it calls inside is not cast again (PyTorch's autocast kernel
excludes its own dispatch key while it redispatches).

Native ops answer through the transform door of the native module (``engine._transforms``, its
``AUTOCAST`` route condition: a counter that is positive while a CPU region is on on some thread),
so they cost nothing outside regions. The state is per thread, as PyTorch's. Ops engine writes
in Python carry :func:`autocast_op`, which tests one
flag. Float32 leaf tensors that require grad (a module's parameters) are cast once per outermost
region: the casts are cached until it closes, as PyTorch's are.
"""

from __future__ import annotations

import _thread  # threading.local / Lock are _thread's; importing threading costs ~1 ms
import functools

LOWER = "lower_precision_fp"
FP32 = "fp32"
PROMOTE = "promote"
# An op PyTorch runs as one kernel outside the lists (its inputs' dtype), which engine composes
# from matrix products: those must not be cast on its behalf.
AS_IS = "as_is"

# op -> policy. "Tensor.x" is a native method; a bare name is a native function of engine._C, or
# an op written in Python that carries @autocast_op(name). Ops PyTorch composes from these (einsum,
# tensordot, inner, matrix_power, scaled_dot_product_attention, multi-head attention, nn.LSTM)
# inherit the casts of the matrix products they call, as PyTorch's do. Not cast, unlike PyTorch:
# linalg.vecdot (lower_precision_fp there), because engine's refuses bfloat16 inputs.
POLICY = {
    # lower_precision_fp
    "matmul": LOWER,
    "mm": LOWER,
    "bmm": LOWER,
    "linear": LOWER,
    "convolution": LOWER,  # conv1d/2d/3d, conv_transpose1d/2d/3d
    "Tensor.matmul": LOWER,
    "Tensor.__matmul__": LOWER,
    "Tensor.__rmatmul__": LOWER,
    "Tensor.mm": LOWER,
    "Tensor.bmm": LOWER,
    "addmm": LOWER,
    "baddbmm": LOWER,
    "addbmm": LOWER,
    "prelu": LOWER,
    "nn.LSTM": LOWER,  # mkldnn_rnn_layer: input, states and weights (GRU and the cells are not)
    # fp32
    "mse_loss": FP32,
    "l1_loss": FP32,
    "smooth_l1_loss": FP32,
    "huber_loss": FP32,
    "cross_entropy": FP32,
    "nll_loss": FP32,
    "binary_cross_entropy": FP32,
    "binary_cross_entropy_with_logits": FP32,
    "kl_div": FP32,
    "soft_margin_loss": FP32,
    "margin_ranking_loss": FP32,
    "hinge_embedding_loss": FP32,
    "poisson_nll_loss": FP32,
    "cosine_embedding_loss": FP32,
    "triplet_margin_loss": FP32,
    "multi_margin_loss": FP32,
    "multilabel_margin_loss": FP32,
    "cdist": FP32,
    "prod": FP32,
    "Tensor.prod": FP32,
    "trace": FP32,
    "quantile": FP32,
    "nanquantile": FP32,
    "avg_pool3d": FP32,
    "max_pool3d": FP32,
    "adaptive_avg_pool3d": FP32,
    "adaptive_max_pool3d": FP32,
    "pad": FP32,  # its reflect and replicate modes (reflection_pad*, replication_pad*)
    "grid_sample": FP32,
    "pinverse": FP32,
    "cholesky_solve": FP32,
    "linalg.qr": FP32,
    "linalg.svd": FP32,
    "linalg.svdvals": FP32,
    "linalg.eigh": FP32,
    "linalg.eigvalsh": FP32,
    "linalg.solve": FP32,
    "linalg.solve_triangular": FP32,
    "linalg.lstsq": FP32,
    "linalg.cond": FP32,
    "linalg.matrix_rank": FP32,
    # promote
    "cat": PROMOTE,
    "stack": PROMOTE,
    "index_copy": PROMOTE,
    "Tensor.index_copy": PROMOTE,
    # as is
    "bilinear": AS_IS,
}

# Rows that apply to some calls only: pad's constant and circular modes are not cast.
_APPLIES = {
    "pad": lambda args, kwargs: (
        kwargs.get("mode", args[2] if len(args) > 2 else "constant") in ("reflect", "replicate")
    ),
}

AUTOCAST_ROUTE = 2  # the native module's route condition for autocast (py_transform_dispatch.cpp)


class _State(_thread._local):
    """This thread's CPU region as the casts read it (engine.amp keeps it current). Autocast is
    per thread, as PyTorch's: a region opened on one thread leaves the others' ops alone."""

    def __init__(self):
        self.on = False  # a CPU region is enabled on this thread and not set aside
        self.routing = False  # this thread holds the native routing (its region is enabled)
        self.dtype = None  # the region's lower-precision dtype
        self.cache_enabled = True
        self.cache = {}  # id(float32 leaf) -> (leaf, its cast)


state = _State()


def _eligible(value) -> bool:
    import engine

    return (
        isinstance(value, engine.Tensor)
        and value.is_floating_point()
        and value.dtype != engine.float64
    )


def _cast_one(value, dtype):
    import engine

    if not _eligible(value) or value.dtype == dtype:
        return value
    cacheable = (
        state.cache_enabled
        and dtype == state.dtype
        and value.dtype == engine.float32
        and value.requires_grad
        and value.is_leaf
        and not value._is_view()
    )
    if cacheable:
        hit = state.cache.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
    cast = value.to(dtype)
    if cacheable:
        state.cache[id(value)] = (value, cast)
    return cast


def _cast_all(values, dtype):
    if isinstance(values, (list, tuple)):
        return type(values)(_cast_one(v, dtype) for v in values)
    return _cast_one(values, dtype)


def _widest(args, kwargs):
    import engine

    widest = state.dtype
    for value in (*args, *kwargs.values()):
        for item in value if isinstance(value, (list, tuple)) else (value,):
            if _eligible(item):
                widest = engine.promote_types(widest, item.dtype)
    return widest


def _target(policy, args, kwargs):
    import engine

    if policy == AS_IS:
        return None
    if policy == LOWER:
        return state.dtype
    if policy == FP32:
        return engine.float32
    return _widest(args, kwargs)


class _set_aside:
    """Autocast off on this thread while the op itself runs (the native routing stays, for the
    other threads: a routed call made here meanwhile passes straight through)."""

    def __enter__(self):
        self._was_on = state.on
        state.on = False

    def __exit__(self, *exc):
        state.on = self._was_on


def run(name, func, args, kwargs):
    """``func(*args, **kwargs)`` with its floating inputs cast as ``POLICY[name]`` says."""
    applies = _APPLIES.get(name)
    if applies is not None and not applies(args, kwargs):
        return func(*args, **kwargs)
    dtype = _target(POLICY[name], args, kwargs)
    if dtype is not None:
        args = tuple(_cast_all(a, dtype) for a in args)
        kwargs = {k: _cast_all(v, dtype) for k, v in kwargs.items()}
    with _set_aside():
        return func(*args, **kwargs)


def cast_inputs(name, *tensors):
    """``tensors`` cast as ``POLICY[name]`` says inside a CPU region, else unchanged: for ops
    written as Python classes (``nn.LSTM``) rather than functions."""
    if not state.on:
        return tensors
    dtype = _target(POLICY[name], tensors, {})
    return tuple(t if t is None else _cast_one(t, dtype) for t in tensors)


def autocast_op(name):
    """Decorates an op engine writes in Python with its row of :data:`POLICY`."""
    if name not in POLICY:
        raise KeyError(f"autocast_op(): {name!r} has no row in the autocast policy")

    def decorate(func):
        @functools.wraps(func)
        def op(*args, **kwargs):
            if state.on:
                return run(name, func, args, kwargs)
            return func(*args, **kwargs)

        return op

    return decorate


_installed = False
# Threads whose region is enabled: the native routing is on while there is one.
_routing_threads = 0
_routing_lock = _thread.allocate_lock()


def _install():
    """Routes the native ops of the table to :func:`run` (once)."""
    global _installed
    if _installed:
        return
    from engine import _C, _transforms

    for name in POLICY:
        owner, attr = (_C.Tensor, name[7:]) if name.startswith("Tensor.") else (_C, name)
        func = owner.__dict__.get(attr) if owner is _C.Tensor else getattr(owner, attr, None)
        if func is None or type(func).__name__ not in (
            "builtin_function_or_method",
            "instancemethod",
        ):
            continue
        _transforms.route_unmarked(func, AUTOCAST_ROUTE, functools.partial(_routed, name))
    _installed = True


def _routed(name, func, args, kwargs):
    from engine import _transforms

    if not state.on:  # another thread's region routed this call, or this one is set aside
        return _transforms.call_unrouted(func, *args, **kwargs)
    return run(name, functools.partial(_transforms.call_unrouted, func), args, kwargs)


def _set_routing(on: bool) -> None:
    """Turns this thread's casts on or off (its flag, and its share of the native routing)."""
    global _routing_threads
    from engine import _C

    state.on = on
    if on == state.routing:
        return
    state.routing = on
    with _routing_lock:
        _install()
        _routing_threads += 1 if on else -1
        if on and _routing_threads == 1:
            _C._enter_transform()
            _C._set_route_counter(AUTOCAST_ROUTE, 1)
        elif not on and _routing_threads == 0:
            _C._set_route_counter(AUTOCAST_ROUTE, 0)
            _C._exit_transform()


def sync(enabled: bool, dtype, cache_enabled: bool) -> None:
    """Called by engine.amp whenever the CPU region's state changes."""
    state.dtype = dtype
    state.cache_enabled = cache_enabled
    _set_routing(bool(enabled))


def clear_cache() -> None:
    """Drops the casts cached in the region that closed."""
    state.cache.clear()
