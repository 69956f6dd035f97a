"""``engine.testing.assert_close``: PyTorch's comparison for tests, with its messages and its
default tolerances by dtype."""

import math

from engine import _C
from engine._comparison import isclose
from engine.autograd.grad_mode import no_grad

__all__ = ["assert_close"]

# (rtol, atol) by dtype, as torch.testing: integers and bools compare exactly.
_TOLERANCES = {"torch.float32": (1.3e-6, 1e-5), "torch.float64": (1e-7, 1e-7)}


class _Mismatch(AssertionError):
    pass


def _tolerances(dtype, rtol, atol):
    if (rtol is None) != (atol is None):
        missing = "rtol" if rtol is None else "atol"
        raise ValueError(
            f"Both 'rtol' and 'atol' must be either specified or omitted, but got no {missing}."
        )
    if rtol is not None:
        return rtol, atol
    return _TOLERANCES.get(str(dtype), (0.0, 0.0))


def _number(x):
    return isinstance(x, (bool, int, float)) or type(x).__module__ == "numpy" and hasattr(x, "item")


def _as_tensor(x):
    if _C.is_tensor(x):
        return x
    if type(x).__module__ == "numpy" and hasattr(x, "shape"):
        return _C.tensor(x)
    return None


def _compare_scalars(actual, expected, rtol, atol, equal_nan):
    a, e = float(actual), float(expected)
    if (isinstance(actual, int) and isinstance(expected, int)) and rtol is None:
        rtol, atol = 0.0, 0.0
    rtol, atol = _tolerances(_C.float64, rtol, atol)
    if a == e or (equal_nan and math.isnan(a) and math.isnan(e)):
        return
    abs_diff = abs(a - e)
    if abs_diff <= atol + rtol * abs(e):
        return
    rel_diff = abs_diff / abs(e) if e != 0 else math.inf
    word = "equal" if rtol == 0 and atol == 0 else "close"
    lines = [f"Scalars are not {word}!", "", f"Expected {expected} but got {actual}."]
    allowed = lambda tol: "" if word == "equal" else f" (up to {tol} allowed)"
    lines.append(f"Absolute difference: {abs_diff}{allowed(atol)}")
    lines.append(f"Relative difference: {rel_diff}{allowed(rtol)}")
    raise _Mismatch("\n".join(lines))


def _unravel(flat, shape):
    index = []
    for size in reversed(shape):
        index.append(flat % size)
        flat //= size
    return tuple(reversed(index))


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype):
    if tuple(actual.shape) != tuple(expected.shape):
        raise _Mismatch(
            f"The values for attribute 'shape' do not match: {actual.shape!r} != {expected.shape!r}."
        )
    if actual.dtype != expected.dtype:
        if check_dtype:
            raise _Mismatch(
                f"The values for attribute 'dtype' do not match: {actual.dtype} != {expected.dtype}."
            )
        common = _C.result_type(actual, expected)
        actual, expected = actual.to(common), expected.to(common)
    rtol, atol = _tolerances(actual.dtype, rtol, atol)
    with no_grad():
        actual, expected = actual.detach(), expected.detach()
        close = isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
        total = close.numel()
        mismatched = total - int(close.sum().item())
        if mismatched == 0:
            return
        a = actual.to(_C.int64) if actual.dtype == _C.bool else actual
        e = expected.to(_C.int64) if expected.dtype == _C.bool else expected
        # Only mismatches compete for the greatest difference: a matching 0 == 0 would otherwise
        # give a 0/0 NaN relative difference that hides the real offender.
        abs_diff = _C.abs(a - e).masked_fill(close, 0)
        rel_diff = (abs_diff / _C.abs(e)).masked_fill(close, 0)
        word = "equal" if rtol == 0 and atol == 0 else "close"
        lines = [f"Tensor-likes are not {word}!", ""]
        lines.append(f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})")
        for name, diff, tol in (("absolute", abs_diff, atol), ("relative", rel_diff, rtol)):
            flat = diff.reshape(-1)
            # NaN differences count as the greatest (a NaN where a number was expected).
            nan = _C.isnan(flat.double())
            position = (
                int(nan.to(_C.int64).argmax().item())
                if bool(nan.any())
                else int(flat.argmax().item())
            )
            value = flat[position].item()
            allowed = "" if word == "equal" else f" (up to {tol} allowed)"
            lines.append(
                f"Greatest {name} difference: {value} at index {_unravel(position, tuple(actual.shape))}{allowed}"
            )
        raise _Mismatch("\n".join(lines))


def _compare(actual, expected, rtol, atol, equal_nan, check_dtype):
    ta, te = _as_tensor(actual), _as_tensor(expected)
    if ta is not None and te is not None:
        return _compare_tensors(ta, te, rtol, atol, equal_nan, check_dtype)
    if _number(actual) and _number(expected):
        return _compare_scalars(actual, expected, rtol, atol, equal_nan)
    if isinstance(actual, (list, tuple)) and isinstance(expected, (list, tuple)):
        if len(actual) != len(expected):
            raise _Mismatch(
                f"The length of the sequences mismatch: {len(actual)} != {len(expected)}"
            )
        for i, (a, e) in enumerate(zip(actual, expected)):
            try:
                _compare(a, e, rtol, atol, equal_nan, check_dtype)
            except _Mismatch as m:
                raise _Mismatch(f"{m}\n\nThe failure occurred for item [{i}]") from None
        return None
    if isinstance(actual, dict) and isinstance(expected, dict):
        if set(actual) != set(expected):
            missing = sorted(set(expected) - set(actual), key=repr)
            extra = sorted(set(actual) - set(expected), key=repr)
            raise _Mismatch(
                f"The keys of the mappings do not match:\nMissing keys: {missing}\nExtra keys: {extra}"
            )
        for k in expected:
            try:
                _compare(actual[k], expected[k], rtol, atol, equal_nan, check_dtype)
            except _Mismatch as m:
                raise _Mismatch(f"{m}\n\nThe failure occurred for item [{k!r}]") from None
        return None
    raise TypeError(
        f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}."
    )


def assert_close(
    actual,
    expected,
    *,
    allow_subclasses=True,
    rtol=None,
    atol=None,
    equal_nan=False,
    check_device=True,
    check_dtype=True,
    check_layout=True,
    check_stride=False,
    msg=None,
):
    """Raises AssertionError unless `actual` and `expected` (tensors, numbers, or sequences and
    mappings of them) are close: ``|actual - expected| <= atol + rtol * |expected|`` elementwise,
    with defaults by dtype (float32: 1.3e-6 / 1e-5, float64: 1e-7 / 1e-7, integers exact)."""
    try:
        _compare(actual, expected, rtol, atol, equal_nan, check_dtype)
    except _Mismatch as mismatch:
        text = str(mismatch)
        if msg is not None:
            text = msg(text) if callable(msg) else msg
        raise AssertionError(text) from None
