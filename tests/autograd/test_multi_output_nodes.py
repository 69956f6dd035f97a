"""Ops that return several differentiable tensors record ONE node with several outputs, as
PyTorch 2.13 does: unbind, split / chunk / split_with_sizes and their unsafe_ variants, var_mean,
std_mean and aminmax. Every output has that node as grad_fn, with its own output_nr; node hooks
see the gradients of all outputs at once (None for an output that got none); the rule runs once, with
zeros standing in for missing gradients; the node can be called directly and differentiated
again. unbind / split / chunk outputs are views of the input (and may not be written in place),
the unsafe_ variants' are not."""

import engine as torch
import pytest
from engine.autograd import gradcheck, gradgradcheck

MULTI_OUTPUT_OPS = {
    "unbind": (lambda t: t.unbind(1), "UnbindBackward0", True),
    "split": (lambda t: torch.split(t, 4, 1), "SplitBackward0", True),
    "split_sizes": (lambda t: t.split([1, 3, 2], -1), "SplitWithSizesBackward0", True),
    "split_with_sizes": (
        lambda t: torch.split_with_sizes(t, [2, 2], 0),
        "SplitWithSizesBackward0",
        True,
    ),
    "chunk": (lambda t: t.chunk(3, 1), "SplitBackward0", True),
    "unsafe_split": (lambda t: torch.unsafe_split(t, 2, 1), "UnsafeSplitBackward0", False),
    "unsafe_split_with_sizes": (
        lambda t: torch.unsafe_split_with_sizes(t, [5, 1], 1),
        "UnsafeSplitWithSizesBackward0",
        False,
    ),
    "unsafe_chunk": (lambda t: torch.unsafe_chunk(t, 2, 0), "UnsafeSplitBackward0", False),
    "var_mean": (lambda t: torch.var_mean(t, 1), "VarMeanBackward0", False),
    "aminmax": (lambda t: torch.aminmax(t, dim=1), "AminmaxBackward0", False),
    "aminmax_all": (lambda t: torch.aminmax(t, keepdim=True), "AminmaxBackward0", False),
    "std_mean": (lambda t: torch.std_mean(t, 0, keepdim=True), "StdMeanBackward0", False),
}


def leaf(*shape):
    return torch.randn(*shape, dtype=torch.float64, requires_grad=True)


@pytest.mark.parametrize("name", sorted(MULTI_OUTPUT_OPS))
def test_outputs_share_one_node_with_their_output_numbers(name):
    op, node_name, views = MULTI_OUTPUT_OPS[name]
    x = leaf(4, 6)
    outs = op(x)
    node = outs[0].grad_fn
    assert type(node).__name__ == node_name
    assert all(o.grad_fn is node for o in outs)
    assert [o.output_nr for o in outs] == list(range(len(outs)))
    assert [o._is_view() for o in outs] == [views] * len(outs)
    ((fn, nr),) = node.next_functions
    assert type(fn).__name__ == "AccumulateGrad" and nr == 0


@pytest.mark.parametrize("name", sorted(MULTI_OUTPUT_OPS))
def test_gradients_are_right_to_second_order(name):
    op = MULTI_OUTPUT_OPS[name][0]
    x = leaf(4, 6)
    assert gradcheck(op, (x,))
    assert gradgradcheck(op, (x,))
    # Only one output used: the others' gradients are zeros in the rule.
    assert gradcheck(lambda t: op(t)[1], (x,))
    assert gradgradcheck(lambda t: op(t)[-1], (x,))


def test_prehook_sees_every_output_gradient_and_may_replace_them():
    x = leaf(3, 3)
    var, mean = torch.var_mean(x, dim=0)
    (var + mean).sum().backward()
    expected = x.grad.clone()
    x.grad = None
    seen = []

    def prehook(grads):
        seen.append(len(grads))
        gvar, gmean = grads
        return (gvar * 2, gmean * 2)

    var, mean = torch.var_mean(x, dim=0)
    mean.grad_fn.register_prehook(prehook)
    (var + mean).sum().backward()
    assert seen == [2]
    assert torch.allclose(x.grad, expected * 2)


