"""PyTorch's deprecated gradcheck helpers get_numerical_jacobian / get_analytical_jacobian
(FutureWarning, Jacobians laid out as (input numel, output numel)), and the removed Variable
flag `volatile` (always False, with PyTorch's warnings). Messages are PyTorch 2.13's."""

import warnings

import engine as torch
import pytest
from engine.autograd.gradcheck import get_analytical_jacobian, get_numerical_jacobian


def _inputs():
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
    return a, b


def test_numerical_jacobian_of_the_first_output_per_input():
    a, b = _inputs()

    def fn(inputs):  # takes the inputs as one tuple, as PyTorch's helper calls it
        x, y = inputs
        return (x * y).sum(1), x.sum()

    with pytest.warns(
        FutureWarning, match="`get_numerical_jacobian` was part of PyTorch's private API"
    ):
        ja, jb = get_numerical_jacobian(fn, (a, b), eps=1e-6)
    assert tuple(ja.shape) == (4, 2) and tuple(jb.shape) == (2, 2)
    assert ja.reshape(-1).tolist() == pytest.approx([0.5, 0.0, -1.0, 0.0, 0.0, 0.5, 0.0, -1.0])
    assert jb.reshape(-1).tolist() == pytest.approx([1.0, 3.0, 2.0, 4.0])
    assert a.tolist() == [[1.0, 2.0], [3.0, 4.0]]  # perturbations undone


def test_numerical_jacobian_for_a_target_only():
    a, b = _inputs()
    with pytest.warns(FutureWarning):
        (jb,) = get_numerical_jacobian(lambda xs: xs[0].sum(1) * xs[1], (a, b), target=b, eps=1e-6)
    assert jb.reshape(-1).tolist() == pytest.approx([3.0, 0.0, 0.0, 7.0])


def test_analytical_jacobian_and_its_flags():
    a, b = _inputs()
    out = a.sum(0) * b
    with pytest.warns(
        FutureWarning, match="`get_analytical_jacobian` was part of PyTorch's private API"
    ):
        jacobians, reentrant, sizes_ok, types_ok = get_analytical_jacobian((a, b), out)
    assert jacobians[0].tolist() == [[0.5, 0.0], [0.0, -1.0], [0.5, 0.0], [0.0, -1.0]]
    assert jacobians[1].tolist() == [[4.0, 0.0], [0.0, 6.0]]
    assert reentrant and sizes_ok and types_ok


def test_analytical_jacobian_tells_a_nondeterministic_backward():
    class Noisy(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return g * (1 + torch.rand_like(g) * 1e-3)

    a, _ = _inputs()
    with pytest.warns(FutureWarning):
        _, reentrant, _, _ = get_analytical_jacobian((a,), Noisy.apply(a))
    assert not reentrant
    with pytest.warns(FutureWarning):
        _, reentrant, _, _ = get_analytical_jacobian((a,), Noisy.apply(a), nondet_tol=1.0)
    assert reentrant


@pytest.mark.parametrize("helper", ["numerical", "analytical"])
def test_grad_out_other_than_one_is_refused(helper):
    a, b = _inputs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        with pytest.raises(
            ValueError, match=f"Expected grad_out to be 1.0. get_{helper}_jacobian no longer"
        ):
            if helper == "numerical":
                get_numerical_jacobian(lambda xs: xs[0], (a,), grad_out=2.0)
            else:
                get_analytical_jacobian((a,), a * 2, grad_out=2.0)


def test_volatile_is_always_false_and_warns():
    x = torch.ones(2)
    with pytest.warns(
        UserWarning, match=r"volatile was removed \(Variable.volatile is always False\)"
    ):
        assert x.volatile is False
    with pytest.warns(UserWarning, match="volatile was removed and now has no effect"):
        x.volatile = True
    assert not x.requires_grad


def test_autograd_module_exposes_its_package_as_torch():
    assert torch.autograd.torch is torch
