"""Every public function of engine and engine.nn.functional, and every Tensor method, called with
complex tensors: each either gives a correct result (checked against NumPy's complex128 where
NumPy has the same function) or refuses with a clean Python exception. None may crash, and none
may silently drop the imaginary part: a real result from a complex input must come from an op
that is meant to give one (abs, angle, real, imag, comparisons, ...)."""

import inspect
import warnings

import engine as torch
import engine.nn.functional as F
import numpy as np
import pytest

VALUES = np.array(
    [[0.5 + 1.25j, -1.5 + 0.25j, 2.0 - 0.75j], [-0.25 - 1.0j, 1.0 + 0.5j, 0.75 + 2.0j]]
)

# Ops whose real result from a complex input is by design.
REAL_RESULT = {
    "abs", "absolute", "angle", "real", "imag", "view_as_real", "isnan", "isinf", "isfinite",
    "isreal", "is_nonzero", "isclose", "equal", "allclose", "eq", "ne", "nonzero", "argwhere",
    "count_nonzero", "numel", "is_complex", "is_floating_point", "is_conj", "is_neg", "size",
    "stride", "dim", "ndimension", "nelement", "element_size", "storage_offset", "is_contiguous",
    "data_ptr", "__eq__", "__ne__", "isneginf", "isposinf", "logical_not", "logical_and",
    "logical_or", "logical_xor", "signbit", "is_same_size", "__bool__", "bool", "is_set_to",
    "__len__", "norm", "vector_norm", "_is_view", "is_leaf", "requires_grad", "any", "all",
    "__contains__", "float", "double", "half", "bfloat16", "int", "long", "short", "byte", "char",
    "to", "type", "numpy", "tolist", "item", "__float__", "__int__", "__index__", "stft", "istft",
    "__hash__", "__dlpack__", "__dlpack_device__", "get_device", "untyped_storage",
}  # fmt: skip

# Ops that cannot be called meaningfully in a sweep (they block, print, mutate global state or
# need arguments a tensor cannot stand for).
SKIP = {
    "set_default_dtype", "set_default_tensor_type", "manual_seed", "seed", "set_printoptions",
    "set_rng_state", "use_deterministic_algorithms", "set_num_threads", "set_num_interop_threads",
    "set_grad_enabled", "compile", "load", "save", "set_anomaly_enabled", "register_hook",
    "register_post_accumulate_grad_hook", "backward", "share_memory_", "pin_memory",
    "set_flush_denormal", "set_warn_always", "_sync", "apply_", "map_", "map2_",
}  # fmt: skip

# ZeroDivisionError and KeyError: what some functions give for the sweep's crude arguments (a
# group count of 0, a tensor where a name is expected), complex or not.
CLEAN = (
    RuntimeError, TypeError, ValueError, IndexError, NotImplementedError, AttributeError,
    ZeroDivisionError, KeyError,
)  # fmt: skip


def fresh():
    return torch.tensor(VALUES.astype(np.complex64))


def candidate_args(fn_name):
    z = fresh()
    return [(z,), (z, fresh()), (z, 1), (z, 0), ()]


def public_functions():
    names = []
    for owner, prefix in ((torch, "torch"), (F, "F")):
        for name in sorted(dir(owner)):
            if name.startswith("_") or name in SKIP:
                continue
            obj = getattr(owner, name, None)
            if callable(obj) and not inspect.isclass(obj) and not inspect.ismodule(obj):
                names.append((prefix, name))
    for name in sorted(dir(torch.Tensor)):
        if name in SKIP or (name.startswith("_") and not name.startswith("__")):
            continue
        if name in ("__init__", "__new__", "__class__", "__del__", "__setattr__", "__delattr__"):
            continue
        if name.startswith("__") and name not in {
            "__add__", "__sub__", "__mul__", "__truediv__", "__neg__", "__abs__", "__matmul__",
            "__pow__", "__lt__", "__gt__", "__le__", "__ge__", "__eq__", "__ne__", "__mod__",
            "__floordiv__", "__and__", "__or__", "__invert__", "__radd__", "__rmul__",
        }:  # fmt: skip
            continue
        names.append(("Tensor", name))
    return names


def resolve(prefix, name, z):
    if prefix == "torch":
        return getattr(torch, name)
    if prefix == "F":
        return getattr(F, name)
    return getattr(z, name)


