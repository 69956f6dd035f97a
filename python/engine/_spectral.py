"""torch.stft and torch.istft (and their Tensor methods), composed from engine.fft and
differentiable engine ops: frames are a strided unfold of the (padded) signal, and istft's
overlap-add is an index_add of the windowed frames, divided by the overlap-added squared window."""

import warnings

from engine import _C
from engine._composite_ops import _tensor_arg

_NO_WINDOW_STFT = (
    "A window was not provided. A rectangular window will be applied,which is known to cause "
    "spectral leakage. Other windows such as torch.hann_window or torch.hamming_window are "
    "recommended to reduce spectral leakage.To suppress this warning and use a rectangular "
    "window, explicitly set `window=torch.ones(n_fft, device=<device>)"
)
_NO_WINDOW_ISTFT = (
    "A window was not provided. A rectangular window will be applied.Please provide the same "
    "window used by stft to make the inversion lossless.To suppress this warning and use a "
    "rectangular window, explicitly set `window=torch.ones(n_fft, device=<device>)`."
)


def _frame_window(fname, window, n_fft, win_length, dtype):
    """The window as n_fft points: centred and zero-padded when win_length < n_fft."""
    if window is None:
        warnings.warn(
            _NO_WINDOW_STFT if fname == "stft" else _NO_WINDOW_ISTFT, UserWarning, stacklevel=3
        )
        window = _C.ones(win_length, dtype=dtype)
    if window.dim() != 1 or window.shape[0] != win_length:
        raise RuntimeError(
            f"{fname}: expected a 1D window tensor of size equal to win_length={win_length}, "
            f"but got window with size {list(window.shape)}"
        )
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = _C.cat(
            [
                _C.zeros(left, dtype=window.dtype),
                window,
                _C.zeros(n_fft - win_length - left, dtype=window.dtype),
            ]
        )
    return window


def _check_sizes(fname, input, n_fft, hop_length, win_length):
    head = f"{fname}(torch.{input.dtype!r}[{', '.join(map(str, input.shape))}], n_fft={n_fft}"
    if not 0 < win_length <= n_fft:
        raise RuntimeError(
            f"{head}) : expected 0 < win_length <= n_fft, but got win_length={win_length}"
        )
    if hop_length <= 0:
        raise RuntimeError(f"{head}) : expected hop_length > 0, but got hop_length={hop_length}")


def stft(
    input,
    n_fft,
    hop_length=None,
    win_length=None,
    window=None,
    center=True,
    pad_mode="reflect",
    normalized=False,
    onesided=None,
    return_complex=None,
    align_to_window=None,
):
    """The short-time Fourier transform: ``window``-weighted frames of ``n_fft`` samples every
    ``hop_length`` (default ``n_fft // 4``), each transformed with :func:`engine.fft.fft`. The
    result is ``(n_fft // 2 + 1, n_frames)`` (onesided, the default for real input) or
    ``(n_fft, n_frames)``, after a batch dim if the input has one. ``center`` pads the signal by
    ``n_fft // 2`` on both sides with ``pad_mode``; ``normalized`` scales by ``n_fft ** -0.5``.
    ``return_complex`` must be given for real input (PyTorch's rule); False returns the
    deprecated ``view_as_real`` form.

    Example::

        >>> engine.stft(engine.ones(8), 4, window=engine.ones(4), return_complex=True).shape
        torch.Size([3, 9])
    """
    from engine import fft
    from engine.nn import functional as F

    _tensor_arg("stft", input, "input", 1)
    if return_complex is None:
        if not input.dtype.is_complex and (window is None or not window.dtype.is_complex):
            raise RuntimeError(
                "stft requires the return_complex parameter be given for real inputs, and will "
                "further require that return_complex=True in a future PyTorch release."
            )
        return_complex = True
    if not return_complex:
        warnings.warn(
            "stft with return_complex=False is deprecated. In a future pytorch release, stft will "
            "return complex tensors for all inputs, and return_complex=False will raise an error.\n"
            "Note: you can still call torch.view_as_real on the complex output to recover the old "
            "return format.",
            UserWarning,
            stacklevel=2,
        )
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if input.dim() not in (1, 2):
        raise RuntimeError(f"stft: expected a 1D or 2D tensor, but got {input.dim()}D tensor")
    x = input if input.dim() == 2 else input.unsqueeze(0)
    if center:
        pad = n_fft // 2
        x = F.pad(x.unsqueeze(1), (pad, pad), mode=pad_mode).squeeze(1)
    _check_sizes("stft", x if input.dim() == 2 else x[0], n_fft, hop_length, win_length)
    if not 0 < n_fft <= x.shape[-1]:
        raise RuntimeError(f"stft: expected 0 < n_fft < {x.shape[-1]}, but got n_fft={n_fft}")
    real_dtype = (
        x.dtype
        if not x.dtype.is_complex
        else (_C.float64 if x.dtype == _C.complex128 else _C.float32)
    )
    win = _frame_window("stft", window, n_fft, win_length, real_dtype)
    frames = x.unfold(-1, n_fft, hop_length) * win  # (batch, n_frames, n_fft)
    complex_input = frames.dtype.is_complex
    onesided = (not complex_input) if onesided is None else onesided
    norm = "ortho" if normalized else "backward"
    spectrum = fft.rfft(frames, norm=norm) if onesided else fft.fft(frames, norm=norm)
    spectrum = spectrum.transpose(1, 2)
    if input.dim() == 1:
        spectrum = spectrum.squeeze(0)
    return spectrum if return_complex else _C.view_as_real(spectrum.contiguous())


