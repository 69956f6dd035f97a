"""Transcendental functions and pow of complex tensors: values against NumPy's complex128 (branch
cuts and signed zeros included), gradients through gradcheck (PyTorch's conjugate convention)
and, when torch imports, against PyTorch's own gradients and node names."""

import math

import engine as torch
import numpy as np
import pytest

try:
    import torch as real_torch
except ImportError:  # the differential tests run only where PyTorch is installed
    real_torch = None

VALUES = np.array([0.7 + 0.4j, -1.3 + 0.2j, 0.3 - 0.9j, -0.5 - 0.6j, 2.5 + 1.5j, -0.1 + 0.05j])


def _log1p(z):
    return np.log(1 + z)


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


# engine name -> NumPy reference
FUNCTIONS = {
    "exp": np.exp,
    "log": np.log,
    "log2": np.log2,
    "log10": np.log10,
    "log1p": _log1p,
    "expm1": lambda z: np.exp(z) - 1,
    "exp2": lambda z: 2.0**z,
    "sqrt": np.sqrt,
    "rsqrt": lambda z: 1 / np.sqrt(z),
    "reciprocal": lambda z: 1 / z,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "tanh": np.tanh,
    "sigmoid": _sigmoid,
    "asin": np.arcsin,
    "acos": np.arccos,
    "atan": np.arctan,
    "asinh": np.arcsinh,
    "acosh": np.arccosh,
    "atanh": np.arctanh,
    "sgn": lambda z: np.where(z == 0, 0, z / np.where(z == 0, 1, np.abs(z))),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_values_match_numpy(name, dtype):
    z = torch.tensor(VALUES, dtype=dtype)
    got = getattr(torch, name)(z)
    assert got.dtype == dtype and got.shape == z.shape
    tol = 2e-5 if dtype == torch.complex64 else 1e-13
    np.testing.assert_allclose(got.numpy(), FUNCTIONS[name](VALUES), rtol=tol, atol=tol)
    # the method and the strided (transposed) layout give the same
    np.testing.assert_allclose(getattr(z, name)().numpy(), got.numpy())
    zt = torch.tensor(np.stack([VALUES, VALUES[::-1]]), dtype=dtype).t()
    np.testing.assert_allclose(
        getattr(torch, name)(zt).numpy(), FUNCTIONS[name](np.stack([VALUES, VALUES[::-1]]).T),
        rtol=tol, atol=tol,
    )  # fmt: skip


def test_small_arguments_keep_their_precision():
    z = torch.tensor([1e-10 + 1e-10j], dtype=torch.complex128)
    np.testing.assert_allclose(torch.log1p(z).numpy(), [1e-10 + 1e-10j], rtol=1e-9)
    np.testing.assert_allclose(torch.expm1(z).numpy(), [1e-10 + 1e-10j], rtol=1e-9)


def _parts(t):
    return [(v.real, math.copysign(1, v.imag)) for v in t.tolist()]


def test_branch_cuts_follow_the_sign_of_zero():
    # log and sqrt of negative reals: the imaginary part's sign picks the side of the cut.
    z = torch.view_as_complex(torch.tensor([[-4.0, 0.0], [-4.0, -0.0]], dtype=torch.float64))
    assert torch.sqrt(z).tolist() == [2j, -2j]
    logs = torch.log(z).tolist()
    assert logs[0] == complex(math.log(4), math.pi) and logs[1] == complex(math.log(4), -math.pi)
    np.testing.assert_array_equal(torch.sqrt(z).numpy(), np.sqrt(z.numpy()))
    np.testing.assert_array_equal(torch.log(z).numpy(), np.log(z.numpy()))
    # -0.0 imaginary parts of real-axis inputs come through as NumPy's
    w = torch.view_as_complex(torch.tensor([[2.0, -0.0], [0.5, 0.0]], dtype=torch.float64))
    assert _parts(torch.sqrt(w)) == _parts(torch.from_numpy(np.sqrt(w.numpy())))
    assert _parts(torch.log(w)) == _parts(torch.from_numpy(np.log(w.numpy())))


def test_zero_and_infinities():
    z = torch.tensor([0j], dtype=torch.complex128)
    assert torch.log(z).tolist()[0].real == -math.inf
    assert torch.sqrt(z).tolist() == [0j]
    assert torch.sgn(z).tolist() == [0j]
    np.testing.assert_array_equal(torch.reciprocal(z).numpy(), [complex(math.inf, math.nan)])


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_gradients_by_finite_differences(name):
    z = torch.tensor(VALUES[:4], dtype=torch.complex128, requires_grad=True)
    fn = getattr(torch, name)
    assert torch.autograd.gradcheck(fn, (z,))
    assert torch.autograd.gradgradcheck(fn, (z,))


POW_CASES = {
    "complex ** float": (lambda z, r: z**2.5, lambda z, r: z**2.5),
    "complex ** int": (lambda z, r: z**3, lambda z, r: z**3),
    "complex ** 2": (lambda z, r: z**2, lambda z, r: z * z),
    "complex ** -1": (lambda z, r: z**-1, lambda z, r: 1 / z),
    "complex ** 0.5": (lambda z, r: z**0.5, lambda z, r: np.sqrt(z)),
    "complex ** -0.5": (lambda z, r: z**-0.5, lambda z, r: 1 / np.sqrt(z)),
    "complex ** -2": (lambda z, r: z**-2, lambda z, r: 1 / (z * z)),
    "complex ** 0": (lambda z, r: z**0, lambda z, r: np.ones_like(z)),
    "complex ** complex number": (lambda z, r: z ** (1 + 1j), lambda z, r: z ** (1 + 1j)),
    "complex ** real tensor": (lambda z, r: z**r, lambda z, r: z**r),
    "real tensor ** complex": (lambda z, r: r**z, lambda z, r: r.astype(complex) ** z),
    "complex ** complex": (lambda z, r: z ** (z * 0.5), lambda z, r: z ** (z * 0.5)),
    "number ** complex": (lambda z, r: 2**z, lambda z, r: 2.0**z),
    "torch.pow": (lambda z, r: torch.pow(z, 2), lambda z, r: z * z),
}

POW_R = np.array([0.5, 1.5, 2.0, 0.25, -1.0, 3.0])


@pytest.mark.parametrize("case", sorted(POW_CASES))
def test_pow_values(case):
    fn, ref = POW_CASES[case]
    for dtype, tol in ((torch.complex128, 1e-12), (torch.complex64, 2e-5)):
        real = torch.float64 if dtype == torch.complex128 else torch.float32
        z, r = torch.tensor(VALUES, dtype=dtype), torch.tensor(POW_R, dtype=real)
        got = fn(z, r)
        assert got.dtype == dtype
        np.testing.assert_allclose(got.numpy(), ref(VALUES, POW_R), rtol=tol, atol=tol)


@pytest.mark.parametrize("case", sorted(set(POW_CASES) - {"complex ** 0"}))
def test_pow_gradients(case):
    fn = POW_CASES[case][0]
    z = torch.tensor(VALUES[:4], dtype=torch.complex128, requires_grad=True)
    r = torch.tensor(POW_R[:4], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(fn, (z, r))


def test_pow_of_complex_dtype_promotion():
    x = torch.tensor([1.0, 2.0])
    assert (x ** (1j)).dtype == torch.complex64
    assert (x.double() ** torch.tensor([1j], dtype=torch.complex64)).dtype == torch.complex128
    assert (2 ** torch.tensor([1j])).dtype == torch.complex64


def test_unsupported_functions_name_op_and_dtype():
    z = torch.tensor([1 + 2j])
    with pytest.raises(
        NotImplementedError, match="\"erf_vml_cpu\" not implemented for 'ComplexFloat'"
    ):
        torch.erf(z)
    with pytest.raises(NotImplementedError, match="torch.sign is not intended to support complex"):
        torch.sign(z)
    with pytest.raises(NotImplementedError, match="ceil is not supported for complex inputs"):
        torch.ceil(z)


def test_gradcheck_catches_a_missing_conjugate():
    class WrongSquare(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 2 * x  # PyTorch's convention needs conj(2 x)

    z = torch.tensor([0.7 + 0.4j, -1.3 + 0.2j], dtype=torch.complex128, requires_grad=True)
    assert not torch.autograd.gradcheck(WrongSquare.apply, (z,), raise_exception=False)


def test_gradcheck_of_mixed_real_and_complex():
    a = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([0.3, -1.5], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(torch.polar, (a, b))
    assert torch.autograd.gradcheck(lambda z: z.abs(), (torch.complex(a, b),))


@pytest.mark.skipif(real_torch is None, reason="PyTorch is not installed")
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_gradients_and_names_match_pytorch(name):
    weights = np.array([0.3 - 0.2j, 1.1 + 0.5j, -0.7 + 0.4j, 0.2 + 0.9j, 0.5 - 0.5j, 1 + 1j])
    grads, names = [], []
    for lib in (torch, real_torch):
        z = lib.tensor(VALUES, dtype=lib.complex128, requires_grad=True)
        y = getattr(lib, name)(z)
        c = lib.tensor(weights, dtype=lib.complex128)
        ((y * c).real.sum() + (y * y * c).imag.sum()).backward()
        grads.append(z.grad.detach().numpy())
        names.append(type(y.grad_fn).__name__ if lib is real_torch else y.grad_fn.name())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-10, atol=1e-12)
    assert names[0] == names[1]


def test_lerp_of_complex_tensors():
    z = torch.tensor([1 + 2j, -3 + 0.5j], dtype=torch.complex128, requires_grad=True)
    e = torch.tensor([0.5 - 1j, 2 + 2j], dtype=torch.complex128, requires_grad=True)
    w = torch.tensor([0.25 + 0j, 0.75 + 0j], dtype=torch.complex128, requires_grad=True)
    np.testing.assert_allclose(
        torch.lerp(z, e, 0.3).detach().numpy(), z.detach().numpy() * 0.7 + e.detach().numpy() * 0.3
    )
    assert torch.autograd.gradcheck(torch.lerp, (z, e, w))
    assert torch.lerp(z, e, w).grad_fn.name() == "LerpBackward1"
    with pytest.raises(RuntimeError, match="expected dtype c10::complex<double> for `end` but got"):
        torch.lerp(z.detach(), e.detach().to(torch.complex64), 0.5)
    with pytest.raises(RuntimeError, match="expected dtype double for `end` but got dtype float"):
        torch.lerp(torch.zeros(2, dtype=torch.float64), torch.zeros(2), 0.5)
