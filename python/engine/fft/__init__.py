"""engine.fft: discrete Fourier transforms with PyTorch 2.13's signatures, defaults, dtypes and
gradients (torch.fft). The transforms run in numpy.fft (see _transforms.py); signal sizes
(``n``, ``s``) cut or zero-pad the input with differentiable engine ops first, so every function
here is differentiable in its input."""

from engine import _C
from engine._composite_ops import _tensor_arg
from engine.fft import _transforms

__all__ = [
    "fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn",
    "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]  # fmt: skip

_NORMS = ("backward", "forward", "ortho")


def _norm(norm):
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise RuntimeError(f'Invalid normalization mode: "{norm}"')
    return norm


def _swap(norm):
    return {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]


def _wrap_dim(d, ndim):
    n = max(ndim, 1)
    if not -n <= d < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})"
        )
    return d % n


def _dtype_name(dtype):
    from engine._scalar_type_names import scalar_type_name

    return scalar_type_name(dtype)


def _as_complex(x):
    """x in the complex dtype its transform computes in (PyTorch's promotion)."""
    if x.dtype.is_complex:
        return x
    if x.dtype in (_C.float16, _C.bfloat16):
        raise RuntimeError(f"Unsupported dtype {_dtype_name(x.dtype)}")
    if x.dtype == _C.float64:
        return x.to(_C.complex128)
    if x.dtype == _C.float32:
        return x.to(_C.complex64)
    return x.to(_C.complex128 if _C.get_default_dtype() == _C.float64 else _C.complex64)


def _as_real(x, fname):
    if x.dtype.is_complex:
        raise RuntimeError(f"{fname} expects a real input tensor, but got {_dtype_name(x.dtype)}")
    if x.dtype in (_C.float16, _C.bfloat16):
        raise RuntimeError(f"Unsupported dtype {_dtype_name(x.dtype)}")
    if not x.dtype.is_floating_point:
        return x.to(_C.get_default_dtype())
    return x


def _resized(x, dim, n):
    """x cut to (or zero-padded up to) n elements along dim."""
    size = x.shape[dim]
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")
    if n < size:
        return x.narrow(dim, 0, n)
    if n > size:
        shape = list(x.shape)
        shape[dim] = n - size
        return _C.cat([x, _C.zeros(shape, dtype=x.dtype)], dim)
    return x


def _dims_and_sizes(x, s, dim, default_dims=None):
    """(dims, sizes) of an n-dimensional transform, as torch.fft's argument rules give them."""
    if dim is not None:
        dims = [dim] if isinstance(dim, int) else list(dim)
        dims = [_wrap_dim(d, x.dim()) for d in dims]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
        if s is not None and len(s) != len(dims):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
    elif s is not None:
        if len(s) > x.dim():
            raise RuntimeError(
                f"Got shape with {len(s)} values but input tensor only has {x.dim()} dimensions."
            )
        dims = list(range(x.dim() - len(s), x.dim()))
    elif default_dims is not None:
        dims = [_wrap_dim(d, x.dim()) for d in default_dims]
    else:
        dims = list(range(x.dim()))
    sizes = [x.shape[d] if s is None or s[i] == -1 else int(s[i]) for i, d in enumerate(dims)]
    return dims, sizes


def _check_args(fname, input):
    _tensor_arg(fname, input, "input", 1)


def fftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional discrete Fourier transform over ``dim`` (all dims by default), each
    signal cut or zero-padded to ``s``; ``norm`` is ``"backward"`` (no scaling, the default),
    ``"ortho"`` (1/sqrt(n)) or ``"forward"`` (1/n). Real input gives the full complex spectrum.

    Example::

        >>> engine.fft.fftn(engine.ones(2, 2))
        tensor([[4.+0.j, 0.+0.j],
                [0.+0.j, 0.+0.j]])
    """
    return _c2c("fftn", input, s, dim, norm, True, None, out)


def ifftn(input, s=None, dim=None, norm=None, *, out=None):
    """The inverse of :func:`fftn` (``norm="backward"`` scales by 1/n here).

    Example::

        >>> engine.fft.ifftn(engine.fft.fftn(engine.ones(2, 2))).real
        tensor([[1., 1.],
                [1., 1.]])
    """
    return _c2c("ifftn", input, s, dim, norm, False, None, out)


def _c2c(fname, input, s, dim, norm, forward, default_dims, out):
    _check_args(fname, input)
    norm = _norm(norm)
    x = _as_complex(input)
    dims, sizes = _dims_and_sizes(x, s, dim, default_dims)
    for d, n in zip(dims, sizes):
        x = _resized(x, d, n)
    result = _transforms.c2c(x, dims, norm, forward) if dims else x
    return _written(result, out)


def _written(result, out):
    if out is None:
        return result
    return out.resize_(result.shape).copy_(result)


def _real_1d(fname, input, n, dim, norm, forward, out):
    """fft / ifft of a real signal as PyTorch computes it: the one-sided transform, the other
    half filled in as the conjugates of the first (so its zeros carry PyTorch's signs), and for
    the inverse the conjugate of the forward transform with the swapped normalization."""
    _check_args(fname, input)
    norm = _norm(norm)
    x = _as_real(input, fname)
    d = _wrap_dim(dim, x.dim())
    size = x.shape[d] if n is None else n
    x = _resized(x, d, size)
    half = _transforms.r2c(x, [d], norm if forward else _swap(norm))
    mirrored = size - half.shape[d]
    if mirrored > 0:
        tail = half.narrow(d, 1, mirrored).flip(d).conj()
        half = _C.cat([half, tail], d)
    return _written(half if forward else half.conj(), out)


def fft(input, n=None, dim=-1, norm=None, *, out=None):
    """The one-dimensional discrete Fourier transform along ``dim``, the signal cut or zero-padded
    to ``n`` points (see :func:`fftn` for ``norm``).

    Example::

        >>> engine.fft.fft(engine.tensor([1.0, 2.0, 3.0, 4.0]))
        tensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    """
    if isinstance(input, _C.Tensor) and not input.dtype.is_complex:
        return _real_1d("fft", input, n, dim, norm, True, out)
    return _c2c(
        "fft",
        input,
        None if n is None else [n],
        dim if dim is None else [dim],
        norm,
        True,
        None,
        out,
    )


def ifft(input, n=None, dim=-1, norm=None, *, out=None):
    """The inverse of :func:`fft` along ``dim``.

    Example::

        >>> engine.fft.ifft(engine.tensor([4.0, 0.0, 0.0, 0.0]))
        tensor([1.-0.j, 1.-0.j, 1.-0.j, 1.+0.j])
    """
    if isinstance(input, _C.Tensor) and not input.dtype.is_complex:
        return _real_1d("ifft", input, n, dim, norm, False, out)
    return _c2c(
        "ifft",
        input,
        None if n is None else [n],
        dim if dim is None else [dim],
        norm,
        False,
        None,
        out,
    )


def fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The two-dimensional discrete Fourier transform over ``dim`` (the last two by default).

    Example::

        >>> engine.fft.fft2(engine.ones(2, 2)).real
        tensor([[4., 0.],
                [0., 0.]])
    """
    return _c2c("fft2", input, s, dim, norm, True, None, out)


def ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The inverse of :func:`fft2`.

    Example::

        >>> engine.fft.ifft2(engine.fft.fft2(engine.eye(2))).real
        tensor([[1., 0.],
                [0., 1.]])
    """
    return _c2c("ifft2", input, s, dim, norm, False, None, out)


def rfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional transform of a real signal, one-sided: the last transformed dim keeps
    its ``n // 2 + 1`` non-negative frequencies (the rest follow by symmetry).

    Example::

        >>> engine.fft.rfftn(engine.ones(2, 4)).shape
        torch.Size([2, 3])
    """
    _check_args("rfftn", input)
    norm = _norm(norm)
    x = _as_real(input, "rfftn")
    dims, sizes = _dims_and_sizes(x, s, dim)
    if not dims:
        raise RuntimeError("rfftn must transform at least one axis")
    for d, n in zip(dims, sizes):
        x = _resized(x, d, n)
    return _written(_transforms.r2c(x, dims, norm), out)


def rfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The one-sided transform of a real signal along ``dim``: ``n // 2 + 1`` frequencies.

    Example::

        >>> engine.fft.rfft(engine.tensor([1.0, 2.0, 3.0, 4.0]))
        tensor([10.+0.j, -2.+2.j, -2.+0.j])
    """
    _check_args("rfft", input)
    norm = _norm(norm)
    x = _as_real(input, "rfft")
    d = _wrap_dim(dim, x.dim())
    x = _resized(x, d, x.shape[d] if n is None else n)
    return _written(_transforms.r2c(x, [d], norm), out)


def rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """:func:`rfftn` over the last two dims (by default).

    Example::

        >>> engine.fft.rfft2(engine.ones(4, 4)).shape
        torch.Size([4, 3])
    """
    return rfftn(input, s, dim, norm, out=out)


def irfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The inverse of :func:`rfftn`: a real signal from a one-sided spectrum. Its last
    transformed dim has ``s[-1]`` points, by default ``2 * (m - 1)`` for ``m`` input frequencies.

    Example::

        >>> engine.fft.irfftn(engine.fft.rfftn(engine.ones(2, 4)))
        tensor([[1., 1., 1., 1.],
                [1., 1., 1., 1.]])
    """
    _check_args("irfftn", input)
    norm = _norm(norm)
    x = _as_complex(input)
    dims, sizes = _dims_and_sizes(x, s, dim)
    if not dims:
        raise RuntimeError("irfftn must transform at least one axis")
    last = dims[-1]
    last_size = sizes[-1] if s is not None and s[-1] != -1 else 2 * (x.shape[last] - 1)
    if last_size < 1:
        raise RuntimeError(f"Invalid number of data points ({last_size}) specified")
    for d, n in zip(dims[:-1], sizes[:-1]):
        x = _resized(x, d, n)
    x = _resized(x, last, last_size // 2 + 1)
    return _written(_transforms.c2r(x, dims, norm, last_size), out)


def irfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The inverse of :func:`rfft`: ``n`` real points (by default ``2 * (m - 1)``) from ``m``
    one-sided frequencies along ``dim``.

    Example::

        >>> engine.fft.irfft(engine.tensor([4.0 + 0j, 0j, 0j]))
        tensor([1., 1., 1., 1.])
    """
    return irfftn(input, None if n is None else [n], [dim], norm, out=out)


def irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """:func:`irfftn` over the last two dims (by default).

    Example::

        >>> engine.fft.irfft2(engine.fft.rfft2(engine.eye(2)))
        tensor([[1., 0.],
                [0., 1.]])
    """
    return irfftn(input, s, dim, norm, out=out)


def hfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The transform of a Hermitian-symmetric signal given by its one-sided half: ``n`` real
    frequencies (by default ``2 * (m - 1)``). ``hfft(x) = irfft(x.conj())`` with the
    normalization of a forward transform.

    Example::

        >>> engine.fft.hfft(engine.tensor([1.0, 2.0, 3.0], dtype=engine.complex64))
        tensor([ 8., -2.,  0., -2.])
    """
    _check_args("hfft", input)
    return irfft(_as_complex(input).conj(), n, dim, _swap(_norm(norm)), out=out)


def ihfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The inverse of :func:`hfft`: the one-sided half spectrum of a real signal, as
    ``rfft(x).conj()`` with the normalization of an inverse transform.

    Example::

        >>> engine.fft.ihfft(engine.tensor([1.0, 1.0, 1.0, 1.0]))
        tensor([1.-0.j, 0.-0.j, 0.-0.j])
    """
    _check_args("ihfft", input)
    _as_real(input, "ihfft")
    return _written(rfft(input, n, dim, _swap(_norm(norm))).conj(), out)


def _frequency_dtype(dtype):
    return _C.get_default_dtype() if dtype is None else dtype


def fftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of an ``n``-point :func:`fft` with sample spacing ``d``:
    ``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n)``.

    Example::

        >>> engine.fft.fftfreq(4)
        tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
    """
    dtype = _frequency_dtype(dtype)
    result = _C.arange(n, dtype=dtype)
    half = (n + 1) // 2
    result = _C.cat([result[:half], result[half:] - n])
    result = result * (1.0 / (n * d))
    if requires_grad:
        result.requires_grad_()
    return _written(result, out)


def rfftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of an ``n``-point :func:`rfft`: ``[0, 1, ..., n // 2] / (d * n)``.

    Example::

        >>> engine.fft.rfftfreq(4)
        tensor([0.0000, 0.2500, 0.5000])
    """
    dtype = _frequency_dtype(dtype)
    result = _C.arange(n // 2 + 1, dtype=dtype) * (1.0 / (n * d))
    if requires_grad:
        result.requires_grad_()
    return _written(result, out)


def _shifted(fname, input, dim, forward):
    _check_args(fname, input)
    if dim is None:
        dims = list(range(input.dim()))
    else:
        dims = [dim] if isinstance(dim, int) else list(dim)
    shifts = [(input.shape[d] // 2) if forward else ((input.shape[d] + 1) // 2) for d in dims]
    if not dims:
        return input.clone()
    return input.roll(shifts, dims)


def fftshift(input, dim=None):
    """Moves the zero frequency to the centre of ``dim`` (all dims by default): a roll by
    ``size // 2``.

    Example::

        >>> engine.fft.fftshift(engine.fft.fftfreq(4))
        tensor([-0.5000, -0.2500,  0.0000,  0.2500])
    """
    return _shifted("fftshift", input, dim, True)


def ifftshift(input, dim=None):
    """The inverse of :func:`fftshift`: a roll by ``-(size // 2)``.

    Example::

        >>> engine.fft.ifftshift(engine.arange(5))
        tensor([2, 3, 4, 0, 1])
    """
    return _shifted("ifftshift", input, dim, False)