def istft(
    input,
    n_fft,
    hop_length=None,
    win_length=None,
    window=None,
    center=True,
    normalized=False,
    onesided=None,
    length=None,
    return_complex=False,
):
    """The inverse of :func:`stft`: each frame's inverse transform, windowed and overlap-added,
    divided by the overlap-added squared window; ``length`` cuts or zero-pads the signal.

    Example::

        >>> x = engine.arange(16.0)
        >>> w = engine.hann_window(8)
        >>> s = engine.stft(x, 8, window=w, return_complex=True)
        >>> (engine.istft(s, 8, window=w, length=16) - x).abs().max() < 1e-4
        tensor(True)
    """
    from engine import fft

    _tensor_arg("istft", input, "input", 1)
    if not input.dtype.is_complex:
        raise RuntimeError(
            "istft requires a complex-valued input tensor matching the output from stft with "
            "return_complex=True."
        )
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"istft: expected a tensor with 2 or 3 dimensions of complex, but got {input.dim()}D"
        )
    spec = input if input.dim() == 3 else input.unsqueeze(0)
    n_frames = spec.shape[-1]
    onesided = spec.shape[-2] != n_fft if onesided is None else onesided
    if onesided and spec.shape[-2] != n_fft // 2 + 1:
        raise RuntimeError(
            f"istft: expected the frequency dimension (3rd to the last) of the input tensor to "
            f"match n_fft / 2 + 1 when onesided=True, but got {spec.shape[-2]}"
        )
    real_dtype = _C.float64 if spec.dtype == _C.complex128 else _C.float32
    win = _frame_window("istft", window, n_fft, win_length, real_dtype)
    norm = "ortho" if normalized else "backward"
    frames_spec = spec.transpose(1, 2)  # (batch, n_frames, freq)
    if onesided:
        frames = fft.irfft(frames_spec, n=n_fft, norm=norm)
    else:
        frames = fft.ifft(frames_spec, n=n_fft, norm=norm)
        if not return_complex:
            frames = frames.real
    frames = frames * win
    expected = n_fft + hop_length * (n_frames - 1)
    index = (_C.arange(n_frames).unsqueeze(1) * hop_length + _C.arange(n_fft).unsqueeze(0)).reshape(
        -1
    )
    batch = frames.shape[0]
    signal = _C.zeros(batch, expected, dtype=frames.dtype).index_add(
        1, index, frames.reshape(batch, -1)
    )
    envelope = _C.zeros(expected, dtype=real_dtype).index_add(
        0, index, (win * win).expand(n_frames, n_fft).reshape(-1)
    )
    start = n_fft // 2 if center else 0
    end = expected - (n_fft // 2 if center else 0)
    if length is not None:
        end = min(start + length, expected)
    signal = signal[:, start:end]
    envelope = envelope[start:end]
    smallest = envelope.abs().min().item() if envelope.numel() else 1.0
    if smallest < 1e-11:
        raise RuntimeError(f"istft(...): window overlap add min: {smallest:g}")
    signal = signal / envelope
    if length is not None and signal.shape[-1] < length:
        warnings.warn(
            "The length of signal is shorter than the length parameter. Result is being padded "
            "with zeros in the tail. Please check your center and hop_length settings.",
            UserWarning,
            stacklevel=2,
        )
        signal = _C.cat([signal, _C.zeros(batch, length - signal.shape[-1], dtype=signal.dtype)], 1)
    return signal if input.dim() == 3 else signal.squeeze(0)


FUNCTIONS = {"stft": stft, "istft": istft}


def install():
    """Adds Tensor.stft and Tensor.istft."""
    _C.Tensor.stft = stft
    _C.Tensor.istft = istft
