"""Pooling modules over the native pooling kernels."""

from engine.nn import functional as F
from engine.nn.modules.module import Module
from engine.nn.modules.utils import _pair, _single, _triple

__all__ = [
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "LPPool1d",
    "LPPool2d", "LPPool3d", "MaxPool1d", "MaxPool2d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d",
    "MaxUnpool3d",
]  # fmt: skip


class _MaxPoolNd(Module):
    __constants__ = ["kernel_size", "stride", "padding", "dilation", "return_indices", "ceil_mode"]

    def __init__(
        self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return (
            "kernel_size={kernel_size}, stride={stride}, padding={padding}, dilation={dilation}, "
            "ceil_mode={ceil_mode}".format(**self.__dict__)
        )

    def forward(self, input):
        return type(self)._pool(
            input,
            self.kernel_size,
            self.stride,
            padding=self.padding,
            dilation=self.dilation,
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )


class MaxPool1d(_MaxPoolNd):
    """Max over sliding windows of (N, C, L) or (C, L) inputs."""

    _pool = staticmethod(lambda *a, **k: F.max_pool1d(*a, **k))


class MaxPool2d(_MaxPoolNd):
    """Max over sliding windows of (N, C, H, W) or (C, H, W) inputs."""

    _pool = staticmethod(lambda *a, **k: F.max_pool2d(*a, **k))


class MaxPool3d(_MaxPoolNd):
    """Max over sliding windows of (N, C, D, H, W) or (C, D, H, W) inputs."""

    _pool = staticmethod(lambda *a, **k: F.max_pool3d(*a, **k))


class _MaxUnpoolNd(Module):
    _tuple = staticmethod(_pair)

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        ntuple = self._tuple
        self.kernel_size = ntuple(kernel_size)
        self.stride = ntuple(stride if (stride is not None) else kernel_size)
        self.padding = ntuple(padding)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input, indices, output_size=None):
        return type(self)._unpool(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )


class MaxUnpool1d(_MaxUnpoolNd):
    """The partial inverse of MaxPool1d: maxima back at their indices, zeros elsewhere."""

    _tuple = staticmethod(_single)
    _unpool = staticmethod(lambda *a: F.max_unpool1d(*a))


class MaxUnpool2d(_MaxUnpoolNd):
    """The partial inverse of MaxPool2d: maxima back at their indices, zeros elsewhere."""

    _tuple = staticmethod(_pair)
    _unpool = staticmethod(lambda *a: F.max_unpool2d(*a))


class MaxUnpool3d(_MaxUnpoolNd):
    """The partial inverse of MaxPool3d: maxima back at their indices, zeros elsewhere."""

    _tuple = staticmethod(_triple)
    _unpool = staticmethod(lambda *a: F.max_unpool3d(*a))


class AvgPool1d(Module):
    """Mean over sliding windows of (N, C, L) or (C, L) inputs."""

    __constants__ = ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad"]

    def __init__(
        self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True
    ):
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input):
        return F.avg_pool1d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
        )


class _AvgPoolNd(Module):
    __constants__ = [
        "kernel_size",
        "stride",
        "padding",
        "ceil_mode",
        "count_include_pad",
        "divisor_override",
    ]

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode=False,
        count_include_pad=True,
        divisor_override=None,
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input):
        return type(self)._pool(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )


class AvgPool2d(_AvgPoolNd):
    """Mean over sliding windows of (N, C, H, W) or (C, H, W) inputs."""

    _pool = staticmethod(lambda *a: F.avg_pool2d(*a))


class AvgPool3d(_AvgPoolNd):
    """Mean over sliding windows of (N, C, D, H, W) or (C, D, H, W) inputs."""

    _pool = staticmethod(lambda *a: F.avg_pool3d(*a))


class _LPPoolNd(Module):
    __constants__ = ["norm_type", "kernel_size", "stride", "ceil_mode"]

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return "norm_type={norm_type}, kernel_size={kernel_size}, stride={stride}, ceil_mode={ceil_mode}".format(
            **self.__dict__
        )

    def forward(self, input):
        return type(self)._pool(
            input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode
        )


class LPPool1d(_LPPoolNd):
    """The p-norm of sliding windows of 1-D inputs."""

    _pool = staticmethod(lambda *a: F.lp_pool1d(*a))


class LPPool2d(_LPPoolNd):
    """The p-norm of sliding windows of 2-D inputs."""

    _pool = staticmethod(lambda *a: F.lp_pool2d(*a))


class LPPool3d(_LPPoolNd):
    """The p-norm of sliding windows of 3-D inputs."""

    _pool = staticmethod(lambda *a: F.lp_pool3d(*a))


class _AdaptiveMaxPoolNd(Module):
    __constants__ = ["output_size", "return_indices"]

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self):
        return f"output_size={self.output_size}"

    def forward(self, input):
        return type(self)._pool(input, self.output_size, self.return_indices)


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Max pooling to a fixed output length."""

    _pool = staticmethod(lambda *a: F.adaptive_max_pool1d(*a))


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Max pooling to a fixed output size (None keeps that dim)."""

    _pool = staticmethod(lambda *a: F.adaptive_max_pool2d(*a))


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Max pooling to a fixed 3-D output size."""

    _pool = staticmethod(lambda *a: F.adaptive_max_pool3d(*a))


class _AdaptiveAvgPoolNd(Module):
    __constants__ = ["output_size"]

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self):
        return f"output_size={self.output_size}"

    def forward(self, input):
        return type(self)._pool(input, self.output_size)


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """Average pooling to a fixed output length."""

    _pool = staticmethod(lambda *a: F.adaptive_avg_pool1d(*a))


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """Average pooling to a fixed output size (None keeps that dim)."""

    _pool = staticmethod(lambda *a: F.adaptive_avg_pool2d(*a))


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    """Average pooling to a fixed 3-D output size."""

    _pool = staticmethod(lambda *a: F.adaptive_avg_pool3d(*a))
