"""Convolutions and the sliding-window pair unfold / fold for engine.nn.functional.

Argument handling lives here (ints or tuples, 'same' / 'valid' padding, unbatched inputs); the
work is done by the native ``convolution``, ``_im2col`` and ``_col2im`` ops, whose backward rules
are differentiable, so gradients of any order are available.
"""

import operator
import warnings

from engine import _C
from engine._grad_fn_names import name_grad_fn


def _tuple(value, n, fname="", name=""):
    """An int (or a 1-element sequence) repeated n times; a sequence as a list of ints. Anything
    else is refused with PyTorch's TypeError, naming the function and the argument."""
    if isinstance(value, (list, tuple)):
        items = list(value)
        for pos, item in enumerate(items):
            if not hasattr(type(item), "__index__"):
                raise TypeError(
                    f"{fname}(): argument '{name}' must be tuple of ints, but found element of "
                    f"type {type(item).__name__} at pos {pos}"
                )
        items = [operator.index(v) for v in items]
        return items * n if len(items) == 1 and n > 1 else items
    if not hasattr(type(value), "__index__"):
        raise TypeError(
            f"{fname}(): argument '{name}' must be tuple of ints, not {type(value).__name__}"
        )
    return [operator.index(value)] * n


def _batched(input, n, fname):
    """input with a batch dim (added for unbatched input), and whether it was added."""
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(
            f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {fname}, "
            f"but got input of size: {list(input.shape)}"
        )
    return (input.unsqueeze(0), True) if input.dim() == n + 1 else (input, False)


