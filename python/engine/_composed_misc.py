"""Small compositions PyTorch lists among its torch.* and Tensor names: fliplr, flipud, isposinf /
isneginf / isreal, fill, rsub, constant_pad_nd, norm_except_dim, and the Tensor method forms of
allclose / isclose / equal."""

from engine import _C, _grad_fn_names
from engine._comparison import allclose, equal, isclose
from engine._composite_ops import _tensor_arg

_Tensor = _C.Tensor


def fliplr(input):
    """input with its columns (dim 1) reversed; input needs 2 or more dims."""
    _tensor_arg("fliplr", input, "input", 1)
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return input.flip(1)


def flipud(input):
    """input with its rows (dim 0) reversed; input needs 1 or more dims."""
    _tensor_arg("flipud", input, "input", 1)
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return input.flip(0)


def isposinf(input, *, out=None):
    """Bool tensor: where input is +inf."""
    _tensor_arg("isposinf", input, "input", 1)
    if not input.is_floating_point():
        return _C.zeros_like(input, dtype=_C.bool)
    return _C.isinf(input) & (input > 0)


def isneginf(input, *, out=None):
    """Bool tensor: where input is -inf."""
    _tensor_arg("isneginf", input, "input", 1)
    if not input.is_floating_point():
        return _C.zeros_like(input, dtype=_C.bool)
    return _C.isinf(input) & (input < 0)


def isreal(input):
    """Bool tensor: where input has no imaginary part (everywhere, for engine's real dtypes)."""
    _tensor_arg("isreal", input, "input", 1)
    return _C.ones_like(input, dtype=_C.bool)  # laid out like input, as PyTorch's


def fill(input, value):
    """A new tensor of input's shape and dtype holding value (a number or a 0-d tensor, whose
    gradient is the sum of the output's)."""
    _tensor_arg("fill", input, "input", 1)
    if isinstance(value, _Tensor):
        if value.dim() != 0:
            raise RuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{value.dim()} dimensions."
            )
        return value.to(input.dtype).expand(list(input.shape)).clone()
    out = _C.empty(list(input.shape), dtype=input.dtype)
    return out.fill_(value)


def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` (subtraction with the operands swapped)."""
    _tensor_arg("rsub", input, "input", 1)
    if input.dtype == _C.bool and isinstance(other, _Tensor) and other.dtype == _C.bool:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead."
        )
    scaled = input if alpha == 1 else input * alpha
    return _grad_fn_names.name_grad_fn(
        other - scaled,
        "RsubBackward0" if isinstance(other, _C.Tensor) else "RsubBackward1",
        (input,),
    )


def constant_pad_nd(input, pad, value=0):
    """input padded with value: pad lists (before, after) sizes from the last dim backwards."""
    from engine.nn import functional

    return functional.pad(input, list(pad), "constant", value)


def norm_except_dim(v, pow=2, dim=0):
    """The pow-norm of v over every dim but `dim` (shape 1 except there); dim=-1: of all of v."""
    _tensor_arg("norm_except_dim", v, "v", 1)
    from engine._statistics import _zero_safe_pnorm

    if dim == -1:
        return _zero_safe_pnorm(v.reshape(-1), float(pow), 0)
    n = v.shape[dim]
    norms = _zero_safe_pnorm(v.movedim(dim, 0).reshape(n, -1), float(pow), 1)
    view = [1] * v.dim()
    view[dim] = n
    return norms.reshape(view)


def is_complex(input):
    """Whether ``input``'s dtype is complex (complex64 or complex128)."""
    _tensor_arg("is_complex", input, "input", 1)
    return input.dtype.is_complex


def _weight_norm(v, g, dim=0):
    """``v * (g / norm_except_dim(v, 2, dim))``: weight normalisation (``dim=-1``: one norm)."""
    _tensor_arg("_weight_norm", v, "v", 1)
    _tensor_arg("_weight_norm", g, "g", 2)
    if dim != -1:
        from engine._linalg_checks import _wrap_dim

        dim = _wrap_dim(dim, v.dim())
    return v * (g / norm_except_dim(v, 2, dim))


FUNCTIONS = {
    f.__name__: f
    for f in (
        fliplr,
        flipud,
        isposinf,
        isneginf,
        isreal,
        fill,
        rsub,
        constant_pad_nd,
        norm_except_dim,
        _weight_norm,
        is_complex,
    )
}
METHODS = {
    "is_complex": is_complex,
    "fliplr": fliplr,
    "flipud": flipud,
    "isposinf": isposinf,
    "isneginf": isneginf,
    "isreal": isreal,
    "allclose": allclose,
    "isclose": isclose,
    "equal": equal,
}


def install():
    """Adds the Tensor methods (existing native methods of the same name are kept)."""
    for name, fn in METHODS.items():
        if not hasattr(_Tensor, name):
            setattr(_Tensor, name, fn)
