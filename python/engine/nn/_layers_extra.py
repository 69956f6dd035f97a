"""bilinear and local_response_norm for engine.nn.functional, composed from native ops."""

from engine import _C
from engine.amp._policy import autocast_op


@autocast_op("bilinear")
def bilinear(input1, input2, weight, bias=None):
    """``y[..., o] = sum_ij x1[..., i] * weight[o, i, j] * x2[..., j] + bias[o]``; the leading
    (batch) dims of input1 and input2 must agree."""
    if input1.dim() != input2.dim():
        raise RuntimeError(
            f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}"
        )
    for d in range(input1.dim() - 1):
        if input1.shape[d] != input2.shape[d]:
            raise RuntimeError(
                f"bilinear(): input batch dimensions do not match at dim {d}: got {input1.shape[d]} "
                f"and {input2.shape[d]}"
            )
    if weight.dim() != 3:
        raise RuntimeError(f"bilinear(): weight must be 3-dimensional, got {weight.dim()}D")
    out_features, in1, in2 = weight.shape
    if input1.shape[-1] != in1:
        raise RuntimeError(
            f"bilinear(): input1 size does not match weight size: got {input1.shape[-1]} "
            f"but expected {in1}"
        )
    if input2.shape[-1] != in2:
        raise RuntimeError(
            f"bilinear(): input2 size does not match weight size: got {input2.shape[-1]} "
            f"but expected {in2}"
        )
    if bias is not None and bias.dim() and bias.shape[0] != out_features:
        raise RuntimeError(
            f"bilinear(): bias size does not match weight size: got {bias.shape[0]} "
            f"but expected {out_features}"
        )
    batch = tuple(input1.shape[:-1])
    x1 = input1.reshape(-1, in1)
    x2 = input2.reshape(-1, in2)
    # (B, in1) @ (in1, out * in2) -> (B, out, in2), then contract with x2 over in2.
    left = (x1 @ weight.permute(1, 0, 2).reshape(in1, out_features * in2)).reshape(
        -1, out_features, in2
    )
    out = (left @ x2.unsqueeze(-1)).squeeze(-1)
    if bias is not None:
        out = out + bias
    return out.reshape(batch + (out_features,))


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """``x / (k + alpha * mean of x**2 over a window of `size` channels) ** beta``; the window
    spans ``size // 2`` channels before and ``(size - 1) // 2`` after, zero-padded."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(
            "Expected 3D or higher dimensionality                          input "
            f"(got {dim} dimensions)"
        )
    if size <= 0:
        kernel = f"kH: {size} kW: 1" if dim == 3 else f"kT: {size} kH: 1 kW: 1"
        raise RuntimeError(f"kernel size should be greater than zero, but got {kernel}")
    if input.numel() == 0:
        return input
    squared = input * input
    channels = input.shape[1]
    before, after = size // 2, (size - 1) // 2
    # Window offsets whose slice misses every channel add only zeros, so the padding is capped
    # at `channels` on each side and the loop runs over at most 2 * channels - 1 offsets,
    # however large `size` is.
    kept_before, kept_after = min(before, channels), min(after, channels)
    pad_shape = list(input.shape)
    parts = []
    for amount in (kept_before, kept_after):
        pad_shape[1] = amount
        parts.append(_C.zeros(pad_shape, dtype=input.dtype))
    padded = _C.cat([parts[0], squared, parts[1]], 1)
    first = max(0, before - channels + 1)
    last = min(size, before + channels)
    shift = before - kept_before
    window = None
    # The window sum as shifted slices: a loop over the window, not over the data.
    for offset in range(first, last):
        part = padded.narrow(1, offset - shift, channels)
        window = part if window is None else window + part
    div = (window * (alpha / size) + k) ** beta
    return input / div


FUNCTIONS = {f.__name__: f for f in (bilinear, local_response_norm)}
