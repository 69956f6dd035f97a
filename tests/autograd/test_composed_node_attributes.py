"""Nodes of ops engine composes from others show PyTorch 2.13's name and the argument values its
node keeps: addbmm, pdist, unfold (im2col), linalg.qr, rounded division, masked_fill and
masked_select. (PyTorch's saved tensors of these nodes are not shown yet; see the README.)"""

import engine as torch


def _saved(node):
    return sorted(k for k in dir(node) if k.startswith("_saved"))


def test_addbmm_node_keeps_sizes_and_multipliers():
    m = torch.ones(3, 4, requires_grad=True)
    b1 = torch.ones(2, 3, 5, requires_grad=True)
    b2 = torch.ones(2, 5, 4, requires_grad=True)
    out = torch.addbmm(m, b1, b2, beta=0.5, alpha=2)
    node = out.grad_fn
    assert node.name() == "AddbmmBackward0"
    assert (node._saved_batch1_sym_argsize_0, node._saved_batch1_sym_argsize_1) == (2, 3)
    assert node._saved_batch2_sym_argsize_2 == 4
    assert node._saved_alpha == 2 and isinstance(node._saved_alpha, int)
    assert node._saved_beta == 0.5
    out.sum().backward()  # the gradient is still the composition's
    assert m.grad.tolist() == [[0.5] * 4] * 3
    assert b1.grad[0, 0, 0].item() == 8.0


def test_pdist_node_keeps_p_as_a_float():
    x = torch.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
    out = torch.pdist(x, p=1)
    assert out.grad_fn.name() == "PdistBackward0"
    assert out.grad_fn._saved_p == 1.0 and isinstance(out.grad_fn._saved_p, float)
    out.backward()
    assert x.grad.tolist() == [[-1.0, -1.0], [1.0, 1.0]]


def test_unfold_node_keeps_its_arguments_and_input_sizes():
    x = torch.ones(1, 1, 4, 5, requires_grad=True)
    out = torch.nn.functional.unfold(x, (2, 3), stride=1, padding=(0, 1))
    node = out.grad_fn
    assert node.name() == "Im2ColBackward0"
    assert node._saved_kernel_size == (2, 3)
    assert node._saved_padding == (0, 1)
    assert node._saved_dilation == (1, 1) and node._saved_stride == (1, 1)
    assert (node._saved_self_sym_argsize_minus_2, node._saved_self_sym_argsize_minus_1) == (4, 5)
    assert _saved(node) == [
        "_saved_dilation",
        "_saved_kernel_size",
        "_saved_padding",
        "_saved_self_sym_argsize_minus_1",
        "_saved_self_sym_argsize_minus_2",
        "_saved_stride",
    ]


def test_qr_node_keeps_the_mode_as_a_string():
    a = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
    q, r = torch.linalg.qr(a, mode="complete")
    assert q.grad_fn._saved_mode == "complete"


def test_rounded_division_node_keeps_the_rounding_mode():
    a = torch.tensor([3.5, -3.5], requires_grad=True)
    for mode in ("trunc", "floor"):
        out = torch.div(a, 2.0, rounding_mode=mode)
        assert out.grad_fn.name() == "DivBackward2"
        assert out.grad_fn._saved_rounding_mode == mode


def test_masked_fill_and_masked_select_node_names():
    a = torch.ones(2, 2, requires_grad=True)
    mask = torch.tensor([[True, False], [False, True]])
    assert a.masked_fill(mask, 0.0).grad_fn.name() == "MaskedFillBackward0"
    assert a.masked_fill(mask, torch.tensor(0.0)).grad_fn.name() == "MaskedFillBackward1"
    out = a.masked_select(mask)
    assert out.grad_fn.name() == "MaskedSelectBackward0"
    out.sum().backward()
    assert a.grad.tolist() == [[1.0, 0.0], [0.0, 1.0]]
