"""engine.nn.init: in-place initialisations of parameters, as ``torch.nn.init``.

Each draws from the global generator (or ``generator=``) in the same order and with the same
bounds as PyTorch, so a seeded model starts from PyTorch's exact weights.
"""

import math
import warnings

import engine

__all__ = [
    "calculate_gain",
    "constant_",
    "dirac_",
    "eye_",
    "kaiming_normal_",
    "kaiming_uniform_",
    "normal_",
    "ones_",
    "orthogonal_",
    "sparse_",
    "trunc_normal_",
    "uniform_",
    "xavier_normal_",
    "xavier_uniform_",
    "zeros_",
]


def calculate_gain(nonlinearity, param=None):
    """The recommended gain for an activation: 1 for linear/conv/sigmoid, 5/3 for tanh,
    sqrt(2) for relu, sqrt(2 / (1 + slope^2)) for leaky_relu, 3/4 for selu.

    Args:
        nonlinearity (str): the activation's name (``'relu'``, ``'tanh'``, ``'leaky_relu'``, ...).
        param (float, optional): the negative slope of ``'leaky_relu'``. Default: 0.01.

    Example::

        >>> engine.nn.init.calculate_gain('tanh')
        1.6666666666666667
    """
    linear_fns = [
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
    ]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    num_input_fmaps = tensor.size(1)
    num_output_fmaps = tensor.size(0)
    receptive_field_size = 1
    for s in tensor.shape[2:]:
        receptive_field_size *= s
    return num_input_fmaps * receptive_field_size, num_output_fmaps * receptive_field_size


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fills ``tensor`` in place with values drawn uniformly from [a, b) and returns it.

    Args:
        tensor (Tensor): the tensor to fill.
        a (float): the lower bound. Default: 0.
        b (float): the upper bound. Default: 1.
        generator (engine.Generator, optional): the generator to draw from.

    Example::

        >>> w = engine.nn.init.uniform_(engine.empty(100), -0.1, 0.1)
        >>> bool(w.abs().max() <= 0.1)
        True
    """
    with engine.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fills ``tensor`` in place with values drawn from N(mean, std^2) and returns it.

    Args:
        tensor (Tensor): the tensor to fill.
        mean (float): the mean. Default: 0.
        std (float): the standard deviation. Default: 1.
        generator (engine.Generator, optional): the generator to draw from.

    Example::

        >>> engine.nn.init.normal_(engine.empty(3), mean=2.0, std=0.0)
        tensor([2., 2., 2.])
    """
    with engine.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fills ``tensor`` from N(mean, std^2) truncated to [a, b], by rejection sampling.

    Where the interval holds more than 30% of the mass, out-of-range normal draws are redrawn;
    otherwise uniform candidates on [a, b] are accepted with probability pdf / pdf(mode).
    The draws come from the generator in PyTorch's order, so seeded results match it.
    """

    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
            "The distribution of values may be incorrect.",
            stacklevel=2,
        )
    with engine.no_grad():
        mass = norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std)
        if mass > 0.3:
            _redraw_outside(tensor, mean, std, a, b, generator)
        else:
            _accept_reject_uniform(tensor, mean, std, a, b, generator)
        return tensor


def _redraw_outside(tensor, mean, std, a, b, generator):
    # Bounds in the tensor's dtype, so the rejection test agrees with the stored values.
    lo = tensor.new_tensor(a).item()
    hi = tensor.new_tensor(b).item()
    result = tensor.normal_(mean, std, generator=generator)
    while True:
        outside = (result < lo) | (result > hi)
        if not outside.any():
            break
        redraw = engine.empty_like(result).normal_(mean, std, generator=generator)
        result = engine.where(outside, redraw, result)
    if tensor is not result:
        tensor.copy_(result)


def _accept_reject_uniform(tensor, mean, std, a, b, generator):
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2
    candidates = engine.empty_like(tensor)
    accept_buf = engine.empty_like(tensor)

    def log_ratio(c):
        # log pdf(c) - log pdf(mode), computed in place as PyTorch does
        return c.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)

    tensor.uniform_(a, b, generator=generator)
    candidates.copy_(tensor)
    log_ratio(candidates)
    pending = accept_buf.uniform_(generator=generator).log_().gt(candidates)
    if not pending.any():
        return
    result = tensor
    while True:
        candidates.uniform_(a, b, generator=generator)
        result = engine.where(pending, candidates, result)
        log_ratio(candidates)
        pending = engine.where(
            pending, accept_buf.uniform_(generator=generator).log_().gt(candidates), pending
        )
        if not pending.any():
            break
    tensor.copy_(result)


def constant_(tensor, val):
    """Fills ``tensor`` in place with ``val`` and returns it.

    Args:
        tensor (Tensor): the tensor to fill.
        val (float): the value.

    Example::

        >>> engine.nn.init.constant_(engine.empty(2), 0.5)
        tensor([0.5000, 0.5000])
    """
    with engine.no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    """Fills ``tensor`` with ones."""
    with engine.no_grad():
        return tensor.fill_(1.0)


def zeros_(tensor):
    """Fills ``tensor`` with zeros."""
    with engine.no_grad():
        return tensor.zero_()


def eye_(tensor):
    """Fills the 2-D ``tensor`` with the identity (ones on the main diagonal)."""
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with engine.no_grad():
        tensor.copy_(engine.eye(*tensor.shape, dtype=tensor.dtype))
    return tensor


def dirac_(tensor, groups=1):
    """Fills a 3-, 4- or 5-D ``tensor`` with the Dirac delta: a convolution that keeps as many
    input channels as it can."""
    dimensions = tensor.ndimension()
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])
    with engine.no_grad():
        tensor.zero_()
        centre = tuple(s // 2 for s in sizes[2:])
        for g in range(groups):
            for d in range(min_dim):
                tensor[(g * out_chans_per_grp + d, d) + centre] = 1
    return tensor


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Glorot (Xavier) uniform initialisation, in place: U(-a, a) with
    ``a = gain * sqrt(6 / (fan_in + fan_out))``, which keeps the variance of activations and
    gradients about equal across layers.

    Args:
        tensor (Tensor): a tensor of at least 2 dimensions (a weight).
        gain (float): the scale, e.g. :func:`calculate_gain`. Default: 1.
        generator (engine.Generator, optional): the generator to draw from.

    Example::

        >>> w = engine.nn.init.xavier_uniform_(engine.empty(20, 30))
        >>> bool(w.abs().max() <= (6 / 50) ** 0.5)
        True
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """Glorot (Xavier) normal initialisation, in place: N(0, std^2) with
    ``std = gain * sqrt(2 / (fan_in + fan_out))``.

    Args:
        tensor (Tensor): a tensor of at least 2 dimensions (a weight).
        gain (float): the scale, e.g. :func:`calculate_gain`. Default: 1.
        generator (engine.Generator, optional): the generator to draw from.

    Example::

        >>> engine.nn.init.xavier_normal_(engine.empty(20, 30)).shape
        torch.Size([20, 30])
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He (Kaiming) uniform initialisation, in place: U(-bound, bound) with
    ``bound = gain * sqrt(3 / fan)``, suited to ReLU-like activations. ``nn.Linear`` and the
    convolutions start from it with ``a=sqrt(5)``.

    Args:
        tensor (Tensor): a tensor of at least 2 dimensions (a weight).
        a (float): the negative slope of the activation after this layer (leaky_relu).
            Default: 0.
        mode (str): ``'fan_in'`` (preserve the forward variance) or ``'fan_out'`` (the
            backward one). Default: ``'fan_in'``.
        nonlinearity (str): the activation, for :func:`calculate_gain`. Default:
            ``'leaky_relu'``.
        generator (engine.Generator, optional): the generator to draw from.

    Example::

        >>> engine.nn.init.kaiming_uniform_(engine.empty(8, 4), nonlinearity='relu').shape
        torch.Size([8, 4])
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    with engine.no_grad():
        return tensor.uniform_(-bound, bound, generator=generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He (Kaiming) normal initialisation, in place: N(0, std^2) with
    ``std = gain / sqrt(fan)``, suited to ReLU-like activations.

    Args:
        tensor (Tensor): a tensor of at least 2 dimensions (a weight).
        a (float): the negative slope of the activation after this layer (leaky_relu).
            Default: 0.
        mode (str): ``'fan_in'`` or ``'fan_out'``. Default: ``'fan_in'``.
        nonlinearity (str): the activation, for :func:`calculate_gain`. Default:
            ``'leaky_relu'``.
        generator (engine.Generator, optional): the generator to draw from.

    Example::

        >>> engine.nn.init.kaiming_normal_(engine.empty(8, 4), mode='fan_out').shape
        torch.Size([8, 4])
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    with engine.no_grad():
        return tensor.normal_(0, std, generator=generator)


def orthogonal_(tensor, gain=1, generator=None):
    """Fills ``tensor`` (2-D or more, flattened after dim 0) with a (semi-)orthogonal matrix,
    from the QR decomposition of a normal sample, signs fixed as PyTorch does."""
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = engine.empty(rows, cols, dtype=tensor.dtype).normal_(0, 1, generator=generator)
    if rows < cols:
        flattened.t_()
    q, r = engine.linalg.qr(flattened)
    d = engine.diag(r, 0)
    q = q * d.sign()
    if rows < cols:
        q = q.t()
    with engine.no_grad():
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Fills the 2-D ``tensor`` from N(0, std^2), then zeroes a ``sparsity`` fraction of each
    column."""
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with engine.no_grad():
        tensor.normal_(0, std, generator=generator)
        for col_idx in range(cols):
            row_indices = engine.randperm(rows)
            zero_indices = row_indices[:num_zeros]
            tensor[zero_indices, col_idx] = 0
    return tensor


def _deprecated(new, name):
    def old(*args, **kwargs):
        warnings.warn(
            f"`nn.init.{name}` is now deprecated in favor of `nn.init.{name}_`.",
            FutureWarning,
            stacklevel=2,
        )
        return new(*args, **kwargs)

    old.__name__ = name
    old.__doc__ = f"Deprecated: use :func:`{new.__name__}`."
    return old


uniform = _deprecated(uniform_, "uniform")
normal = _deprecated(normal_, "normal")
constant = _deprecated(constant_, "constant")
eye = _deprecated(eye_, "eye")
dirac = _deprecated(dirac_, "dirac")
xavier_uniform = _deprecated(xavier_uniform_, "xavier_uniform")
xavier_normal = _deprecated(xavier_normal_, "xavier_normal")
kaiming_uniform = _deprecated(kaiming_uniform_, "kaiming_uniform")
kaiming_normal = _deprecated(kaiming_normal_, "kaiming_normal")
orthogonal = _deprecated(orthogonal_, "orthogonal")
sparse = _deprecated(sparse_, "sparse")