def imaginary_dropped(result):
    """A real floating tensor whose values are exactly the inputs' real parts (or a function
    of them alone) is the tell-tale of a cast that discarded the imaginary part."""
    return (
        isinstance(result, torch.Tensor)
        and result.dtype.is_floating_point
        and result.shape == VALUES.shape
        and np.allclose(result.detach().double().numpy(), VALUES.real)
    )


@pytest.mark.parametrize("prefix, name", public_functions(), ids=lambda v: str(v))
def test_complex_input_gives_result_or_clean_error(prefix, name):
    for args in candidate_args(name):
        z = args[0] if args else fresh()
        call_args = args[1:] if prefix == "Tensor" else args
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                fn = resolve(prefix, name, z)
            except CLEAN:
                return
            try:
                result = fn(*call_args)
            except CLEAN:
                continue
            except Exception as e:  # any other Python exception is still clean, but say what
                if type(e).__name__ in ("OutOfMemoryError", "StopIteration", "AssertionError"):
                    continue
                raise
        if name not in REAL_RESULT:
            assert not imaginary_dropped(result), (
                f"{prefix}.{name}{call_args} dropped the imaginary part"
            )
            cast = [w for w in caught if "discards the imaginary part" in str(w.message)]
            assert not cast, f"{prefix}.{name}{call_args} cast its complex input to a real dtype"
        return


NUMPY_CHECKS = {
    "add": (lambda a, b: a + b, np.add),
    "sub": (lambda a, b: a - b, np.subtract),
    "mul": (lambda a, b: a * b, np.multiply),
    "div": (lambda a, b: a / b, np.divide),
    "neg": (lambda a, b: -a, lambda a, b: -a),
    "abs": (lambda a, b: a.abs(), lambda a, b: np.abs(a)),
    "angle": (lambda a, b: a.angle(), lambda a, b: np.angle(a)),
    "exp": (lambda a, b: a.exp(), lambda a, b: np.exp(a)),
    "conj": (lambda a, b: a.conj(), lambda a, b: np.conj(a)),
    "sum": (lambda a, b: a.sum(1), lambda a, b: a.sum(1)),
    "mean": (lambda a, b: a.mean(), lambda a, b: a.mean()),
    "matmul": (lambda a, b: a @ b.mT, lambda a, b: a @ b.T),
    "real": (lambda a, b: a.real, lambda a, b: a.real),
    "imag": (lambda a, b: a.imag, lambda a, b: a.imag),
    "clone": (lambda a, b: a.clone(), lambda a, b: a),
    "transpose_contiguous": (lambda a, b: a.t().contiguous(), lambda a, b: a.T),
    "cat": (lambda a, b: torch.cat([a, b], 1), lambda a, b: np.concatenate([a, b], 1)),
    "stack": (lambda a, b: torch.stack([a, b]), lambda a, b: np.stack([a, b])),
    "index": (lambda a, b: a[:, [2, 0]], lambda a, b: a[:, [2, 0]]),
    "flip": (lambda a, b: a.flip(1), lambda a, b: a[:, ::-1]),
}


@pytest.mark.parametrize("name", sorted(NUMPY_CHECKS))
@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_supported_ops_against_numpy(name, dtype):
    fn, ref = NUMPY_CHECKS[name]
    b_values = VALUES[::-1].copy() * (1 - 0.5j)
    a, b = torch.tensor(VALUES, dtype=dtype), torch.tensor(b_values, dtype=dtype)
    got = fn(a, b)
    want = ref(VALUES, b_values)
    tol = 1e-5 if dtype is torch.complex64 else 1e-12
    np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda z: z.max(), "not implemented for 'ComplexFloat'"),
        (lambda z: z < 1, "not implemented for 'ComplexFloat'"),
        (lambda z: torch.erf(z), "\"erf_vml_cpu\" not implemented for 'ComplexFloat'"),
        (lambda z: z.floor(), "floor is not supported for complex inputs"),
        (lambda z: z.round(), "\"round_vml_cpu\" not implemented for 'ComplexFloat'"),
        (lambda z: z.relu(), "clamp is not supported for complex types"),
        (lambda z: z.sign(), "Please use torch.sgn instead"),
        (lambda z: z.sort(), "Sort does not support complex dtypes"),
    ],
)
def test_unsupported_ops_name_the_dtype(call, message):
    with pytest.raises(RuntimeError, match=message):
        call(fresh())
