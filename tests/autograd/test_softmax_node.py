"""softmax and log_softmax are one node each that keeps the op's result, as in PyTorch: writing
the result in place before backward is reported, the node exposes _saved_result and _saved_dim
(the dim as given), and the gradients are those of the composition to any order."""

import math
import re

import engine as torch
import engine.nn.functional as F
import pytest


def version_error(op, dtype="FloatTensor"):
    return re.escape(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [torch.{dtype} [2, 3]], which is output 0 of {op}, is at version 1; "
        "expected version 0 instead."
    )


@pytest.mark.parametrize(("method", "op"), [("softmax", "Softmax"), ("log_softmax", "LogSoftmax")])
def test_result_written_in_place_is_reported(method, op):
    x = torch.rand(2, 3, requires_grad=True)
    y = getattr(x, method)(-1)
    y.mul_(2)
    with pytest.raises(RuntimeError, match=version_error(op)):
        y.sum().backward()


def test_result_in_requested_dtype_is_reported_too():
    x = torch.rand(2, 3, requires_grad=True)
    y = F.softmax(x, 1, dtype=torch.float64)
    y.add_(1)
    with pytest.raises(RuntimeError, match=version_error("Softmax", "DoubleTensor")):
        y.sum().backward()


@pytest.mark.parametrize(
    ("fn", "name"), [(F.softmax, "SoftmaxBackward0"), (F.log_softmax, "LogSoftmaxBackward0")]
)
def test_node_shows_result_and_dim_as_given(fn, name):
    x = torch.rand(2, 3, requires_grad=True)
    y = fn(x, -1)
    assert type(y.grad_fn).__name__ == name
    assert y.grad_fn._saved_dim == 2**64 - 1  # -1, through PyTorch's unsigned getter
    assert fn(x, 1).grad_fn._saved_dim == 1
    assert torch.equal(y.grad_fn._saved_result, y)


@pytest.mark.parametrize("fn", [F.softmax, F.log_softmax])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gradients_first_and_second_order(fn, dim):
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: fn(t, dim), (x,))
    assert torch.autograd.gradgradcheck(lambda t: fn(t, dim), (x,))


def test_values_at_the_edges():
    inf = math.inf
    assert torch.tensor(2.0).softmax(0).item() == 1.0
    assert torch.tensor([-inf, -inf]).softmax(0).isnan().all()
    assert torch.tensor([-inf, 0.0]).log_softmax(0).tolist() == [-inf, 0.0]
    assert torch.zeros(0, 3).softmax(0).shape == (0, 3)


@pytest.mark.parametrize(
    ("t", "method", "dim", "kernel"),
    [
        ([1, 2], "softmax", 0, "softmax_lastdim_kernel_impl"),
        ([[1, 2]], "softmax", 0, "softmax_kernel_impl"),
        ([[1, 2]], "log_softmax", -1, "log_softmax_lastdim_kernel_impl"),
        ([[1, 2]], "log_softmax", 0, "log_softmax_kernel_impl"),
    ],
)
def test_integer_input_has_no_kernel(t, method, dim, kernel):
    with pytest.raises(
        NotImplementedError, match=re.escape(f"\"{kernel}\" not implemented for 'Long'")
    ):
        getattr(torch.tensor(t), method)(dim)
    with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
        getattr(torch.tensor([True]), method)(0)


def test_bad_dim_is_an_index_error():
    with pytest.raises(
        IndexError,
        match=re.escape("Dimension out of range (expected to be in range of [-2, 1], but got 3)"),
    ):
        torch.rand(2, 3).softmax(3)


def test_no_node_without_grad():
    x = torch.rand(2, 3, requires_grad=True)
    with torch.no_grad():
        y = x.softmax(1)
    assert y.grad_fn is None and not y.requires_grad
