"""Tensor ``repr`` in PyTorch's exact format, plus the print options that control it.

Everything here works on plain Python values taken from the tensor (``tolist()`` or,
for large tensors, ``_edge_list()``), so printing needs no tensor operations and no
numpy. The output is meant to be character-for-character what ``torch`` prints for the
same data and options; tests/fixtures/printing.json holds the recorded reference.
"""

from __future__ import annotations

import contextlib
import math

__all__ = ["get_printoptions", "printoptions", "set_printoptions", "tensor_repr"]

_PREFIX = "tensor("


class _PrinterOptions:
    __slots__ = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")

    def __init__(self) -> None:
        self.precision = 4
        self.threshold: float = 1000
        self.edgeitems = 3
        self.linewidth = 80
        self.sci_mode: bool | None = None


PRINT_OPTS = _PrinterOptions()


def set_printoptions(
    precision=None,
    threshold=None,
    edgeitems=None,
    linewidth=None,
    profile=None,
    sci_mode=None,
):
    """Set options for printing tensors (same meaning as ``torch.set_printoptions``).

    Args:
        precision: digits after the decimal point for floating point output (default 4).
        threshold: number of elements above which the output is summarized (default 1000).
        edgeitems: items shown at each end of a summarized dimension (default 3).
        linewidth: characters per line used for wrapping (default 80).
        profile: ``"default"``, ``"short"`` or ``"full"``; explicit options override it.
        sci_mode: force (True) or forbid (False) scientific notation; None chooses
            automatically. Like PyTorch, every call resets it unless it is passed.
    """
    if profile is not None:
        if profile == "default":
            PRINT_OPTS.precision = 4
            PRINT_OPTS.threshold = 1000
            PRINT_OPTS.edgeitems = 3
            PRINT_OPTS.linewidth = 80
        elif profile == "short":
            PRINT_OPTS.precision = 2
            PRINT_OPTS.threshold = 1000
            PRINT_OPTS.edgeitems = 2
            PRINT_OPTS.linewidth = 80
        elif profile == "full":
            PRINT_OPTS.precision = 4
            PRINT_OPTS.threshold = math.inf
            PRINT_OPTS.edgeitems = 3
            PRINT_OPTS.linewidth = 80

    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict:
    """Current print options, as keyword arguments accepted by :func:`set_printoptions`."""
    return {
        "precision": PRINT_OPTS.precision,
        "threshold": PRINT_OPTS.threshold,
        "edgeitems": PRINT_OPTS.edgeitems,
        "linewidth": PRINT_OPTS.linewidth,
        "sci_mode": PRINT_OPTS.sci_mode,
    }


