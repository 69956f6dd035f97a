"""ctc_loss: the connectionist temporal classification loss, by the forward (alpha) recursion in
log space, vectorised over the batch and the extended label sequence with one step of tensor
ops per time step.

The gradient is PyTorch's: its backward returns ``exp(log_probs) - posterior`` for the frames
within each input length, which is the true gradient with respect to the logits when log_probs
come from log_softmax (the usual case; the two agree after log_softmax's backward). The extra
``exp(log_probs)`` term is added here as a value-free term, so values are untouched."""

import math

from engine import _C

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _lengths(lengths, name):
    if isinstance(lengths, (list, tuple)):
        return _C.tensor(list(lengths), dtype=_C.int64)
    if not hasattr(lengths, "dtype"):
        raise TypeError(f"ctc_loss(): {name} must be a tuple of ints or a Tensor")
    if lengths.dtype not in (_C.int64, _C.int32):
        raise RuntimeError(f"{name} must be integral")
    return lengths.reshape(-1).to(_C.int64)


def _logaddexp(terms):
    """log(sum(exp(t))) of same-shape tensors, -inf where all are -inf, with no NaN in the
    gradient there (the sum is replaced by 1 before its log where it is 0)."""
    m = terms[0].detach()
    for t in terms[1:]:
        m = _C.maximum(m, t.detach())
    m = _C.where(m.isfinite(), m, _C.zeros_like(m))
    total = _C.exp(terms[0] - m)
    for t in terms[1:]:
        total = total + _C.exp(t - m)
    positive = total > 0
    safe = _C.where(positive, total, _C.ones_like(total))
    return _C.where(positive, m + _C.log(safe), _C.full_like(total, -math.inf))


def _shift(x, by, fill):
    """x moved `by` places to the right along dim 1, the vacated places set to fill."""
    pad = _C.full([x.shape[0], by], fill, dtype=x.dtype)
    return _C.cat([pad, x.narrow(1, 0, x.shape[1] - by)], 1)


def _padded_targets(targets, target_lengths, batch):
    """(N, S) targets from a padded (N, S) or a concatenated 1D tensor; entries past each
    length are 0 (never read as labels)."""
    longest = int(target_lengths.max().item()) if batch else 0
    # The sizes are checked against targets before anything of that size is allocated.
    if targets.dim() == 2 and targets.shape[1] < longest:
        raise RuntimeError(
            f"Expected tensor to have size at least {longest} at dimension 1, but got size "
            f"{targets.shape[1]} for argument #2 'targets' (while checking arguments for ctc_loss)"
        )
    if targets.dim() != 2:
        total = int(target_lengths.sum().item())
        if targets.shape[0] < total:
            raise RuntimeError(
                f"Expected tensor to have size at least {total} at dimension 0, but got size "
                f"{targets.shape[0]} for argument #2 'targets' (while checking arguments for ctc_loss)"
            )
    positions = _C.arange(max(longest, 0)).reshape(1, -1)
    valid = positions < target_lengths.reshape(-1, 1)
    if targets.dim() == 2:
        padded = targets.narrow(1, 0, longest)
    else:
        starts = target_lengths.cumsum(0) - target_lengths
        index = _C.where(
            valid, starts.reshape(-1, 1) + positions, _C.zeros_like(valid, dtype=_C.int64)
        )
        padded = targets.reshape(-1).index_select(0, index.reshape(-1)).reshape(batch, longest)
    return _C.where(valid, padded.to(_C.int64), _C.zeros_like(padded, dtype=_C.int64)), valid


