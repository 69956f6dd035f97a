"""Max, average, power-average and adaptive pooling, and max_unpool, for engine.nn.functional.

The windows are computed natively (``_max_pool``, ``_avg_pool`` and the adaptive forms); the
maximum's value is read back through a differentiable gather at the argmax, so it has a gradient
of every order, and max_unpool scatters by the same indices.
"""

import engine
from engine import _C, _transforms
from engine._grad_fn_names import named_grad_fn
from engine.amp._policy import autocast_op
from engine.nn._conv import _tuple


def _check_rank(input, n, fname, style):
    """PyTorch's rank messages, which differ between the pooling families."""
    if input.dim() in (n + 1, n + 2):
        return
    shape = list(input.shape)
    if style == "adaptive_max":
        msg = f"{fname}(): Expected {n + 1}D or {n + 2}D tensor, but got: {shape}"
    elif style == "adaptive_avg":
        msg = f"{fname}(): Expected {n + 1}D or {n + 2}D tensor, but got {shape}"
    elif n == 1:
        msg = (
            f"{fname}: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
            f"input, but got:{shape}"
        )
    else:
        msg = f"non-empty {n + 1}D or {n + 2}D (batch mode) tensor expected for input"
    raise RuntimeError(msg)


def _window_args(kernel_size, stride, n, fname):
    kernel = _tuple(kernel_size, n, fname, "kernel_size")
    stride = (
        kernel if stride is None or (isinstance(stride, (list, tuple)) and not stride) else stride
    )
    return kernel, _tuple(stride, n, fname, "stride")


def _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, n):
    fname = f"max_pool{n}d"
    _check_rank(input, n, fname, "max")
    kernel, stride = _window_args(kernel_size, stride, n, fname)
    if any(s == 0 for s in stride):
        raise RuntimeError("stride should not be zero")
    values, indices = _C._max_pool(
        input,
        kernel,
        stride,
        _tuple(padding, n, fname, "padding"),
        _tuple(dilation, n, fname, "dilation"),
        bool(ceil_mode),
    )
    return (values, indices) if return_indices else values


