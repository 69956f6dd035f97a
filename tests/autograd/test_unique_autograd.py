"""``unique`` / ``unique_consecutive`` with autograd as PyTorch 2.13: the values require grad when
the input does, through a node named as PyTorch's (``Unique2Backward0``, ``UniqueDimBackward0``,
``UniqueConsecutiveBackward0``) whose backward raises NotImplementedError with PyTorch's message;
the inverse and the counts never require grad."""

import engine as torch
import pytest

CASES = {
    "unique": (
        lambda x: torch.unique(x, return_inverse=True, return_counts=True),
        "Unique2Backward0",
        "_unique2",
    ),
    "unique_unsorted": (
        lambda x: x.unique(sorted=False, return_inverse=True, return_counts=True),
        "Unique2Backward0",
        "_unique2",
    ),
    "unique_dim": (
        lambda x: torch.unique(x, dim=0, return_inverse=True, return_counts=True),
        "UniqueDimBackward0",
        "unique_dim",
    ),
    "unique_consecutive": (
        lambda x: torch.unique_consecutive(x, return_inverse=True, return_counts=True),
        "UniqueConsecutiveBackward0",
        "unique_consecutive",
    ),
    "unique_consecutive_dim": (
        lambda x: x.unique_consecutive(dim=0, return_inverse=True, return_counts=True),
        "UniqueConsecutiveBackward0",
        "unique_consecutive",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_are_differentiable_inverse_and_counts_are_not(name):
    fn, node, _ = CASES[name]
    x = torch.tensor([3.0, 1.0, 3.0, 2.0], requires_grad=True)
    values, inverse, counts = fn(x)
    assert values.requires_grad and type(values.grad_fn).__name__ == node
    assert values.grad_fn.next_functions[0][0] is not None
    assert not inverse.requires_grad and inverse.grad_fn is None and inverse.dtype == torch.int64
    assert not counts.requires_grad and counts.grad_fn is None and counts.dtype == torch.int64


@pytest.mark.parametrize("name", sorted(CASES))
def test_backward_raises_pytorchs_not_implemented_error(name):
    fn, _, op = CASES[name]
    x = torch.tensor([3.0, 1.0, 3.0, 2.0], requires_grad=True)
    with pytest.raises(
        NotImplementedError, match=rf"^the derivative for '{op}' is not implemented\.$"
    ):
        fn(x)[0].sum().backward()
    assert x.grad is None


def test_no_graph_without_grad_or_for_integer_inputs():
    x = torch.tensor([3.0, 1.0, 3.0], requires_grad=True)
    with torch.no_grad():
        assert not torch.unique(x).requires_grad
    assert not torch.unique(torch.tensor([3.0, 1.0])).requires_grad
    assert not torch.unique(torch.tensor([3, 1, 3])).requires_grad


def test_values_themselves_are_unchanged():
    x = torch.tensor([[1.0, 2.0], [1.0, 2.0], [0.0, 5.0]], requires_grad=True)
    values, inverse, counts = torch.unique(x, dim=0, return_inverse=True, return_counts=True)
    assert values.tolist() == [[0.0, 5.0], [1.0, 2.0]]
    assert inverse.tolist() == [1, 1, 0] and counts.tolist() == [1, 2]
    # Differentiating through a path that avoids the values works.
    (x * 2).sum().backward()
    assert x.grad.tolist() == [[2.0, 2.0]] * 3
