"""Conv1d/2d/3d and ConvTranspose1d/2d/3d over the native convolution kernels."""

import math

import engine
from engine.nn import functional as F
from engine.nn import init
from engine.nn.modules.module import Module
from engine.nn.modules.utils import _pair, _reverse_repeat_tuple, _single, _triple
from engine.nn.parameter import Parameter

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"]

_VALID_PADDING_STRINGS = {"same", "valid"}
_VALID_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


class _ConvNd(Module):
    __constants__ = [
        "stride", "padding", "dilation", "groups", "padding_mode", "output_padding", "in_channels",
        "out_channels", "kernel_size",
    ]  # fmt: skip

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride,
        padding,
        dilation,
        transposed,
        output_padding,
        groups,
        bias,
        padding_mode,
        device=None,
        dtype=None,
    ):
        super().__init__()
        dtype = dtype if dtype is not None else engine.get_default_dtype()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in _VALID_PADDING_STRINGS:
                raise ValueError(
                    f"Invalid padding string {padding!r}, should be one of {_VALID_PADDING_STRINGS}"
                )
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _VALID_PADDING_MODES:
            raise ValueError(
                f"padding_mode must be one of {_VALID_PADDING_MODES}, but got padding_mode='{padding_mode}'"
            )
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        # F.pad's padding for the non-zero padding modes, last spatial dim first.
        if isinstance(self.padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total_padding = d * (k - 1)
                    left_pad = total_padding // 2
                    self._reversed_padding_repeated_twice[2 * i] = left_pad
                    self._reversed_padding_repeated_twice[2 * i + 1] = total_padding - left_pad
        else:
            self._reversed_padding_repeated_twice = _reverse_repeat_tuple(self.padding, 2)
        if transposed:
            shape = (in_channels, out_channels // groups, *kernel_size)
        else:
            shape = (out_channels, in_channels // groups, *kernel_size)
        self.weight = Parameter(engine.empty(shape, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(engine.empty(out_channels, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's default: kaiming_uniform_(a=sqrt(5)) weights, bias from
        U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "padding_mode"):
            self.padding_mode = "zeros"


class _Conv(_ConvNd):
    _tuple = staticmethod(_pair)
    _functional = None

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        bias=True,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        ntuple = self._tuple
        super().__init__(
            in_channels,
            out_channels,
            ntuple(kernel_size),
            ntuple(stride),
            padding if isinstance(padding, str) else ntuple(padding),
            ntuple(dilation),
            False,
            ntuple(0),
            groups,
            bias,
            padding_mode,
            device,
            dtype,
        )

    def _conv_forward(self, input, weight, bias):
        conv = type(self)._functional
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return conv(
                padded, weight, bias, self.stride, self._tuple(0), self.dilation, self.groups
            )
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_Conv):
    """1-D convolution over (N, C, L) or (C, L) inputs."""

    _tuple = staticmethod(_single)
    _functional = staticmethod(lambda *a: F.conv1d(*a))


class Conv2d(_Conv):
    """2-D convolution layer over (N, C, H, W) or unbatched (C, H, W) inputs (see
    :func:`~engine.nn.functional.conv2d`).

    Args:
        in_channels (int): C, the input channels.
        out_channels (int): the output channels (filters).
        kernel_size (int or tuple): the filter size.
        stride (int or tuple): the step between windows. Default: 1.
        padding (int, tuple, 'valid' or 'same'): padding on both sides. Default: 0.
        dilation (int or tuple): the spacing between kernel elements. Default: 1.
        groups (int): channel groups convolved separately. Default: 1.
        bias (bool): learn a bias per output channel. Default: ``True``.
        padding_mode (str): ``'zeros'``, ``'reflect'``, ``'replicate'`` or ``'circular'``.
            Default: ``'zeros'``.
        device, dtype: where and in which dtype the parameters are made.

    Shape:
        (N, C, H, W) -> (N, out_channels, H_out, W_out), with
        ``H_out = (H + 2 padding - dilation (kernel_size - 1) - 1) // stride + 1``.

    Example::

        >>> conv = engine.nn.Conv2d(3, 8, kernel_size=3, padding=1)
        >>> conv(engine.zeros(2, 3, 16, 16)).shape
        torch.Size([2, 8, 16, 16])
    """

    _tuple = staticmethod(_pair)
    _functional = staticmethod(lambda *a: F.conv2d(*a))


class Conv3d(_Conv):
    """3-D convolution over (N, C, D, H, W) or (C, D, H, W) inputs."""

    _tuple = staticmethod(_triple)
    _functional = staticmethod(lambda *a: F.conv3d(*a))


class _ConvTransposeNd(_ConvNd):
    _tuple = staticmethod(_pair)
    _spatial = 2

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        groups=1,
        bias=True,
        dilation=1,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        if padding_mode != "zeros":
            raise ValueError(
                f'Only "zeros" padding mode is supported for {self.__class__.__name__}'
            )
        ntuple = self._tuple
        super().__init__(
            in_channels,
            out_channels,
            ntuple(kernel_size),
            ntuple(stride),
            ntuple(padding),
            ntuple(dilation),
            True,
            ntuple(output_padding),
            groups,
            bias,
            padding_mode,
            device,
            dtype,
        )

    def _output_padding(
        self, input, output_size, stride, padding, kernel_size, num_spatial_dims, dilation=None
    ):
        if output_size is None:
            return self._tuple(self.output_padding)
        has_batch_dim = input.dim() == num_spatial_dims + 2
        num_non_spatial_dims = 2 if has_batch_dim else 1
        output_size = list(output_size)
        if len(output_size) == num_non_spatial_dims + num_spatial_dims:
            output_size = output_size[num_non_spatial_dims:]
        if len(output_size) != num_spatial_dims:
            raise ValueError(
                f"ConvTranspose{num_spatial_dims}D: for {input.dim()}D input, output_size must have "
                f"{num_spatial_dims} or {num_non_spatial_dims + num_spatial_dims} elements (got {len(output_size)})"
            )
        min_sizes, max_sizes = [], []
        for d in range(num_spatial_dims):
            dim_size = (
                (input.size(d + num_non_spatial_dims) - 1) * stride[d]
                - 2 * padding[d]
                + (dilation[d] if dilation is not None else 1) * (kernel_size[d] - 1)
                + 1
            )
            min_sizes.append(dim_size)
            max_sizes.append(min_sizes[d] + stride[d] - 1)
        for size, min_size, max_size in zip(output_size, min_sizes, max_sizes):
            if size < min_size or size > max_size:
                raise ValueError(
                    f"requested an output size of {output_size}, but valid sizes range from {min_sizes} to "
                    f"{max_sizes} (for an input of {input.size()[2:]})"
                )
        return [output_size[d] - min_sizes[d] for d in range(num_spatial_dims)]

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(
            input,
            output_size,
            self.stride,
            self.padding,
            self.kernel_size,
            self._spatial,
            self.dilation,
        )
        return type(self)._functional(
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            output_padding,
            self.groups,
            self.dilation,
        )


class ConvTranspose1d(_ConvTransposeNd):
    """Transposed 1-D convolution (the gradient of Conv1d with respect to its input)."""

    _tuple = staticmethod(_single)
    _spatial = 1
    _functional = staticmethod(lambda *a: F.conv_transpose1d(*a))


class ConvTranspose2d(_ConvTransposeNd):
    """Transposed 2-D convolution (the gradient of Conv2d with respect to its input)."""

    _tuple = staticmethod(_pair)
    _spatial = 2
    _functional = staticmethod(lambda *a: F.conv_transpose2d(*a))


class ConvTranspose3d(_ConvTransposeNd):
    """Transposed 3-D convolution (the gradient of Conv3d with respect to its input)."""

    _tuple = staticmethod(_triple)
    _spatial = 3
    _functional = staticmethod(lambda *a: F.conv_transpose3d(*a))
