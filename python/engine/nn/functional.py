"""engine.nn.functional: activations, losses, dropout and one_hot with PyTorch's signatures.

Each function is composed from differentiable engine ops, so gradients (and higher derivatives)
come for free. softmax and log_softmax subtract the row maximum first (log-sum-exp); the maximum is
taken without history, which leaves the gradient unchanged because softmax ignores shifts.
"""

import math

import engine
from engine import _C, _transforms, _user_warnings
from engine._grad_fn_names import arg, name_grad_fn, named_grad_fn
from engine.amp._policy import autocast_op
from engine.nn._floating_inputs import require_floating, require_floating_common


def _nll_name(input, reduction):
    """PyTorch's node for nll_loss: NllLossBackward0 up to 2-D inputs, NllLoss2DBackward0 for a
    4-D input or a reduced loss of more dims (PyTorch folds those into 4-D); else a view."""
    if input.dim() <= 2:
        return "NllLossBackward0"
    return "NllLoss2DBackward0" if input.dim() == 4 or reduction != "none" else None


def _is_float(t):
    return isinstance(t, _C.Tensor) and t.dtype.is_floating_point


_REDUCTIONS = ("none", "mean", "sum")
_REDUCTION_ENUM = {"none": 0, "mean": 1, "sum": 2}  # as PyTorch's loss nodes show it


def _refuse_grad(fname, **tensors):
    """PyTorch's refusal of a gradient for a loss argument its node does not differentiate (the
    weights): such an argument may not require grad while grad mode is on."""
    if _transforms._open or not _C.is_grad_enabled():
        return
    for name, t in tensors.items():
        if t is not None and t.requires_grad:
            raise RuntimeError(
                f"The function '{fname}' is not differentiable with respect to argument "
                f"'{name}'. This input cannot have requires_grad True."
            )


def _records(*tensors):
    """Whether a loss gets its own native node: some input records and no function transform is
    open (the transforms differentiate the composed form, whose every op has its rules)."""
    if _transforms._open or not _C.is_grad_enabled():
        return False
    return any(t is not None and t.requires_grad for t in tensors)


# The native function itself (as PyTorch's is a builtin): a layer call pays no Python frame for it.
linear = _C.linear


def relu(input, inplace=False):
    # In place, one node for the write (relu_), which CopySlices runs for a write through a view.
    return input.relu_() if inplace else _C.relu(input)


def gelu(input, approximate="none"):
    # One native node (GeluBackward0); the kernel name is PyTorch's for its dtype refusal.
    if not isinstance(approximate, str):
        raise TypeError(
            f"gelu(): argument 'approximate' must be str, not {type(approximate).__name__}"
        )
    return _C.gelu(input, approximate)


def silu(input, inplace=False):
    # One native node (SiluBackward0); in place it saves a copy of the input, as PyTorch.
    return _C.silu_(input) if inplace else _C.silu(input)


def _softmax_dim(ndim, name):
    _user_warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. "
        "Change the call to include dim=X as an argument.",
        UserWarning,
    )
    return 0 if ndim in (0, 1, 3) else 1


def _shifted(input, dim):
    """input minus its maximum along dim. The shift cancels in softmax, so it is taken without
    history; a maximum of -inf is replaced by 0 so a row of -inf stays -inf, not NaN, while a
    maximum of +inf makes the row NaN, as in PyTorch."""
    if input.numel() == 0:
        return input
    m = input.detach().amax(dim, keepdim=True)
    return input - _C.where(m == -math.inf, 0.0, m)


@named_grad_fn("SoftmaxBackward0")
def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim(input.dim(), "softmax")
    if dtype is not None:
        input = input.to(dtype)
    if not _transforms._open:
        return _C._softmax(input, dim)  # one node that saves its result, as PyTorch's
    e = _C.exp(_shifted(input, dim))
    return e / e.sum(dim, keepdim=True)


@named_grad_fn("LogSoftmaxBackward0")
def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim(input.dim(), "log_softmax")
    if dtype is not None:
        input = input.to(dtype)
    if not _transforms._open:
        return _C._log_softmax(input, dim)
    s = _shifted(input, dim)
    return s - _C.log(_C.exp(s).sum(dim, keepdim=True))


