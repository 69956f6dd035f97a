"""Docstrings of the pointwise engine.* functions: unary math, binary arithmetic, comparisons,
logical and bitwise operations."""

from engine._docs._format import binary, entry, unary

DOCS = {
    # ---- unary math ----
    "abs": unary(
        "abs",
        "Absolute value of each element of ``input``. Alias: :func:`engine.absolute`.",
        ">>> engine.abs(engine.tensor([-1.5, 0.0, 2.0]))\ntensor([1.5000, 0.0000, 2.0000])",
    ),
    "neg": unary(
        "neg",
        "Negation (``-input``) of each element. Alias: :func:`engine.negative`.",
        ">>> engine.neg(engine.tensor([1.0, -2.0]))\ntensor([-1.,  2.])",
    ),
    "sign": unary(
        "sign",
        "Sign of each element: -1, 0 or 1 (in the input's dtype; ``False``/``True`` for bool).",
        ">>> engine.sign(engine.tensor([-3.0, 0.0, 2.5]))\ntensor([-1.,  0.,  1.])",
    ),
    "sgn": unary(
        "sgn",
        "``z / abs(z)`` for each element of a complex ``input`` (0 where it is 0), and"
        " :func:`engine.sign` of a real one.",
        ">>> engine.sgn(engine.tensor([3 + 4j, 0j]))\ntensor([0.6000+0.8000j, 0.0000+0.0000j])",
    ),
    "signbit": unary(
        "signbit",
        "Whether the sign bit of each element is set, as a bool tensor (``True`` for ``-0.0``).",
        ">>> engine.signbit(engine.tensor([-1.0, 0.0, -0.0, 2.0]))\n"
        "tensor([ True, False,  True, False])",
    ),
    "sqrt": unary(
        "sqrt",
        "Square root of each element; NaN where an element is negative. Integer inputs give the"
        " default float dtype.",
        ">>> engine.sqrt(engine.tensor([4.0, 9.0]))\ntensor([2., 3.])",
    ),
    "rsqrt": unary(
        "rsqrt",
        "Reciprocal of the square root of each element, :math:`1 / \\sqrt{x}`.",
        ">>> engine.rsqrt(engine.tensor([4.0, 0.25]))\ntensor([0.5000, 2.0000])",
    ),
    "reciprocal": unary(
        "reciprocal",
        "Reciprocal :math:`1 / x` of each element. Integer inputs give the default float dtype.",
        ">>> engine.reciprocal(engine.tensor([2.0, -0.5]))\ntensor([ 0.5000, -2.0000])",
    ),
    "exp": unary(
        "exp",
        "Exponential :math:`e^x` of each element.",
        ">>> engine.exp(engine.tensor([0.0, 1.0]))\ntensor([1.0000, 2.7183])",
    ),
    "exp2": unary(
        "exp2",
        "Base-2 exponential :math:`2^x` of each element.",
        ">>> engine.exp2(engine.tensor([0.0, 3.0]))\ntensor([1., 8.])",
    ),
    "expm1": unary(
        "expm1",
        "Computes :math:`e^x - 1` for each element, accurately for small ``x``.",
        ">>> engine.expm1(engine.tensor([0.0, 1e-10], dtype=engine.float64))\n"
        "tensor([0.0000e+00, 1.0000e-10], dtype=torch.float64)",
    ),
    "log": unary(
        "log",
        "Natural logarithm of each element; ``-inf`` at 0 and NaN below it.",
        ">>> engine.log(engine.tensor([1.0, 4.0]))\ntensor([0.0000, 1.3863])",
    ),
    "log2": unary(
        "log2",
        "Base-2 logarithm of each element.",
        ">>> engine.log2(engine.tensor([1.0, 8.0]))\ntensor([0., 3.])",
    ),
    "log10": unary(
        "log10",
        "Base-10 logarithm of each element.",
        ">>> engine.log10(engine.tensor([10.0, 1000.0]))\ntensor([1., 3.])",
    ),
    "log1p": unary(
        "log1p",
        "Computes :math:`\\log(1 + x)` for each element, accurately for small ``x``.",
        ">>> engine.log1p(engine.tensor([0.0, 1e-10], dtype=engine.float64))\n"
        "tensor([0.0000e+00, 1.0000e-10], dtype=torch.float64)",
    ),
    "sin": unary(
        "sin",
        "Sine of each element (in radians).",
        ">>> engine.sin(engine.tensor([0.0, 1.5707964]))\ntensor([0., 1.])",
    ),
    "cos": unary(
        "cos",
        "Cosine of each element (in radians).",
        ">>> engine.cos(engine.tensor([0.0, 3.1415927]))\ntensor([ 1., -1.])",
    ),
    "tan": unary(
        "tan",
        "Tangent of each element (in radians).",
        ">>> engine.tan(engine.tensor([0.0, 0.7853982]))\ntensor([0., 1.])",
    ),
    "asin": unary(
        "asin",
        "Arcsine of each element, in radians; NaN outside [-1, 1]. Alias: :func:`engine.arcsin`.",
        ">>> engine.asin(engine.tensor([0.0, 1.0]))\ntensor([0.0000, 1.5708])",
    ),
    "acos": unary(
        "acos",
        "Arccosine of each element, in radians; NaN outside [-1, 1]. Alias: :func:`engine.arccos`.",
        ">>> engine.acos(engine.tensor([1.0, 0.0]))\ntensor([0.0000, 1.5708])",
    ),
    "atan": unary(
        "atan",
        "Arctangent of each element, in radians. Alias: :func:`engine.arctan`.",
        ">>> engine.atan(engine.tensor([0.0, 1.0]))\ntensor([0.0000, 0.7854])",
    ),
    "sinh": unary(
        "sinh",
        "Hyperbolic sine of each element.",
        ">>> engine.sinh(engine.tensor([0.0, 1.0]))\ntensor([0.0000, 1.1752])",
    ),
    "cosh": unary(
        "cosh",
        "Hyperbolic cosine of each element.",
        ">>> engine.cosh(engine.tensor([0.0, 1.0]))\ntensor([1.0000, 1.5431])",
    ),
    "tanh": unary(
        "tanh",
        "Hyperbolic tangent of each element, in (-1, 1).",
        ">>> engine.tanh(engine.tensor([0.0, 1.0]))\ntensor([0.0000, 0.7616])",
    ),
    "asinh": unary(
        "asinh",
        "Inverse hyperbolic sine of each element. Alias: :func:`engine.arcsinh`.",
        ">>> engine.asinh(engine.tensor([0.0, 1.0]))\ntensor([0.0000, 0.8814])",
    ),
    "acosh": unary(
        "acosh",
        "Inverse hyperbolic cosine of each element; NaN below 1. Alias: :func:`engine.arccosh`.",
        ">>> engine.acosh(engine.tensor([1.0, 2.0]))\ntensor([0.0000, 1.3170])",
    ),
    "atanh": unary(
        "atanh",
        "Inverse hyperbolic tangent of each element; ``±inf`` at ±1, NaN beyond."
        " Alias: :func:`engine.arctanh`.",
        ">>> engine.atanh(engine.tensor([0.0, 0.5]))\ntensor([0.0000, 0.5493])",
    ),
    "sigmoid": unary(
        "sigmoid",
        "Logistic sigmoid :math:`1 / (1 + e^{-x})` of each element.",
        ">>> engine.sigmoid(engine.tensor([0.0, 2.0]))\ntensor([0.5000, 0.8808])",
    ),
    "relu": unary(
        "relu",
        "Rectified linear unit: each element, or 0 where it is negative.",
        ">>> engine.relu(engine.tensor([-1.0, 0.5]))\ntensor([0.0000, 0.5000])",
    ),
    "erf": unary(
        "erf",
        "Error function :math:`\\frac{2}{\\sqrt{\\pi}} \\int_0^x e^{-t^2} dt` of each element.",
        ">>> engine.erf(engine.tensor([0.0, 1.0]))\ntensor([0.0000, 0.8427])",
    ),
    "erfc": unary(
        "erfc",
        "Complementary error function :math:`1 - \\mathrm{erf}(x)` of each element, accurate"
        " where ``erf`` is close to 1.",
        ">>> engine.erfc(engine.tensor([0.0, 1.0]))\ntensor([1.0000, 0.1573])",
    ),
    "erfinv": unary(
        "erfinv",
        "Inverse error function of each element: ``y`` with ``erf(y) = x``, for x in (-1, 1).",
        ">>> engine.erfinv(engine.tensor([0.0, 0.5]))\ntensor([0.0000, 0.4769])",
    ),
    "lgamma": unary(
        "lgamma",
        "Natural logarithm of the absolute value of the gamma function of each element.",
        ">>> engine.lgamma(engine.tensor([1.0, 5.0]))\ntensor([0.0000, 3.1781])",
    ),
    "digamma": unary(
        "digamma",
        "Digamma function (the derivative of ``lgamma``) of each element; ``-inf`` at 0.",
        ">>> engine.digamma(engine.tensor([1.0, 2.0]))\ntensor([-0.5772,  0.4228])",
    ),
    "i0": unary(
        "i0",
        "Modified Bessel function of the first kind of order 0, :math:`I_0(x)`, of each element.",
        ">>> engine.i0(engine.tensor([0.0, 1.0]))\ntensor([1.0000, 1.2661])",
    ),
    "sinc": unary(
        "sinc",
        "Normalized sinc :math:`\\sin(\\pi x) / (\\pi x)` of each element, 1 at 0.",
        ">>> engine.sinc(engine.tensor([0.0, 0.5]))\ntensor([1.0000, 0.6366])",
    ),
    "deg2rad": unary(
        "deg2rad",
        "Converts each element from degrees to radians.",
        ">>> engine.deg2rad(engine.tensor([180.0, 90.0]))\ntensor([3.1416, 1.5708])",
    ),
    "rad2deg": unary(
        "rad2deg",
        "Converts each element from radians to degrees.",
        ">>> engine.rad2deg(engine.tensor([3.1415927, 1.0]))\ntensor([180.0000,  57.2958])",
    ),
    "frac": unary(
        "frac",
        "Fractional part of each element, ``input - trunc(input)`` (it keeps the sign).",
        ">>> engine.frac(engine.tensor([1.5, -2.25]))\ntensor([ 0.5000, -0.2500])",
    ),
    "floor": unary(
        "floor",
        "Largest integer not greater than each element (integer tensors are returned unchanged).",
        ">>> engine.floor(engine.tensor([1.5, -1.5]))\ntensor([ 1., -2.])",
    ),
    "ceil": unary(
        "ceil",
        "Smallest integer not less than each element.",
        ">>> engine.ceil(engine.tensor([1.2, -1.2]))\ntensor([ 2., -1.])",
    ),
    "trunc": unary(
        "trunc",
        "Rounds each element toward zero. Alias: :func:`engine.fix`.",
        ">>> engine.trunc(engine.tensor([1.7, -1.7]))\ntensor([ 1., -1.])",
    ),
    "round": entry(
        "round(input, *, decimals=0, out=None) -> Tensor",
        "Rounds each element to the nearest integer, halves to even (as NumPy and PyTorch do), or"
        " to ``decimals`` decimal places.",
        "    input (Tensor): the input tensor.",
        ">>> engine.round(engine.tensor([0.5, 1.5, 2.5, -0.5]))\ntensor([0., 2., 2., -0.])\n"
        ">>> engine.round(engine.tensor([1.2345]), decimals=2)\ntensor([1.2300])",
        "    decimals (int): the number of decimal places (negative rounds left of the point).\n"
        "    out (Tensor, optional): the output tensor.",
    ),
    "isnan": entry(
        "isnan(input) -> Tensor",
        "Bool tensor telling which elements of ``input`` are NaN.",
        "    input (Tensor): the input tensor.",
        ">>> engine.isnan(engine.tensor([1.0, float('nan')]))\ntensor([False,  True])",
    ),
    "isinf": entry(
        "isinf(input) -> Tensor",
        "Bool tensor telling which elements of ``input`` are positive or negative infinity.",
        "    input (Tensor): the input tensor.",
        ">>> engine.isinf(engine.tensor([1.0, float('-inf')]))\ntensor([False,  True])",
    ),
    "isfinite": entry(
        "isfinite(input) -> Tensor",
        "Bool tensor telling which elements of ``input`` are finite (neither infinite nor NaN).",
        "    input (Tensor): the input tensor.",
        ">>> engine.isfinite(engine.tensor([1.0, float('inf'), float('nan')]))\n"
        "tensor([ True, False, False])",
    ),
    "logical_not": unary(
        "logical_not",
        "Logical negation of each element (zero is ``False``); a bool tensor.",
        ">>> engine.logical_not(engine.tensor([0.0, 2.0]))\ntensor([ True, False])",
    ),
    "bitwise_not": unary(
        "bitwise_not",
        "Bitwise NOT of each element of an integer or bool tensor.",
        ">>> engine.bitwise_not(engine.tensor([0, 5]))\ntensor([-1, -6])",
    ),
    "logit": entry(
        "logit(input, eps=None, *, out=None) -> Tensor",
        "Logit :math:`\\log(p / (1 - p))` of each element. With ``eps``, the input is first"
        " clamped to ``[eps, 1 - eps]``; without it, 0 and 1 give ``-inf`` and ``inf``.",
        "    input (Tensor): the input tensor.\n"
        "    eps (float, optional): the clamping bound. Default: ``None``.",
        ">>> engine.logit(engine.tensor([0.5, 0.75]))\ntensor([0.0000, 1.0986])",
        "    out (Tensor, optional): the output tensor.",
    ),
    "frexp": entry(
        "frexp(input) -> (Tensor mantissa, Tensor exponent)",
        "Splits each element into a mantissa in [0.5, 1) (in magnitude) and an int32 exponent,"
        " so that ``input = mantissa * 2 ** exponent``.",
        "    input (Tensor): a floating-point tensor.",
        ">>> engine.frexp(engine.tensor([8.0, 3.0]))\ntorch.return_types.frexp(\n"
        "mantissa=tensor([0.5000, 0.7500]),\nexponent=tensor([4, 2], dtype=torch.int32))",
    ),
    "polygamma": entry(
        "polygamma(n, input, *, out=None) -> Tensor",
        "The ``n``-th derivative of the digamma function of each element (``n = 0`` is"
        " ``digamma``).",
        "    n (int): the order of the derivative, ``n >= 0``.\n"
        "    input (Tensor): the input tensor.",
        ">>> engine.polygamma(1, engine.tensor([1.0, 2.0]))\ntensor([1.6449, 0.6449])",
        "    out (Tensor, optional): the output tensor.",
    ),
    # ---- binary arithmetic ----
    "add": binary(
        "add",
        "Adds ``other``, scaled by ``alpha``, to ``input``: :math:`input + alpha \\times other`.",
        ">>> a = engine.tensor([1.0, 2.0])\n>>> engine.add(a, 10)\ntensor([11., 12.])\n"
        ">>> engine.add(a, engine.tensor([[1.0], [2.0]]), alpha=2)\n"
        "tensor([[3., 4.],\n        [5., 6.]])",
        other_doc="the tensor or number to add",
        alpha=True,
    ),
    "sub": binary(
        "sub",
        "Subtracts ``other``, scaled by ``alpha``, from ``input``. Alias: :func:`engine.subtract`.",
        ">>> engine.sub(engine.tensor([5.0, 7.0]), engine.tensor([1.0, 2.0]), alpha=2)\n"
        "tensor([3., 3.])",
        other_doc="the tensor or number to subtract",
        alpha=True,
    ),
    "mul": binary(
        "mul",
        "Multiplies ``input`` by ``other`` element by element. Alias: :func:`engine.multiply`.",
        ">>> engine.mul(engine.tensor([1.0, 2.0]), engine.tensor([3.0, 4.0]))\ntensor([3., 8.])",
    ),
    "div": binary(
        "div",
        "True division of ``input`` by ``other`` element by element (integers give the default"
        " float dtype); see :func:`floor_divide` for rounded quotients. Aliases:"
        " :func:`engine.divide`, :func:`engine.true_divide`. (PyTorch's ``rounding_mode``"
        " keyword is not supported yet.)",
        ">>> engine.div(engine.tensor([7, -7]), 2)\ntensor([ 3.5000, -3.5000])",
        other_doc="the divisor",
    ),
    "floor_divide": binary(
        "floor_divide",
        "Divides ``input`` by ``other`` and rounds the quotient down (Python's ``//``).",
        ">>> engine.floor_divide(engine.tensor([7, -7]), 2)\ntensor([ 3, -4])",
        other_doc="the divisor",
    ),
    "remainder": binary(
        "remainder",
        "Remainder of the division, with the sign of the divisor (Python's ``%``).",
        ">>> engine.remainder(engine.tensor([7, -7]), 3)\ntensor([1, 2])",
        other_doc="the divisor",
    ),
    "fmod": binary(
        "fmod",
        "Remainder of the division, with the sign of the dividend (C's ``fmod``).",
        ">>> engine.fmod(engine.tensor([7, -7]), 3)\ntensor([ 1, -1])",
        other_doc="the divisor",
    ),
    "pow": entry(
        "pow(input, exponent, *, out=None) -> Tensor",
        "Raises each element of ``input`` to the power ``exponent`` (a number or a broadcasting"
        " tensor). ``input`` may also be a number with a tensor exponent.",
        "    input (Tensor or Number): the base.\n    exponent (Tensor or Number): the exponent.",
        ">>> engine.pow(engine.tensor([1.0, 2.0, 3.0]), 2)\ntensor([1., 4., 9.])\n"
        ">>> engine.pow(2, engine.tensor([1, 3]))\ntensor([2, 8])",
        "    out (Tensor, optional): the output tensor.",
    ),
    "atan2": binary(
        "atan2",
        "Arctangent of ``input / other`` that takes the quadrant from both signs, in radians in"
        " [-pi, pi]. Alias: :func:`engine.arctan2`.",
        ">>> engine.atan2(engine.tensor([1.0, 1.0]), engine.tensor([1.0, -1.0]))\n"
        "tensor([0.7854, 2.3562])",
        other_doc="the x coordinate",
    ),
    "hypot": binary(
        "hypot",
        "Hypotenuse :math:`\\sqrt{input^2 + other^2}` of each pair, without overflow.",
        ">>> engine.hypot(engine.tensor([3.0]), engine.tensor([4.0]))\ntensor([5.])",
    ),
    "copysign": binary(
        "copysign",
        "The magnitude of ``input`` with the sign of ``other``, element by element.",
        ">>> engine.copysign(engine.tensor([1.0, 2.0]), engine.tensor([-1.0, 0.0]))\n"
        "tensor([-1.,  2.])",
        other_doc="the tensor whose signs are taken",
    ),
    "nextafter": binary(
        "nextafter",
        "The next floating-point value after ``input`` in the direction of ``other``.",
        ">>> engine.nextafter(engine.tensor([1.0]), engine.tensor([2.0])) > 1\ntensor([True])",
    ),
    "maximum": binary(
        "maximum",
        "Element-wise maximum of ``input`` and ``other``; NaN wins (see :func:`fmax`).",
        ">>> engine.maximum(engine.tensor([1.0, 4.0]), engine.tensor([3.0, 2.0]))\n"
        "tensor([3., 4.])",
    ),
    "minimum": binary(
        "minimum",
        "Element-wise minimum of ``input`` and ``other``; NaN wins (see :func:`fmin`).",
        ">>> engine.minimum(engine.tensor([1.0, 4.0]), engine.tensor([3.0, 2.0]))\n"
        "tensor([1., 2.])",
    ),
    "fmax": binary(
        "fmax",
        "Element-wise maximum that ignores NaN: where one side is NaN the other is taken.",
        ">>> engine.fmax(engine.tensor([1.0, float('nan')]), engine.tensor([3.0, 2.0]))\n"
        "tensor([3., 2.])",
    ),
    "fmin": binary(
        "fmin",
        "Element-wise minimum that ignores NaN: where one side is NaN the other is taken.",
        ">>> engine.fmin(engine.tensor([1.0, float('nan')]), engine.tensor([3.0, 2.0]))\n"
        "tensor([1., 2.])",
    ),
    "gcd": binary(
        "gcd",
        "Greatest common divisor of each pair of integers (non-negative).",
        ">>> engine.gcd(engine.tensor([12, 9]), engine.tensor([18, 6]))\ntensor([6, 3])",
    ),
    "lcm": binary(
        "lcm",
        "Least common multiple of each pair of integers (non-negative).",
        ">>> engine.lcm(engine.tensor([4, 6]), engine.tensor([6, 10]))\ntensor([12, 30])",
    ),
    "logaddexp": binary(
        "logaddexp",
        "Computes :math:`\\log(e^{input} + e^{other})` without overflow.",
        ">>> engine.logaddexp(engine.tensor([0.0]), engine.tensor([0.0]))\ntensor([0.6931])",
    ),
    "logaddexp2": binary(
        "logaddexp2",
        "Computes :math:`\\log_2(2^{input} + 2^{other})` without overflow.",
        ">>> engine.logaddexp2(engine.tensor([1.0]), engine.tensor([1.0]))\ntensor([2.])",
    ),
    "xlogy": binary(
        "xlogy",
        "Computes ``input * log(other)``, defined as 0 where ``input`` is 0 (unless ``other`` is"
        " NaN).",
        ">>> engine.xlogy(engine.tensor([0.0, 2.0]), engine.tensor([0.0, 1.0]))\ntensor([0., 0.])",
    ),
    "heaviside": binary(
        "heaviside",
        "Heaviside step function: 0 where ``input < 0``, 1 where ``input > 0``, and ``values``"
        " where ``input == 0``.",
        ">>> engine.heaviside(engine.tensor([-1.0, 0.0, 2.0]), engine.tensor([0.5]))\n"
        "tensor([0.0000, 0.5000, 1.0000])",
        other="values",
        other_doc="the value taken where ``input`` is zero",
    ),
    "igamma": binary(
        "igamma",
        "Regularized lower incomplete gamma function :math:`P(input, other)`.",
        ">>> engine.igamma(engine.tensor([1.0]), engine.tensor([1.0]))\ntensor([0.6321])",
    ),
    "igammac": binary(
        "igammac",
        "Regularized upper incomplete gamma function :math:`Q(input, other) = 1 - P`.",
        ">>> engine.igammac(engine.tensor([1.0]), engine.tensor([1.0]))\ntensor([0.3679])",
    ),
    "lerp": entry(
        "lerp(input, end, weight, *, out=None) -> Tensor",
        "Linear interpolation ``input + weight * (end - input)``, broadcasting all three.",
        "    input (Tensor): the start points.\n    end (Tensor): the end points.\n"
        "    weight (float or Tensor): the interpolation weight.",
        ">>> engine.lerp(engine.tensor([0.0, 10.0]), engine.tensor([10.0, 20.0]), 0.5)\n"
        "tensor([ 5., 15.])",
        "    out (Tensor, optional): the output tensor.",
    ),
    "clamp": entry(
        "clamp(input, min=None, max=None, *, out=None) -> Tensor",
        "Clamps each element into ``[min, max]``; either bound may be ``None`` (not both), a"
        " number or a broadcasting tensor. Where ``min > max`` the result is ``max``. Alias:"
        " :func:`engine.clip`.",
        "    input (Tensor): the input tensor.\n"
        "    min (Number or Tensor, optional): the lower bound.\n"
        "    max (Number or Tensor, optional): the upper bound.",
        ">>> engine.clamp(engine.tensor([-2.0, 0.5, 3.0]), min=-1, max=1)\n"
        "tensor([-1.0000,  0.5000,  1.0000])",
        "    out (Tensor, optional): the output tensor.",
    ),
}

