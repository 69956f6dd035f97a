"""Variable-length sequences: pad_sequence, pack_padded_sequence (sorted and not), the recurrent
layers on packed input, pad_packed_sequence, gradients through the packing."""

import sys

lib = __import__(sys.argv[1])
nn = lib.nn
rnn_utils = nn.utils.rnn

lib.manual_seed(0)
seqs = [lib.randn(n, 3) for n in (2, 5, 3)]
padded = rnn_utils.pad_sequence(seqs)
print(padded.shape, rnn_utils.pad_sequence(seqs, batch_first=True, padding_value=-1.0)[0])
print(rnn_utils.pad_sequence(seqs, padding_side="left")[:, 0])
packed = rnn_utils.pack_padded_sequence(padded, [2, 5, 3], enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
print(packed.data)
try:
    rnn_utils.pack_padded_sequence(padded, [2, 5, 3])
except RuntimeError as e:
    print("RuntimeError:", e)
back, lengths = rnn_utils.pad_packed_sequence(packed, batch_first=True, total_length=6)
print(back.shape, lengths, bool((back[:, :5].transpose(0, 1) == padded).all()))
for layer in (
    nn.LSTM(3, 4, bidirectional=True),
    nn.GRU(3, 2, num_layers=2),
    nn.RNN(3, 2, batch_first=True),
):
    x = [s.clone().requires_grad_() for s in seqs]
    source = rnn_utils.pad_sequence(x, batch_first=layer.batch_first)
    out, h = layer(
        rnn_utils.pack_padded_sequence(
            source, [2, 5, 3], batch_first=layer.batch_first, enforce_sorted=False
        )
    )
    print(type(out).__name__, out.data.shape, out.batch_sizes)
    h_n = h[0] if isinstance(h, tuple) else h
    print(h_n)
    unpacked, lens = rnn_utils.pad_packed_sequence(out, batch_first=True)
    (unpacked.sum() + h_n.pow(2).sum()).backward()
    print(x[0].grad)
print(
    [
        s.shape
        for s in rnn_utils.unpack_sequence(rnn_utils.pack_sequence(seqs, enforce_sorted=False))
    ]
)
gru = nn.GRU(3, 2)
h0 = lib.randn(1, 3, 2)
out, h = gru(rnn_utils.pack_sequence(seqs, enforce_sorted=False), h0)
print(h, rnn_utils.pad_packed_sequence(out)[0][-1])