def _same_padding(input, weight, n, dilation, stride):
    """Padding that keeps the spatial size: symmetric where the total is even, with the extra
    element added on the right of the input otherwise (as PyTorch does)."""
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    left, extra = [], []
    for d in range(n):
        total = dilation[d] * (weight.shape[2 + d] - 1)
        left.append(total // 2)
        extra.append(total - 2 * (total // 2))
    if any(extra):
        from engine.nn.functional import pad

        warnings.warn(
            "Using padding='same' with even kernel lengths and odd dilation may require a "
            "zero-padded copy of the input be created",
            UserWarning,
            stacklevel=4,
        )
        widths = []
        for e in reversed(extra):
            widths += [0, e]
        input = pad(input, widths)
    return input, left


def _conv(input, weight, bias, stride, padding, dilation, groups, n):
    fname = f"conv{n}d"
    x, added = _batched(input, n, fname)
    stride, dilation = _tuple(stride, n, fname, "stride"), _tuple(dilation, n, fname, "dilation")
    if isinstance(padding, str):
        if padding == "valid":
            padding = [0] * n
        elif padding == "same":
            x, padding = _same_padding(x, weight, n, dilation, stride)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    else:
        padding = _tuple(padding, n, fname, "padding")
    out = _C.convolution(x, weight, bias, stride, padding, dilation, False, [0] * n, groups)
    return out.squeeze(0) if added else out


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution over (N, C, L) or (C, L) input; weight (O, C / groups, k)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution (cross-correlation, as in PyTorch) of ``input`` with the filters
    ``weight``, plus ``bias`` per output channel.

    Args:
        input (Tensor): (N, C, H, W) or unbatched (C, H, W).
        weight (Tensor): the filters, (O, C / groups, kH, kW).
        bias (Tensor, optional): (O). Default: ``None``.
        stride (int or tuple): the step between windows. Default: 1.
        padding (int, tuple, 'valid' or 'same'): implicit zero padding on both sides. Default: 0.
        dilation (int or tuple): the spacing between kernel elements. Default: 1.
        groups (int): split the channels into groups convolved separately. Default: 1.

    Returns:
        Tensor: (N, O, H_out, W_out), with
        ``H_out = (H + 2 padding - dilation (kH - 1) - 1) // stride + 1``.

    Example::

        >>> x = engine.ones(1, 1, 3, 3)
        >>> engine.nn.functional.conv2d(x, engine.ones(1, 1, 2, 2))
        tensor([[[[4., 4.],
                  [4., 4.]]]])
    """
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-D convolution over (N, C, D, H, W) or (C, D, H, W) input."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3)


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, n):
    fname = f"conv_transpose{n}d"
    if isinstance(padding, str):
        raise TypeError(f"{fname}(): argument 'padding' must be tuple of ints, not str")
    x, added = _batched(input, n, fname)
    names = ("stride", "padding", "dilation", "output_padding")
    values = (stride, padding, dilation, output_padding)
    stride, padding, dilation, output_padding = (
        _tuple(v, n, fname, name) for name, v in zip(names, values)
    )
    out = _C.convolution(x, weight, bias, stride, padding, dilation, True, output_padding, groups)
    return out.squeeze(0) if added else out


def conv_transpose1d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
):
    """The transposed 1-D convolution (the gradient of conv1d); weight (C, O / groups, k)."""
    return _conv_transpose(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 1
    )


def conv_transpose2d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
):
    """The transposed 2-D convolution (the gradient of conv2d); weight (C, O / groups, kH, kW)."""
    return _conv_transpose(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 2
    )


def conv_transpose3d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
):
    """The transposed 3-D convolution (the gradient of conv3d)."""
    return _conv_transpose(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 3
    )


def _refuse_integers(input, kernel, check_shapes):
    """PyTorch's refusal of an integer input, after its shape checks (``check_shapes`` runs
    them on a float copy)."""
    if not input.is_floating_point():
        from engine._scalar_type_names import scalar_type_name

        check_shapes(input.to(_C.float32))

        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{scalar_type_name(input.dtype)}'"
        )


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks of (N, C, H, W) (or (C, H, W)) as columns: (N, C * kH * kW, L) (im2col)."""
    if input.dim() not in (3, 4):
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
            f"dimensions for input, but got: {list(input.shape)}"
        )
    added = input.dim() == 3
    x = input.unsqueeze(0) if added else input
    args = [
        ("kernel_size", kernel_size),
        ("dilation", dilation),
        ("padding", padding),
        ("stride", stride),
    ]
    sizes = {name: _tuple(v, 2, "im2col", name) for name, v in args}
    if input.dtype == _C.bool:
        # PyTorch's kernel copies bool blocks as they are: a copy in float32 is exact.
        return unfold(input.to(_C.float32), kernel_size, dilation, padding, stride).to(_C.bool)
    _refuse_integers(
        input, "im2col_out_cpu", lambda t: unfold(t, kernel_size, dilation, padding, stride)
    )
    out = _C._im2col(x, *sizes.values())
    if not added:
        # PyTorch's Im2ColBackward0 shows the arguments and the input's last two sizes.
        shown = {name: tuple(v) for name, v in sizes.items()}
        shown["self_sym_argsize_minus_1"] = x.shape[-1]
        shown["self_sym_argsize_minus_2"] = x.shape[-2]
        out = name_grad_fn(out, "Im2ColBackward0", (x,), shown, only_shown=True)
    return out.squeeze(0) if added else out


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sums columns (N, C * kH * kW, L) back into an (N, C, H, W) image (col2im): the adjoint of unfold."""
    if input.dim() not in (2, 3):
        raise RuntimeError(
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
            f"dimensions for input, but got: {list(input.shape)}"
        )
    added = input.dim() == 2
    x = input.unsqueeze(0) if added else input
    args = [("output_size", output_size), ("kernel_size", kernel_size), ("dilation", dilation),
            ("padding", padding), ("stride", stride)]  # fmt: skip
    if input.dtype == _C.bool:
        # PyTorch's kernel sums overlapping bool blocks, which for bool is "any".
        summed = fold(input.to(_C.float32), output_size, kernel_size, dilation, padding, stride)
        return summed != 0
    _refuse_integers(
        input,
        "col2im_out_cpu",
        lambda t: fold(t, output_size, kernel_size, dilation, padding, stride),
    )
    out = _C._col2im(x, *[_tuple(v, 2, "col2im", name) for name, v in args])
    return out.squeeze(0) if added else out


FUNCTIONS = {
    f.__name__: f
    for f in (
        conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d, unfold, fold,
    )
}  # fmt: skip


def conv_tbc(input, weight, bias, pad=0):
    """torch.conv_tbc: a 1-D convolution over (time, batch, channels) input with a (k, C, O)
    weight, zero-padded by `pad` steps at both ends; the result is (time', batch, O)."""
    out = _C.convolution(
        input.permute(1, 2, 0), weight.permute(2, 1, 0), bias, [1], [pad], [1], False, [0], 1
    )
    return out.permute(2, 0, 1)