def test_hooks_see_none_for_outputs_without_gradient_and_the_rule_runs_once():
    x = leaf(2, 3)
    pieces = x.unbind(1)
    node = pieces[0].grad_fn
    calls = []
    node.register_prehook(lambda go: calls.append(("pre", [g is None for g in go])))
    node.register_hook(lambda gi, go: calls.append(("post", len(gi), [g is None for g in go])))
    (pieces[1] * 3).sum().backward()
    assert calls == [("pre", [True, False, True]), ("post", 1, [True, False, True])]
    assert x.grad.tolist() == [[0.0, 3.0, 0.0], [0.0, 3.0, 0.0]]


def test_gradients_of_several_outputs_reach_the_input_once_summed():
    x = leaf(4, 6)
    a, b, c = x.split(2, 1)
    (a.sum() * 1 + b.sum() * 2 + c.sum() * 3).backward()
    expected = torch.tensor([1.0, 1, 2, 2, 3, 3], dtype=torch.float64).expand(4, 6)
    assert torch.equal(x.grad, expected)


def test_node_called_directly_takes_one_gradient_per_output():
    x = leaf(2, 3)
    pieces = x.unbind(1)
    node = pieces[0].grad_fn
    ones = [torch.ones(2, dtype=torch.float64) for _ in pieces]
    assert torch.equal(node(*ones), torch.ones(2, 3, dtype=torch.float64))
    partial = node(None, *ones[1:])
    assert partial[:, 0].tolist() == [0.0, 0.0] and partial[:, 1:].tolist() == [[1.0, 1.0]] * 2
    with pytest.raises(TypeError, match="expected 3 arguments, got 1 instead"):
        node(ones[0])


def test_var_mean_gradient_matches_its_two_separate_reductions():
    x = leaf(3, 5)
    v, m = torch.std_mean(x, 1, correction=0)
    (v * 2 + m * 3).sum().backward()
    y = x.detach().requires_grad_()
    (y.std(1, correction=0) * 2 + y.mean(1) * 3).sum().backward()
    assert torch.allclose(x.grad, y.grad)


@pytest.mark.parametrize(
    "args, kwargs, dim, correction, keepdim",
    [
        ((), {}, None, None, False),
        ((0,), {}, (0,), 1, False),
        ((False,), {}, None, 0, False),
        (((0, 1),), {"keepdim": True}, (0, 1), 1, True),
        ((), {"dim": 1, "correction": 2}, (1,), 2, False),
    ],
)
def test_var_mean_node_shows_its_arguments(args, kwargs, dim, correction, keepdim):
    x = leaf(3, 4)
    node = torch.var_mean(x, *args, **kwargs)[0].grad_fn
    assert (node._saved_dim, node._saved_correction, node._saved_keepdim) == (
        dim,
        correction,
        keepdim,
    )
    assert torch.equal(node._saved_self, x)


def test_std_mean_saves_the_deviation_as_result0():
    x = leaf(3, 4)
    s, _ = torch.std_mean(x, 1)
    assert torch.equal(s.grad_fn._saved_result0, s)


def test_split_nodes_show_their_arguments():
    # A negative dim reads back as PyTorch's nodes keep it: an unsigned 64-bit integer.
    x = leaf(4, 6)
    node = x.split(4, -1)[0].grad_fn
    assert (node._saved_dim, node._saved_split_size, node._saved_self_sym_sizes) == (
        2**64 - 1,
        4,
        (4, 6),
    )
    node = x.split([1, 3], 0)[0].grad_fn
    assert node._saved_split_sizes == (1, 3)
    assert x.chunk(3, 1)[0].grad_fn._saved_split_size == 2
    assert x.unbind(-2)[0].grad_fn._saved_dim == 2**64 - 2


