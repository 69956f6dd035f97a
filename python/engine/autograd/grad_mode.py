"""Grad-mode switches: no_grad, enable_grad, set_grad_enabled (thread-local, as in PyTorch).

Each works as a context manager and as a decorator."""

from _thread import _local  # threading.local itself, without importing threading at startup

from engine import _C

_inference = _local()


def _wraps(fn):
    # functools costs several milliseconds to import; only decorating needs it.
    import functools

    return functools.wraps(fn)


class _GradModeContext:
    _enabled: bool

    def __enter__(self):
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(self._enabled)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._prev)
        return False

    def __call__(self, fn):
        @_wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)

        return wrapper

    def clone(self):
        return self.__class__()


class no_grad(_GradModeContext):
    """Disables recording of operations: results have no grad_fn and don't require grad."""

    _enabled = False


class enable_grad(_GradModeContext):
    """Enables recording of operations inside a no_grad region."""

    _enabled = True


class set_grad_enabled(_GradModeContext):
    """Sets grad mode on or off. Takes effect at once when called, like PyTorch's, and restores
    the previous mode when used as a context manager."""

    def __init__(self, mode):
        self._prev = _C.is_grad_enabled()
        self._enabled = bool(mode)
        _C._set_grad_enabled(self._enabled)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._prev)
        return False

    def __call__(self, fn):
        _C._set_grad_enabled(self._prev)
        mode = self._enabled

        @_wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)

        return wrapper

    def clone(self):
        return set_grad_enabled(self._enabled)


def is_inference_mode_enabled():
    """True inside an ``inference_mode()`` block on this thread."""
    return getattr(_inference, "depth", 0) > 0


class inference_mode(_GradModeContext):
    """Like ``no_grad`` (nothing is recorded), and ``is_inference_mode_enabled()`` is True inside.

    ``inference_mode(False)`` is a no-op block, as in PyTorch. Unlike PyTorch, tensors made inside
    are ordinary tensors (no inference-tensor flag): they may later be saved for backward."""

    def __init__(self, mode=True):
        self.mode = bool(mode)

    @property
    def _enabled(self):
        return False if self.mode else _C.is_grad_enabled()

    def __enter__(self):
        super().__enter__()
        if self.mode:
            _inference.depth = getattr(_inference, "depth", 0) + 1

    def __exit__(self, *exc):
        if self.mode:
            _inference.depth -= 1
        return super().__exit__(*exc)

    def __call__(self, fn):
        mode = self.mode

        @_wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return fn(*args, **kwargs)

        return wrapper

    def clone(self):
        return inference_mode(self.mode)
