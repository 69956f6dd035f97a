"""``out=`` for the functions engine writes in Python or whose native forms take none, with
PyTorch 2.13's checks: the one wrapper every such function goes through.

``accepts_out(rule)`` adds the keyword: the result is computed as without ``out``, checked by
the op's dtype rule, and written into ``out`` by the native writer, which refuses out= where
autograd would record or where out overlaps an input, and resizes a wrong-shaped ``out`` (with
PyTorch's warning when it had elements). The call returns ``out`` (a named tuple of the outs for
several results). Without ``out`` the call goes straight to the function: one keyword check.

A rule is ``rule(fname, inputs, out, result, field=None)``: ``inputs`` lists every tensor among
the arguments (one level into lists, as cat's), ``field`` names the result of a named tuple. The
op-specific rules live in engine/_out_rules.py."""

import functools

from engine import _C

# The C++ type names PyTorch's "Expected out tensor to have dtype ..." messages print.
CPP_NAMES = {
    _C.float32: "float",
    _C.float64: "double",
    _C.float16: "c10::Half",
    _C.bfloat16: "c10::BFloat16",
    _C.int64: "long int",
    _C.int32: "int",
    _C.int16: "short int",
    _C.int8: "signed char",
    _C.uint8: "unsigned char",
    _C.bool: "bool",
    _C.complex64: "c10::complex<float>",
    _C.complex128: "c10::complex<double>",
}


def wraps_named(fn):
    """functools.wraps that leaves the wrapper's ``__qualname__`` the function's plain name: a
    native function's own is pybind11's internal record type, which would otherwise show in the
    TypeError Python raises for a wrong argument list."""

    def decorate(wrapper):
        wrapper = functools.wraps(fn)(wrapper)
        wrapper.__qualname__ = fn.__name__
        return wrapper

    return decorate


def can_cast(src, dst):
    """PyTorch's canCast: no floating point into an integer, nothing but bool into bool."""
    if src.is_floating_point and not dst.is_floating_point:
        return False
    return not (dst == _C.bool and src != _C.bool)


def castable(fname, inputs, out, result, field=None):
    """The common rule: the write itself refuses float into integer and number into bool."""


def same_as_result(fname, inputs, out, result, field=None):
    """out must have the result's dtype (softmax, aminmax, sort, ...)."""
    if out.dtype != result.dtype:
        raise RuntimeError(
            f"Expected out tensor to have dtype {CPP_NAMES[result.dtype]}, but got "
            f"{CPP_NAMES[out.dtype]} instead"
        )


def tensor_inputs(args, kwargs):
    """Every tensor among the arguments, looking one level into lists and tuples (cat's input)."""
    found = []
    for a in (*args, *kwargs.values()):
        if isinstance(a, _C.Tensor):
            found.append(a)
        elif isinstance(a, (list, tuple)):
            found.extend(t for t in a if isinstance(t, _C.Tensor))
    return found


def write(out, result, inputs, fname):
    """The native writer: PyTorch's out= checks against ``inputs``, resizing, the copy."""
    return _C._linalg_write_out(out, result, inputs, fname)


def _out_position(fn):
    """out's place in the signature, which PyTorch's message for a non-tensor in an out tuple
    counts from 0: a native function states it as ``__out_position__`` (its signature cannot be
    read); None where neither is known."""
    if hasattr(fn, "__out_position__"):
        return fn.__out_position__
    import inspect  # only on this error path: inspect is slow to import

    try:
        names = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return None
    return names.index("out") if "out" in names else None


def _check_out_tuple(fn, name, out, count):
    if not isinstance(out, (tuple, list)):
        raise TypeError(
            f"{name}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}"
        )
    if len(out) != count:
        raise TypeError(f"expected tuple of {count} elements but got {len(out)}")
    for i, o in enumerate(out):
        if not isinstance(o, _C.Tensor):
            position = _out_position(fn)
            if position is None:
                raise TypeError(
                    f"{name}(): argument 'out' must be tuple of Tensors, not {type(o).__name__}"
                )
            raise TypeError(
                f"expected Tensor as element {i} in argument {position}, but got {type(o).__name__}"
            )


def accepts_out(rule=castable, fname=None):
    """Decorator: the function takes ``out=`` (a tensor, or a tuple of tensors where it returns
    a tuple), checked by ``rule`` and written by the native writer under the name ``fname``
    (the function's own by default). A Python function declares ``out=None`` itself, for its
    signature (``inspect.signature`` follows the wrapper to it), and never receives it."""

    def wrap(fn):
        name = fname or fn.__name__
        result_in_out_dtype = getattr(rule, "result_in_out_dtype", False)

        @wraps_named(fn)
        def with_out(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            result = fn(*args, **kwargs)
            inputs = tensor_inputs(args, kwargs)
            if isinstance(result, tuple):
                _check_out_tuple(fn, name, out, len(result))
                fields = getattr(result, "_fields", (None,) * len(result))
                for field, o, r in zip(fields, out, result):
                    rule(name, inputs, o, r, field)
                written = [write(o, r, inputs, name) for o, r in zip(out, result)]
                return type(result)(*written) if fields[0] is not None else tuple(written)
            if not isinstance(out, _C.Tensor):
                raise TypeError(
                    f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}"
                )
            rule(name, inputs, out, result)
            if result_in_out_dtype:
                result = result.to(out.dtype)
            return write(out, result, inputs, name)

        return with_out

    return wrap


def with_out(fn, rule=castable, fname=None):
    """``accepts_out`` as a call, for a function defined elsewhere (a native one)."""
    return accepts_out(rule, fname)(fn)