def _reduce(loss, reduction):
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _check_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _reduction(size_average, reduce, reduction):
    """The reduction to apply: PyTorch's legacy ``size_average`` / ``reduce`` flags, when given,
    override ``reduction`` (with PyTorch's deprecation warning)."""
    if size_average is None and reduce is None:
        _check_reduction(reduction)
        return reduction
    _user_warnings.warn(
        "size_average and reduce args will be deprecated, please use reduction='"
        + ("none" if reduce is False else "mean" if size_average is not False else "sum")
        + "' instead.",
        UserWarning,
    )
    if reduce is False:
        return "none"
    return "sum" if size_average is False else "mean"


def _class_last(input):
    """(N, C, d1, ...) -> (N, d1, ..., C); (C,) stays."""
    if input.dim() <= 1:
        return input
    return input.permute(0, *range(2, input.dim()), 1)


@_transforms.values_op
def _check_target_bounds(target, ignore_index, n_classes):
    """PyTorch's IndexError for a class index outside [0, n_classes) that is not ignored.

    A values operation: under vmap it checks the whole batch of targets at once (the test is
    elementwise), where indexing by a batched boolean mask would be refused."""
    valid = target != ignore_index
    bad = target[valid & ((target < 0) | (target >= n_classes))]
    if bad.numel():
        raise IndexError(f"Target {bad.reshape(-1)[0].item()} is out of bounds.")


@autocast_op("nll_loss")
@named_grad_fn(lambda *a, **k: _nll_name(arg(a, k, 0, "input"), arg(a, k, 6, "reduction", "mean")))
def nll_loss(
    input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"
):
    reduction = _reduction(size_average, reduce, reduction)
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() >= 2 and target.shape[0] != input.shape[0]:
        raise ValueError(
            f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({target.shape[0]})."
        )
    if target.dtype not in (_C.int64, _C.int32):
        raise RuntimeError(f"expected scalar type Long but found {target.dtype}")
    # PyTorch folds inputs of more than 2 dims into its 2-D kernel.
    require_floating(
        input, "nll_loss_out_frame" if input.dim() <= 2 else "nll_loss2d_forward_out_frame"
    )
    n_classes = input.shape[1] if input.dim() >= 2 else input.shape[0]
    _check_target_bounds(target, ignore_index, n_classes)
    _refuse_grad("nll_loss_forward", weight=weight)
    if input.dim() <= 2 and _records(input):
        # One node, NllLossBackward0, over the value computed without history.
        with engine.no_grad():
            out, total_weight = _nll_values(input, target, weight, ignore_index, reduction)
        return _C._record_loss(
            out,
            "nll",
            _REDUCTION_ENUM[reduction],
            input,
            target,
            weight,
            total_weight=total_weight,
            ignore_index=ignore_index,
        )
    out, total_weight = _nll_values(input, target, weight, ignore_index, reduction)
    if not out.requires_grad:
        return out
    # What PyTorch's node keeps: its arguments and the total weight of the counted targets (0 for
    # reduction="none", which does not compute it).
    shown = {
        "ignore_index": ignore_index,
        "reduction": _REDUCTION_ENUM[reduction],
        "self": input,
        "target": target,
        "total_weight": total_weight.detach(),
        "weight": weight,
    }
    return name_grad_fn(out, _nll_name(input, reduction), (input,), shown, only_shown=True)


def _nll_values(input, target, weight, ignore_index, reduction):
    """nll_loss's value (arguments already checked), composed, and the total weight of the
    counted targets (0 for reduction='none', which does not compute it)."""
    valid = target != ignore_index
    safe = _C.where(valid, target, 0).long()
    picked = _class_last(input).gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    w = valid.to(input.dtype)
    if weight is not None:
        w = w * weight.index_select(0, safe.reshape(-1)).view(*safe.shape)
    # Ignored targets contribute 0 even where their picked log-probability is -inf.
    loss = _C.where(valid, -picked * w, _C.zeros_like(picked))
    if reduction == "none":
        return loss, _C.zeros((), dtype=input.dtype)
    total = w.sum()
    return (loss.sum() if reduction == "sum" else loss.sum() / total), total


@named_grad_fn(
    lambda *a, **k: (
        _nll_name(arg(a, k, 0, "input"), arg(a, k, 6, "reduction", "mean"))
        if not _is_float(arg(a, k, 1, "target")) and not arg(a, k, 7, "label_smoothing", 0.0)
        else None
    )
)
@autocast_op("cross_entropy")
def cross_entropy(
    input,
    target,
    weight=None,
    size_average=None,
    ignore_index=-100,
    reduce=None,
    reduction="mean",
    label_smoothing=0.0,
):
    reduction = _reduction(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 1 if input.dim() >= 2 else 0
    n_classes = input.shape[class_dim]
    logp = log_softmax(input, class_dim)
    wshape = [1] * input.dim()
    wshape[class_dim] = n_classes
    if target.is_floating_point():
        if tuple(target.shape) != tuple(input.shape):
            raise RuntimeError(
                f"Expected target size {list(input.shape)}, got {list(target.shape)}"
            )
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / n_classes
        prod = logp * target
        if weight is not None:
            prod = prod * _C.reshape(weight, wshape)
        loss = -prod.sum(class_dim)
        if reduction == "mean":
            return loss.sum() / (loss.numel() or float("nan")) if input.dim() >= 1 else loss
        return _reduce(loss, reduction)
    ret = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing <= 0:
        return ret
    valid = (target != ignore_index).to(input.dtype)
    wl = logp if weight is None else logp * _C.reshape(weight, wshape)
    smooth = -wl.sum(class_dim) * valid
    if reduction == "sum":
        smooth = smooth.sum()
    elif reduction == "mean":
        if weight is None:
            denom = valid.sum()
        else:
            safe = _C.where(target != ignore_index, target, 0)
            denom = (weight.index_select(0, safe.reshape(-1)).view(*safe.shape) * valid).sum()
        smooth = smooth.sum() / denom
    return ret * (1 - label_smoothing) + smooth * (label_smoothing / n_classes)


def _check_same_size(input, target):
    if tuple(target.shape) != tuple(input.shape):
        _user_warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
            UserWarning,
        )


@autocast_op("mse_loss")
@named_grad_fn("MseLossBackward0")
def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    reduction = _reduction(size_average, reduce, reduction)
    _check_same_size(input, target)
    require_floating_common("mse_cpu", input, target)
    if _records(input, target):
        with engine.no_grad():
            d = input - target
            out = _reduce(d * d, reduction)
        return _C._record_loss(out, "mse", _REDUCTION_ENUM[reduction], input, target)
    d = input - target
    return _reduce(d * d, reduction)


@autocast_op("l1_loss")
def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    reduction = _reduction(size_average, reduce, reduction)
    _check_same_size(input, target)
    if weight is None:
        return _reduce(_C.abs(input - target), reduction)
    # per-element weights; "mean" divides by their sum (PyTorch 2.13's weighted L1)
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    weighted = _C.abs(input - target) * weight
    if reduction == "mean":
        return weighted.sum() / weight.sum()
    return _reduce(weighted, reduction)


@autocast_op("binary_cross_entropy")
@named_grad_fn("BinaryCrossEntropyBackward0")
def binary_cross_entropy(
    input, target, weight=None, size_average=None, reduce=None, reduction="mean"
):
    reduction = _reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) "
            "is deprecated. Please ensure they have the same size."
        )
    x = input.detach()
    if x.numel() and not bool(((x >= 0) & (x <= 1)).all()):
        raise RuntimeError("all elements of input should be between 0 and 1")
    _refuse_grad("binary_cross_entropy", weight=weight)
    if _records(input, target):
        with engine.no_grad():
            out = _bce_values(input, target, weight, reduction)
        return _C._record_loss(out, "bce", _REDUCTION_ENUM[reduction], input, target, weight)
    loss = _BinaryCrossEntropy.apply(input, target)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def _bce_values(input, target, weight, reduction):
    loss = _BinaryCrossEntropy.forward(input, target)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


_BCE_EPS = 9.999999960041972e-13  # 1e-12 rounded to float32, as PyTorch's kernel has it


class _BinaryCrossEntropy(engine.autograd.Function):
    """``-(t log(x) + (1 - t) log(1 - x))`` with each log clamped at -100, and PyTorch's
    gradients: ``(x - t) / max(x (1 - x), 1e-12)`` for x (finite where x is 0 or 1, where the
    clamped logs have none) and ``log(1 - x) - log(x)`` for t."""

    _backward_name = "BinaryCrossEntropyBackward0"

    @staticmethod
    def forward(x, t):
        log_x = _C.log(x).clamp(min=-100.0)
        log_1mx = _C.log1p(-x).clamp(min=-100.0)
        return -(t * log_x + (1 - t) * log_1mx)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        grad_x = grad_t = None
        if ctx.needs_input_grad[0]:
            grad_x = grad * (x - t) / _C.clamp((1 - x) * x, _BCE_EPS, None)
        if ctx.needs_input_grad[1]:
            grad_t = grad * (_C.log1p(-x) - _C.log(x))
        return grad_x, grad_t


def _softplus_neg(x):
    """log(1 + exp(-x)) for every x, with the right derivatives everywhere (-sigmoid(-x); -0.5 and
    0.25 at x = 0, where a relu(-x) + log1p(exp(-|x|)) form has a kink and gives 0). Each branch
    sees only the half-line on which its exp cannot overflow, so `where` never meets an inf."""
    # Selections rather than clamp: clamp's gradient is zero at NaN (PyTorch's), these pass it on,
    # so a NaN input gives a NaN gradient as PyTorch's fused kernels do.
    pos = _C.where(x < 0, 0.0, x)
    neg = _C.where(x > 0, 0.0, x)
    return _C.where(x >= 0, _C.log1p(_C.exp(-pos)), _C.log1p(_C.exp(neg)) - neg)


@autocast_op("binary_cross_entropy_with_logits")
@named_grad_fn("BinaryCrossEntropyWithLogitsBackward0")
def binary_cross_entropy_with_logits(
    input, target, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None
):
    reduction = _reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})"
        )
    require_floating(input, "log_sigmoid_cpu")
    _refuse_grad("binary_cross_entropy_with_logits", weight=weight, pos_weight=pos_weight)
    if _records(input, target):
        with engine.no_grad():
            out = _bce_logits_values(input, target, weight, reduction, pos_weight)
        return _C._record_loss(
            out, "bce_logits", _REDUCTION_ENUM[reduction], input, target, weight, pos_weight
        )
    return _bce_logits_values(input, target, weight, reduction, pos_weight)


def _bce_logits_values(input, target, weight, reduction, pos_weight):
    """binary_cross_entropy_with_logits composed (each op differentiable)."""
    softplus_neg = _softplus_neg(input)
    if pos_weight is not None:
        # -(pos_weight t log sigmoid(x) + (1 - t) log sigmoid(-x)): the same value as
        # (1 - t) x + (1 + (pos_weight - 1) t) softplus(-x), and PyTorch's target gradient
        # (log sigmoid(-x) - pos_weight log sigmoid(x)), which stays +-inf at x = -+inf.
        loss = pos_weight * target * softplus_neg + (1 - target) * _softplus_neg(-input)
    else:
        loss = (1 - target) * input + softplus_neg
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def dropout(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return _dropout._dropout_impl(input, p, training, False, False, inplace)


def one_hot(tensor, num_classes=-1):
    if tensor.dtype != _C.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if tensor.numel() == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(tensor.max().item()) + 1
    if tensor.numel() and tensor.min().item() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if tensor.numel() and tensor.max().item() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    # Row-major whatever tensor's layout, as PyTorch's (zeros, then a scatter).
    return (tensor.unsqueeze(-1) == _C.arange(num_classes)).to(_C.int64).contiguous()


# Activations and similarity functions (engine/nn/_activations.py).
from engine.nn import _activations  # noqa: E402

globals().update(_activations.FUNCTIONS)

# Further losses (engine/nn/_losses.py).
from engine.nn import _losses  # noqa: E402

globals().update(_losses.FUNCTIONS)

# Normalisation, embedding, padding and attention (engine/nn/_layers_functional.py).
from engine.nn import _layers_functional  # noqa: E402

globals().update(_layers_functional.FUNCTIONS)

# Dropout variants, further activations and losses, bilinear, local_response_norm, embedding_bag
# ctc_loss and multi_head_attention_forward (engine/nn/_dropout.py, _activations_extra.py,
# _losses_extra.py, _layers_extra.py, _embedding_bag.py, _ctc.py, _attention.py).
from engine.nn import (  # noqa: E402
    _activations_extra,
    _attention,
    _ctc,
    _dropout,
    _embedding_bag,
    _layers_extra,
    _losses_extra,
)

_EXTRA = (
    _dropout,
    _activations_extra,
    _losses_extra,
    _layers_extra,
    _embedding_bag,
    _ctc,
    _attention,
)
for _module in _EXTRA:
    globals().update(_module.FUNCTIONS)

# pdist is torch.pdist (engine/_statistics.py), as in PyTorch.
pdist = engine.pdist

# Convolutions, unfold / fold, pooling and resampling (engine/nn/_conv.py, _pooling.py, _sampling.py).
from engine.nn import _conv, _pooling, _sampling  # noqa: E402

globals().update(_conv.FUNCTIONS)
globals().update(_pooling.FUNCTIONS)
globals().update(_sampling.FUNCTIONS)
