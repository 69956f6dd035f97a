"""embedding_bag: sums, means or maxima of bags of embedding rows, without materialising the
per-bag embeddings one bag at a time.

Bags are given by `offsets` into a 1D index tensor (or are the rows of a 2D one). Every position
is assigned its bag id (a cumulative count of bag starts), rows are gathered once, and the bags
are reduced with index_add (sum, mean) or, for max, by a segment maximum and the first position
that holds it. Indices equal to padding_idx do not count; empty bags give zeros."""

from engine import _C
from engine._grad_fn_names import named_grad_fn
from engine.autograd.grad_mode import no_grad

_MODES = {"sum": 0, "mean": 1, "max": 2}


def _check_indices(indices, weight):
    if indices.dtype not in (_C.int64, _C.int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
            f"Long, Int; but got {indices.dtype} instead (while checking arguments for embedding_bag)"
        )
    num = weight.shape[0]
    bad = (indices < 0) | (indices >= num)
    if indices.numel() and bool(bad.any()):
        position = int(bad.to(_C.int64).argmax().item())
        value = int(indices[position].item())
        raise RuntimeError(
            f"Index {position} of input takes value {value} which is not in the valid range [0, {num})"
        )


def _bag_ids(offsets, length, bags):
    """The bag id of each of `length` positions, given each bag's start offset."""
    starts = offsets[1:bags] if bags > 1 else offsets[:0]
    starts = starts[starts < length]
    marks = _C.zeros([length], dtype=_C.int64).index_add(0, starts, _C.ones_like(starts))
    return marks.cumsum(0)


def _renorm_rows(weight, indices, max_norm, norm_type):
    """Rescales, in place and without history, the rows of weight that indices select whose
    norm exceeds max_norm (PyTorch's embedding_renorm_)."""
    with no_grad():
        rows = weight.index_select(0, indices)
        norms = rows.norm(norm_type, 1, keepdim=True)
        scale = _C.where(norms > max_norm, max_norm / (norms + 1e-7), _C.ones_like(norms))
        weight.index_copy_(0, indices, rows * scale)


def _bag_reduce(weight, indices, offsets, mode, per_sample_weights, include_last_offset,
                padding_idx, scale_grad_by_freq):  # fmt: skip
    """(output, offset2bag, bag_size, max_indices) as ATen's embedding_bag returns them."""
    length = indices.shape[0]
    bags = offsets.shape[0] - 1 if include_last_offset else offsets.shape[0]
    bags = max(bags, 0)
    dim = weight.shape[1]
    if bags == 0:
        empty = _C.zeros([0], dtype=_C.int64)
        return (weight.index_select(0, empty) * 0.0, _C.zeros_like(indices), empty,
                _C.zeros([0, dim], dtype=_C.int64))  # fmt: skip
    bag = _bag_ids(offsets, length, bags) if length else _C.zeros([0], dtype=_C.int64)
    in_range = bag < bags
    keep = in_range if padding_idx is None else in_range & (indices != padding_idx)
    safe_bag = _C.where(in_range, bag, _C.zeros_like(bag))
    rows = weight.index_select(0, indices)
    if scale_grad_by_freq and length:
        counts = _C.zeros([weight.shape[0]], dtype=weight.dtype).index_add(
            0, indices, _C.ones([length], dtype=weight.dtype)
        )
        inverse = (1.0 / counts.index_select(0, indices)).unsqueeze(1)
        rows = rows.detach() + (rows - rows.detach()) * inverse
    keep_f = keep.to(weight.dtype).unsqueeze(1)
    bag_size = _C.zeros([bags], dtype=_C.int64).index_add(0, safe_bag, keep.to(_C.int64))
    if mode in ("sum", "mean"):
        contrib = rows * keep_f
        if per_sample_weights is not None:
            contrib = contrib * per_sample_weights.unsqueeze(1)
        out = _C.zeros([bags, dim], dtype=weight.dtype).index_add(0, safe_bag, contrib)
        if mode == "mean":
            out = out / _C.clamp(bag_size, 1, None).to(weight.dtype).unsqueeze(1)
        return out, bag, bag_size, bag_size if mode == "mean" else _C.zeros_like(bag_size)
    # max: each bag's maximum per column (without history), then the first position holding it;
    # the output gathers the rows at those positions, so the gradient reaches one row per
    # column, as PyTorch's. A bag's positions are contiguous, so both are segment reductions
    # (NumPy's reduceat); memory stays O(positions * dim), however uneven the bags.
    if length == 0:
        zeros = _C.zeros([bags, dim], dtype=weight.dtype)
        return zeros, bag, bag_size, _C.zeros([bags, dim], dtype=_C.int64)
    import numpy as np

    keep_np = keep.numpy()[:, None]
    candidates = np.where(keep_np, rows.detach().numpy(), -np.inf)
    starts = np.minimum(offsets[:bags].numpy(), length - 1)
    best = np.maximum.reduceat(candidates, starts, axis=0)
    best_here = best[np.minimum(bag.numpy(), bags - 1)]
    hit = keep_np & ((candidates == best_here) | (np.isnan(candidates) & np.isnan(best_here)))
    marked = np.where(hit, np.arange(length)[:, None], length - 1)
    first = _C.from_numpy(np.minimum.reduceat(marked, starts, axis=0).astype(np.int64))
    empty = (bag_size == 0).unsqueeze(1)
    values = _C.where(empty, _C.zeros([bags, dim], dtype=weight.dtype), rows.gather(0, first))
    max_indices = _C.where(
        empty,
        _C.zeros_like(first),
        indices.index_select(0, first.reshape(-1)).reshape(bags, dim),
    )
    return values, bag, bag_size, max_indices


