"""PyTorch's generic names, made from the ops engine already has rather than written one by one:

- ``Tensor.<op>_``: the in-place variant of every op PyTorch has one for. It computes ``<op>``
  out of place and writes the result into self through the native in-place path, which casts to
  self's dtype (refusing PyTorch's forbidden casts with its message), bumps the version counter,
  refuses leaves that require grad and records the op's history on self.
- the shape-changing in-place views (``t_``, ``squeeze_``, ``transpose_`` ...): self takes the
  view's shape, strides and history.
- ``engine.<op>_``: PyTorch's function forms of in-place ops (``torch.abs_(x)``).
- aliases (``arccosh``, ``greater``, ``multiply`` ...), on ``engine`` and on ``Tensor`` where PyTorch
  has them; an alias is the very same function, so behaviour and gradient are the original's.
"""

from engine import _C

_Tensor = _C.Tensor

# Ops whose in-place variant PyTorch has (as Tensor.<op>_); installed where engine has the op and
# the variant is not already native.
INPLACE_OPS = (
    "abs", "acos", "acosh", "add", "addbmm", "addcdiv", "addcmul", "addmm", "addmv", "addr", "asin",
    "asinh", "atan", "atan2", "atanh", "baddbmm", "bitwise_and", "bitwise_left_shift", "bitwise_not",
    "bitwise_or", "bitwise_right_shift", "bitwise_xor", "ceil", "clamp", "clamp_max", "clamp_min",
    "clip", "copysign", "cos", "cosh", "cumprod", "cumsum", "deg2rad", "digamma", "div", "eq", "erf",
    "erfc", "erfinv", "exp", "exp2", "expm1", "floor", "floor_divide", "fmod", "frac", "gcd", "ge",
    "gt", "heaviside", "hypot", "i0", "igamma", "igammac", "index_add", "index_copy", "index_fill",
    "lcm", "ldexp", "le", "lerp", "lgamma", "log", "log10", "log1p", "log2", "logical_and",
    "logical_not", "logical_or", "logical_xor", "logit", "lt", "masked_fill", "masked_scatter", "mul",
    "mvlgamma", "nan_to_num", "ne", "neg", "nextafter", "polygamma", "pow", "rad2deg", "reciprocal",
    "relu", "remainder", "renorm", "round", "rsqrt", "scatter", "scatter_add", "scatter_reduce",
    "sigmoid", "sign", "sin", "sinc", "sinh", "sqrt", "square", "sub", "tan", "tanh", "tril", "triu",
    "trunc", "xlogy",
)  # fmt: skip

# In-place views: the variant's name and the view op whose result self becomes.
RESTRIDING = {
    "t_": "t",
    "squeeze_": "squeeze",
    "unsqueeze_": "unsqueeze",
    "transpose_": "transpose",
    "swapaxes_": "swapaxes",
    "swapdims_": "swapdims",
    "as_strided_": "as_strided",
}

# Aliases on both engine and Tensor (with their in-place forms where the original has one).
ALIASES = {
    "absolute": "abs",
    "arccos": "acos",
    "arcsin": "asin",
    "arctan": "atan",
    "arctan2": "atan2",
    "arccosh": "acosh",
    "arcsinh": "asinh",
    "arctanh": "atanh",
    "greater": "gt",
    "greater_equal": "ge",
    "less": "lt",
    "less_equal": "le",
    "not_equal": "ne",
    "multiply": "mul",
    "divide": "div",
    "subtract": "sub",
    "true_divide": "div",
    "negative": "neg",
    "fix": "trunc",
    "ger": "outer",
}
# Aliases PyTorch has on Tensor only.
TENSOR_ALIASES = {"ndimension": "dim"}

# PyTorch's torch.<op>_ functions (Tensor.<op>_ with the tensor as first argument).
FUNCTION_INPLACE = (
    "abs_", "acos_", "acosh_", "addmv_", "as_strided_", "arccos_", "arccosh_", "arcsin_", "arcsinh_", "arctan_",
    "arctanh_", "asin_", "asinh_", "atan_", "atanh_", "ceil_", "clamp_", "clamp_max_", "clamp_min_",
    "clip_", "cos_", "cosh_", "deg2rad_", "detach_", "erf_", "erfc_", "exp2_", "exp_", "expm1_",
    "fill_", "fix_", "floor_", "frac_", "gcd_", "i0_", "lcm_", "ldexp_", "log10_", "log1p_", "log2_",
    "log_", "logit_", "nan_to_num_", "neg_", "negative_", "rad2deg_", "reciprocal_", "relu_",
    "round_", "rsqrt_", "sigmoid_", "sin_", "sinc_", "sinh_", "sqrt_", "square_", "tan_", "tanh_",
    "trunc_", "xlogy_", "zero_",
)  # fmt: skip


