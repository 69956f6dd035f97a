"""squeeze over a tuple or list of dims (PyTorch 2.x): the listed dims of size 1 go, as one view
node (SqueezeBackward2) that shows the dims as given; repeated dims and bad types are refused
with PyTorch's messages."""

import re

import engine as torch
import pytest


@pytest.mark.parametrize(
    ("dims", "shape"),
    [
        ((1, 2), (2, 3)),
        ([1, -2], (2, 3)),
        ((), (2, 1, 1, 3)),
        ((0, 1), (2, 1, 3)),
        ((3,), (2, 1, 1, 3)),
    ],
)
def test_listed_dims_of_size_one_go(dims, shape):
    x = torch.rand(2, 1, 1, 3)
    assert x.squeeze(dims).shape == shape
    assert torch.squeeze(x, dims).shape == shape
    assert x.squeeze(dim=dims).shape == shape


def test_result_is_a_view_with_one_node():
    x = torch.rand(2, 1, 1, 3, requires_grad=True)
    y = x.clone()
    z = y.squeeze((1, -2))
    assert z._is_view() and z._base is y
    fn = z.grad_fn
    assert type(fn).__name__ == "SqueezeBackward2"
    assert fn._saved_dim == (1, 2**64 - 2)
    assert fn._saved_self_sym_sizes == (2, 1, 1, 3)
    (z * torch.arange(6.0).view(2, 3)).sum().backward()
    assert x.grad.shape == (2, 1, 1, 3)
    assert x.grad.view(2, 3).tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


def test_zero_dim_tensor():
    assert torch.tensor(3.0).squeeze((0,)).shape == ()
    assert torch.tensor(3.0).squeeze((-1,)).shape == ()


def test_errors():
    x = torch.rand(2, 1, 1, 3)
    with pytest.raises(RuntimeError, match="dim 1 appears multiple times in the list of dims"):
        x.squeeze((1, 1))
    with pytest.raises(
        IndexError,
        match=re.escape("Dimension out of range (expected to be in range of [-4, 3], but got 5)"),
    ):
        x.squeeze((5,))
    with pytest.raises(
        TypeError, match=re.escape("squeeze() received an invalid combination of arguments")
    ):
        x.squeeze(("a",))


def test_in_place_form_takes_the_dims_too():
    x = torch.rand(2, 1, 1, 3, requires_grad=True).clone()
    assert x.squeeze_((1, 2)) is x and x.shape == (2, 3)
    assert type(x.grad_fn).__name__ == "SqueezeBackward5"
