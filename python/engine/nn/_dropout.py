"""Dropout variants of engine.nn.functional and their torch.* forms: channel-wise (feature)
dropout, alpha dropout (which keeps SELU's zero mean and unit variance) and feature alpha dropout.

Masks are drawn as PyTorch draws them (``bernoulli_(1 - p)`` on a fresh tensor of the mask's
shape), so with the same seed engine drops exactly the elements PyTorch drops. As in PyTorch,
p == 0, eval mode and empty inputs return the input itself; p == 1 multiplies by zero (keeping
NaN and the sign of zero); the kept elements are scaled so the expectation is unchanged."""

import math
import warnings

from engine import _C, _transforms

# SELU's negative saturation value: -scale * alpha.
_ALPHA_PRIME = 1.7580993408473766


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _noise_shape(input, feature):
    """The mask's shape: one draw per element, or per (sample, channel) for feature dropout."""
    if not feature:
        return list(input.shape)
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return [input.shape[0], input.shape[1]] + [1] * (input.dim() - 2)


def _dropout_impl(input, p, train, feature, alpha, inplace):
    """The one rule behind every variant (ATen's order of checks and special cases)."""
    if p < 0.0 or p > 1.0:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        zero = _C.zeros([], dtype=input.dtype)
        return input.mul_(zero) if inplace else input * zero
    # ATen's order of draws and roundings: the mask is scaled in the input's dtype first. Inside
    # vmap, an element-wise mask is drawn like the input (batched, so `randomness=` decides per
    # sample or shared, with PyTorch's draws); a feature mask is drawn out of place.
    shape = _noise_shape(input, feature)
    if _transforms._open and not feature and _transforms.state_of(input) is not None:
        noise = _C.empty_like(input).contiguous().bernoulli_(1 - p)
    elif _transforms._open:
        noise = (_C.rand(*shape, dtype=input.dtype) < 1 - p).to(input.dtype)
    else:
        noise = _C.empty(shape, dtype=input.dtype).bernoulli_(1 - p)
    if alpha:
        a = 1.0 / math.sqrt((_ALPHA_PRIME * _ALPHA_PRIME * p + 1) * (1 - p))
        b = noise.add(-1).mul_(_ALPHA_PRIME * a).add_(_ALPHA_PRIME * a * p)
        noise.mul_(a)
        return input.mul_(noise).add_(b) if inplace else (input * noise).add_(b)
    noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


# ---- torch.* forms: (input, p, train) ----
def torch_dropout(input, p, train):
    """``torch.dropout``: zeroes each element with probability p while ``train``, scales by 1/(1-p)."""
    return _dropout_impl(input, p, train, False, False, False)


def torch_dropout_(input, p, train):
    """In-place ``torch.dropout``."""
    return _dropout_impl(input, p, train, False, False, True)


def torch_feature_dropout(input, p, train):
    """``torch.feature_dropout``: zeroes whole channels (dim 1 of an (N, C, *) input)."""
    return _dropout_impl(input, p, train, True, False, False)


def torch_feature_dropout_(input, p, train):
    """In-place ``torch.feature_dropout``."""
    return _dropout_impl(input, p, train, True, False, True)


def torch_alpha_dropout(input, p, train):
    """``torch.alpha_dropout``: dropped elements take SELU's saturation value, then an affine map
    restores zero mean and unit variance."""
    return _dropout_impl(input, p, train, False, True, False)


def torch_alpha_dropout_(input, p, train):
    """In-place ``torch.alpha_dropout``."""
    return _dropout_impl(input, p, train, False, True, True)


def torch_feature_alpha_dropout(input, p, train):
    """``torch.feature_alpha_dropout``: alpha dropout of whole channels."""
    return _dropout_impl(input, p, train, True, True, False)


def torch_feature_alpha_dropout_(input, p, train):
    """In-place ``torch.feature_alpha_dropout``."""
    return _dropout_impl(input, p, train, True, True, True)


TORCH_FUNCTIONS = {
    "dropout": torch_dropout,
    "dropout_": torch_dropout_,
    "feature_dropout": torch_feature_dropout,
    "feature_dropout_": torch_feature_dropout_,
    "alpha_dropout": torch_alpha_dropout,
    "alpha_dropout_": torch_alpha_dropout_,
    "feature_alpha_dropout": torch_feature_alpha_dropout,
    "feature_alpha_dropout_": torch_feature_alpha_dropout_,
}


# ---- nn.functional forms ----
def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout (for SELU networks): see ``torch.alpha_dropout``."""
    _check_p(p)
    return _dropout_impl(input, p, training, False, True, inplace)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels: see ``torch.feature_alpha_dropout``."""
    _check_p(p)
    return _dropout_impl(input, p, training, True, True, inplace)


def _with_batch_dim(input, p, training, inplace):
    """Feature dropout of an input without its batch dim: applied to a batch of one (a view, so
    an in-place call writes through to input)."""
    result = _dropout_impl(input.unsqueeze(0), p, training, True, False, inplace)
    return input if inplace else result.squeeze(0)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zeroes whole channels of a (N, C, L) or (C, L) input, each with probability p."""
    _check_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. "
            "Note that dropout1d exists to provide channel-wise dropout on inputs with 1 "
            "spatial dimension, a channel dimension, and an optional batch dimension "
            "(i.e. 2D or 3D inputs)."
        )
    if input.dim() == 2:
        return _with_batch_dim(input, p, training, inplace)
    return _dropout_impl(input, p, training, True, False, inplace)


def _deprecated_rank(name, ndim, spatial):
    warnings.warn(
        f"{name}: Received a {ndim}-D input to {name}, which is deprecated "
        "and will result in an error in a future release. To retain the behavior "
        f"and silence this warning, please use dropout instead. Note that {name} "
        f"exists to provide channel-wise dropout on inputs with {spatial} spatial dimensions, "
        "a channel dimension, and an optional batch dimension "
        f"(i.e. {spatial + 1}D or {spatial + 2}D inputs).",
        UserWarning,
        stacklevel=3,
    )


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zeroes whole channels of a (N, C, H, W) input; a 3D input is read as (N, C, L) (PyTorch's
    historical behaviour, with its warning)."""
    _check_p(p)
    if input.dim() not in (3, 4):
        _deprecated_rank("dropout2d", input.dim(), 2)
    if input.dim() == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise "
            "1D dropout behavior is desired - input is interpreted as shape (N, C, L), where C "
            "is the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            UserWarning,
            stacklevel=2,
        )
    return _dropout_impl(input, p, training, True, False, inplace)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zeroes whole channels of a (N, C, D, H, W) or (C, D, H, W) input."""
    _check_p(p)
    if input.dim() not in (4, 5):
        _deprecated_rank("dropout3d", input.dim(), 3)
    if input.dim() != 5:
        return _with_batch_dim(input, p, training, inplace)
    return _dropout_impl(input, p, training, True, False, inplace)


FUNCTIONS = {
    f.__name__: f for f in (alpha_dropout, feature_alpha_dropout, dropout1d, dropout2d, dropout3d)
}