def _inplace_method(name, op):
    def method(self, *args, **kwargs):
        others = [a for a in (*args, *kwargs.values()) if isinstance(a, _Tensor)]
        try:
            return _C._inplace_apply(self, lambda x: op(x, *args, **kwargs), others)
        except TypeError as e:
            # Argument errors name the method called, as PyTorch's do ("gcd_(): argument ...").
            message = str(e)
            if message.startswith(f"{name}(): "):
                raise TypeError(f"{name}_{message[len(name) :]}") from None
            raise

    method.__name__ = method.__qualname__ = f"{name}_"
    method.__doc__ = f"In-place version of :meth:`Tensor.{name}`."
    return method


# PyTorch's node names for the in-place views (its overloads of the in-place forms are numbered
# after the out-of-place ones); squeeze_ is named by its argument: none, a dim, or dims.
_RESTRIDING_NODES = {
    "t_": "TBackward1",
    "unsqueeze_": "UnsqueezeBackward1",
    "transpose_": "TransposeBackward1",
    "swapaxes_": "TransposeBackward1",
    "swapdims_": "TransposeBackward1",
    "as_strided_": "AsStridedBackward1",
}


def _restriding_node(name, args, kwargs):
    if name != "squeeze_":
        return _RESTRIDING_NODES.get(name)
    dim = args[0] if args else kwargs.get("dim")
    if dim is None:
        return "SqueezeBackward3"
    return "SqueezeBackward5" if isinstance(dim, (tuple, list)) else "SqueezeBackward4"


def _restriding_method(name, view):
    def method(self, *args, **kwargs):
        out = _C._restride_(self, lambda x: view(x, *args, **kwargs))
        node = _restriding_node(name, args, kwargs)
        # Only a write recorded with grad on has a node to name (a view made under no_grad and
        # written under no_grad has no readable history at all).
        if node is not None and _C.is_grad_enabled() and out.requires_grad:
            _C._name_grad_fn(out, node)
        return out

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"In-place version of :meth:`Tensor.{view.__name__}`: self becomes the view."
    return method


def _function_form(name):
    def function(input, *args, **kwargs):
        if not isinstance(input, _Tensor):
            raise TypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}"
            )
        return getattr(input, name)(*args, **kwargs)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``input.{name}(...)``: the function form of :meth:`Tensor.{name}`."
    return function


def swapaxes(input, axis0, axis1):
    """Alias of ``transpose`` with NumPy's argument names."""
    return _C.transpose(input, axis0, axis1)


def swapdims(input, dim0, dim1):
    """Alias of ``transpose``."""
    return _C.transpose(input, dim0, dim1)


def positive(input):
    """``input`` itself (refused for bool tensors, as PyTorch's unary ``+``)."""
    if input.dtype == _C.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def install(namespace):
    """Adds the generic names to Tensor and to ``namespace`` (the engine module's globals)."""
    from engine import _special_math

    for name, fn in _special_math.FUNCTIONS.items():
        namespace.setdefault(name, fn)
        if not hasattr(_Tensor, name):
            setattr(_Tensor, name, fn)
    _Tensor.float_power_ = _special_math.float_power_
    for name, fn in (("swapaxes", swapaxes), ("swapdims", swapdims), ("positive", positive)):
        namespace.setdefault(name, fn)
        if not hasattr(_Tensor, name):
            setattr(_Tensor, name, fn)

    for name in INPLACE_OPS:
        op = getattr(_Tensor, name, None)
        if op is not None and not hasattr(_Tensor, name + "_"):
            setattr(_Tensor, name + "_", _inplace_method(name, op))
    for name, view in RESTRIDING.items():
        setattr(_Tensor, name, _restriding_method(name, getattr(_Tensor, view)))

    for alias, target in {**ALIASES, **TENSOR_ALIASES}.items():
        if not hasattr(_Tensor, alias):
            setattr(_Tensor, alias, getattr(_Tensor, target))
        if hasattr(_Tensor, target + "_") and not hasattr(_Tensor, alias + "_"):
            setattr(_Tensor, alias + "_", getattr(_Tensor, target + "_"))
    for alias, target in ALIASES.items():
        if alias not in namespace and target in namespace:
            namespace[alias] = namespace[target]

    for name in FUNCTION_INPLACE:
        if name not in namespace and hasattr(_Tensor, name):
            namespace[name] = _function_form(name)
