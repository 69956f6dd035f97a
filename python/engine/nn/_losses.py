"""The loss functions of engine.nn.functional beyond cross-entropy, NLL, MSE, L1 and BCE,
composed from native ops with PyTorch's formulas and reductions."""

import math
import warnings

from engine import _C
from engine._grad_fn_names import arg, named_grad_fn
from engine.amp._policy import autocast_op
from engine.autograd.grad_mode import no_grad
from engine.nn._floating_inputs import require_floating_common


def _functional():
    from engine.nn import functional

    return functional


def _reduced(loss, size_average, reduce, reduction):
    f = _functional()
    return f._reduce(loss, f._reduction(size_average, reduce, reduction))


@autocast_op("huber_loss")
@named_grad_fn("HuberLossBackward0")
def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """Huber loss of ``d = input - target``: ``0.5 d**2`` where ``|d| < delta``,
    ``delta * (|d| - 0.5 delta)`` elsewhere (quadratic near 0, linear beyond).

    Args:
        input (Tensor): the predictions.
        target (Tensor): the targets, broadcast to ``input``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.
        delta (float): where the loss turns linear, > 0. Default: 1.
        weight (Tensor, optional): per-element weights.

    Example::

        >>> engine.nn.functional.huber_loss(engine.tensor([0.5, 3.0]), engine.zeros(2), reduction='none')
        tensor([0.1250, 2.5000])
    """
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    f = _functional()
    f._check_same_size(input, target)
    require_floating_common("huber_cpu", input, target)
    d = input - target
    a = _C.abs(d)
    # The quadratic branch sees 0 where it is not taken, so an infinite difference cannot leak
    # a NaN gradient (inf * 0) through it.
    # NaN takes the quadratic branch, whose gradient (d) carries it, as PyTorch's backward does.
    linear = a >= delta
    dq = _C.where(linear, _C.zeros_like(d), d)
    loss = _C.where(linear, delta * (a - 0.5 * delta), 0.5 * dq * dq)
    if weight is not None:
        loss = loss * weight
    return _reduced(loss, None, None, reduction)


@autocast_op("smooth_l1_loss")
@named_grad_fn(lambda *a, **k: "SmoothL1LossBackward0" if arg(a, k, 5, "beta", 1.0) else None)
def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """Smooth L1 loss of ``d = input - target``: ``0.5 d**2 / beta`` where ``|d| < beta``,
    ``|d| - 0.5 beta`` elsewhere; plain L1 when ``beta`` is 0.

    Args:
        input (Tensor): the predictions.
        target (Tensor): the targets, broadcast to ``input``.
        size_average, reduce: deprecated forms of ``reduction``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.
        beta (float): where the loss turns linear, >= 0. Default: 1.

    Example::

        >>> engine.nn.functional.smooth_l1_loss(engine.tensor([0.5, 3.0]), engine.zeros(2), reduction='none')
        tensor([0.1250, 2.5000])
    """
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    f = _functional()
    f._check_same_size(input, target)
    require_floating_common("smooth_l1_cpu", input, target)
    reduction = f._reduction(size_average, reduce, reduction)
    if beta != 0 and f._records(input, target):
        # One node, SmoothL1LossBackward0, over the value computed without history.
        with no_grad():
            out = _smooth_l1_values(input, target, reduction, beta)
        return _C._record_loss(
            out, "smooth_l1", f._REDUCTION_ENUM[reduction], input, target, beta=float(beta)
        )
    return _smooth_l1_values(input, target, reduction, beta)


def _smooth_l1_values(input, target, reduction, beta):
    """smooth_l1_loss composed (each op differentiable); plain L1 when beta is 0."""
    d = input - target
    a = _C.abs(d)
    linear = a >= beta
    dq = _C.where(linear, _C.zeros_like(d), d)
    loss = a if beta == 0 else _C.where(linear, a - 0.5 * beta, 0.5 * dq * dq / beta)
    return _functional()._reduce(loss, reduction)