def test_empty_dim_gives_empty_pieces_of_one_node():
    e = torch.zeros(0, 3, requires_grad=True)
    pieces = e.chunk(2)
    assert [tuple(p.shape) for p in pieces] == [(0, 3), (0, 3)]
    assert type(pieces[0].grad_fn).__name__ == "SplitWithSizesBackward0"
    assert [tuple(p.shape) for p in e.split(2)] == [(0, 3)]
    assert e.unbind(0) == ()


def test_views_of_one_op_may_not_be_written_in_place():
    x = leaf(2, 3).clone()
    for pieces, name in (
        (x.unbind(), "Unbind"),
        (x.split(1), "Split"),
        (x.split([1, 1]), "SplitWithSizes"),
    ):
        with pytest.raises(
            RuntimeError, match=f"Output 1 of {name} is a view and is being modified inplace"
        ):
            pieces[1].add_(1)


def test_unsafe_pieces_may_be_written_in_place_and_keep_their_history():
    x = leaf(2, 3)
    pieces = torch.unsafe_split(x * 1, 1)
    pieces[0].mul_(2)
    (fn, nr), _ = pieces[0].grad_fn.next_functions
    assert type(fn).__name__ == "UnsafeSplitBackward0" and nr == 0
    (pieces[0].sum() + pieces[1].sum()).backward()
    assert x.grad.tolist() == [[2.0, 2.0, 2.0], [1.0, 1.0, 1.0]]


def test_pieces_whose_base_was_written_in_place_refuse_backward():
    b = leaf(2, 3) * 1
    pieces = b.split(1)
    b.mul_(2)
    with pytest.raises(RuntimeError, match="Output 0 of Split is a view and its base"):
        pieces[0].sum().backward()


def test_retain_grad_on_a_piece_sees_its_own_gradient():
    x = leaf(2, 3)
    pieces = (x * 1).unbind(0)
    for p in pieces:
        p.retain_grad()
    pieces[1].sum().backward()
    assert pieces[0].grad is None
    assert pieces[1].grad.tolist() == [1.0, 1.0, 1.0]


def test_no_node_without_grad():
    x = leaf(2, 3)
    with torch.no_grad():
        assert x.unbind()[0].grad_fn is None
        assert not torch.var_mean(x)[0].requires_grad
    assert torch.randn(2, 3).split(1)[0].grad_fn is None


def test_errors_name_the_op():
    with pytest.raises(RuntimeError, match="split expects at least a 1-dimensional tensor"):
        torch.tensor(1.0).split(1)
    with pytest.raises(IndexError, match="Dimension specified as 0 but tensor has no dimensions"):
        torch.tensor(1.0).unbind()
    with pytest.raises(RuntimeError, match="split expects split_size be non-negative"):
        torch.zeros(3).split(-1)
    with pytest.raises(TypeError, match=r"unbind\(\): argument 'dim' \(position 1\) must be int"):
        torch.zeros(3).unbind("a")


def test_aminmax_shares_each_gradient_among_ties_and_saves_its_results():
    x = torch.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], dtype=torch.float64, requires_grad=True)
    lo, hi = torch.aminmax(x, dim=1)
    node = lo.grad_fn
    assert (node._saved_dim, node._saved_keepdim) == (1, False)
    assert torch.equal(node._saved_min, lo) and torch.equal(node._saved_max, hi)
    (lo * 2 + hi * 3).sum().backward()
    assert x.grad.tolist() == [[2.0, 1.5, 1.5], [1.5, 1.5, 2.0]]
    assert torch.aminmax(x)[0].grad_fn._saved_dim is None


