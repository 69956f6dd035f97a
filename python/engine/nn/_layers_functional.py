"""Normalisation, embedding, padding and attention for engine.nn.functional, composed from
native ops with PyTorch's formulas (biased variance inside the norms, eps added before the square
root; running statistics updated in place without history)."""

import functools
import math

from engine import _C
from engine._grad_fn_names import arg, named_grad_fn
from engine.amp._policy import autocast_op
from engine.autograd.grad_mode import no_grad
from engine.nn._floating_inputs import refuse_bool, require_floating


def _mixed_precision_norm(fn):
    """PyTorch's CPU norms take a bfloat16/float16 input with float32 parameters or running
    statistics ("mixed type"): they compute in float32 and return the input's dtype (mixed
    precision training normalises bfloat16 activations with float32 modules). Other dtype
    combinations are computed as given."""

    @functools.wraps(fn)
    def norm(input, *args, **kwargs):
        dtype = getattr(input, "dtype", None)
        if dtype in (_C.bfloat16, _C.float16) and any(
            isinstance(a, _C.Tensor) and a.dtype == _C.float32 for a in (*args, *kwargs.values())
        ):
            return fn(input.float(), *args, **kwargs).to(dtype)
        return fn(input, *args, **kwargs)

    return norm


def _pad_name(pad, mode):
    """PyTorch's node for F.pad: one per mode and number of padded dims (circular is composite)."""
    dims = len(pad) // 2
    return {
        "constant": "ConstantPadNdBackward0",
        "reflect": f"ReflectionPad{dims}DBackward0",
        "replicate": f"ReplicationPad{dims}DBackward0",
    }.get(mode)


def _shape_error(name, normalized_shape, input):
    return RuntimeError(
        f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
        f"[*, {', '.join(str(s) for s in normalized_shape)}], but got input of size{list(input.shape)}"
    )