# Comparisons: a bool tensor, broadcasting; each with its aliases.
_COMPARISONS = {
    "eq": ("equal to", "", "tensor([False,  True, False])"),
    "ne": ("not equal to", " Alias: :func:`engine.not_equal`.", "tensor([ True, False,  True])"),
    "lt": ("less than", " Alias: :func:`engine.less`.", "tensor([ True, False, False])"),
    "le": (
        "less than or equal to",
        " Alias: :func:`engine.less_equal`.",
        "tensor([ True,  True, False])",
    ),
    "gt": ("greater than", " Alias: :func:`engine.greater`.", "tensor([False, False,  True])"),
    "ge": (
        "greater than or equal to",
        " Alias: :func:`engine.greater_equal`.",
        "tensor([False,  True,  True])",
    ),
}
for _name, (_what, _alias, _result) in _COMPARISONS.items():
    DOCS[_name] = binary(
        _name,
        f"Tells, element by element, whether ``input`` is {_what} ``other``, as a bool"
        f" tensor.{_alias}",
        f">>> engine.{_name}(engine.tensor([1, 2, 3]), 2)\n{_result}",
        other_doc="the tensor or number to compare with",
    )
DOCS["less"] = DOCS["lt"]
DOCS["clip"] = DOCS["clamp"].replace("clamp(", "clip(", 1)
DOCS["greater"] = DOCS["gt"]

