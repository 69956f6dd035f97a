"""Tensor attributes around autograd, as PyTorch 2.13 has them: deleting ``grad`` clears it while
deleting the others is refused, ``data`` assignment checks its value, and ``numpy()`` is allowed
on a tensor that requires grad when grad mode is off."""

import engine as torch
import pytest


def test_deleting_attributes():
    x = torch.randn(5, 5, requires_grad=True)
    x.grad = torch.ones(5, 5)
    del x.grad
    assert x.grad is None
    with pytest.raises(
        RuntimeError, match="^Deleting tensor data is not allowed. Delete tensor instead!$"
    ):
        del x.data
    with pytest.raises(RuntimeError, match="^requires_grad must be a bool$"):
        del x.requires_grad
    with pytest.raises(
        RuntimeError, match="^Deletion of _grad_fn not allowed. Detach tensor instead!$"
    ):
        del x._grad_fn
    with pytest.raises(RuntimeError, match="^Deletion of _backwards_hooks not allowed!$"):
        del x._backward_hooks
    assert x._backward_hooks is None
    assert x.clone()._grad_fn is not None


def test_data_assignment_checks():
    a = torch.tensor(1.0, requires_grad=True)
    with pytest.raises(TypeError, match="^Variable data has to be a tensor, but got NoneType$"):
        a.data = None
    a.data = torch.tensor(2.0)
    assert a.item() == 2.0 and a.requires_grad
    with pytest.raises(
        RuntimeError,
        match="^data set to a tensor that requires gradients must be floating point or complex dtype$",
    ):
        a.data = torch.tensor(3)
    b = torch.tensor(1.0)
    b.data = torch.tensor(3)
    assert b.dtype == torch.int64


def test_numpy_under_no_grad():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="Can't call numpy"):
        x.numpy()
    with torch.no_grad():
        assert x.numpy().tolist() == [1.0, 1.0]
