"""The activation functions of engine.nn.functional beyond relu/gelu/silu, composed from native
ops. At each kink the derivative is PyTorch's (its backward formulas decide which side a point
like hardtanh's bound belongs to), and no branch of a `where` can overflow, so no inf or NaN
reaches backward through the branch that was not taken. NaN takes the branch PyTorch's backward
gives it: the elu family passes the gradient through at NaN (its test is ``x <= 0``)."""

from engine import _C, _out_param
from engine._grad_fn_names import named_grad_fn
from engine._scalar_type_names import scalar_type_name
from engine.amp._policy import autocast_op
from engine.nn._floating_inputs import require_floating

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _nonpositive(input):
    """input where it is <= 0, else 0: the negative branch of the elu family never sees a
    positive, inf or NaN input, so it cannot overflow or leak NaN into the gradient."""
    return _C.where(input <= 0, input, _C.zeros_like(input))


def _inplace(input, out, inplace):
    return input.copy_(out) if inplace else out


def sigmoid(input):
    """``1 / (1 + exp(-x))``."""
    return _C.sigmoid(input)


def tanh(input):
    """The hyperbolic tangent."""
    return _C.tanh(input)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """Leaky ReLU: ``x`` where ``x > 0``, ``negative_slope * x`` elsewhere.

    Args:
        input (Tensor): the input tensor.
        negative_slope (float): the slope for negative inputs. Default: 0.01.
        inplace (bool): write the result into ``input``. Default: ``False``.

    Example::

        >>> engine.nn.functional.leaky_relu(engine.tensor([-2.0, 3.0]), 0.1)
        tensor([-0.2000,  3.0000])
    """
    require_floating(input, "leaky_relu_cpu")
    # One native node: LeakyReluBackward0, or in place LeakyReluBackward1 (it saves the result).
    if inplace:
        return _C.leaky_relu_(input, negative_slope)
    return _C.leaky_relu(input, negative_slope)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x clamped to [min_val, max_val]; the gradient is 0 at and beyond the bounds, as PyTorch."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if input.dtype == _C.bool:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if input.dtype == _C.uint8 and int(min_val) < 0:  # PyTorch converts the limit to int first
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    if input.dtype.is_floating_point:
        # One native node (HardtanhBackward0), which saves the input and the bounds as given.
        if inplace:
            return _C.hardtanh_(input, min_val, max_val)
        return _C.hardtanh(input, min_val, max_val)
    inside = (input > min_val) & (input < max_val)
    # Integer inputs keep their dtype, as in PyTorch (a float bound would promote the clamp).
    bounded = _C.clamp(input, min_val, max_val).to(input.dtype)
    out = _C.where(inside, input, bounded.detach())
    return _inplace(input, out, inplace)


def relu6(input, inplace=False):
    """``hardtanh(x, 0, 6)``."""
    # Integer bounds, as PyTorch's relu6 passes them (its node shows 0 and 6).
    return hardtanh(input, 0, 6, inplace)


def elu(input, alpha=1.0, inplace=False):
    """x for x > 0, ``alpha * (exp(x) - 1)`` otherwise."""
    require_floating(input, "elu_cpu")
    # One native node: EluBackward0, or in place EluBackward1 (it saves the result).
    if inplace:
        return _C.elu_(input, alpha)
    return _C.elu(input, alpha)


def selu(input, inplace=False):
    """``scale * elu(x, alpha)`` with the self-normalising constants."""
    require_floating(input, "elu_cpu")
    if inplace:
        return _C.elu_(input, _SELU_ALPHA, _SELU_SCALE)
    return _C.elu(input, _SELU_ALPHA, _SELU_SCALE)


@named_grad_fn("CeluBackward0")
def celu(input, alpha=1.0, inplace=False):
    """x for x > 0, ``alpha * (exp(x / alpha) - 1)`` otherwise."""
    require_floating(input, "elu_cpu")
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    negative = alpha * _C.expm1(_nonpositive(input) / alpha)
    return _inplace(input, _C.where(input <= 0, negative, input), inplace)


def softplus(input, beta=1.0, threshold=20.0):
    """Softplus, a smooth ReLU: ``log(1 + exp(beta * x)) / beta``, and ``x`` itself where
    ``beta * x > threshold`` (for numerical stability).

    Args:
        input (Tensor): the input tensor.
        beta (float): the sharpness. Default: 1.
        threshold (float): above it the function is linear. Default: 20.

    Example::

        >>> engine.nn.functional.softplus(engine.tensor([0.0, 30.0]))
        tensor([ 0.6931, 30.0000])
    """
    require_floating(input, "softplus_cpu")
    return _C.softplus(input, beta, threshold)


def logsigmoid(input):
    """``log(sigmoid(x))``, finite for every x."""
    require_floating(input, "log_sigmoid_cpu")
    # PyTorch's kernel writes a contiguous result whatever the input's layout.
    return _C.log_sigmoid(input)