def _nll(log_probs, targets, input_lengths, target_lengths, blank):
    """Per-sample negative log-likelihood of the targets (T, N, C log_probs)."""
    steps, batch, classes = log_probs.shape
    labels, valid = _padded_targets(targets, target_lengths, batch)
    if bool((valid & ((labels < 0) | (labels >= classes))).any()):
        raise RuntimeError(f"ctc_loss(): target values must lie in [0, {classes})")
    longest = labels.shape[1]
    width = 2 * longest + 1
    # The extended label sequence: blank, l1, blank, l2, ..., blank.
    blanks = _C.full([batch, longest], blank, dtype=_C.int64)
    extended = _C.cat(
        [_C.stack([blanks, labels], 2).reshape(batch, 2 * longest), blanks.narrow(1, 0, 1)
         if longest else _C.full([batch, 1], blank, dtype=_C.int64)], 1
    )  # fmt: skip
    # A label may be reached from two places back unless it repeats the label there.
    state = _C.arange(width).reshape(1, -1)
    skip = (state % 2 == 1) & (state >= 2)
    if width > 2:
        skip = skip & (extended != _shift(extended, 2, -1))
    emissions = log_probs.gather(2, extended.unsqueeze(0).expand(steps, batch, width))
    neg_inf = _C.full([batch, width], -math.inf, dtype=log_probs.dtype)
    # Before the first frame all probability sits on the first state.
    alpha = _C.where(state == 0, _C.zeros_like(neg_inf), neg_inf)
    lengths = input_lengths.reshape(-1, 1)
    for t in range(int(input_lengths.max().item()) if batch else 0):
        from_skip = _C.where(skip, _shift(alpha, 2, -math.inf), neg_inf)
        step = _logaddexp([alpha, _shift(alpha, 1, -math.inf), from_skip]) + emissions[t]
        alpha = _C.where(lengths > t, step, alpha)
    last = (2 * target_lengths).reshape(-1, 1)
    end = alpha.gather(1, last)
    before_end = _C.where(last > 0, alpha.gather(1, _C.clamp(last - 1, 0, None)), neg_inf[:, :1])
    return -_logaddexp([end, before_end]).reshape(-1)


def _pytorch_gradient_term(log_probs, input_lengths):
    """Per sample, ``sum exp(log_probs)`` over its frames minus the same without history: zero
    in value, ``exp(log_probs)`` in gradient (the term of PyTorch's CTC backward)."""
    steps = log_probs.shape[0]
    frames = (_C.arange(steps).reshape(-1, 1) < input_lengths.reshape(1, -1)).to(log_probs.dtype)
    mass = (_C.exp(log_probs).sum(2) * frames).sum(0)
    return mass - mass.detach()


def ctc_loss(
    log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
    zero_infinity=False,
):  # fmt: skip
    """The CTC loss of (T, N, C) or (T, C) log-probabilities against targets (padded (N, S) or
    concatenated), per sample ``-log p(target | input)``; 'mean' divides each by its target
    length (at least 1) before averaging; zero_infinity turns infinite losses (and their
    gradients) into 0."""
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    input_lengths = _lengths(input_lengths, "input_lengths")
    target_lengths = _lengths(target_lengths, "target_lengths")
    unbatched = log_probs.dim() == 2
    if unbatched:
        log_probs = log_probs.unsqueeze(1)
        targets = targets.unsqueeze(0) if targets.dim() == 1 else targets
    if log_probs.dim() != 3:
        raise RuntimeError(
            f"ctc_loss(): log_probs must be (T, N, C) or (T, C), got {log_probs.dim()}D"
        )
    if targets.dtype not in (_C.int64, _C.int32):
        raise RuntimeError(f"ctc_loss(): targets must be an integer tensor, got {targets.dtype}")
    steps, batch, classes = log_probs.shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    if input_lengths.numel() != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if target_lengths.numel() != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    for lengths, name in ((input_lengths, "input_lengths"), (target_lengths, "target_lengths")):
        if batch and int(lengths.min().item()) < 0:
            raise RuntimeError(
                f"Expected {name} to have value at least 0, but got value "
                f"{int(lengths.min().item())} (while checking arguments for ctc_loss)"
            )
    if batch and int(input_lengths.max().item()) > steps:
        raise RuntimeError(
            f"Expected input_lengths to have value at most {steps}, but got value "
            f"{int(input_lengths.max().item())} (while checking arguments for ctc_loss)"
        )
    loss = _nll(log_probs, targets, input_lengths, target_lengths, blank)
    loss = loss + _pytorch_gradient_term(log_probs, input_lengths)
    if zero_infinity:
        loss = _C.where(loss.detach().isinf(), _C.zeros_like(loss).detach(), loss)
    if reduction == "mean":
        divisor = _C.clamp(target_lengths, 1, None).to(loss.dtype)
        return (loss / divisor).mean()
    if reduction == "sum":
        return loss.sum()
    return loss.reshape(()) if unbatched else loss


def torch_ctc_loss(
    log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0, zero_infinity=False
):
    """``torch.ctc_loss``: reduction as an int (0 none, 1 mean, 2 sum); unreduced by default, as
    PyTorch's Python binding behaves."""
    name = {0: "none", 1: "mean", 2: "sum"}.get(reduction, reduction)
    return ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, name, zero_infinity)


FUNCTIONS = {"ctc_loss": ctc_loss}
TORCH_FUNCTIONS = {"ctc_loss": torch_ctc_loss}
