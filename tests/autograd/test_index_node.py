"""Advanced indexing records one IndexBackward0 node, as PyTorch's: its next function is the
indexed tensor's own (no slice or view nodes in between for whole-dim slices), it saves the index
tensors (`_saved_indices`, None for dims indexed otherwise, `_raw_saved_indices` with hooks) and
the indexed sizes, and its gradient scatters back, to any order. Indexing that picks everything
(`x[...]`, `x[:, :]`) gives a view of all of x (AliasBackward0), never x itself."""

import engine as torch
import pytest

a = torch.arange(12.0).view(3, 4).requires_grad_()
i = torch.tensor([0, 2])


@pytest.mark.parametrize(
    ("call", "indices", "sizes", "next_name"),
    [
        (lambda: a[:, i], [None, [0, 2]], (3, 4), "AccumulateGrad"),
        (lambda: a[i], [[0, 2]], (3, 4), "AccumulateGrad"),
        (lambda: a[i, i], [[0, 2], [0, 2]], (3, 4), "AccumulateGrad"),
        (lambda: a[None, i], [None, [0, 2]], (1, 3, 4), "UnsqueezeBackward0"),
        (lambda: a[0, i], [[0, 2]], (4,), "SelectBackward0"),
        (lambda: a[i, :1], [[0, 2]], (3, 1), "SliceBackward0"),
        (
            lambda: a[:, torch.tensor([[0, 1], [3, 3]])],
            [None, [[0, 1], [3, 3]]],
            (3, 4),
            "AccumulateGrad",
        ),
    ],
)
def test_one_node_saving_the_indices(call, indices, sizes, next_name):
    out = call()
    fn = out.grad_fn
    assert type(fn).__name__ == "IndexBackward0"
    assert not out._is_view()
    assert [None if t is None else t.tolist() for t in fn._saved_indices] == indices
    assert fn._saved_self_sym_sizes == sizes
    assert type(fn.next_functions[0][0]).__name__ == next_name


@pytest.mark.parametrize(
    "call",
    [
        lambda t: t[:, torch.tensor([0, 2, 2])],
        lambda t: t[torch.tensor([0, 0]), 1:],
        lambda t: t[torch.tensor([[0, 1], [2, 0]])],
        lambda t: t[torch.tensor([0, 0, 1]), torch.tensor([1, 1, 2])],
        lambda t: t[t > 0.5],
        lambda t: t[None, :, torch.tensor([1, 3])],
    ],
)
def test_gradients_first_and_second_order(call):
    x = torch.rand(3, 4, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: call(t) ** 2, (x,))
    assert torch.autograd.gradgradcheck(lambda t: call(t) ** 2, (x,))


def test_repeated_indices_accumulate():
    x = torch.zeros(3, requires_grad=True)
    x[torch.tensor([1, 1, 2])].sum().backward()
    assert x.grad.tolist() == [0.0, 2.0, 1.0]


def test_saved_indices_hooks_and_freeing():
    out = a[:, i]
    raw = out.grad_fn._raw_saved_indices
    assert isinstance(raw[1], torch._C._autograd.SavedTensor)
    raw[1].register_hooks(lambda x: x, lambda x: x)
    with pytest.raises(RuntimeError, match="None is forbidden"):
        raw[0].register_hooks(lambda x: x, lambda x: x)
    out.sum().backward()
    with pytest.raises(RuntimeError, match="after they have already been freed"):
        _ = out.grad_fn._saved_indices


def test_no_node_without_grad():
    with torch.no_grad():
        assert a[i].grad_fn is None
    assert torch.ones(3)[torch.tensor([1])].grad_fn is None


def test_result_written_in_place_records_its_own_node():
    out = a.clone()[i]
    out.add_(1)
    assert type(out.grad_fn).__name__ == "AddBackward0" and out._version == 1


@pytest.mark.parametrize(
    "key", [(Ellipsis,), (slice(None), slice(None)), (slice(None), slice(0, 100))]
)
def test_picking_everything_is_an_alias(key):
    out = a[key]
    assert out is not a and out._is_view() and out.data_ptr() == a.data_ptr()
    assert type(out.grad_fn).__name__ == "AliasBackward0"
    assert type(out.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"


def test_whole_dim_slices_add_no_node():
    out = a[:, 0]
    assert type(out.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"
    assert type(a[:].grad_fn).__name__ == "SliceBackward0"  # alone, a slice is still a view op
