"""threshold, the shrink functions, rrelu, gumbel_softmax and the in-place activations of
engine.nn.functional (and their torch.* forms), composed from native ops.

NaN propagates as in PyTorch's kernels (a comparison with NaN is false, so each `where` is
arranged so NaN lands on the branch PyTorch's kernel gives it: the shrinks return NaN with a
zero gradient, threshold passes the gradient), and the gradient at each kink is the one
PyTorch's backward formula gives."""

import warnings

from engine import _C
from engine._grad_fn_names import named_grad_fn
from engine.nn._floating_inputs import refuse_bool, require_floating


def _inplace(input, out, inplace):
    return input.copy_(out) if inplace else out


def _functional():
    from engine.nn import functional

    return functional


@named_grad_fn("ThresholdBackward0")
def threshold(input, threshold, value, inplace=False):
    """value where ``x <= threshold``, x elsewhere (NaN stays NaN)."""
    refuse_bool(input, "threshold_cpu")
    if inplace:
        # One node for the write, as PyTorch's threshold_: through a view, CopySlices runs it.
        return _C._threshold_(input, threshold, value)
    # One native node (ThresholdBackward0) keeping the input and the threshold as given.
    return _C.threshold(input, threshold, value)


def threshold_(input, threshold, value):
    """In-place ``threshold``."""
    return globals()["threshold"](input, threshold, value, True)


def _check_lambd(lambd, input):
    if lambd < 0:
        name = "Float" if input.dtype == _C.float32 else "Double"
        bound = "3.40282e+38" if input.dtype == _C.float32 else "1.79769e+308"
        raise RuntimeError(
            f"lambda must be in range [0, {bound}] for input dtype {name}, but found {lambd:g}"
        )


@named_grad_fn("HardshrinkBackward0")
def hardshrink(input, lambd=0.5):
    """0 where ``-lambd <= x <= lambd``, x elsewhere."""
    require_floating(input, "hardshrink_cpu")
    outside = (input < -lambd) | (input > lambd)
    return _C.where(outside, input, (input * 0).detach())


@named_grad_fn("SoftshrinkBackward0")
def softshrink(input, lambd=0.5):
    """0 where ``-lambd <= x <= lambd``, x moved lambd towards 0 elsewhere."""
    require_floating(input, "softshrink_check")
    _check_lambd(lambd, input)
    outside = (input < -lambd) | (input > lambd)
    # sign(x) * lambd keeps a Python-number lambd in the input's precision (a where() over two
    # numbers would build a default-dtype tensor and round it).
    shifted = input - _C.sign(input).detach() * lambd
    return _C.where(outside, shifted, (input * 0).detach())


def tanhshrink(input):
    """``x - tanh(x)``."""
    return input - _C.tanh(input)


def _check_rrelu_bounds(lower, upper):
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")


@named_grad_fn("RreluWithNoiseBackward0")
def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Leaky ReLU whose negative slope is drawn uniformly from [lower, upper] per element while
    training, and is ``(lower + upper) / 2`` otherwise."""
    return _rrelu(input, lower, upper, training, inplace, None)


def _rrelu(input, lower, upper, training, inplace, generator):
    """rrelu drawing its slopes from generator (the global one when None)."""
    _check_rrelu_bounds(lower, upper)
    if not inplace:
        input = input.contiguous()  # PyTorch's kernel writes a contiguous result
    if not training:
        return _functional().leaky_relu(input, (lower + upper) / 2, inplace)
    extra = {} if generator is None else {"generator": generator}
    # As ATen: one float64 uniform draw per non-positive element, in order, scaled in float64
    # and rounded to the input's dtype; the same seed gives PyTorch's slopes.
    negative = input.detach() <= 0
    draws = _C.rand(int(negative.sum().item()), dtype=_C.float64, **extra)
    noise = _C.ones(list(input.shape), dtype=input.dtype)
    noise[negative] = (draws * (upper - lower) + lower).to(input.dtype)
    return _inplace(input, input * noise, inplace)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    """In-place ``rrelu``."""
    return rrelu(input, lower, upper, training, True)


def relu_(input):
    """In-place ``relu``."""
    return _functional().relu(input, True)


def elu_(input, alpha=1.0):
    """In-place ``elu``."""
    return _functional().elu(input, alpha, True)


def celu_(input, alpha=1.0):
    """In-place ``celu``."""
    return _functional().celu(input, alpha, True)


def selu_(input):
    """In-place ``selu``."""
    return _functional().selu(input, True)


def leaky_relu_(input, negative_slope=0.01):
    """In-place ``leaky_relu``."""
    return _functional().leaky_relu(input, negative_slope, True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    """In-place ``hardtanh``."""
    return _functional().hardtanh(input, min_val, max_val, True)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """softmax((logits + g) / tau) with g ~ Gumbel(0, 1) drawn per element; with ``hard`` the
    result is the one-hot of its argmax, differentiated as the soft sample (straight through)."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", UserWarning, stacklevel=2)
    # -log of an Exponential(1) draw is Gumbel(0, 1); drawn as PyTorch draws it (exponential_
    # on a fresh tensor), so the same seed gives the same sample.
    gumbels = -_C.empty(list(logits.shape), dtype=logits.dtype).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = _functional().softmax(gumbels, dim)
    if not hard:
        return y_soft
    index = y_soft.detach().argmax(dim, keepdim=True)
    y_hard = _C.zeros_like(logits).scatter(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


FUNCTIONS = {
    f.__name__: f
    for f in (
        threshold, threshold_, hardshrink, softshrink, tanhshrink, rrelu, rrelu_, relu_, elu_, celu_,
        selu_, leaky_relu_, hardtanh_, gumbel_softmax,
    )
}  # fmt: skip
