"""Every public function and Tensor method called on meta tensors: a meta result with the shape
and dtype the same call gives on real tensors, or a clean exception; never a crash, never a read
of the (absent) data."""

import engine
import pytest

# Calls that change global state or do I/O rather than compute on their argument.
_SKIP = {
    "set_default_dtype", "set_default_tensor_type", "set_default_device", "manual_seed", "seed",
    "set_rng_state", "save", "load", "set_printoptions", "set_num_threads", "set_grad_enabled",
    "set_num_interop_threads", "use_deterministic_algorithms", "set_flush_denormal",
    "set_anomaly_enabled", "compile", "set_float32_matmul_precision", "set_warn_always",
    "from_numpy", "frombuffer", "from_dlpack", "set_deterministic_debug_mode", "initial_seed",
    "random_", "share_memory_", "backward", "register_hook", "retain_grad", "set_", "resize_",
    "resize_as_", "data_ptr", "untyped_storage", "storage", "apply_", "map_", "__setstate__",
    "__reduce_ex__", "__reduce__", "__deepcopy__", "__setitem__", "__delitem__", "__init__",
    "__new__", "__init_subclass__", "__class_getitem__", "__subclasshook__", "__getattribute__",
    "__setattr__", "__delattr__", "__dir__", "__sizeof__", "__format__", "cuda", "pin_memory",
}  # fmt: skip


def _real(shape, dtype=engine.float32):
    n = 1
    for d in shape:
        n *= d
    return (engine.arange(n) % 7 + 1).to(dtype).reshape(shape)


def _leaves(value):
    if isinstance(value, engine.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _leaves(v)]
    return None


def _check(call, name):
    try:
        expected = _leaves(call(lambda shape, dtype=engine.float32: _real(shape, dtype)))
    except Exception:  # noqa: BLE001 - the real call's error: the meta call may raise too
        expected = None
    try:
        got = call(
            lambda shape, dtype=engine.float32: engine.empty(shape, dtype=dtype, device="meta")
        )
    except Exception:  # noqa: BLE001 - a clean refusal is allowed
        return
    if expected is None or not expected:
        return
    leaves = _leaves(got)
    assert leaves is not None and len(leaves) == len(expected), name
    for g, e in zip(leaves, expected):
        assert g.is_meta, name
        assert (tuple(g.shape), g.dtype) == (tuple(e.shape), e.dtype), name


def _public_functions():
    for name in sorted(dir(engine)):
        obj = getattr(engine, name)
        if name.startswith("_") or name in _SKIP or isinstance(obj, type) or not callable(obj):
            continue
        yield name, obj


@pytest.mark.parametrize("shape", [(3, 4), (5,)])
def test_public_functions_on_meta(shape):
    for name, fn in _public_functions():
        _check(lambda make, fn=fn: fn(make(shape)), name)
        _check(lambda make, fn=fn: fn(make(shape), make(shape)), name)


def test_tensor_methods_on_meta():
    for name in sorted(dir(engine.Tensor)):
        if name in _SKIP or (name.startswith("_") and not name.startswith("__")):
            continue

        def call(make, name=name):
            attr = getattr(make((3, 4)), name)
            return attr() if callable(attr) else attr

        _check(call, name)
        _check(lambda make, name=name: getattr(make((3, 4)), name)(make((3, 4))), name)