@contextlib.contextmanager
def printoptions(**kwargs):
    """Temporarily change the print options; takes the arguments of :func:`set_printoptions`."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


class _Formatter:
    """One element format shared by every element of a tensor, so columns line up."""

    __slots__ = ("floating", "int_mode", "sci_mode", "max_width", "_spec")

    def __init__(self, values: list, floating: bool) -> None:
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        self._spec = ".0f"

        if not floating:
            if values:
                self.max_width = max(1, max(map(len, map(str, values))))
            return

        # Zeros, nans and infs carry no information about magnitude or fractional
        # digits; they are printed in whatever mode the other values choose.
        finite = [v for v in values if v != 0 and math.isfinite(v)]
        if not finite:
            # Note: sci_mode stays off here even when forced on by the options.
            return

        magnitudes = [abs(v) for v in finite]
        lo = min(magnitudes)
        hi = max(magnitudes)
        self.int_mode = all(v == math.ceil(v) for v in finite)
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = PRINT_OPTS.sci_mode

        precision = PRINT_OPTS.precision
        if self.sci_mode:
            spec = f".{precision}e"
            extra = 0
        elif self.int_mode:
            # Integral floats print with a trailing "." to show they are floats.
            spec = ".0f"
            extra = 1
        else:
            spec = f".{precision}f"
            extra = 0
        self.max_width = max(1, max(len(format(v, spec)) for v in finite) + extra)
        self._spec = spec

    def format(self, value) -> str:
        if not self.floating:
            text = str(value)
        else:
            text = format(value, self._spec)
            if self.int_mode and not self.sci_mode and math.isfinite(value):
                text += "."
        return text.rjust(self.max_width)


class _ComplexFormatter:
    """PyTorch's complex format: the real and imaginary parts each get a formatter of their own
    (over all real parts, all imaginary parts), joined as ``re+imj``; a negative or negative-zero
    imaginary part brings its own sign."""

    __slots__ = ("real", "imag", "max_width")

    def __init__(self, values: list) -> None:
        self.real = _Formatter([v.real for v in values], True)
        self.imag = _Formatter([v.imag for v in values], True)
        # The width the element columns are planned with: both parts and the "j".
        self.max_width = self.real.max_width + self.imag.max_width + 1

    def format(self, value) -> str:
        real_str = self.real.format(value.real)
        imag_str = (self.imag.format(value.imag) + "j").lstrip()
        if imag_str[0] in "+-":
            return real_str + imag_str
        return real_str + "+" + imag_str


def _formatter(values: list, dtype):
    if getattr(dtype, "is_complex", False):
        return _ComplexFormatter(values)
    return _Formatter(values, dtype.is_floating_point)


def _flatten(data, ndim: int) -> list:
    if ndim == 0:
        return [data]
    for _ in range(ndim - 1):
        data = [x for row in data for x in row]
    return data


def _vector_str(data: list, size: int, indent: int, summarize: bool, fmt: _Formatter) -> str:
    # Each element takes its width plus ", ".
    element_length = fmt.max_width + 2
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))
    edge = PRINT_OPTS.edgeitems
    f = fmt.format
    if summarize and size > 2 * edge:
        items = [f(v) for v in data[:edge]] + [" ..."] + [f(v) for v in data[-edge:]]
    else:
        items = [f(v) for v in data]
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(
    data, shape: tuple, depth: int, indent: int, summarize: bool, fmt: _Formatter
) -> str:
    ndim = len(shape) - depth
    if ndim == 1:
        return _vector_str(data, shape[depth], indent, summarize, fmt)
    edge = PRINT_OPTS.edgeitems
    if summarize and shape[depth] > 2 * edge:
        # ``data`` was already cut to the leading and trailing ``edge`` rows.
        slices = (
            [_nested_str(x, shape, depth + 1, indent + 1, summarize, fmt) for x in data[:edge]]
            + ["..."]
            + [_nested_str(x, shape, depth + 1, indent + 1, summarize, fmt) for x in data[-edge:]]
        )
    else:
        slices = [_nested_str(x, shape, depth + 1, indent + 1, summarize, fmt) for x in data]
    return "[" + ("," + "\n" * (ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _tensor_str(t, indent: int) -> str:
    ndim = t.dim()
    summarize = t.numel() > PRINT_OPTS.threshold

    if ndim == 0:
        value = t.tolist()
        return _formatter([value], t.dtype).format(value)

    edge = PRINT_OPTS.edgeitems
    if summarize and not edge:
        return "[...]"

    # Only the elements that will be shown are fetched, and the formatter is
    # computed from them alone, so hidden values do not affect widths or modes.
    data = t._edge_list(edge) if summarize else t.tolist()
    fmt = _formatter(_flatten(data, ndim), t.dtype)
    return _nested_str(data, tuple(t.shape), 0, indent, summarize, fmt)


def _add_suffixes(tensor_str: str, suffixes: list, indent: int) -> str:
    parts = [tensor_str]
    # Length of the last line plus the ", " that would precede a suffix.
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    linewidth = PRINT_OPTS.linewidth
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _default_dtype_name() -> str:
    try:
        from engine import get_default_dtype
    except ImportError:
        # The native core is not loaded (or is still initialising).
        return "torch.float32"
    return repr(get_default_dtype())


def tensor_repr(t) -> str:
    """The ``tensor(...)`` text for ``t``, as PyTorch prints it."""
    from engine import _C

    indent = len(_PREFIX)
    suffixes = []
    dtype_name = repr(t.dtype)
    default_name = _default_dtype_name()

    if isinstance(t, _C.Tensor) and _C._meta_is(t):
        # No values to show: the device and the shape, and any dtype but the default.
        suffixes += ["device='meta'", f"size={tuple(t.shape)}"]
        if dtype_name != default_name:
            suffixes.append("dtype=" + dtype_name)
        tensor_str = "..."
    elif t.numel() == 0:
        # NumPy-style: the shape is only implied for 1-D, and with no elements the
        # dtype cannot be inferred from the text, so int64 and bool are shown too.
        if t.dim() != 1:
            suffixes.append(f"size={tuple(t.shape)}")
        if dtype_name != default_name:
            suffixes.append("dtype=" + dtype_name)
        tensor_str = "[]"
    else:
        # With no edge items a summarized tensor shows no values at all, so the
        # shape is given instead (PyTorch adds it even when nothing is elided).
        if not PRINT_OPTS.edgeitems:
            suffixes.append(f"size={tuple(t.shape)}")
        default_complex = (
            "torch.complex128" if default_name == "torch.float64" else "torch.complex64"
        )
        if dtype_name not in (default_name, default_complex, "torch.int64", "torch.bool"):
            suffixes.append("dtype=" + dtype_name)
        tensor_str = _tensor_str(t, indent)

    try:
        grad_fn = t.grad_fn
        grad_fn_name = None if grad_fn is None else grad_fn.name().rsplit("::", 1)[-1]
    except RuntimeError:
        # Reading the history can fail (a view whose history is forbidden): PyTorch's fallback.
        grad_fn, grad_fn_name = True, "Invalid"
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")

    # A dual tensor of forward-mode AD shows its tangent.
    if isinstance(t, _C.Tensor) and _C._transform_state(t) is not None:
        from engine.autograd.forward_ad import _tangent_for_print

        tangent = _tangent_for_print(t)
        if tangent is not None:
            suffixes.append(f"tangent={tangent!r}")

    return _add_suffixes(_PREFIX + tensor_str, suffixes, indent)
