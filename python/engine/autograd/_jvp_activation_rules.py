"""Forward-mode (jvp) rules of the native activation functions (engine/nn/_activations.py): each
is elementwise, so its tangent is ``t * f'(x)``, with ``f'`` written from engine's differentiable
ops (a tangent keeps a graph of its own, and vmap batches these ops). The numbers an activation
takes are read from its call, with its defaults."""

from __future__ import annotations

import math

from engine import _C

_NORMAL_PDF = 1.0 / math.sqrt(2.0 * math.pi)
_GELU_BETA = math.sqrt(2.0 / math.pi)
_GELU_KAPPA = 0.044715
_SIXTH_F32 = 0.16666667163372040  # PyTorch's hardsigmoid gradient: 1/6 rounded to float32


def _param(args, kwargs, position, name, default):
    if len(args) > position:
        return args[position]
    return kwargs.get(name, default)


def _ones_where(condition, like):
    return condition.to(like.dtype)


def _gelu(x, args, kwargs):
    if _param(args, kwargs, 1, "approximate", "none") == "tanh":
        x2 = x * x
        t = ((x + x2 * x * _GELU_KAPPA) * _GELU_BETA).tanh()
        return (t + 1) * 0.5 + x * 0.5 * (1 - t * t) * ((x2 * (3 * _GELU_KAPPA) + 1) * _GELU_BETA)
    return _C._normal_cdf(x) + x * (x * x * -0.5).exp() * _NORMAL_PDF


def _silu(x, args, kwargs):
    s = x.sigmoid()
    return s * (x * (1 - s) + 1)


def _mish(x, args, kwargs):
    t = _C.softplus(x).tanh()
    return t + x * x.sigmoid() * (1 - t * t)


def _hardsigmoid(x, args, kwargs):
    return _ones_where((x > -3) & (x < 3), x) * _SIXTH_F32


def _hardswish(x, args, kwargs):
    middle = x * (1.0 / 3.0) + 0.5
    return _C.where(x <= -3, _C.zeros_like(x), _C.where(x < 3, middle, _C.ones_like(x)))


def _log_sigmoid(x, args, kwargs):
    return (-x).sigmoid()


def _elu(x, args, kwargs):
    alpha = _param(args, kwargs, 1, "alpha", 1.0)
    scale = _param(args, kwargs, 2, "scale", 1)
    input_scale = _param(args, kwargs, 3, "input_scale", 1)
    nonpositive = x <= 0
    # The negative branch sees only x <= 0: exp cannot overflow where it is not taken.
    negative = (_C.where(nonpositive, x, _C.zeros_like(x)) * input_scale).exp() * (
        input_scale * alpha * scale
    )
    return _C.where(nonpositive, negative, _C.full_like(x, scale))


def _leaky_relu(x, args, kwargs):
    slope = _param(args, kwargs, 1, "negative_slope", 0.01)
    return _C.where(x > 0, _C.ones_like(x), _C.full_like(x, slope))


def _softplus(x, args, kwargs):
    beta = _param(args, kwargs, 1, "beta", 1)
    threshold = _param(args, kwargs, 2, "threshold", 20)
    scaled = x * beta
    return _C.where(scaled > threshold, _C.ones_like(x), scaled.sigmoid())


def _hardtanh(x, args, kwargs):
    low = _param(args, kwargs, 1, "min_val", -1.0)
    high = _param(args, kwargs, 2, "max_val", 1.0)
    return _ones_where((x > low) & (x < high), x)


def _threshold(x, args, kwargs):
    return _ones_where(x > _param(args, kwargs, 1, "threshold", 0.0), x)


def _elementwise(derivative):
    def rule(func, args, kwargs, out, tangent_of):
        x = args[0] if args else kwargs["input"]
        t = tangent_of(x)
        if t is None:
            return None
        return t * derivative(x, args, kwargs)

    return rule


ACTIVATION_RULES = {
    name: _elementwise(derivative)
    for name, derivative in (
        ("gelu", _gelu), ("silu", _silu), ("mish", _mish), ("hardsigmoid", _hardsigmoid),
        ("hardswish", _hardswish), ("log_sigmoid", _log_sigmoid), ("elu", _elu),
        ("leaky_relu", _leaky_relu), ("softplus", _softplus), ("hardtanh", _hardtanh),
        ("threshold", _threshold),
    )
}  # fmt: skip