def max_pool1d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    """The maximum over sliding windows of (N, C, L) or (C, L); indices are flat positions in L."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 1)


def max_pool2d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    """2-D max pooling: the maximum over sliding ``kernel_size`` windows of each channel.

    Args:
        input (Tensor): (N, C, H, W) or unbatched (C, H, W).
        kernel_size (int or tuple): the window size.
        stride (int or tuple, optional): the step between windows. Default: ``kernel_size``.
        padding (int or tuple): implicit ``-inf`` padding on both sides, at most half the
            window. Default: 0.
        dilation (int or tuple): the spacing between window elements. Default: 1.
        ceil_mode (bool): round the output size up instead of down. Default: ``False``.
        return_indices (bool): also return where each maximum was, as flat indices into
            H * W. Default: ``False``.

    Example::

        >>> x = engine.arange(16.0).reshape(1, 1, 4, 4)
        >>> engine.nn.functional.max_pool2d(x, 2)
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """
    out = _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 2)
    args = {"kernel_size": kernel_size, "stride": stride, "padding": padding, "dilation": dilation}
    return _show_pool_args(out, "MaxPool2DWithIndicesBackward0", input, args, ceil_mode=ceil_mode)


def _show_pool_args(out, node_name, input, sizes, **more):
    """The pooling node shows its arguments as PyTorch's does: sizes as tuples of two ints (an
    int repeated), a stride not given as (), and the input as ``_saved_self``."""
    first = out[0] if isinstance(out, tuple) else out
    if _transforms._open or first.grad_fn is None or type(first.grad_fn).__name__ != node_name:
        return out

    def pair(v):
        return tuple(v) if isinstance(v, (tuple, list)) else (v, v)

    shown = {k: () if v is None else pair(v) for k, v in sizes.items()}
    for key, value in {**shown, **more, "self": input}.items():
        _C._show_saved(first, key, value)
    return out


@autocast_op("max_pool3d")
def max_pool3d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    """The maximum over sliding windows of (N, C, D, H, W) or (C, D, H, W)."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 3)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):  # fmt: skip
    """max_pool1d's values and indices."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, True, 1)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):  # fmt: skip
    """max_pool2d's values and indices."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, True, 2)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):  # fmt: skip
    """max_pool3d's values and indices."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, True, 3)


def _avg_pool(
    input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, n
):
    if input.dim() not in (n + 1, n + 2):
        if n == 1:
            raise RuntimeError(
                f"avg_pool1d() input tensor must have 2 or 3 dimensions but got {input.dim()}"
            )
        raise RuntimeError(f"non-empty {n + 1}D or {n + 2}D (batch mode) tensor expected for input")
    fname = f"avg_pool{n}d"
    kernel, stride = _window_args(kernel_size, stride, n, fname)
    spatial = list(input.shape[input.dim() - n :])
    if n == 3 and any(s < k for s, k in zip(spatial, kernel)):
        # avg_pool3d (alone) refuses kernels larger than the unpadded input.
        raise RuntimeError(
            f"input image (T: {spatial[0]} H: {spatial[1]} W: {spatial[2]}) smaller than kernel "
            f"size (kT: {kernel[0]} kH: {kernel[1]} kW: {kernel[2]})"
        )
    if any(s == 0 for s in stride):
        raise RuntimeError("stride should not be zero")
    padding = _tuple(padding, n, fname, "padding")
    args = (kernel, stride, padding, bool(ceil_mode), bool(count_include_pad))
    if input.dtype == _C.int64:
        return _int64_avg_pool(input, args, divisor_override, n)
    if not input.is_floating_point():
        _check_floating(input, "avg_pool3d_out_frame" if n == 3 else "avg_pool2d")
    return _C._avg_pool(input, *args, divisor_override)


def _int64_avg_pool(input, args, divisor_override, n):
    """PyTorch's int64 average pooling: each window's sum divided by its divisor in integer
    arithmetic (truncating). Sums and element counts come from the float64 kernel with a
    divisor of 1, exact for sums below 2**53."""
    kernel, stride, padding, ceil_mode, count_include_pad = args
    sums = _C._avg_pool(input.double(), *args, 1).to(_C.int64)
    if divisor_override:
        return engine.div(sums, int(divisor_override), rounding_mode="trunc")
    spatial = list(input.shape[input.dim() - n :])
    if count_include_pad:
        # Windows count the padding but not what lies beyond it: pool ones over the padded
        # extent (its leading windows are the same windows).
        padded = [1, 1] + [s + 2 * p for s, p in zip(spatial, padding)]
        ones = _C.ones(padded, dtype=_C.float64)
        counts = _C._avg_pool(ones, kernel, stride, [0] * n, ceil_mode, True, 1)
        for i in range(n):
            counts = counts.narrow(2 + i, 0, sums.shape[sums.dim() - n + i])
    else:
        ones = _C.ones([1, 1] + spatial, dtype=_C.float64)
        counts = _C._avg_pool(ones, *args, 1)
    counts = counts.reshape(list(counts.shape[2:])).to(_C.int64)
    return engine.div(sums, counts, rounding_mode="trunc")


def _adaptive_avg_name(dims, output_size):
    """PyTorch's node for adaptive average pooling: a mean when every output size is 1."""
    sizes = output_size if isinstance(output_size, (tuple, list)) else (output_size,) * dims
    if all(size == 1 for size in sizes):
        return "MeanBackward1"
    return f"AdaptiveAvgPool{dims}DBackward0"


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """The mean over sliding windows of (N, C, L) or (C, L)."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, None, 1)


@named_grad_fn("AvgPool2DBackward0")
def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):  # fmt: skip
    """2-D average pooling: the mean over sliding ``kernel_size`` windows of each channel.

    Args:
        input (Tensor): (N, C, H, W) or unbatched (C, H, W).
        kernel_size (int or tuple): the window size.
        stride (int or tuple, optional): the step between windows. Default: ``kernel_size``.
        padding (int or tuple): implicit zero padding on both sides. Default: 0.
        ceil_mode (bool): round the output size up instead of down. Default: ``False``.
        count_include_pad (bool): count the padding in the divisor. Default: ``True``.
        divisor_override (int, optional): divide by this instead of the window size.

    Example::

        >>> x = engine.arange(16.0).reshape(1, 1, 4, 4)
        >>> engine.nn.functional.avg_pool2d(x, 2)
        tensor([[[[ 2.5000,  4.5000],
                  [10.5000, 12.5000]]]])
    """
    out = _avg_pool(
        input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 2
    )
    # Named by the decorator after this returns: the node is the pooling one when 4-D.
    if input.dim() != 4 or _transforms._open:
        return out
    args = {"kernel_size": kernel_size, "stride": stride, "padding": padding}
    return _show_pool_args(
        out,
        type(out.grad_fn).__name__ if out.grad_fn is not None else "",
        input,
        args,
        ceil_mode=ceil_mode,
        count_include_pad=count_include_pad,
        divisor_override=divisor_override,
    )


@autocast_op("avg_pool3d")
@named_grad_fn("AvgPool3DBackward0")
def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):  # fmt: skip
    """The mean over sliding windows of (N, C, D, H, W) or (C, D, H, W)."""
    return _avg_pool(
        input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 3
    )


def _output_size(input, output_size, n, fname):
    """The adaptive output size, with None entries meaning the input's own size."""
    if isinstance(output_size, (list, tuple)):
        if len(output_size) != n:
            raise RuntimeError(f"{fname}: output_size must be {n}")
        sizes = list(output_size)
    else:
        sizes = [output_size] * n
    spatial = list(input.shape[input.dim() - n :])
    return [spatial[i] if s is None else int(s) for i, s in enumerate(sizes)]