def test_reductions_return_fresh_tensors_not_views():
    x = leaf(3, 4)
    assert not torch.amax(x, 1)._is_view()
    assert not any(t._is_view() for t in torch.max(x, 1))
    assert not any(t._is_view() for t in torch.aminmax(x, dim=0))


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 5), (2, 3, 3)])
def test_linalg_lu_gives_l_and_u_one_node_and_p_none(shape):
    a = leaf(*shape)
    p, lower, upper = torch.linalg.lu(a)
    assert p.grad_fn is None and not p.requires_grad
    assert type(lower.grad_fn).__name__ == "LinalgLuBackward0" and upper.grad_fn is lower.grad_fn
    assert (lower.output_nr, upper.output_nr) == (0, 1)
    ((fn, _),) = lower.grad_fn.next_functions
    assert type(fn).__name__ == "AccumulateGrad"
    assert gradcheck(lambda t: torch.linalg.lu(t)[1:], (a,))
    assert gradgradcheck(lambda t: torch.linalg.lu(t)[1:], (a,))
    assert gradcheck(lambda t: torch.linalg.lu(t)[2], (a,))


def test_lu_unpack_gives_l_and_u_one_node():
    a = leaf(3, 3)
    lu, pivots = torch.linalg.lu_factor(a)
    _, lower, upper = torch.lu_unpack(lu, pivots)
    assert type(lower.grad_fn).__name__ == "LuUnpackBackward0" and upper.grad_fn is lower.grad_fn
    ((fn, _),) = lower.grad_fn.next_functions
    assert type(fn).__name__ == "LinalgLuFactorExBackward0"
    unpack = lambda t: torch.lu_unpack(*torch.linalg.lu_factor(t))[1:]  # noqa: E731
    assert gradcheck(unpack, (a,)) and gradgradcheck(unpack, (a,))


def test_slogdet_sign_is_an_output_of_the_node_without_gradient():
    a = leaf(3, 3)
    sign, logabsdet = torch.linalg.slogdet(a)
    assert sign.grad_fn is logabsdet.grad_fn
    assert (sign.output_nr, logabsdet.output_nr) == (0, 1)
    sign.sum().backward()
    assert a.grad is None  # only the sign used: no gradient reaches A
    assert gradcheck(torch.linalg.slogdet, (a,))


def test_frexp_mantissa_node_saves_the_exponent():
    # Only the mantissa is differentiable: its node has one output, the integer exponent none.
    x = leaf(2, 3)
    mantissa, exponent = torch.frexp(x)
    assert exponent.grad_fn is None and mantissa.output_nr == 0
    assert torch.equal(mantissa.grad_fn._saved_exponent, exponent)
    assert gradcheck(lambda t: torch.frexp(t)[0], (x,))


def test_linalg_nodes_show_their_saved_tensors_under_pytorchs_names():
    a = leaf(3, 3)
    sym = a @ a.mT + torch.eye(3, dtype=torch.float64)
    w, v = torch.linalg.eigh(sym)
    node = w.grad_fn
    assert torch.equal(node._saved_eigenvalues, w) and torch.equal(node._saved_eigenvectors, v)
    assert type(node._raw_saved_eigenvalues).__name__ == "SavedTensor"
    u, s, vh = torch.linalg.svd(a, full_matrices=False)
    node = u.grad_fn
    assert torch.equal(node._saved_S, s) and torch.equal(node._saved_Vh, vh)
    assert (node._saved_full_matrices, node._saved_S_sym_argsize_minus_1) == (False, 3)
    q, r = torch.linalg.qr(a)
    assert torch.equal(q.grad_fn._saved_R, r) and q.grad_fn._saved_mode == "reduced"
    lu, pivots = torch.linalg.lu_factor(a)
    node = lu.grad_fn
    assert torch.equal(node._saved_pivots, pivots) and node._saved_pivot is True
    _, lower, upper = torch.linalg.lu(a)
    assert torch.equal(lower.grad_fn._saved_U, upper) and lower.grad_fn._saved_pivot is True
    factor, _ = torch.linalg.cholesky_ex(sym, upper=True)
    assert torch.equal(factor.grad_fn._saved_L, factor) and factor.grad_fn._saved_upper is True
    _, lower, _ = torch.lu_unpack(lu, pivots)
    assert lower.grad_fn._saved_LU_data_sym_argsize_minus_2 == 3
    w.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        getattr(w.grad_fn, "_saved_eigenvalues")  # noqa: B009
