"""gradcheck's checks beyond the Jacobian comparison, as PyTorch 2.13 runs them: ``func`` evaluated
in grad mode (so it may register hooks), outputs that must keep their shape and dtype under
perturbation, functions without differentiable outputs, reentrancy (``nondet_tol``), backward
multiplied by grad_output, and outputs that receive no gradient."""

import warnings

import engine as torch
import pytest
from engine.autograd import Function, gradcheck, gradgradcheck
from engine.autograd.gradcheck import GradcheckError


def dleaf(*shape):
    return torch.rand(*shape, dtype=torch.float64, requires_grad=True)


def with_grad_hook(hook):
    def fn(x):
        y = x.clone()
        y.register_hook(hook)
        return y

    return fn


def test_func_runs_in_grad_mode_so_hooks_can_be_registered():
    assert gradcheck(with_grad_hook(lambda g: None), (dleaf(3),))


def test_a_hook_that_shifts_the_gradient_is_caught():
    x = dleaf(2, 2)
    fn = with_grad_hook(lambda g: g + 1e-2)
    with pytest.raises(
        GradcheckError, match="Jacobian mismatch for output 0 with respect to input 0"
    ):
        gradcheck(fn, (x,))
    assert gradcheck(fn, (x,), raise_exception=False) is False


def test_backward_not_multiplied_by_grad_output():
    # Within tolerance of the Jacobian, yet nonzero for a zero grad_output.
    fn = with_grad_hook(lambda g: g + 1e-2)
    x = torch.ones(1, dtype=torch.float64, requires_grad=True)
    with pytest.raises(GradcheckError, match="^backward not multiplied by grad_output$"):
        gradcheck(fn, (x,), atol=1e-1)


def test_undefined_output_gradients_must_be_handled():
    def refuse_none(g):
        if g is None:
            raise RuntimeError("x is undefined")

    x = torch.ones(1, dtype=torch.float64, requires_grad=True)
    with pytest.warns(UserWarning, match="New undefined gradient support checking feature"):
        with pytest.raises(GradcheckError, match="Expected backward function to handle undefined"):
            gradcheck(with_grad_hook(refuse_none), (x,))
    assert gradcheck(with_grad_hook(refuse_none), (x,), check_undefined_grad=False)


def test_errors_of_func_itself_propagate_even_without_raise_exception():
    def broken(x):
        raise RuntimeError("not a gradcheck error")

    with pytest.raises(RuntimeError, match="not a gradcheck error"):
        gradcheck(broken, (dleaf(2),), raise_exception=False)


def test_gradcheck_error_is_a_runtime_error():
    fn = with_grad_hook(lambda g: g * 2)
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        gradcheck(fn, (dleaf(2),))


def test_outputs_changing_shape_or_dtype_under_perturbation():
    a = torch.ones(1, dtype=torch.float64, requires_grad=True)

    def grows(x):
        return torch.cat([x, x]) if bool((x >= 1).all()) else x

    def casts(x):
        return x.to(torch.float32) if bool((x >= 1).all()) else x

    with pytest.raises(AssertionError, match="same shape when inputs are perturbed by 1e-06"):
        gradcheck(grows, (a,))
    with pytest.raises(AssertionError, match="same dtype when inputs are perturbed"):
        gradcheck(casts, (a,))


def test_no_differentiable_outputs():
    x = torch.ones(1, dtype=torch.float64, requires_grad=True)
    # A constant: fine. A value that depends on x without a graph: its numerical gradient is not 0.
    assert gradcheck(lambda x: torch.zeros(2, dtype=torch.float64), (x,))
    assert gradcheck(lambda x: (), (x,))
    detached = lambda x: x.detach() * 3  # noqa: E731
    with pytest.raises(GradcheckError, match="Numerical gradient for function expected to be zero"):
        gradcheck(detached, (x,))
    assert gradcheck(detached, (x,), raise_exception=False) is False