def softsign(input):
    """``x / (1 + |x|)``."""
    return input / (_C.abs(input) + 1)


def mish(input, inplace=False):
    """``x * tanh(softplus(x))``."""
    require_floating(input, "mish_cpu")
    return _inplace(input, _C.mish(input), inplace)


def hardsigmoid(input, inplace=False):
    """``relu6(x + 3) / 6``; the gradient is 1/6 strictly between -3 and 3."""
    require_floating(input, "hardsigmoid_cpu")
    return _inplace(input, _C.hardsigmoid(input), inplace)


def hardswish(input, inplace=False):
    """``x * relu6(x + 3) / 6``; PyTorch's gradient: 0 up to -3, ``x / 3 + 0.5`` between, 1 from 3."""
    require_floating(input, "hardswish_cpu")
    return _inplace(input, _C.hardswish(input), inplace)


@named_grad_fn("GluBackward0")
def glu(input, dim=-1):
    """``a * sigmoid(b)`` for the two halves a, b of input along dim."""
    size = input.shape[dim] if input.dim() else 0
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    if size % 2:
        raise RuntimeError(
            f"Halving dimension must be even, but dimension {dim % input.dim()} is size {size}"
        )
    require_floating(input, "glu_cpu")
    a, b = input.chunk(2, dim)
    return a * _C.sigmoid(b)


@autocast_op("prelu")
@named_grad_fn("PreluKernelBackward0")
def prelu(input, weight):
    """x for x > 0, ``weight * x`` otherwise; a weight of C elements applies per channel (dim 1)."""
    if weight.numel() != 1:
        channels = input.shape[1] if input.dim() > 1 else 1
        if weight.numel() != channels:
            raise RuntimeError(
                f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                f"{weight.numel()} and channel size = {channels}."
            )
        weight = weight.reshape([channels] + [1] * (input.dim() - 2))
    return _C.where(input > 0, input, weight * input)


@named_grad_fn("SoftmaxBackward0")
def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """``softmax(-x)``."""
    from engine.nn.functional import softmax

    return softmax(-input, dim, _stacklevel, dtype)


def _norm2(x, dim, eps):
    """The 2-norm along dim (kept), at least eps; below eps it passes no gradient, so an all-zero
    slice has a zero gradient instead of NaN."""
    squared = (x * x).sum(dim, keepdim=True)
    return _C.sqrt(_C.clamp(squared, eps * eps, None))


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """``input`` divided by its ``p``-norm along ``dim``: ``x / max(||x||_p, eps)``.

    Args:
        input (Tensor): the input tensor.
        p (float): the norm's order. Default: 2.
        dim (int or tuple of ints): the dimension(s) normalised. Default: 1.
        eps (float): the smallest divisor, avoiding division by zero. Default: 1e-12.
        out (Tensor, optional): the output tensor.

    Example::

        >>> engine.nn.functional.normalize(engine.tensor([[3.0, 4.0]]))
        tensor([[0.6000, 0.8000]])
    """
    if not input.dtype.is_floating_point:
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. "
            f"Got {scalar_type_name(input.dtype)}"
        )
    if p == 2:
        denom = _norm2(input, dim, eps)
    else:
        denom = _C.clamp(input.norm(p, dim, keepdim=True), eps, None)
    result = input / denom.expand_as(input)  # PyTorch's graph: DivBackward0 over ExpandBackward0
    # PyTorch divides into out: div's out= rules and messages.
    return result if out is None else _out_param.write(out, result, [input], "div")


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """Cosine similarity ``x1 . x2 / (max(||x1||, eps) * max(||x2||, eps))`` along ``dim``,
    after broadcasting ``x1`` and ``x2``.

    Args:
        x1 (Tensor): the first input.
        x2 (Tensor): the second input.
        dim (int): the dimension of the vectors. Default: 1.
        eps (float): the smallest norm, avoiding division by zero. Default: 1e-8.

    Example::

        >>> a = engine.tensor([[1.0, 0.0], [1.0, 1.0]])
        >>> engine.nn.functional.cosine_similarity(a, engine.tensor([[1.0, 0.0]]))
        tensor([1.0000, 0.7071])
    """
    common = _C.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(
            "expected common dtype to be floating point, yet common dtype is "
            f"{scalar_type_name(common)}"
        )
    return ((x1 / _norm2(x1, dim, eps)) * (x2 / _norm2(x2, dim, eps))).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of ``x1 - x2 + eps`` along the last dim."""
    return (x1 - x2 + eps).norm(p, -1, keepdim=keepdim)


FUNCTIONS = {
    f.__name__: f
    for f in (
        sigmoid, tanh, leaky_relu, hardtanh, relu6, elu, selu, celu, softplus, logsigmoid, softsign,
        mish, hardsigmoid, hardswish, glu, prelu, softmin, normalize, cosine_similarity,
        pairwise_distance,
    )
}  # fmt: skip
