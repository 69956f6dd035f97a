"""Tensor.grad_dtype as in PyTorch 2.13: on a leaf, the dtype its gradient is cast to before it
is accumulated (default: the tensor's own dtype; None keeps whatever arrives), checked when
``.grad`` is assigned, and readable or settable only on leaves."""

import copy

import engine as torch
import pytest


class Twice(torch.autograd.Function):
    """Returns 2x, and a float64 gradient whatever the input's dtype."""

    @staticmethod
    def forward(ctx, a):
        return a * 2

    @staticmethod
    def backward(ctx, g):
        return (g * 2).double()


def test_defaults_to_the_tensor_dtype_on_any_leaf():
    assert torch.ones(2, requires_grad=True).grad_dtype == torch.float32
    assert torch.ones(2, dtype=torch.float64).grad_dtype == torch.float64
    assert torch.tensor([1, 2]).grad_dtype == torch.int64


def test_only_leaves_have_it():
    y = torch.ones(2, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match=r"^grad_dtype can only be accessed on leaf tensors\.$"):
        _ = y.grad_dtype
    with pytest.raises(RuntimeError, match=r"^grad_dtype can only be set on leaf tensors\.$"):
        y.grad_dtype = torch.float64


def test_set_and_reset():
    x = torch.ones(2, requires_grad=True)
    x.grad_dtype = torch.float16
    assert x.grad_dtype == torch.float16
    x.grad_dtype = None
    assert x.grad_dtype is None
    x.grad_dtype = torch.float32
    assert x.grad_dtype == torch.float32


@pytest.mark.parametrize("value,name", [(3, "int"), ("float64", "str"), (float, "type")])
def test_rejects_what_is_not_a_dtype(value, name):
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(
        RuntimeError, match=rf"^grad_dtype must be a torch.dtype or None, but got {name}$"
    ):
        x.grad_dtype = value
    assert x.grad_dtype == torch.float32


def test_backward_casts_the_gradient():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad_dtype = torch.float64
    seen = []
    x.register_hook(lambda g: seen.append(g.dtype))
    x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.dtype))
    (x * 2).sum().backward()
    assert x.grad.dtype == torch.float64 and x.grad.tolist() == [2.0, 2.0]
    assert seen == [torch.float64, torch.float64]
    (x * 3).sum().backward()  # accumulates in float64
    assert x.grad.dtype == torch.float64 and x.grad.tolist() == [5.0, 5.0]


def test_autograd_grad_returns_the_leaf_grad_dtype():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad_dtype = torch.float64
    (g,) = torch.autograd.grad((x * 2).sum(), x)
    assert g.dtype == torch.float64
    # A non-leaf's gradient keeps its own dtype.
    y = x * 1
    (gy,) = torch.autograd.grad(Twice.apply(y).sum(), y)
    assert gy.dtype == torch.float32


@pytest.mark.parametrize(
    "grad_dtype,expected",
    [("default", torch.float32), (None, torch.float64), (torch.float16, torch.float16)],
)
def test_a_gradient_of_another_dtype(grad_dtype, expected):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    if grad_dtype != "default":
        x.grad_dtype = grad_dtype
    Twice.apply(x).sum().backward()
    assert x.grad.dtype == expected and x.grad.tolist() == [2.0, 2.0]
    (g,) = torch.autograd.grad(Twice.apply(x).sum(), x)
    assert g.dtype == expected


@pytest.mark.parametrize(
    "grad_dtype,expected",
    [("default", torch.float32), (None, torch.float64), (torch.float16, torch.float16)],
)
def test_backward_on_the_leaf_itself(grad_dtype, expected):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    if grad_dtype != "default":
        x.grad_dtype = grad_dtype
    x.backward(torch.ones(2, dtype=torch.float64))
    assert x.grad.dtype == expected


def test_read_when_the_gradient_arrives():
    # Changed after the graph was built, it still applies.
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    x.grad_dtype = torch.float64
    y.backward()
    assert x.grad.dtype == torch.float64


def test_accumulates_into_an_existing_gradient_of_another_dtype():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad_dtype = None
    x.grad = torch.zeros(2, dtype=torch.float64)
    kept = x.grad
    (x * 2).sum().backward()
    assert x.grad is kept and x.grad.dtype == torch.float64 and x.grad.tolist() == [2.0, 2.0]


def test_cannot_change_to_another_dtype_than_the_existing_gradient():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    with pytest.raises(
        RuntimeError,
        match=r"^Cannot set grad_dtype to 'Double' because there is already a gradient with dtype 'float'\. "
        r"Please clear the gradient \(\.grad = None\) before changing grad_dtype, or ensure the new grad_dtype "
        r"matches the existing gradient's dtype\.$",
    ):
        x.grad_dtype = torch.float64
    x.grad_dtype = torch.float32  # the same dtype: allowed
    x.grad_dtype = None  # any: allowed
    x.grad = None
    x.grad_dtype = torch.float64


def test_assigning_grad_checks_grad_dtype():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(
        RuntimeError,
        match=r"^attempting to assign a gradient with dtype 'double' to a tensor with grad_dtype 'Float'\. "
        r"The gradient must match the tensor's grad_dtype \(defaults to the tensor's dtype\)\.",
    ):
        x.grad = torch.zeros(2, dtype=torch.float64)
    x.grad_dtype = torch.float64
    x.grad = torch.zeros(2, dtype=torch.float64)
    assert x.grad.dtype == torch.float64
    x.grad = None
    x.grad_dtype = None
    x.grad = torch.zeros(2, dtype=torch.float16)
    assert x.grad.dtype == torch.float16
    with pytest.raises(
        RuntimeError,
        match=r"^attempting to assign a gradient of size '\[3\]' to a tensor of size '\[2\]'\. Please ensure "
        r"that the gradient and the tensor are the same size$",
    ):
        x.grad = torch.zeros(3)


def test_new_tensors_start_from_the_default():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad_dtype = torch.float64
    assert x.detach().grad_dtype == torch.float32
    assert x.data.grad_dtype == torch.float32
    assert copy.deepcopy(x).grad_dtype == torch.float32
    x.requires_grad_(False)
    assert x.grad_dtype == torch.float64


def test_default_follows_a_new_data_dtype():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.data = torch.zeros(2, dtype=torch.float64)
    assert x.grad_dtype == torch.float64
    (x * 2).sum().backward()
    assert x.grad.dtype == torch.float64


def test_create_graph_gradient_is_cast_with_history():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad_dtype = torch.float64
    with pytest.warns(UserWarning, match="create_graph=True will create a reference cycle"):
        (x * x).sum().backward(create_graph=True)
    assert x.grad.dtype == torch.float64 and x.grad.grad_fn is not None


def test_deleting_is_refused():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(AttributeError):
        del x.grad_dtype