class Jittery(Function):
    """Identity whose backward scales by 1 + jitter * rand: not reentrant unless jitter is 0."""

    @staticmethod
    def forward(ctx, x, jitter):
        ctx.jitter = jitter
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return Jittery.apply(g, ctx.jitter) * (1 + torch.rand_like(g) * ctx.jitter), None


def test_backward_that_is_not_reentrant():
    x = dleaf(3)
    assert gradcheck(lambda t: Jittery.apply(t, 0.0), (x,))
    with pytest.raises(GradcheckError, match="Backward is not reentrant") as info:
        gradcheck(lambda t: Jittery.apply(t, 1e-6), (x,))
    assert "The tolerance for nondeterminism was 0.0." in str(info.value)
    assert gradcheck(lambda t: Jittery.apply(t, 1e-6), (x,), nondet_tol=1e-5)


def test_gradgradcheck_passes_nondet_tol_on():
    x = dleaf(3)
    with pytest.raises(GradcheckError, match="Backward is not reentrant"):
        gradgradcheck(lambda t: Jittery.apply(t, 1e-12), (x,))
    assert gradgradcheck(lambda t: Jittery.apply(t, 1e-12), (x,), nondet_tol=1e-5)


def test_input_checks():
    with pytest.raises(ValueError, match="at least one input tensor to require gradient"):
        gradcheck(lambda x: x, (torch.rand(3),), raise_exception=False)
    x = torch.ones(1, requires_grad=True)
    with pytest.warns(
        UserWarning, match="Input #0 requires gradient and is not a double precision"
    ):
        assert gradcheck(lambda t: t, (x,), atol=1e-1)


def test_no_warning_when_everything_is_fine():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert gradcheck(lambda t: (t * t).sum(), (dleaf(4),))


# ---- complex inputs and outputs (PyTorch's conjugate Wirtinger convention) ----


def cleaf(*shape):
    return torch.randn(*shape, dtype=torch.complex128, requires_grad=True)


class PhaseShift(Function):
    """z * exp(i theta), its backward written by hand as a project's would be."""

    @staticmethod
    def forward(ctx, z, theta):
        rot = torch.polar(torch.ones_like(theta), theta)
        ctx.save_for_backward(z, rot)
        return z * rot

    @staticmethod
    def backward(ctx, g):
        z, rot = ctx.saved_tensors
        return g * rot.conj(), (g * (1j * z * rot).conj()).real


class WrongConjugate(Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2j

    @staticmethod
    def backward(ctx, g):
        return g * 2j  # should be g * conj(2j)


def test_complex_functions_pass():
    torch.manual_seed(0)
    z, r = cleaf(3), dleaf(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # complex128 inputs draw no precision warning
        assert gradcheck(torch.exp, (z,))
        assert gradcheck(lambda a: a.abs(), (z,))  # complex in, real out
        assert gradcheck(lambda a: torch.polar(a.exp(), 2 * a), (r,))  # real in, complex out
        assert gradcheck(PhaseShift.apply, (z, r))


def test_complex_mismatch_names_the_part_of_the_outputs():
    z = cleaf(2)
    assert not gradcheck(WrongConjugate.apply, (z,), raise_exception=False)
    with pytest.raises(GradcheckError) as e:
        gradcheck(WrongConjugate.apply, (z,))
    assert str(e.value).startswith(
        "While considering the imaginary part of complex outputs only, Jacobian mismatch for "
        "output 0 with respect to input 0,\nnumerical:"
    )


def test_complex_input_real_output_mismatch_reports_complex_jacobians():
    class RealGradOnly(Function):
        @staticmethod
        def forward(ctx, a):
            return a.abs()

        @staticmethod
        def backward(ctx, g):
            return g + 0j

    with pytest.raises(GradcheckError) as e:
        gradcheck(RealGradOnly.apply, (cleaf(2),))
    msg = str(e.value)
    assert msg.startswith("Jacobian mismatch for output 0 with respect to input 0,")
    assert "dtype=torch.complex128" in msg