def _check_floating(input, fname):
    from engine.nn._floating_inputs import require_floating

    require_floating(input, fname)


# The kernels PyTorch's messages name: 1-d adaptive average pooling runs the 2-d one.
_ADAPTIVE_AVG_KERNELS = {
    1: "adaptive_avg_pool2d",
    2: "adaptive_avg_pool2d",
    3: "adaptive_avg_pool3d_cpu",
}


def _adaptive_avg(input, output_size, n):
    fname = f"adaptive_avg_pool{n}d"
    _check_rank(input, n, fname, "adaptive_avg")
    _check_floating(input, _ADAPTIVE_AVG_KERNELS[n])
    return _C._adaptive_avg_pool(input, _output_size(input, output_size, n, fname))


def _adaptive_max(input, output_size, return_indices, n):
    fname = f"adaptive_max_pool{n}d"
    _check_rank(input, n, fname, "adaptive_max")
    _check_floating(input, fname)
    values, indices = _C._adaptive_max_pool(input, _output_size(input, output_size, n, fname))
    return (values, indices) if return_indices else values


def adaptive_avg_pool1d(input, output_size):
    """The mean over output_size windows that tile (N, C, L) as evenly as integers allow."""
    return _adaptive_avg(input, output_size, 1)


@named_grad_fn(lambda input, output_size: _adaptive_avg_name(2, output_size))
def adaptive_avg_pool2d(input, output_size):
    """The mean over windows tiling (N, C, H, W) into output_size (None keeps a dim's size)."""
    return _adaptive_avg(input, output_size, 2)