@autocast_op("kl_div")
def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """Kullback-Leibler divergence ``target * (log(target) - input)`` summed as ``reduction``
    says, for log-probabilities ``input`` (0 where ``target`` is 0). ``'batchmean'`` (the sum
    divided by the batch size) is the mathematically correct KL; ``'mean'`` divides by the
    number of elements.

    Args:
        input (Tensor): log-probabilities.
        target (Tensor): probabilities (log-probabilities with ``log_target=True``).
        size_average, reduce: deprecated forms of ``reduction``.
        reduction (str): ``'none'``, ``'batchmean'``, ``'sum'`` or ``'mean'``. Default: ``'mean'``.
        log_target (bool): ``target`` holds log-probabilities. Default: ``False``.

    Example::

        >>> p = engine.tensor([[0.5, 0.5]])
        >>> engine.nn.functional.kl_div(p.log(), p, reduction='batchmean')
        tensor(0.)
    """
    if not (input.dtype.is_floating_point and target.dtype.is_floating_point):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        loss = _C.exp(target) * (target - input)
    else:
        loss = _C.xlogy(target, target) - target * input
    if reduction == "batchmean":
        if size_average is not None or reduce is not None:
            return _reduced(loss, size_average, reduce, "mean")
        return loss.sum() / input.shape[0] if input.dim() else loss.sum()
    if reduction == "mean" and size_average is None and reduce is None:
        warnings.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support size."
            "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
            "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
            UserWarning,
            stacklevel=2,
        )
    return _reduced(loss, size_average, reduce, reduction)


@autocast_op("margin_ranking_loss")
def margin_ranking_loss(
    input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"
):
    """``max(0, -target * (input1 - input2) + margin)``."""
    if not (input1.dim() == input2.dim() == target.dim()):
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} "
        )
    loss = _C.clamp(-target * (input1 - input2) + margin, 0.0, None)
    return _reduced(loss, size_average, reduce, reduction)


@autocast_op("soft_margin_loss")
@named_grad_fn("SoftMarginLossBackward0")
def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """``log(1 + exp(-target * input))``."""
    f = _functional()
    return _reduced(f._softplus_neg(target * input), size_average, reduce, reduction)


@autocast_op("hinge_embedding_loss")
def hinge_embedding_loss(
    input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"
):
    """input where target is 1, ``max(0, margin - input)`` where target is -1."""
    zeros = _C.zeros_like(input)
    loss = _C.where(target == 1, input, zeros) + _C.where(
        target == -1, _C.clamp(margin - input, 0.0, None), zeros
    )
    return _reduced(loss, size_average, reduce, reduction)


@autocast_op("cosine_embedding_loss")
def cosine_embedding_loss(
    input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"
):
    """``1 - cos(x1, x2)`` where target is 1, ``max(0, cos(x1, x2) - margin)`` where it is -1."""
    dim = input1.dim() - 1
    eps = 1e-12
    products = (input1 * input2).sum(dim)
    norms = _C.sqrt(((input1 * input1).sum(dim) + eps) * ((input2 * input2).sum(dim) + eps))
    cos = products / norms
    zeros = _C.zeros_like(cos)
    loss = _C.where(target == 1, 1 - cos, zeros) + _C.where(
        target == -1, _C.clamp(cos - margin, 0.0, None), zeros
    )
    return _reduced(loss, size_average, reduce, reduction)


@autocast_op("triplet_margin_loss")
def triplet_margin_loss(
    anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None, reduce=None,
    reduction="mean",
):  # fmt: skip
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` with the p-norm distance."""
    f = _functional()
    d_pos = f.pairwise_distance(anchor, positive, p, eps)
    d_neg = f.pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = _C.minimum(d_neg, f.pairwise_distance(positive, negative, p, eps))
    loss = _C.clamp(margin + d_pos - d_neg, 0.0, None)
    return _reduced(loss, size_average, reduce, reduction)


@autocast_op("poisson_nll_loss")
def poisson_nll_loss(
    input,
    target,
    log_input=True,
    full=False,
    size_average=None,
    eps=1e-8,
    reduce=None,
    reduction="mean",
):
    """``exp(input) - target * input`` (log_input) or ``input - target * log(input + eps)``; with
    ``full``, Stirling's approximation of ``log(target!)`` is added where target > 1."""
    if log_input:
        loss = _C.exp(input) - target * input
    else:
        loss = input - target * _C.log(input + eps)
    if full:
        stirling = target * _C.log(target) - target + 0.5 * _C.log(2 * math.pi * target)
        loss = loss + _C.where(target > 1, stirling, _C.zeros_like(stirling))
    return _reduced(loss, size_average, reduce, reduction)


FUNCTIONS = {
    f.__name__: f
    for f in (
        huber_loss, smooth_l1_loss, kl_div, margin_ranking_loss, soft_margin_loss, hinge_embedding_loss,
        cosine_embedding_loss, triplet_margin_loss, poisson_nll_loss,
    )
}  # fmt: skip