@named_grad_fn("NativeLayerNormBackward0")
@_mixed_precision_norm
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Layer normalisation: ``(x - mean) / sqrt(var + eps) * weight + bias``, with the mean and
    (biased) variance taken over the trailing dimensions ``normalized_shape``.

    Args:
        input (Tensor): a tensor whose last dimensions are ``normalized_shape``.
        normalized_shape (int or tuple of ints): the normalised dimensions' sizes.
        weight (Tensor, optional): the scale, ``normalized_shape``. Default: ``None`` (1).
        bias (Tensor, optional): the shift, ``normalized_shape``. Default: ``None`` (0).
        eps (float): added to the variance. Default: 1e-5.

    Example::

        >>> engine.nn.functional.layer_norm(engine.tensor([[1.0, 3.0]]), (2,))
        tensor([[-1.0000,  1.0000]])
    """
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if input.dim() < len(shape) or tuple(input.shape[input.dim() - len(shape) :]) != shape:
        raise _shape_error("layer_norm", shape, input)
    require_floating(input, "LayerNormKernelImpl")
    dims = tuple(range(input.dim() - len(shape), input.dim()))
    mean = input.mean(dims, keepdim=True)
    centred = input - mean
    var = (centred * centred).mean(dims, keepdim=True)
    out = centred / _C.sqrt(var + eps)
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out


@named_grad_fn("MulBackward0")
def rms_norm(input, normalized_shape, weight=None, eps=None):
    """``x / sqrt(mean(x**2) + eps) * weight`` over the trailing dims (eps defaults to the dtype's)."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if input.dim() < len(shape) or tuple(input.shape[input.dim() - len(shape) :]) != shape:
        raise _shape_error("rms_norm", shape, input)
    require_floating(input, "rms_norm")
    if eps is None:
        from engine._dtype_info import finfo

        eps = finfo(input.dtype).eps
    dims = tuple(range(input.dim() - len(shape), input.dim()))
    out = input / _C.sqrt((input * input).mean(dims, keepdim=True) + eps)
    return out if weight is None else out * weight


def _channel_view(t, ndim):
    """A per-channel vector shaped to broadcast over (N, C, *)."""
    return t.reshape([1, t.numel()] + [1] * (ndim - 2))


def _channel_affine(out, weight, bias):
    """out * weight + bias with per-channel vectors (either may be None)."""
    if weight is not None:
        out = out * _channel_view(weight, out.dim())
    if bias is not None:
        out = out + _channel_view(bias, out.dim())
    return out


def _verify_batch_size(size):
    # PyTorch's check (torch.nn.functional._verify_batch_size), ``size`` printed as given: the
    # input's torch.Size for batch norm, a list for group norm.
    values = size[0]
    for extent in size[2:]:
        values *= extent
    if values == 1:
        raise ValueError(
            f"Expected more than 1 value per channel when training, got input size {size}"
        )


def _verify_spatial_size(size):
    values = 1
    for extent in size[2:]:
        values *= extent
    if values == 1:
        raise ValueError(
            f"Expected more than 1 spatial element when training, got input size {size}"
        )


@named_grad_fn("NativeGroupNormBackward0")
@_mixed_precision_norm
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalises each group of channels of each sample, then applies a per-channel affine."""
    if input.dim() < 2:
        raise RuntimeError(
            f"Expected at least 2 dimensions for input tensor but received {input.dim()}"
        )
    n, c = input.shape[0], input.shape[1]
    if c % num_groups:
        raise RuntimeError(
            f"Expected number of channels in input to be divisible by num_groups, but got input of shape "
            f"{list(input.shape)} and num_groups={num_groups}"
        )
    _verify_batch_size([n * c // num_groups, num_groups] + list(input.shape[2:]))
    require_floating(input, "GroupNormKernelImpl")
    # The group size spelled out, so an empty batch reshapes too.
    grouped = input.reshape(n, num_groups, (c // num_groups) * math.prod(input.shape[2:]))
    mean = grouped.mean(2, keepdim=True)
    centred = grouped - mean
    var = (centred * centred).mean(2, keepdim=True)
    out = (centred / _C.sqrt(var + eps)).reshape(tuple(input.shape))
    return _channel_affine(out, weight, bias)


@named_grad_fn("NativeBatchNormBackward0")
@_mixed_precision_norm
def batch_norm(
    input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5
):
    """Batch normalisation of each channel (dimension 1) over the batch and spatial dimensions:
    ``(x - mean) / sqrt(var + eps) * weight + bias``.

    In training the batch statistics are used, and the running ones (when given) are updated in
    place: ``(1 - momentum) * running + momentum * batch``, the variance unbiased. Otherwise the
    running statistics are used.

    Args:
        input (Tensor): (N, C) or (N, C, *).
        running_mean (Tensor or None): (C), the running mean.
        running_var (Tensor or None): (C), the running variance.
        weight (Tensor, optional): (C), the scale. Default: ``None`` (1).
        bias (Tensor, optional): (C), the shift. Default: ``None`` (0).
        training (bool): use and update batch statistics. Default: ``False``.
        momentum (float): the running statistics' update rate. Default: 0.1.
        eps (float): added to the variance. Default: 1e-5.

    Example::

        >>> x = engine.tensor([[1.0], [3.0]])
        >>> mean, var = engine.zeros(1), engine.ones(1)
        >>> engine.nn.functional.batch_norm(x, mean, var, training=True)
        tensor([[-1.0000],
                [ 1.0000]])
        >>> mean, var
        (tensor([0.2000]), tensor([1.1000]))
    """
    if input.dim() < 2:
        raise ValueError(f"Expected 2D or higher input (got {input.dim()}D input)")
    dims = (0,) + tuple(range(2, input.dim()))
    if training:
        _verify_batch_size(input.shape)
        count = input.numel() // input.shape[1] if input.shape[1] else 0
        mean = input.mean(dims, keepdim=True)
        centred = input - mean
        var = (centred * centred).mean(dims, keepdim=True)
        # An empty batch gives an empty result and leaves the running statistics as they are.
        with no_grad():
            if count and running_mean is not None:
                running_mean.mul_(1 - momentum).add_(mean.detach().reshape(-1) * momentum)
            if count and running_var is not None:
                unbiased = var.detach().reshape(-1) * (count / (count - 1))
                running_var.mul_(1 - momentum).add_(unbiased * momentum)
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
        mean = _channel_view(running_mean, input.dim())
        var = _channel_view(running_var, input.dim())
        centred = input - mean
    out = centred / _C.sqrt(var + eps)
    return _channel_affine(out, weight, bias)


@_mixed_precision_norm
def instance_norm(
    input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True, momentum=0.1,
    eps=1e-5,
):  # fmt: skip
    """Normalises each channel of each sample over its spatial dims."""
    if not use_input_stats:
        if running_mean is None or running_var is None:
            raise RuntimeError(
                "Expected running_mean and running_var to be defined when use_input_stats is false"
            )
        return batch_norm(input, running_mean, running_var, weight, bias, False, momentum, eps)
    _verify_spatial_size(input.shape)
    n, c = input.shape[0], input.shape[1]
    folded = input.reshape((1, n * c) + tuple(input.shape[2:]))
    rm = running_mean.repeat(n) if running_mean is not None else None
    rv = running_var.repeat(n) if running_var is not None else None
    out = batch_norm(folded, rm, rv, None, None, True, momentum, eps).reshape(tuple(input.shape))
    with no_grad():
        if running_mean is not None:
            running_mean.copy_(rm.reshape(n, c).mean(0))
        if running_var is not None:
            running_var.copy_(rv.reshape(n, c).mean(0))
    return _channel_affine(out, weight, bias)


@named_grad_fn("EmbeddingBackward0")
def embedding(
    input,
    weight,
    padding_idx=None,
    max_norm=None,
    norm_type=2.0,
    scale_grad_by_freq=False,
    sparse=False,
):
    """Looks up rows of the embedding matrix ``weight`` at the integer indices in ``input``: the
    result has ``input``'s shape plus the embedding dimension.

    Args:
        input (LongTensor or IntTensor): indices into the rows of ``weight``.
        weight (Tensor): the embeddings, (num_embeddings, embedding_dim).
        padding_idx (int, optional): the row that receives no gradient. Default: ``None``.
        max_norm (float, optional): renormalise (in place) the selected rows whose norm exceeds
            it. Default: ``None``.
        norm_type (float): the p of the norm for ``max_norm``. Default: 2.
        scale_grad_by_freq (bool): scale gradients by the inverse frequency of the indices in
            the batch. Default: ``False``.
        sparse (bool): accepted for compatibility; gradients are dense.

    Example::

        >>> weight = engine.tensor([[0.0, 0.0], [1.0, 2.0], [3.0, 4.0]])
        >>> engine.nn.functional.embedding(engine.tensor([2, 1]), weight)
        tensor([[3., 4.],
                [1., 2.]])
    """
    if input.dtype not in (_C.int64, _C.int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
            f"but got {input.dtype} instead (while checking arguments for embedding)"
        )
    num = weight.shape[0]
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx %= num
    flat = input.reshape(-1)
    if max_norm is not None:
        with no_grad():
            rows = weight.index_select(0, flat)
            norms = rows.norm(norm_type, 1, keepdim=True)
            scale = _C.where(norms > max_norm, max_norm / (norms + 1e-7), _C.ones_like(norms))
            weight.index_copy_(0, flat, rows * scale)
    out = weight.index_select(0, flat)
    if padding_idx is not None and weight.requires_grad:
        # The padding rows keep their value (inf and NaN included) but pass no gradient.
        keep = (flat != padding_idx).reshape(-1, 1)
        out = _C.where(keep, out, out.detach())
    return out.reshape(tuple(input.shape) + (weight.shape[1],))


def _pad_index(size, before, after, mode):
    """Source positions of a padded dim of `size` (reflect, replicate or circular)."""
    positions = range(-before, size + after)
    if mode == "replicate":
        return [min(max(p, 0), size - 1) for p in positions]
    if mode == "circular":
        return [p % size for p in positions]
    period = 2 * (size - 1)
    out = []
    for p in positions:
        q = p % period if period else 0
        out.append(q if q < size else period - q)
    return out


@autocast_op("pad")
@named_grad_fn(lambda *a, **k: _pad_name(arg(a, k, 1, "pad"), arg(a, k, 2, "mode", "constant")))
def pad(input, pad, mode="constant", value=None):
    """Pads the last ``len(pad) // 2`` dimensions of ``input``: ``pad`` lists (before, after)
    for the last dimension, then for the one before it, and so on; negative amounts crop.

    Args:
        input (Tensor): the tensor to pad.
        pad (tuple of ints): the amounts, two per padded dimension, last dimension first.
        mode (str): ``'constant'``, ``'reflect'``, ``'replicate'`` or ``'circular'``.
            Default: ``'constant'``.
        value (float, optional): the fill value of ``'constant'``. Default: 0.

    Example::

        >>> x = engine.tensor([[1.0, 2.0]])
        >>> engine.nn.functional.pad(x, (1, 2))
        tensor([[0., 1., 2., 0., 0.]])
        >>> engine.nn.functional.pad(x.unsqueeze(0), (1, 1), mode='replicate')
        tensor([[[1., 1., 2., 2.]]])
    """
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension"
        )
    if mode in ("reflect", "replicate"):
        # PyTorch's reflection and replication kernels (1d, 2d, 3d by the padded dims) have
        # integer versions but no bool one.
        kind = "reflection" if mode == "reflect" else "replication"
        refuse_bool(input, f"{kind}_pad{len(pad) // 2}d")
    out = input
    for i in range(len(pad) // 2):
        dim = input.dim() - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        if mode == "constant":
            if before < 0:
                out = out.narrow(dim, -before, out.shape[dim] + before)
                before = 0
            if after < 0:
                out = out.narrow(dim, 0, out.shape[dim] + after)
                after = 0
            parts = []
            for amount in (before, after):
                shape = list(out.shape)
                shape[dim] = amount
                parts.append(_C.full(shape, 0.0 if value is None else value, dtype=out.dtype))
            out = _C.cat([parts[0], out, parts[1]], dim)
        elif mode in ("reflect", "replicate", "circular"):
            if value is not None and value != 0:
                raise ValueError(f'Padding mode "{mode}" doesn\'t take in value argument.')
            if mode == "circular" and (before < 0 or after < 0):
                # PyTorch crops first and wraps around what is left.
                start, stop = max(-before, 0), out.shape[dim] - max(-after, 0)
                out = out.narrow(dim, start, stop - start)
                before, after = max(before, 0), max(after, 0)
            size = out.shape[dim]
            if mode == "reflect" and (before >= size or after >= size):
                raise RuntimeError(
                    f"Argument #4: Padding size should be less than the corresponding input dimension, but got: "
                    f"padding ({before}, {after}) at dimension {dim} of input {list(input.shape)}"
                )
            index = _C.tensor(_pad_index(size, before, after, mode))
            out = out.index_select(dim, index)
        else:
            raise NotImplementedError(f"Unrecognised padding mode {mode}")
    return out


@named_grad_fn("ScaledDotProductFlashAttentionForCpuBackward0")
def scaled_dot_product_attention(
    query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False
):
    """Attention: ``softmax(query @ key^T * scale + attn_mask) @ value``, over the last two
    dimensions, with the leading ones as batch and heads.

    Args:
        query (Tensor): (*, L, E).
        key (Tensor): (*, S, E).
        value (Tensor): (*, S, Ev).
        attn_mask (Tensor, optional): broadcast to (*, L, S): a bool mask keeps the ``True``
            positions, a float mask is added to the scores. Default: ``None``.
        dropout_p (float): dropout on the attention weights. Default: 0.
        is_causal (bool): mask the positions above the diagonal (a token sees only the ones
            before it). Default: ``False``.
        scale (float, optional): the score factor. Default: ``1 / sqrt(E)``.
        enable_gqa (bool): let key and value have fewer heads than query (grouped-query
            attention). Default: ``False``.

    Returns:
        Tensor: (*, L, Ev).

    Example::

        >>> q = k = v = engine.ones(2, 4, 3, 8)
        >>> engine.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True).shape
        torch.Size([2, 4, 3, 8])
    """
    from engine.nn.functional import dropout, softmax

    l_q, l_k = query.shape[-2], key.shape[-2]
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = (query @ key.transpose(-2, -1)) * scale
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError(
                "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"
            )
        keep = _C.ones(l_q, l_k, dtype=_C.bool).tril()
        scores = scores.masked_fill(~keep, -math.inf)
    if attn_mask is not None:
        if attn_mask.dtype == _C.bool:
            scores = scores.masked_fill(~attn_mask, -math.inf)
        else:
            scores = scores + attn_mask
    # A query whose keys are all masked attends to nothing: weights 0, not NaN (PyTorch's safe
    # softmax); its scores are replaced by 0 first so no NaN reaches the gradient.
    masked = (scores == -math.inf).all(-1, keepdim=True)
    weights = softmax(_C.where(masked, _C.zeros_like(scores), scores), -1)
    weights = _C.where(masked, _C.zeros_like(weights), weights)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p)
    return weights @ value


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """``0.5 * (log(var) + (input - target)**2 / var)`` (+ ``0.5 log(2 pi)`` with full); var is
    clamped to eps without history, as PyTorch."""
    from engine.nn.functional import _reduce, _reduction

    reduction = _reduction(None, None, reduction)
    if var.dim() == input.dim() - 1 and tuple(var.shape) == tuple(input.shape[:-1]):
        var = var.unsqueeze(-1)
    if (var < 0).any():
        raise ValueError("var has negative entry/entries")
    clamped = var.clone()
    with no_grad():
        clamped.clamp_(eps, None)
    d = input - target
    loss = 0.5 * (_C.log(clamped) + d * d / clamped)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


FUNCTIONS = {
    f.__name__: f
    for f in (
        layer_norm, rms_norm, group_norm, batch_norm, instance_norm, embedding, pad,
        scaled_dot_product_attention, gaussian_nll_loss,
    )
}  # fmt: skip
