"""engine.fft and stft / istft: values against numpy.fft (complex128) and PyTorch 2.13's recorded
results, result dtypes, argument errors, and gradients against PyTorch's recorded ones
(tests/fixtures/complex.json) and against finite differences (gradcheck)."""

import warnings

import engine as torch
import numpy as np
import pytest
from engine.autograd import gradcheck

from tests.test_complex import FIXTURE, as_pairs, check_gradients, inputs

RNG = np.random.default_rng(7)
REAL = RNG.standard_normal((3, 6))
CPLX = RNG.standard_normal((3, 5)) + 1j * RNG.standard_normal((3, 5))


@pytest.mark.parametrize("norm", [None, "backward", "forward", "ortho"])
def test_transforms_against_numpy(norm):
    r, c = torch.tensor(REAL), torch.tensor(CPLX)
    f = np.fft
    cases = [
        (torch.fft.fft(c, norm=norm), f.fft(CPLX, norm=norm)),
        (torch.fft.ifft(c, n=7, dim=0, norm=norm), f.ifft(CPLX, n=7, axis=0, norm=norm)),
        (torch.fft.fft(r, n=4, norm=norm), f.fft(REAL, n=4, norm=norm)),
        (torch.fft.rfft(r, norm=norm), f.rfft(REAL, norm=norm)),
        (torch.fft.irfft(c, norm=norm), f.irfft(CPLX, norm=norm)),
        (torch.fft.irfft(c, n=5, norm=norm), f.irfft(CPLX, n=5, norm=norm)),
        (torch.fft.fft2(c, norm=norm), f.fft2(CPLX, norm=norm)),
        (torch.fft.ifft2(c, s=(2, 8), norm=norm), f.ifft2(CPLX, s=(2, 8), norm=norm)),
        (torch.fft.fftn(c, dim=(1,), norm=norm), f.fftn(CPLX, axes=(1,), norm=norm)),
        (torch.fft.ifftn(c, norm=norm), f.ifftn(CPLX, norm=norm)),
        (torch.fft.rfft2(r, norm=norm), f.rfft2(REAL, norm=norm)),
        (torch.fft.rfftn(r, s=(4, 5), norm=norm), f.rfftn(REAL, s=(4, 5), axes=(0, 1), norm=norm)),
        (torch.fft.irfft2(c, norm=norm), f.irfft2(CPLX, norm=norm)),
        (
            torch.fft.irfftn(c, s=(3, 7), norm=norm),
            f.irfftn(CPLX, s=(3, 7), axes=(0, 1), norm=norm),
        ),
        (torch.fft.hfft(c, norm=norm), f.hfft(CPLX, norm=norm)),
        (torch.fft.ihfft(r, norm=norm), f.ihfft(REAL, norm=norm)),
    ]
    for got, want in cases:
        assert got.shape == want.shape
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-12)


def test_result_dtypes_follow_pytorch():
    f32, f64 = torch.ones(4), torch.ones(4, dtype=torch.float64)
    assert torch.fft.fft(f32).dtype is torch.complex64
    assert torch.fft.fft(f64).dtype is torch.complex128
    assert torch.fft.fft(torch.arange(4)).dtype is torch.complex64
    assert torch.fft.rfft(f64).dtype is torch.complex128
    assert torch.fft.irfft(torch.ones(3, dtype=torch.complex64)).dtype is torch.float32
    assert torch.fft.hfft(torch.ones(3, dtype=torch.complex128)).dtype is torch.float64
    assert torch.fft.ifft(torch.ones(4, dtype=torch.cdouble)).dtype is torch.complex128
    assert torch.fft.fftfreq(4, dtype=torch.float64).dtype is torch.float64


