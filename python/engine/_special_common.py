"""Argument handling shared by engine.special's functions: integer inputs promote to the default
float dtype (as torch.special does), ``out=`` receives a computed result, and the functions
PyTorch does not differentiate are evaluated outside autograd."""

import engine
from engine import _C, _out_param

Tensor = _C.Tensor


def refuse_16bit(fname, t):
    """PyTorch has no float16 / bfloat16 kernel for this function: its error names the kernel."""
    if t.dtype == engine.float16 or t.dtype == engine.bfloat16:
        kind = "Half" if t.dtype == engine.float16 else "BFloat16"
        kernel = fname.removeprefix("special_") + "_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{kind}'")


def float_input(fname, input, half_ok=True):
    """``input`` as a floating tensor (integers and bools promote to the default dtype); with
    ``half_ok=False``, float16 and bfloat16 are refused as PyTorch's kernel refuses them."""
    if not isinstance(input, Tensor):
        raise TypeError(
            f"{fname}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}"
        )
    if not half_ok:
        refuse_16bit(fname, input)
    if input.is_floating_point():
        return input
    return input.to(engine.get_default_dtype())


# The overloads PyTorch lists when neither operand is a tensor: the polynomials name them (x, n),
# the binary functions (input/self, other).
POLYNOMIAL_OVERLOADS = ("Tensor x, Tensor n", "Number x, Tensor n", "Tensor x, Number n")
BINARY_OVERLOADS = (
    "Tensor input, Tensor other",
    "Number self, Tensor other",
    "Tensor input, Number other",
)


def float_pair(fname, x, n, overloads=POLYNOMIAL_OVERLOADS, half_ok=True):
    """Two operands (tensors or Python numbers, at least one a tensor) as broadcast float tensors of
    their promoted dtype, which is the default float dtype when both are integral."""
    if not isinstance(x, Tensor) and not isinstance(n, Tensor):
        listed = "".join(f"\n * ({overload}, *, Tensor out = None)" for overload in overloads)
        raise TypeError(
            f"{fname}() received an invalid combination of arguments - got "
            f"({type(x).__name__}, {type(n).__name__}), but expected one of:{listed}\n"
        )
    dtype = engine.result_type(x, n)
    if not dtype.is_floating_point:
        dtype = engine.get_default_dtype()
    if not half_ok:
        refuse_16bit(fname, engine.empty(0, dtype=dtype))
    x = x.to(dtype) if isinstance(x, Tensor) else engine.tensor(x, dtype=dtype)
    n = n.to(dtype) if isinstance(n, Tensor) else engine.tensor(n, dtype=dtype)
    return engine.broadcast_tensors(x, n)


def in_layout_of_first(result, *operands):
    """``result`` laid out as PyTorch's elementwise kernels lay it out: like the first operand
    with the result's full shape (a transposed ``input`` gives a transposed result even when the
    other operand is a number), where the composed computation lost that layout."""
    for operand in operands:
        if isinstance(operand, Tensor) and operand.dim() > 0 and operand.shape == result.shape:
            like = engine.empty_like(operand, dtype=result.dtype)
            if like.stride() == result.stride():
                return result
            return like.copy_(result)
    return result


def write_out(result, out, fname):
    """``result``, or ``out`` filled with it when ``out=`` was given, through the one out= writer
    (engine/_out_param.py): PyTorch's TypeError naming ``fname`` for a non-tensor, its refusal
    of a float result into an integer out, and its resizing (with the warning when out had
    elements)."""
    if out is None:
        return result
    return _out_param.write(out, result, [], fname)