_LOGICAL = {
    "logical_and": ("AND", "tensor([False, False,  True])"),
    "logical_or": ("OR", "tensor([ True, False,  True])"),
    "logical_xor": ("XOR", "tensor([ True, False, False])"),
}
for _name, (_op, _result) in _LOGICAL.items():
    DOCS[_name] = binary(
        _name,
        f"Logical {_op} of each pair of elements, zero read as ``False``; a bool tensor.",
        f">>> engine.{_name}(engine.tensor([1, 0, 2]), engine.tensor([0, 0, 3]))\n{_result}",
    )

_BITWISE = {
    "bitwise_and": ("Bitwise AND of each pair of elements", "3, 2", "tensor([1, 0])"),
    "bitwise_or": ("Bitwise OR of each pair of elements", "3, 2", "tensor([7, 6])"),
    "bitwise_xor": ("Bitwise XOR of each pair of elements", "3, 2", "tensor([6, 6])"),
    "bitwise_left_shift": (
        "Each element shifted left by ``other`` bits",
        "2, 2",
        "tensor([20, 16])",
    ),
    "bitwise_right_shift": (
        "Each element shifted right by ``other`` bits (arithmetic shift)",
        "2, 2",
        "tensor([1, 1])",
    ),
}
for _name, (_text, _other, _result) in _BITWISE.items():
    DOCS[_name] = binary(
        _name,
        _text + " (integer or bool tensors).",
        f">>> engine.{_name}(engine.tensor([5, 4]), engine.tensor([{_other}]))\n{_result}",
    )


def targets(engine):
    return [(engine, DOCS)]