@autocast_op("adaptive_avg_pool3d")
@named_grad_fn(lambda input, output_size: _adaptive_avg_name(3, output_size))
def adaptive_avg_pool3d(input, output_size):
    """The mean over windows tiling (N, C, D, H, W) into output_size."""
    return _adaptive_avg(input, output_size, 3)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """The maximum over output_size windows tiling (N, C, L)."""
    return _adaptive_max(input, output_size, return_indices, 1)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The maximum over windows tiling (N, C, H, W) into output_size."""
    return _adaptive_max(input, output_size, return_indices, 2)


@autocast_op("adaptive_max_pool3d")
def adaptive_max_pool3d(input, output_size, return_indices=False):
    """The maximum over windows tiling (N, C, D, H, W) into output_size."""
    return _adaptive_max(input, output_size, return_indices, 3)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool1d's values and indices."""
    return _adaptive_max(input, output_size, True, 1)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool2d's values and indices."""
    return _adaptive_max(input, output_size, True, 2)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool3d's values and indices."""
    return _adaptive_max(input, output_size, True, 3)


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, n):
    kernel = _tuple(kernel_size, n, f"lp_pool{n}d", "kernel_size")
    pooled = _avg_pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode, True, None, n)
    size = 1
    for k in kernel:
        size *= k
    # sign * relu(abs) zeroes negative means (odd powers), as PyTorch's formula does.
    return (_C.sign(pooled) * _C.relu(_C.abs(pooled))).mul(size).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The power mean (sum of x ** p) ** (1 / p) over sliding windows of (N, C, L)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The power mean (sum of x ** p) ** (1 / p) over sliding windows of (N, C, H, W)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The power mean (sum of x ** p) ** (1 / p) over sliding windows of (N, C, D, H, W)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


def _max_unpool(input, indices, kernel_size, stride, padding, output_size, n):
    fname = f"max_unpool{n}d"
    kernel, stride = _window_args(kernel_size, stride, n, fname)
    padding = _tuple(padding, n, fname, "padding")
    spatial = list(input.shape[input.dim() - n :])
    default = [(spatial[i] - 1) * stride[i] - 2 * padding[i] + kernel[i] for i in range(n)]
    if output_size is None:
        size = default
    else:
        size = [int(s) for s in output_size]
        if len(size) == n + 2 or (len(size) == n + 1 and input.dim() == n + 1):
            size = size[len(size) - n :]
        if len(size) != n:
            raise ValueError(
                f"output_size should be a sequence containing {n} or {n + 2} elements, but it has "
                f"a length of '{len(size)}'"
            )
        for i in range(n):
            lo, hi = default[i] - stride[i], default[i] + stride[i]
            if not lo < size[i] < hi:
                raise ValueError(
                    f'invalid output_size "{size}" (dim {i} must be between {lo} and {hi})'
                )
    if input.shape != indices.shape:
        raise RuntimeError(
            f"Expected shape of indices to be same as that of the input tensor ({list(input.shape)}) "
            f"but got indices tensor with shape: {list(indices.shape)}"
        )
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(
            f"{fname}: Expected {n + 1}D or {n + 2}D input, but got {list(input.shape)}"
        )
    lead = list(input.shape[: input.dim() - n])
    plane = 1
    for s in size:
        plane *= s
    flat_idx = indices.reshape(lead + [-1])
    if flat_idx.numel() and (flat_idx.min().item() < 0 or flat_idx.max().item() >= plane):
        raise RuntimeError(
            f"Found an invalid max index: {flat_idx.max().item()} (output volumes are of size "
            f"{'x'.join(str(s) for s in size)}"
        )
    out = _C.zeros(lead + [plane], dtype=input.dtype)
    out = out.scatter(len(lead), flat_idx, input.reshape(lead + [-1]))
    return out.reshape(lead + size)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Places each value at its max_pool1d index in a zero tensor (a partial inverse of max_pool1d)."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Places each value at its max_pool2d index in a zero tensor (a partial inverse of max_pool2d)."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Places each value at its max_pool3d index in a zero tensor (a partial inverse of max_pool3d)."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)


FUNCTIONS = {
    f.__name__: f
    for f in (
        max_pool1d, max_pool2d, max_pool3d, max_pool1d_with_indices, max_pool2d_with_indices,
        max_pool3d_with_indices, avg_pool1d, avg_pool2d, avg_pool3d, adaptive_avg_pool1d,
        adaptive_avg_pool2d, adaptive_avg_pool3d, adaptive_max_pool1d, adaptive_max_pool2d,
        adaptive_max_pool3d, adaptive_max_pool1d_with_indices, adaptive_max_pool2d_with_indices,
        adaptive_max_pool3d_with_indices, lp_pool1d, lp_pool2d, lp_pool3d, max_unpool1d,
        max_unpool2d, max_unpool3d,
    )
}  # fmt: skip
