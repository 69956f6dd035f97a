"""The out= dtype rules of single ops, with PyTorch 2.13's messages (which differ from op to op).
Each is ``rule(fname, inputs, out, result, field=None)`` for engine/_out_param.accepts_out;
``inputs[0]`` is the op's ``input``."""

from engine import _C
from engine._out_param import can_cast
from engine._scalar_type_names import scalar_type_name

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


def same_as_input(fname, inputs, out, result, field=None):
    """nan_to_num's rule: out has the input's dtype."""
    if out.dtype != inputs[0].dtype:
        raise RuntimeError(
            f"{fname}: dtype of out: {scalar_type_name(out.dtype)} should be same as input: "
            f"{scalar_type_name(inputs[0].dtype)}"
        )


def float_power_out(fname, inputs, out, result, field=None):
    """float_power computes in float64 and writes only into float64."""
    if out.dtype != _C.float64:
        raise RuntimeError(
            f"the output given to float_power has dtype {scalar_type_name(out.dtype)} but the "
            "operation's result requires dtype Double"
        )


def floating_out(fname, inputs, out, result, field=None):
    """ldexp's rule: a floating-point out."""
    if not out.dtype.is_floating_point:
        raise RuntimeError(
            f"ldexp can't be cast to the desired output type {scalar_type_name(out.dtype)}"
        )


def nansum_out(fname, inputs, out, result, field=None):
    """nansum sums in out's dtype, which its kernel has only in floating point for a float input."""
    if inputs[0].dtype.is_floating_point and not out.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"nansum_cpu\" not implemented for '{scalar_type_name(out.dtype)}'"
        )


nansum_out.result_in_out_dtype = True


def median_out(fname, inputs, out, result, field=None):
    """median / nanmedian: values of the input's dtype, int64 indices (TensorArg's wording, which
    names median for both)."""
    dtype = inputs[0].dtype
    if field == "values" and out.dtype != dtype:
        raise RuntimeError(
            "Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; "
            f"but type {_LEGACY_NAMES[out.dtype]} does not equal {_LEGACY_NAMES[dtype]} "
            "(while checking arguments for median)"
        )
    if field == "indices" and out.dtype != _C.int64:
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have scalar type Long; but got "
            f"{_LEGACY_NAMES[out.dtype]} instead (while checking arguments for median)"
        )


def mode_out(fname, inputs, out, result, field=None):
    """mode: values of the result's dtype, int64 indices."""
    if out.dtype != result.dtype:
        raise RuntimeError(
            f"expected scalar type '{scalar_type_name(result.dtype)}' but got "
            f"'{scalar_type_name(out.dtype)}' for {field} output"
        )


def cat_out(fname, inputs, out, result, field=None):
    """cat / stack: any out the result casts into."""
    if not can_cast(result.dtype, out.dtype):
        raise TypeError(
            "torch.cat(): input types can't be cast to the desired output type "
            f"{scalar_type_name(out.dtype)}"
        )


def where_out(fname, inputs, out, result, field=None):
    if out.dtype != result.dtype:
        raise RuntimeError(
            f"Expected out type to be {scalar_type_name(result.dtype)} but got "
            f"{scalar_type_name(out.dtype)}"
        )


def index_select_out(fname, inputs, out, result, field=None):
    if out.dtype != result.dtype:
        raise RuntimeError("index_select(): self and result must have the same scalar type")


def take_out(fname, inputs, out, result, field=None):
    if out.dtype != result.dtype:
        raise RuntimeError(
            "take(): self and out expected to have the same dtype, but got self.dtype = "
            f"{scalar_type_name(result.dtype)} and out.dtype = {scalar_type_name(out.dtype)}"
        )


def kthvalue_out(fname, inputs, out, result, field=None):
    if field == "values" and out.dtype != result.dtype:
        raise RuntimeError("output values must be of same type as input")
    if field == "indices" and out.dtype != _C.int64:
        raise RuntimeError("output indices must be of scalar type Long")


def inner_out(fname, inputs, out, result, field=None):
    """inner is tensordot's unless a factor is 0-d (then mul's, which casts)."""
    if any(t.dim() == 0 for t in inputs):
        if not can_cast(result.dtype, out.dtype):
            raise RuntimeError(
                f"result type {scalar_type_name(result.dtype)} can't be cast to the desired "
                f"output type {scalar_type_name(out.dtype)}"
            )
    else:
        tensordot_out(fname, inputs, out, result, field)


def tensordot_out(fname, inputs, out, result, field=None):
    """tensordot: out of the result's dtype."""
    if out.dtype != result.dtype:
        raise RuntimeError(
            "tensordot: Expected the output tensor to have dtype "
            f"{scalar_type_name(result.dtype)}, but got an output tensor with dtype "
            f"{scalar_type_name(out.dtype)}"
        )
