"""``out=`` for operators engine composes in Python, with PyTorch 2.13's checks.

PyTorch's out= variants differ in which output dtypes they take: most accept any dtype the
result can be cast to (not float into an integer, not a number into bool), some require the
result's own dtype, a few name their own rule. ``accepts_out(rule)`` adds the keyword to a
function: the result is computed as without ``out`` and then written into ``out`` (resized when
its shape differs, with PyTorch's warning when it had elements), after the rule's check and the
refusal of out= where autograd would record. The call returns ``out`` (a named tuple of the
outs for several results)."""

import functools

from engine import _C
from engine._scalar_type_names import scalar_type_name

# The C++ type names PyTorch's "Expected out tensor to have dtype ..." messages print.
_CPP_NAMES = {
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
}

_LEGACY_NAMES = {
    _C.float32: "torch.FloatTensor",
    _C.float64: "torch.DoubleTensor",
    _C.float16: "torch.HalfTensor",
    _C.bfloat16: "torch.BFloat16Tensor",
    _C.int64: "torch.LongTensor",
    _C.int32: "torch.IntTensor",
    _C.int16: "torch.ShortTensor",
    _C.int8: "torch.CharTensor",
    _C.uint8: "torch.ByteTensor",
    _C.bool: "torch.BoolTensor",
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


def castable(fname, input, out, result, field=None):
    """The common rule: the write itself refuses float into integer and number into bool."""


def same_as_result(fname, input, out, result, field=None):
    """out must have the result's dtype (softmax, aminmax, sort, ...)."""
    if out.dtype != result.dtype:
        raise RuntimeError(
            f"Expected out tensor to have dtype {_CPP_NAMES[result.dtype]}, but got "
            f"{_CPP_NAMES[out.dtype]} instead"
        )


def same_as_input(fname, input, out, result, field=None):
    """nan_to_num's rule: out has the input's dtype."""
    if out.dtype != input.dtype:
        raise RuntimeError(
            f"{fname}: dtype of out: {scalar_type_name(out.dtype)} should be same as input: "
            f"{scalar_type_name(input.dtype)}"
        )


def float_power_out(fname, input, out, result, field=None):
    """float_power computes in float64 and writes only into float64."""
    if out.dtype != _C.float64:
        raise RuntimeError(
            f"the output given to float_power has dtype {scalar_type_name(out.dtype)} but the "
            "operation's result requires dtype Double"
        )


def floating_out(fname, input, out, result, field=None):
    """ldexp's rule: a floating-point out."""
    if not out.dtype.is_floating_point:
        raise RuntimeError(
            f"ldexp can't be cast to the desired output type {scalar_type_name(out.dtype)}"
        )


def nansum_out(fname, input, out, result, field=None):
    """nansum sums in out's dtype, which its kernel has only in floating point for a float input."""
    if input.dtype.is_floating_point and not out.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"nansum_cpu\" not implemented for '{scalar_type_name(out.dtype)}'"
        )


nansum_out.result_in_out_dtype = True


def median_out(fname, input, out, result, field=None):
    """median / nanmedian: values of the input's dtype, int64 indices (TensorArg's wording, which
    names median for both)."""
    if field == "values" and out.dtype != input.dtype:
        raise RuntimeError(
            "Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; "
            f"but type {_LEGACY_NAMES[out.dtype]} does not equal {_LEGACY_NAMES[input.dtype]} "
            "(while checking arguments for median)"
        )
    if field == "indices" and out.dtype != _C.int64:
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have scalar type Long; but got "
            f"{_LEGACY_NAMES[out.dtype]} instead (while checking arguments for median)"
        )


def mode_out(fname, input, out, result, field=None):
    """mode: values of the result's dtype, int64 indices."""
    if out.dtype != result.dtype:
        raise RuntimeError(
            f"expected scalar type '{scalar_type_name(result.dtype)}' but got "
            f"'{scalar_type_name(out.dtype)}' for {field} output"
        )


def _tensors(args, kwargs):
    return [a for a in (*args, *kwargs.values()) if isinstance(a, _C.Tensor)]


def _write(out, result, inputs, fname):
    return _C._linalg_write_out(out, result, inputs, fname)


def accepts_out(rule=castable, fname=None):
    """Decorator: the function takes ``out=`` (a tensor, or a tuple of tensors where it returns
    a named tuple), checked by ``rule(fname, input, out, result[, field])``. The decorated
    function declares ``out=None`` itself, for its signature (``inspect.signature`` follows the
    wrapper to it), and never receives it: the wrapper handles ``out``."""

    def wrap(fn):
        name = fname or fn.__name__

        @wraps_named(fn)
        def with_out(*args, out=None, **kwargs):
            result = fn(*args, **kwargs)
            if out is None:
                return result
            inputs = _tensors(args, kwargs)
            first = inputs[0] if inputs else None
            if isinstance(result, tuple):
                if not isinstance(out, (tuple, list)) or len(out) != len(result):
                    raise TypeError(
                        f"{name}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}"
                    )
                for field, o, r in zip(result._fields, out, result):
                    if isinstance(o, _C.Tensor):
                        rule(name, first, o, r, field)
                written = [_write(o, r, inputs, name) for o, r in zip(out, result)]
                return type(result)(*written)
            if isinstance(out, _C.Tensor):
                rule(name, first, out, result)
                if getattr(rule, "result_in_out_dtype", False):
                    result = result.to(out.dtype)
            return _write(out, result, inputs, name)

        return with_out

    return wrap
