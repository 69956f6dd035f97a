"""Anomaly detection: ``detect_anomaly`` and ``set_detect_anomaly`` (PyTorch's API and messages).

With it on, each custom Function records the traceback of its forward call in
``grad_fn.metadata['traceback_']``; when a node fails in backward, a warning shows that traceback
before the error propagates, and a NaN in a gradient a node returns raises
``Function '<Name>' returned nan values in its <i>th output.`` (unless ``check_nan=False``)."""

import warnings

from engine import _C

__all__ = ["detect_anomaly", "set_detect_anomaly"]


def _warn_enabled():
    warnings.warn(
        "Anomaly Detection has been enabled. This mode will increase the runtime and should only "
        "be "
        "enabled for debugging.",
        UserWarning,
        stacklevel=3,
    )


class detect_anomaly:
    """Context manager (and decorator) enabling anomaly detection inside its block."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        self.prev = _C.is_anomaly_enabled()
        self.prev_check_nan = _C.is_anomaly_check_nan_enabled()
        _warn_enabled()

    def __enter__(self):
        _C._set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc):
        _C._set_anomaly_enabled(self.prev, self.prev_check_nan)
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with detect_anomaly(self.check_nan):
                return fn(*args, **kwargs)

        return wrapper


class set_detect_anomaly:
    """Turns anomaly detection on or off (at once when called; restored at the end of a "
    "``with``)."""

    def __init__(self, mode, check_nan=True):
        self.prev = _C.is_anomaly_enabled()
        self.prev_check_nan = _C.is_anomaly_check_nan_enabled()
        _C._set_anomaly_enabled(bool(mode), check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _C._set_anomaly_enabled(self.prev, self.prev_check_nan)
        return False


def _record(ctx):
    """Called by Function.apply under anomaly mode: keep the forward traceback on the node."""
    import traceback  # only under anomaly mode: keeps `import engine` fast

    ctx.metadata["traceback_"] = traceback.format_stack()[:-1]
    parent = _C._current_anomaly_parent()
    if parent is not None:
        ctx.metadata["parent_"] = parent


def _record_node(metadata, parent):
    """Called by the engine when a built-in node is made under anomaly mode: the forward
    traceback, and the node whose backward made it (if any), for the report of a failure."""
    import traceback

    if "traceback_" not in metadata:
        metadata["traceback_"] = traceback.format_stack()[:-1]
        if parent is not None:
            metadata["parent_"] = parent


def _warn(message):
    # Every report is shown, as PyTorch's are: no once-per-location filtering by the registry.
    warnings.warn_explicit(message, UserWarning, __file__, 0, registry={})


def _report(node, name):
    """Called by the engine when a node fails under anomaly mode: the forward traceback of the
    node, then of each node whose backward made it (PyTorch's messages)."""
    metadata = node.metadata if node is not None else {}
    stack = metadata.get("traceback_")
    if stack:
        _warn(
            f"Error detected in {name}. Traceback of forward call that caused the error:\n"
            + "".join(stack)
        )
    else:
        _warn(
            f"Error detected in {name}. No forward pass information available. Enable detect "
            "anomaly during forward pass for more information."
        )
    parent = metadata.get("parent_")
    while parent is not None:
        meta = parent.metadata
        _warn(
            f"\n\nPrevious calculation was induced by {parent.name()}. Traceback of forward call "
            "that induced the previous calculation:\n" + "".join(meta.get("traceback_", ()))
        )
        parent = meta.get("parent_")