@named_grad_fn("EmbeddingBagBackward0")
def embedding_bag(
    input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
    mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None,
):  # fmt: skip
    """Sums (``mode='sum'``, optionally weighted by per_sample_weights), means or maxima of bags
    of rows of weight. A 2D input holds one bag per row; a 1D input is cut into bags at
    `offsets` (with include_last_offset, offsets' last entry ends the last bag)."""
    if weight.dim() != 2:
        raise ValueError(
            f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}"
        )
    if input.dtype not in (_C.int64, _C.int32):
        _check_indices(input, weight)
    if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
        raise ValueError(
            f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, "
            f"then it must have the same shape as the input ({input.shape})"
        )
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a mini-batch "
                f"of fixed length sequences. However, found offsets of type {type(offsets)}"
            )
        rows, cols = input.shape
        offsets = _C.arange(0, rows * cols, cols) if cols else _C.zeros([rows], dtype=_C.int64)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(
            f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}"
        )
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if max_norm is not None and input.numel():
        _renorm_rows(weight, input.to(_C.int64), max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported "
            f"for mode='sum' (got mode='{mode}'). Please open a feature request on GitHub."
        )
    mode_index = _MODES[mode]
    return torch_embedding_bag(
        weight, input, offsets, scale_grad_by_freq, mode_index, sparse, per_sample_weights,
        include_last_offset, padding_idx if padding_idx is not None else -1,
    )[0]  # fmt: skip


def torch_embedding_bag(
    weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
    per_sample_weights=None, include_last_offset=False, padding_idx=None,
):  # fmt: skip
    """``torch.embedding_bag``: mode 0 (sum), 1 (mean) or 2 (max); returns (output, offset2bag,
    bag_size, max_indices); padding_idx -1 or None means none."""
    _check_indices(indices, weight)
    if offsets.dtype not in (_C.int64, _C.int32):
        raise RuntimeError(
            "Expected tensor for argument #2 'offsets' to have one of the following scalar types: "
            f"Long, Int; but got {offsets.dtype} instead (while checking arguments for embedding_bag)"
        )
    offsets = offsets.to(_C.int64)
    indices = indices.to(_C.int64)
    num = weight.shape[0]
    if padding_idx is not None and padding_idx != -1:
        if not -num <= padding_idx < num:
            raise RuntimeError(
                f"padding_idx must be within the number of embeddings, -{num} through {num - 1}, "
                f"but got {padding_idx}"
            )
        padding_idx %= num
    else:
        padding_idx = None
    if offsets.numel():
        first = int(offsets[0].item())
        if first != 0:
            raise RuntimeError(
                "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
                f"from position 0. However, got {first}"
            )
        last = int(offsets[-1].item())
        if last > indices.shape[0]:
            raise RuntimeError(
                f"offsets[-1] can not be greater than input's length {indices.shape[0]} but got "
                f"offsets[-1] of {last}"
            )
        if offsets.numel() > 1 and bool((offsets[1:] < offsets[:-1]).any()):
            raise RuntimeError("embedding_bag: offsets must be non-decreasing")
    name = {0: "sum", 1: "mean", 2: "max"}.get(mode)
    if name is None:
        raise RuntimeError(f"embedding_bag: unknown mode {mode}")
    return _bag_reduce(weight, indices, offsets, name, per_sample_weights, include_last_offset,
                       padding_idx, scale_grad_by_freq)  # fmt: skip


FUNCTIONS = {"embedding_bag": embedding_bag}
TORCH_FUNCTIONS = {"embedding_bag": torch_embedding_bag}
