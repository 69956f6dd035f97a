"""Activation modules: thin Modules over ``nn.functional``, with PyTorch's constructor
arguments and reprs."""

import engine
from engine.nn import functional as F
from engine.nn.modules.module import Module
from engine.nn.parameter import Parameter

__all__ = [
    "CELU", "ELU", "GELU", "GLU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "LeakyReLU",
    "LogSigmoid", "LogSoftmax", "Mish", "PReLU", "ReLU", "ReLU6", "RReLU", "SELU", "SiLU", "Sigmoid",
    "Softmax", "Softmax2d", "Softmin", "Softplus", "Softshrink", "Softsign", "Tanh", "Tanhshrink",
    "Threshold",
]  # fmt: skip


class _Inplace(Module):
    """An activation whose only option is ``inplace``."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class ReLU(_Inplace):
    """Rectified linear unit, ``max(0, x)`` for each element (see :func:`~engine.nn.functional.relu`).

    Args:
        inplace (bool): write the result into the input. Default: ``False``.

    Example::

        >>> engine.nn.ReLU()(engine.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)


class ReLU6(_Inplace):
    """min(max(0, x), 6)."""

    def forward(self, input):
        return F.relu6(input, inplace=self.inplace)


class SELU(_Inplace):
    """Scaled ELU with PyTorch's fixed alpha and scale."""

    def forward(self, input):
        return F.selu(input, self.inplace)


class SiLU(_Inplace):
    """x * sigmoid(x)."""

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)


class Mish(_Inplace):
    """x * tanh(softplus(x))."""

    def forward(self, input):
        return F.mish(input, inplace=self.inplace)


class Hardsigmoid(_Inplace):
    """relu6(x + 3) / 6."""

    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)


class Hardswish(_Inplace):
    """x * relu6(x + 3) / 6."""

    def forward(self, input):
        return F.hardswish(input, self.inplace)


class Threshold(Module):
    """x where x > threshold, else value."""

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"threshold={self.threshold}, value={self.value}{inplace_str}"


class RReLU(Module):
    """Randomized leaky ReLU: the slope drawn from U(lower, upper) in training, their mean in
    eval."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"lower={self.lower}, upper={self.upper}{inplace_str}"


class Hardtanh(Module):
    """clamp(x, min_val, max_val)."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None):
        super().__init__()
        # min_value / max_value: the old names, still accepted with PyTorch's FutureWarning
        for old, value in (("min_value", min_value), ("max_value", max_value)):
            if value is not None:
                import warnings

                new = old.replace("value", "val")
                warnings.warn(
                    f"keyword argument `{old}` is deprecated and renamed to `{new}`",
                    FutureWarning,
                    stacklevel=2,
                )
        min_val = min_val if min_value is None else min_value
        max_val = max_val if max_value is None else max_value
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        if self.max_val <= self.min_val:
            raise AssertionError(
                f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})"
            )

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"min_val={self.min_val}, max_val={self.max_val}{inplace_str}"


class Sigmoid(Module):
    """1 / (1 + exp(-x))."""

    def forward(self, input):
        return engine.sigmoid(input)


class Tanh(Module):
    """Hyperbolic tangent of each element, in (-1, 1) (see :func:`engine.tanh`).

    Example::

        >>> engine.nn.Tanh()(engine.tensor([0.0, 1.0]))
        tensor([0.0000, 0.7616])
    """

    def forward(self, input):
        return engine.tanh(input)


class GELU(Module):
    """Gaussian error linear unit ``x * Phi(x)`` (see :func:`~engine.nn.functional.gelu`).

    Args:
        approximate (str): ``'none'`` (exact, with erf) or ``'tanh'``. Default: ``'none'``.

    Example::

        >>> engine.nn.GELU()(engine.tensor([0.0, 1.0]))
        tensor([0.0000, 0.8413])
    """

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={repr(self.approximate)}"


class ELU(Module):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"alpha={self.alpha}{inplace_str}"


class CELU(ELU):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)


class GLU(Module):
    """a * sigmoid(b), with the input split in halves along ``dim``."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class _Lambd(Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def extra_repr(self):
        return f"{self.lambd}"


class Hardshrink(_Lambd):
    """x where |x| > lambd, else 0."""

    def forward(self, input):
        return F.hardshrink(input, self.lambd)


class Softshrink(_Lambd):
    """x - lambd above lambd, x + lambd below -lambd, else 0."""

    def forward(self, input):
        return F.softshrink(input, self.lambd)


class LeakyReLU(Module):
    """x for x >= 0, negative_slope * x otherwise."""

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"negative_slope={self.negative_slope}{inplace_str}"


class LogSigmoid(Module):
    """log(sigmoid(x)), computed stably."""

    def forward(self, input):
        return F.logsigmoid(input)


class Softplus(Module):
    """log(1 + exp(beta * x)) / beta, linear above ``threshold``."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class PReLU(Module):
    """Leaky ReLU with a learned slope (one, or one per channel), initialised to ``init``."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        dtype = dtype if dtype is not None else engine.get_default_dtype()
        self.weight = Parameter(engine.empty(num_parameters, dtype=dtype, device=device))
        self.reset_parameters()

    def reset_parameters(self):
        """Sets every slope to ``init``."""
        with engine.no_grad():
            self.weight.fill_(self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class Softsign(Module):
    """x / (1 + |x|)."""

    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    """x - tanh(x)."""

    def forward(self, input):
        return F.tanhshrink(input)


class _DimModule(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmin(_DimModule):
    """softmax(-x) along ``dim``."""

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)


class Softmax(_DimModule):
    """Softmax ``exp(x) / sum(exp(x))`` along ``dim``: each slice becomes positive and sums to 1
    (see :func:`~engine.nn.functional.softmax`).

    Args:
        dim (int): the dimension normalised.

    Example::

        >>> engine.nn.Softmax(dim=1)(engine.tensor([[1.0, 2.0, 3.0]]))
        tensor([[0.0900, 0.2447, 0.6652]])
    """

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)


class LogSoftmax(_DimModule):
    """log(softmax(x)) along ``dim``, computed stably."""

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)


class Softmax2d(Module):
    """Softmax over the channels of a (N, C, H, W) or (C, H, W) input."""

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(
                f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead"
            )
        return F.softmax(input, -3, _stacklevel=5)