@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda: torch.fft.fft(torch.ones(3), norm="x"),
            RuntimeError,
            'Invalid normalization mode: "x"',
        ),
        (
            lambda: torch.fft.rfft(torch.ones(3, dtype=torch.cfloat)),
            RuntimeError,
            "rfft expects a real input tensor, but got ComplexFloat",
        ),
        (
            lambda: torch.fft.ihfft(torch.ones(3, dtype=torch.cfloat)),
            RuntimeError,
            "ihfft expects a real input tensor, but got ComplexFloat",
        ),
        (
            lambda: torch.fft.fft(torch.ones(3), n=0),
            RuntimeError,
            "Invalid number of data points \\(0\\) specified",
        ),
        (lambda: torch.fft.fft(torch.ones(3), dim=2), IndexError, "Dimension out of range"),
        (lambda: torch.fft.fft2(torch.ones(3)), IndexError, "Dimension out of range"),
        (
            lambda: torch.fft.fft(torch.ones(3, dtype=torch.half)),
            RuntimeError,
            "Unsupported dtype Half",
        ),
        (lambda: torch.fft.fft([1.0]), TypeError, "must be Tensor"),
    ],
)
def test_argument_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_frequencies_and_shifts():
    assert torch.fft.fftfreq(5, d=0.5).tolist() == pytest.approx([0.0, 0.4, 0.8, -0.8, -0.4])
    assert torch.fft.rfftfreq(8).tolist() == [0.0, 0.125, 0.25, 0.375, 0.5]
    assert torch.fft.fftshift(torch.arange(6)).tolist() == [3, 4, 5, 0, 1, 2]
    assert torch.fft.ifftshift(torch.arange(5)).tolist() == [2, 3, 4, 0, 1]
    m = torch.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(torch.fft.fftshift(m).numpy(), np.fft.fftshift(m.numpy()))
    np.testing.assert_array_equal(
        torch.fft.ifftshift(m, dim=1).numpy(), np.fft.ifftshift(m.numpy(), axes=1)
    )


@pytest.mark.parametrize("expr", [e for e in FIXTURE["values"] if "fft" in e or "stft" in e])
def test_values_match_pytorch(expr):
    want = FIXTURE["values"][expr]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # istft's short-signal warning, as PyTorch gives it
        out = eval(expr, inputs())
    assert str(out.dtype) == want["dtype"] and list(out.shape) == want["shape"]
    np.testing.assert_allclose(as_pairs(out), want["values"], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("expr", [e for e in FIXTURE["grads"] if "fft" in e or "stft" in e])
def test_gradients_match_pytorch(expr):
    check_gradients(expr, 1e-4, 1e-3, 1e-4)


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: torch.fft.rfft(x, n=7).abs(),
        lambda x: torch.fft.irfft(torch.fft.rfft(x), n=6, norm="ortho"),
        lambda x: torch.fft.fft2(x, norm="forward").real,
        lambda x: torch.fft.hfft(torch.fft.ihfft(x), n=6),
    ],
)
def test_gradcheck_real_in_real_out(fn):
    x = torch.tensor(REAL, requires_grad=True)
    assert gradcheck(fn, (x,))


def test_stft_requires_return_complex_and_warns_without_window():
    x = torch.ones(32)
    with pytest.raises(RuntimeError, match="stft requires the return_complex parameter be given"):
        torch.stft(x, 8)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        s = torch.stft(x, 8, return_complex=True)
    assert s.shape == (5, 17) and s.dtype is torch.complex64
    assert any("A window was not provided" in str(w.message) for w in caught)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old = torch.stft(x, 8, window=torch.ones(8), return_complex=False)
    assert old.shape == (5, 17, 2)
    assert any("return_complex=False is deprecated" in str(w.message) for w in caught)


def test_istft_inverts_stft():
    torch.manual_seed(0)
    sig = torch.randn(2, 300)
    win = torch.hann_window(64)
    spec = torch.stft(sig, 64, hop_length=16, window=win, return_complex=True)
    assert spec.shape == (2, 33, 19)
    rec = torch.istft(spec, 64, hop_length=16, window=win, length=300)
    assert rec.shape == (2, 300)
    assert (rec - sig).abs().max().item() < 1e-5
