"""Ops engine composes from others show PyTorch's saved attributes on their node, tensors included:
``grad_fn._saved_<name>`` gives the tensor the op was called with (released, like the node's own,
after backward), beside the values PyTorch's node keeps."""

import re

import engine as torch
import pytest


def saved_names(fn):
    return sorted(k for k in dir(fn) if k.startswith("_saved"))


def test_addbmm_shows_its_batches_beside_the_sizes():
    b = torch.ones(2, 3, 4, requires_grad=True)
    c = torch.ones(2, 4, 5)
    out = torch.addbmm(torch.zeros(3, 5), b, c)
    fn = out.grad_fn
    assert saved_names(fn) == [
        "_saved_alpha",
        "_saved_batch1",
        "_saved_batch1_sym_argsize_0",
        "_saved_batch1_sym_argsize_1",
        "_saved_batch2",
        "_saved_batch2_sym_argsize_2",
        "_saved_beta",
    ]
    # Each batch is kept where the other one's gradient needs it.
    assert fn._saved_batch1 is None and fn._saved_batch2 is c
    c.requires_grad_()
    fn = torch.addbmm(torch.zeros(3, 5), b, c).grad_fn
    assert fn._saved_batch1 is b and fn._saved_batch2 is c


def test_threshold_shows_input_and_threshold_as_given():
    x = torch.tensor([0.5, 2.0], requires_grad=True)
    for given, kind in ((1.0, float), (1, int), (False, bool)):
        fn = torch.threshold(x, given, 0.0).grad_fn
        assert saved_names(fn) == ["_saved_self", "_saved_threshold"]
        assert type(fn._saved_threshold) is kind and fn._saved_threshold == given
        assert fn._saved_self is x


def test_as_strided_shows_size_stride_and_offset():
    a = torch.ones(2, 2, requires_grad=True)
    fn = a.as_strided((3,), (1,), 1).grad_fn
    assert (fn._saved_size, fn._saved_stride, fn._saved_storage_offset) == ((3,), (1,), 1)
    assert a.as_strided((3,), (1,)).grad_fn._saved_storage_offset is None


def test_masked_ops_show_the_mask():
    a = torch.ones(2, 2, requires_grad=True)
    m = torch.tensor([[True, False], [False, True]])
    fn = a.masked_select(m).grad_fn
    assert saved_names(fn) == ["_saved_mask", "_saved_self"]
    assert fn._saved_mask is m and fn._saved_self is a
    fn = a.masked_fill(m, 0.0).grad_fn
    assert saved_names(fn) == ["_saved_mask"] and fn._saved_mask is m


def test_rounded_division_shows_divisor_and_dividend_when_needed():
    a = torch.tensor([3.0, -3.0], requires_grad=True)
    fn = torch.div(a, 2.0, rounding_mode="trunc").grad_fn
    assert saved_names(fn) == ["_saved_other", "_saved_rounding_mode", "_saved_self"]
    assert fn._saved_other.dtype == torch.float64 and fn._saved_other.item() == 2.0
    assert fn._saved_self is None and fn._saved_rounding_mode == "trunc"
    fn = torch.div(a, a, rounding_mode="floor").grad_fn
    assert fn._saved_self is a and fn._saved_other is a


def test_nll_loss_shows_arguments_and_total_weight():
    x = torch.tensor([[0.1, 0.2, 0.3], [0.5, 0.6, 0.7]], requires_grad=True)
    target = torch.tensor([1, 2])
    weight = torch.tensor([1.0, 2.0, 3.0])
    fn = torch.nn.functional.nll_loss(x, target, weight=weight).grad_fn
    assert saved_names(fn) == [
        "_saved_ignore_index",
        "_saved_reduction",
        "_saved_self",
        "_saved_target",
        "_saved_total_weight",
        "_saved_weight",
    ]
    assert fn._saved_self is x and fn._saved_target is target and fn._saved_weight is weight
    assert fn._saved_total_weight.item() == 5.0 and fn._saved_reduction == 1
    assert torch.nn.NLLLoss()(x, target).grad_fn._saved_weight is None
    none_fn = torch.nn.functional.nll_loss(x, target, reduction="none").grad_fn
    assert none_fn._saved_total_weight.item() == 0.0 and none_fn._saved_reduction == 0


def test_pdist_shows_input_and_result():
    x = torch.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
    out = torch.pdist(x)
    fn = out.grad_fn
    assert saved_names(fn) == ["_saved_p", "_saved_result", "_saved_self"]
    assert fn._saved_self is x and fn._saved_result.tolist() == [5.0]


def test_shown_tensors_are_released_after_backward():
    x = torch.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
    out = torch.pdist(x)
    out.sum().backward()
    with pytest.raises(
        RuntimeError, match=re.escape("Trying to backward through the graph a second time")
    ):
        _ = out.grad_fn._saved_self


def test_shown_tensor_written_in_place_is_reported_on_reading():
    x = torch.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
    inp = x * 1
    fn = torch.pdist(inp).grad_fn
    with torch.no_grad():
        inp.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        _ = fn._saved_self


def test_qr_shows_its_outputs_and_mode():
    a = torch.tensor([[3.0, 1.0], [4.0, 2.0], [0.0, 1.0]], requires_grad=True)
    q, r = torch.linalg.qr(a)
    fn = q.grad_fn
    assert saved_names(fn) == ["_saved_Q", "_saved_R", "_saved_mode"]
    assert (
        torch.equal(fn._saved_Q, q) and torch.equal(fn._saved_R, r) and fn._saved_mode == "reduced"
    )
    (q.sum() + r.sum()).backward()
    with pytest.raises(
        RuntimeError, match=re.escape("Trying to backward through the graph a second time")
    ):
        _ = fn._saved_Q


def test_indexing_with_a_mask_keeps_the_mask_whole():
    a = torch.arange(24.0).view(2, 3, 4).requires_grad_()
    m2 = torch.tensor([[True, False, True], [False, True, False]])
    m1 = torch.tensor([True, False, True])
    (kept,) = a[m2].grad_fn._saved_indices
    assert kept.dtype == torch.bool and kept.tolist() == m2.tolist()
    none, mask, index = a[:, m1, torch.tensor([0, 2])].grad_fn._saved_indices
    assert none is None and mask.tolist() == m1.tolist() and index.tolist() == [0, 2]
    a[m2].sum().backward()
    assert a.grad.sum().item() == 12.0
