"""The three discrete Fourier transforms every engine.fft function is built from, as autograd
Functions over numpy.fft: complex-to-complex (_C2C), real-to-complex one-sided (_R2C) and
complex-to-real (_C2R). Each works on tensors already cut or zero-padded to the signal sizes (the
callers do that with differentiable engine ops), and each backward is again one of the three,
with the normalization mode swapped (PyTorch's fft_*_backward formulas):

- c2c: the adjoint of a DFT is the DFT in the other direction with the swapped normalization;
- r2c: the one-sided gradient is zero-padded to the full spectrum, sent through the adjoint
  c2c transform, and its real part kept;
- c2r: the gradient goes through the r2c transform, and the bins that stand for two (every
  one but the zero and, for even sizes, the Nyquist bin) are doubled.

numpy.fft computes float32 and complex64 natively (numpy >= 2), so results keep PyTorch's
dtypes: complex64 from float32/complex64 input, complex128 from float64/complex128."""

from engine import _C
from engine.autograd import Function

_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _numpy():
    import numpy

    return numpy


def _to_numpy(t):
    return t.detach().resolve_conj().numpy()


def _from_numpy(array, dtype):
    np = _numpy()
    return _C.from_numpy(np.ascontiguousarray(array)).to(dtype)


class _C2C(Function):
    """DFT over ``dims`` of a complex tensor (forward or inverse) with numpy's ``norm``."""

    _backward_name = "FftC2CBackward0"

    @staticmethod
    def forward(x, dims, norm, forward):
        np = _numpy()
        fn = np.fft.fftn if forward else np.fft.ifftn
        return _from_numpy(fn(_to_numpy(x), axes=dims, norm=norm), x.dtype)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.dims, ctx.norm, ctx.forward = inputs

    @staticmethod
    def backward(ctx, grad):
        return _C2C.apply(grad, ctx.dims, _SWAP[ctx.norm], not ctx.forward), None, None, None


class _R2C(Function):
    """One-sided DFT of a real tensor over ``dims`` (the last of them halved to n // 2 + 1)."""

    _backward_name = "FftR2CBackward0"

    @staticmethod
    def forward(x, dims, norm):
        np = _numpy()
        complex_dtype = _C.complex128 if x.dtype == _C.float64 else _C.complex64
        return _from_numpy(np.fft.rfftn(_to_numpy(x), axes=dims, norm=norm), complex_dtype)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.dims, ctx.norm = inputs
        ctx.last_size = x.shape[ctx.dims[-1]]

    @staticmethod
    def backward(ctx, grad):
        last = ctx.dims[-1]
        missing = ctx.last_size - grad.shape[last]
        if missing > 0:
            shape = list(grad.shape)
            shape[last] = missing
            grad = _C.cat([grad, _C.zeros(shape, dtype=grad.dtype)], last)
        full = _C2C.apply(grad, ctx.dims, _SWAP[ctx.norm], False)
        return full.real, None, None


class _C2R(Function):
    """The real signal of size ``last_size`` along ``dims[-1]`` whose one-sided spectrum is the
    input (inverse transform, numpy's irfftn)."""

    _backward_name = "FftC2RBackward0"

    @staticmethod
    def forward(x, dims, norm, last_size):
        np = _numpy()
        sizes = [x.shape[d] for d in dims[:-1]] + [last_size]
        real_dtype = _C.float64 if x.dtype == _C.complex128 else _C.float32
        return _from_numpy(np.fft.irfftn(_to_numpy(x), s=sizes, axes=dims, norm=norm), real_dtype)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.dims, ctx.norm, _ = inputs

    @staticmethod
    def backward(ctx, grad):
        spectrum = _R2C.apply(grad, ctx.dims, _SWAP[ctx.norm])
        last = ctx.dims[-1]
        doubled = grad.shape[last] - spectrum.shape[last]
        if doubled > 0:
            weight = [1.0] + [2.0] * doubled + [1.0] * (spectrum.shape[last] - 1 - doubled)
            shape = [1] * spectrum.dim()
            shape[last] = len(weight)
            real_dtype = _C.float64 if spectrum.dtype == _C.complex128 else _C.float32
            spectrum = spectrum * _C.tensor(weight, dtype=real_dtype).reshape(shape)
        return spectrum, None, None, None


def c2c(x, dims, norm, forward):
    """DFT over dims (a tuple of non-negative ints) of complex x."""
    return _C2C.apply(x, tuple(dims), norm, forward)


def r2c(x, dims, norm):
    """One-sided DFT over dims of real x."""
    return _R2C.apply(x, tuple(dims), norm)


def c2r(x, dims, norm, last_size):
    """Inverse of r2c: the real signal of size last_size along dims[-1]."""
    return _C2R.apply(x, tuple(dims), norm, last_size)
