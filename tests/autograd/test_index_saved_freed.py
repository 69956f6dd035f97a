"""Index tensors kept for backward (indexing, ``x[idx] = v``, index_select / gather / scatter /
index_copy / index_add) are saved tensors, as in PyTorch: freed by a backward without
``retain_graph`` (a second backward raises PyTorch's message exactly), checked for in-place writes,
and shown as ``grad_fn._saved_index``. index_add / scatter_add keep the index only when the
source needs a gradient, so their second backward passes as PyTorch's does."""

import engine as torch
import pytest

FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
    "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second "
    "time or if you need to access saved tensors after calling backward."
)


def _idx(*values):
    return torch.tensor(list(values))


def _backward_twice(fn):
    x = torch.randn(4, 3, requires_grad=True)
    z = fn(x + 1)
    z.sum().backward()
    z.sum().backward()


OPS_THAT_KEEP_THE_INDEX = {
    "getitem": lambda y: y[_idx(0, 2)],
    "getitem_columns": lambda y: y[:, _idx(0, 2)],
    "mask": lambda y: y[y > 0],
    "index_select": lambda y: y.index_select(1, _idx(0)),
    "gather": lambda y: y.gather(1, _idx(0, 1, 0, 1).reshape(4, 1)),
    "scatter": lambda y: y.scatter(1, _idx(0, 1, 0, 1).reshape(4, 1), 0.5),
    "index_copy": lambda y: y.index_copy(0, _idx(0), torch.ones(1, 3)),
    "scatter_add_grad_src": lambda y: y.scatter_add(
        1, _idx(0, 1, 0, 1).reshape(4, 1), torch.ones(4, 1, requires_grad=True)
    ),
}


@pytest.mark.parametrize("name", sorted(OPS_THAT_KEEP_THE_INDEX))
def test_second_backward_through_an_index_raises_pytorchs_message(name):
    with pytest.raises(RuntimeError) as info:
        _backward_twice(OPS_THAT_KEEP_THE_INDEX[name])
    assert str(info.value) == FREED


@pytest.mark.parametrize(
    "fn",
    [
        lambda y: y.index_add(0, _idx(0), torch.ones(1, 3)),
        lambda y: y.scatter_add(1, _idx(0, 1, 0, 1).reshape(4, 1), torch.ones(4, 1)),
    ],
)
def test_adding_ops_without_source_gradient_keep_no_index(fn):
    _backward_twice(fn)


def test_setitem_after_backward_then_backward_again():
    x = torch.randn(4, 3, requires_grad=True)
    z = (x + 1)[_idx(0, 1)]
    z.sum().backward()
    z[_idx(0)] = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        z.sum().backward()
    assert str(info.value) == FREED


def test_setitem_backward_twice():
    x = torch.randn(4, 3, requires_grad=True)
    y = x + 1
    y[_idx(0, 1)] = torch.ones(3, requires_grad=True) * 2
    y.sum().backward()
    with pytest.raises(RuntimeError) as info:
        y.sum().backward()
    assert str(info.value) == FREED


def test_retain_graph_keeps_the_index():
    x = torch.randn(4, 3, requires_grad=True)
    y = (x + 1)[_idx(0, 1, 1)]
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    assert x.grad.tolist() == [[2.0] * 3, [4.0] * 3, [0.0] * 3, [0.0] * 3]


def test_saved_index_attributes():
    x = torch.randn(4, 3, requires_grad=True)
    idx = _idx(0, 2)
    y = x.index_select(0, idx)
    fn = y.grad_fn
    assert (fn._saved_dim, fn._saved_self_sym_sizes) == (0, (4, 3))
    assert torch.equal(fn._saved_index, idx)
    g = x.gather(1, _idx(0, 1, 0, 1).reshape(4, 1)).grad_fn
    assert (g._saved_dim, g._saved_sparse_grad) == (1, False)


def test_writing_the_index_in_place_is_caught():
    x = torch.randn(4, 3, requires_grad=True)
    idx = _idx(0, 2)
    y = x.index_select(0, idx)
    idx.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()
