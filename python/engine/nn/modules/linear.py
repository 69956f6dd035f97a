"""Identity, Linear and Bilinear."""

import math

import engine
from engine.nn import functional as F
from engine.nn import init
from engine.nn.modules.module import Module
from engine.nn.parameter import Parameter

__all__ = ["Bilinear", "Identity", "Linear"]


def _factory(device, dtype):
    return {"dtype": dtype if dtype is not None else engine.get_default_dtype(), "device": device}


class Identity(Module):
    """Returns its input; accepts and ignores any constructor arguments."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """Affine layer ``y = x @ weight.T + bias`` over the last dimension of its input.

    ``weight`` (out_features, in_features) and ``bias`` (out_features) are drawn from
    U(-1/sqrt(in_features), 1/sqrt(in_features)), with PyTorch's streams: seeded alike, the
    layer starts with PyTorch's values.

    Args:
        in_features (int): the size of each input sample.
        out_features (int): the size of each output sample.
        bias (bool): learn an additive bias. Default: ``True``.
        device, dtype: where and in which dtype the parameters are made.

    Shape:
        input (*, in_features) -> output (*, out_features).

    Example::

        >>> layer = engine.nn.Linear(3, 2)
        >>> layer(engine.ones(4, 3)).shape
        torch.Size([4, 2])
        >>> layer.weight.shape
        torch.Size([2, 3])
    """

    __constants__ = ["in_features", "out_features"]

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        factory_kwargs = _factory(device, dtype)
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(engine.empty((out_features, in_features), **factory_kwargs))
        if bias:
            self.bias = Parameter(engine.empty(out_features, **factory_kwargs))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """Re-draws weight and bias with PyTorch's default initialisation."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Bilinear(Module):
    """``y = x1^T A x2 + b`` with weight (out_features, in1_features, in2_features)."""

    __constants__ = ["in1_features", "in2_features", "out_features"]

    def __init__(
        self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None
    ):
        factory_kwargs = _factory(device, dtype)
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(
            engine.empty((out_features, in1_features, in2_features), **factory_kwargs)
        )
        if bias:
            self.bias = Parameter(engine.empty(out_features, **factory_kwargs))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """Re-draws weight and bias from U(-1/sqrt(in1_features), 1/sqrt(in1_features))."""
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )
