"""Margin losses over classes (multi_margin, multilabel_margin, multilabel_soft_margin), the
triplet loss with a custom distance, and linear_cross_entropy, composed from native ops with
PyTorch's formulas, checks and reductions."""

from engine import _C
from engine._grad_fn_names import named_grad_fn
from engine.amp._policy import autocast_op


def _functional():
    from engine.nn import functional

    return functional


def _reduced(loss, size_average, reduce, reduction):
    f = _functional()
    return f._reduce(loss, f._reduction(size_average, reduce, reduction))


def _check_long(target):
    if target.dtype != _C.int64:
        name = {_C.float32: "Float", _C.float64: "Double", _C.int32: "Int", _C.bool: "Bool"}
        raise RuntimeError(
            f"expected scalar type Long but found {name.get(target.dtype, target.dtype)}"
        )


def _as_matrix(input, name):
    """(N, C) view of a (C,) or (N, C) input (0-d and N = 0 allowed as PyTorch)."""
    if input.dim() > 2 or (input.dim() == 2 and input.shape[1] == 0 and input.shape[0] != 0):
        raise RuntimeError(
            "Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
            f"{list(input.shape)}"
        )
    if input.dim() < 2:
        return input.reshape(1, -1)
    return input


def _hinge(z, p):
    """max(0, z) ** p with the gradient 0 at z == 0 (PyTorch's `z > 0` test in backward); NaN
    and -inf count as not positive, as in PyTorch's kernel."""
    positive = _C.where(z > 0, z, _C.zeros_like(z))
    return positive if p == 1 else positive * positive


@autocast_op("multi_margin_loss")
@named_grad_fn("MultiMarginLossBackward0")
def multi_margin_loss(
    input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"
):
    """``sum_{i != y} max(0, margin - x[y] + x[i]) ** p / C`` per sample (times ``weight[y]``)."""
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    reduction = _functional()._reduction(size_average, reduce, reduction)
    x = _as_matrix(input, "multi_margin_loss")
    _check_long(target)
    n, c = x.shape
    if input.dim() == 2 and (target.dim() != 1 or target.shape[0] != n):
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of "
            f"input samples (batch size). Expected target size [{n}], but got "
            f"{list(target.shape)}. Input has shape {list(input.shape)}."
        )
    if input.dim() < 2 and target.numel() != 1:
        raise RuntimeError(f"inconsistent target size, expected {n} but got {list(target.shape)}")
    if weight is not None and weight.numel() != c:
        raise RuntimeError(f"inconsistent weight size, expected {c} but got {list(weight.shape)}")
    y = target.reshape(-1, 1)
    if y.numel() and bool(((y < 0) | (y >= c)).any()):
        raise RuntimeError("target out of range")
    picked = x.gather(1, y)
    terms = _hinge(margin - picked + x, p)
    others = _C.arange(c).reshape(1, -1) != y
    terms = _C.where(others, terms, _C.zeros_like(terms))
    if weight is not None:
        terms = terms * weight.index_select(0, y.reshape(-1)).reshape(-1, 1)
    loss = terms.sum(1) / c
    if input.dim() < 2:
        loss = loss.reshape(())
    return _functional()._reduce(loss, reduction)


@autocast_op("multilabel_margin_loss")
@named_grad_fn("MultilabelMarginLossBackward0")
def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """``sum_{j in labels} sum_{i not in labels} max(0, 1 - (x[j] - x[i])) / C`` per sample; the
    labels are target's entries before its first -1."""
    reduction = _functional()._reduction(size_average, reduce, reduction)
    x = _as_matrix(input, "multilabel_margin_loss")
    _check_long(target)
    if tuple(target.shape) != tuple(input.shape):
        raise RuntimeError(
            f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}"
        )
    n, c = x.shape
    t = target.reshape(n, c)
    if t.numel() and bool(((t < -1) | (t >= c)).any()):
        raise RuntimeError("argument #2 'target' is out of range")
    # A label counts while no -1 has come before it (a running product of "not -1").
    valid = (t != -1).to(_C.int64).cumprod(1) > 0
    safe = _C.where(valid, t, _C.zeros_like(t))
    classes = _C.arange(c).reshape(1, 1, c)
    is_label = ((safe.unsqueeze(-1) == classes) & valid.unsqueeze(-1)).any(1)  # (N, C)
    label_scores = x.gather(1, safe)  # (N, K)
    z = 1 - label_scores.unsqueeze(-1) + x.unsqueeze(1)  # (N, K, C)
    pairs = valid.unsqueeze(-1) & ~is_label.unsqueeze(1)
    terms = _hinge(z, 1)
    terms = _C.where(pairs, terms, _C.zeros_like(terms))
    loss = terms.sum((1, 2)) / c
    if input.dim() < 2:
        loss = loss.reshape(())
    return _functional()._reduce(loss, reduction)


def multilabel_soft_margin_loss(
    input, target, weight=None, size_average=None, reduce=None, reduction="mean"
):
    """The mean over classes of ``-(y log sigmoid(x) + (1 - y) log sigmoid(-x))`` per sample."""
    f = _functional()
    if size_average is not None or reduce is not None:
        reduction = f._reduction(size_average, reduce, reduction)
    loss = target * f._softplus_neg(input) + (1 - target) * f._softplus_neg(-input)
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(class_dim) / input.shape[class_dim]
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def triplet_margin_with_distance_loss(
    anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False, reduction="mean"
):
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` for any distance function
    (pairwise_distance by default); with swap, the negative's distance is the smaller of
    d(anchor, negative) and d(positive, negative)."""
    f = _functional()
    f._check_reduction(reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a_dim, p_dim, n_dim = anchor.dim(), positive.dim(), negative.dim()
    if not (a_dim == p_dim == n_dim):
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have "
            f"the same number of dimensions, but got: anchor {a_dim}D, "
            f"positive {p_dim}D, and negative {n_dim}D inputs"
        )
    distance = f.pairwise_distance if distance_function is None else distance_function
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = _C.minimum(dist_neg, distance(positive, negative))
    loss = _C.clamp(margin + dist_pos - dist_neg, 0.0, None)
    return f._reduce(loss, reduction)


def linear_cross_entropy(
    input, linear_weight, target, *, linear_bias=None, weight=None, reduction="mean",
    ignore_index=None, label_smoothing=0.0, options=None,
):  # fmt: skip
    """``cross_entropy(linear(input, linear_weight, linear_bias), target, ...)``; a weight of shape
    (C, d1, ..., dK, in_features) gives a K-dimensional loss. ``options`` (PyTorch's chunking
    strategy) changes only memory use there, so it is accepted and the reference path is used."""
    f = _functional()
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(
            f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}"
        )
    batches = tuple(input.shape[:-1])
    in_features = input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError(
            "expected equal input and linear_weight last dimensions (in_features), "
            f"got {input.shape[-1]} and {linear_weight.shape[-1]}, respectively"
        )
    num_classes = linear_weight.shape[0]
    out_features = tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (num_classes, *out_features):
        raise RuntimeError(
            f"expected linear_bias shape {(num_classes, *out_features)}, "
            f"got {tuple(linear_bias.shape)}"
        )
    if out_features and not batches:
        raise RuntimeError(
            f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} requires"
            f" batched input, (N, {in_features}), got unbatched"
            f" input with shape {tuple(input.shape)}"
        )
    logits_shape = (*batches, num_classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    ignore_index = -100 if ignore_index is None else ignore_index
    rows = num_classes
    for size in out_features:
        rows *= size
    flat_weight = linear_weight.reshape(rows, in_features)
    flat_bias = None if linear_bias is None else linear_bias.reshape(rows)
    logits = f.linear(input, flat_weight, flat_bias).reshape(logits_shape)
    return f.cross_entropy(
        logits, target, weight, ignore_index=ignore_index, reduction=reduction,
        label_smoothing=label_smoothing,
    )  # fmt: skip


FUNCTIONS = {
    f.__name__: f
    for f in (
        multi_margin_loss, multilabel_margin_loss, multilabel_soft_margin_loss,
        triplet_margin_with_distance_loss, linear_cross_entropy,
    )
}  # fmt: skip
