"""Variable-length sequences for the recurrent layers: padding and PackedSequence, as
torch.nn.utils.rnn.

A PackedSequence stores the steps of a batch of sequences sorted by decreasing length, time-major:
``data`` holds, for each time step t, the ``batch_sizes[t]`` sequences still running.
"""

from collections import namedtuple

import engine

__all__ = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pack_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpack_sequence",
    "unpad_sequence",
]


def invert_permutation(permutation):
    """The permutation that undoes ``permutation`` (None stays None)."""
    if permutation is None:
        return None
    output = engine.empty_like(permutation)
    output.scatter_(0, permutation, engine.arange(0, permutation.numel(), dtype=permutation.dtype))
    return output


class PackedSequence(
    namedtuple("PackedSequence", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])
):
    """Sequences packed for a recurrent layer: build it with :func:`pack_padded_sequence` or
    :func:`pack_sequence`, never directly."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:
            # PackedSequence(*pack_padded_sequence(...)) style: data is the tuple itself.
            data, batch_sizes = data[0], data[1]
        if batch_sizes.dtype != engine.int64 or batch_sizes.dim() != 1:
            raise ValueError(
                "batch_sizes should always be on CPU. Instances of PackedSequence should never be created "
                "manually. They should be instantiated by functions like pack_sequence and pack_padded_sequences "
                "in nn.utils.rnn. https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence"
            )
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def _with_data(self, data):
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def to(self, *args, **kwargs):
        """The same packing with ``data.to(*args, **kwargs)``."""
        data = self.data.to(*args, **kwargs)
        return self if data is self.data else self._with_data(data)

    def cpu(self):
        """Already on the CPU: itself."""
        return self

    def double(self):
        """The same packing with float64 data."""
        return self.to(dtype=engine.float64)

    def float(self):
        """The same packing with float32 data."""
        return self.to(dtype=engine.float32)

    @property
    def is_cuda(self):
        """Always False."""
        return False

    def is_pinned(self):
        """Always False."""
        return False


def _lengths_tensor(lengths):
    if isinstance(lengths, engine.Tensor):
        return lengths.to(engine.int64)
    return engine.tensor(list(lengths), dtype=engine.int64)


def _batch_sizes(sorted_lengths):
    """batch_sizes[t] = how many of the (decreasing) lengths exceed t."""
    max_len = int(sorted_lengths[0]) if sorted_lengths.numel() else 0
    steps = engine.arange(max_len).unsqueeze(1)
    return (sorted_lengths.unsqueeze(0) > steps).sum(1)


def _packed_rows(batch_sizes, batch):
    """For each row of the packed data, its index in a (T * batch) time-major padded layout."""
    t_index = engine.arange(batch_sizes.numel()).repeat_interleave(batch_sizes)
    offsets = engine.cat([engine.zeros(1, dtype=engine.int64), batch_sizes.cumsum(0)[:-1]])
    b_index = engine.arange(t_index.numel()) - offsets[t_index]
    return t_index * batch + b_index


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Packs a padded batch (T, B, *) (or (B, T, *) with ``batch_first``) of sequences of the
    given ``lengths``; unless ``enforce_sorted``, the lengths need not be decreasing."""
    lengths = _lengths_tensor(lengths)
    if enforce_sorted:
        if lengths.numel() > 1 and bool((lengths[:-1] < lengths[1:]).any()):
            raise RuntimeError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass "
                "`enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this requirement "
                "if you do not need ONNX exportability."
            )
        sorted_indices = None
    else:
        lengths, sorted_indices = engine.sort(lengths, descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if lengths.numel() and int(lengths.min()) <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0"
        )
    if batch_first:
        input = input.transpose(0, 1)
    if lengths.numel() and int(lengths[0]) > input.size(0):
        raise RuntimeError(
            f"Expected sequence length to be larger than or equal to the max length {int(lengths[0])}, "
            f"but got {input.size(0)}"
        )
    batch_sizes = _batch_sizes(lengths)
    rows = _packed_rows(batch_sizes, input.size(1))
    data = input.reshape(input.size(0) * input.size(1), *input.shape[2:]).index_select(0, rows)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _padded_sorted(sequence, padding_value=0.0, total_length=None):
    """(padded (T, B, *), lengths) of a PackedSequence, in its sorted (decreasing length) order."""
    batch_sizes = sequence.batch_sizes
    max_len = batch_sizes.numel()
    batch = int(batch_sizes[0]) if max_len else 0
    if total_length is not None:
        if total_length < max_len:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in input, but got "
                f"total_length={total_length} and max sequence length being {max_len}"
            )
        max_len = total_length
    data = sequence.data
    rows = _packed_rows(batch_sizes, batch)
    padded = engine.full((max_len * batch, *data.shape[1:]), padding_value, dtype=data.dtype)
    padded = padded.index_copy(0, rows, data).reshape(max_len, batch, *data.shape[1:])
    lengths = (batch_sizes.unsqueeze(0) > engine.arange(batch).unsqueeze(1)).sum(1)
    return padded, lengths


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Unpacks to a padded batch and the lengths, in the original batch order: the inverse of
    :func:`pack_padded_sequence`."""
    padded, lengths = _padded_sorted(sequence, padding_value, total_length)
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(1, sequence.unsorted_indices)
        lengths = lengths[sequence.unsorted_indices]
    if batch_first:
        padded = padded.transpose(0, 1)
    return padded, lengths


def _pack_like(padded, like):
    """Packs a padded (T, B, *) batch, in sorted order, with the layout of the PackedSequence
    ``like``: how a recurrent layer returns a packed output."""
    padded = padded[: like.batch_sizes.numel()]
    rows = _packed_rows(like.batch_sizes, padded.size(1))
    data = padded.reshape(padded.size(0) * padded.size(1), *padded.shape[2:]).index_select(0, rows)
    return like._with_data(data)


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stacks sequences of different lengths (L_i, *) into (L_max, B, *) (or (B, L_max, *)),
    padded with ``padding_value`` on ``padding_side``.

    Args:
        sequences (list of Tensors): the sequences, (L_i, *) each.
        batch_first (bool): put the batch dimension first. Default: ``False``.
        padding_value (float): the fill value. Default: 0.
        padding_side (str): ``'right'`` or ``'left'``. Default: ``'right'``.

    Example::

        >>> a, b = engine.tensor([1, 2, 3]), engine.tensor([4])
        >>> engine.nn.utils.rnn.pad_sequence([a, b], batch_first=True)
        tensor([[1, 2, 3],
                [4, 0, 0]])
    """
    if padding_side not in ("left", "right"):
        raise ValueError(
            f"Expected padding_side to be one of left or right, but got {padding_side}."
        )
    if isinstance(sequences, engine.Tensor):
        sequences = sequences.unbind(0)
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    max_len = max(s.size(0) for s in sequences)
    padded = []
    for s in sequences:
        extra = max_len - s.size(0)
        if extra:
            fill = engine.full((extra, *s.shape[1:]), padding_value, dtype=s.dtype)
            s = engine.cat([s, fill] if padding_side == "right" else [fill, s])
        padded.append(s)
    return engine.stack(padded, 0 if batch_first else 1)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences a padded batch holds, each cut to its length."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[: int(length)] for seq, length in zip(padded_sequences, lengths)]


def pack_sequence(sequences, enforce_sorted=True):
    """Packs a list of sequences (L_i, *) directly."""
    lengths = engine.tensor([v.size(0) for v in sequences], dtype=engine.int64)
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences a PackedSequence holds, in the original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
