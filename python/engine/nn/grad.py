"""Gradients of convolutions with respect to their input and weight, as functions
(``engine.nn.grad.conv2d_input``, ...): what a custom Function wrapping a convolution calls in its
``backward``. Both are linear in ``grad_output``, so they are differentiable and work under
``create_graph=True``."""

import engine
from engine.nn import functional as F

__all__ = [
    "conv1d_input",
    "conv1d_weight",
    "conv2d_input",
    "conv2d_weight",
    "conv3d_input",
    "conv3d_weight",
]


def _tuple(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def _input_grad(n, input_size, weight, grad_output, stride, padding, dilation, groups):
    stride, padding, dilation = _tuple(stride, n), _tuple(padding, n), _tuple(dilation, n)
    input_size = tuple(input_size)
    if len(input_size) != n + 2:
        raise ValueError(
            f"conv{n}d_input(): input_size must have {n + 2} elements, got {len(input_size)}"
        )
    # The transposed convolution gives (in - 1) * s - 2p + d(k - 1) + 1 positions per dim; the
    # positions a strided forward never reached come back through output_padding.
    output_padding = []
    for d in range(n):
        reached = (
            (grad_output.shape[d + 2] - 1) * stride[d]
            - 2 * padding[d]
            + dilation[d] * (weight.shape[d + 2] - 1)
            + 1
        )
        extra = input_size[d + 2] - reached
        if not 0 <= extra < max(stride[d], dilation[d]):
            raise ValueError(
                f"conv{n}d_input(): grad_output of spatial size {tuple(grad_output.shape[2:])} cannot come from an "
                f"input of size {input_size[2:]} (stride {stride}, padding {padding}, dilation {dilation})"
            )
        output_padding.append(extra)
    transpose = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[n - 1]
    return transpose(
        grad_output, weight, None, stride, padding, tuple(output_padding), groups, dilation
    )


def _weight_grad(n, input, weight_size, grad_output, stride, padding, dilation, groups):
    conv = (F.conv1d, F.conv2d, F.conv3d)[n - 1]
    # The convolution is linear in its weight: the gradient with respect to a stand-in weight of
    # zeros is the gradient at any weight.
    stand_in = engine.zeros(tuple(weight_size), dtype=grad_output.dtype, requires_grad=True)
    create_graph = grad_output.requires_grad or input.requires_grad
    with engine.enable_grad():
        out = conv(input, stand_in, None, stride, padding, dilation, groups)
        (grad,) = engine.autograd.grad(out, stand_in, grad_output, create_graph=create_graph)
    return grad


def conv1d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """Gradient of ``conv1d`` with respect to an input of shape ``input_size``."""
    return _input_grad(1, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv1d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """Gradient of ``conv1d`` with respect to a weight of shape ``weight_size``."""
    return _weight_grad(1, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv2d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """Gradient of ``conv2d`` with respect to an input of shape ``input_size``.

    Example::

        >>> x = engine.randn(1, 1, 3, 3, requires_grad=True)
        >>> w = engine.randn(1, 1, 1, 2)
        >>> y = engine.nn.functional.conv2d(x, w)
        >>> g = engine.randn(y.shape)
        >>> engine.allclose(engine.nn.grad.conv2d_input(x.shape, w, g), engine.autograd.grad(y, x, g)[0])
        True
    """
    return _input_grad(2, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv2d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """Gradient of ``conv2d`` with respect to a weight of shape ``weight_size``."""
    return _weight_grad(2, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv3d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """Gradient of ``conv3d`` with respect to an input of shape ``input_size``."""
    return _input_grad(3, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv3d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """Gradient of ``conv3d`` with respect to a weight of shape ``weight_size``."""
    return _weight_grad(3, input, weight_size, grad_output, stride, padding, dilation, groups)
