"""Grad-mode switches: no_grad, enable_grad, set_grad_enabled (thread-local, as in PyTorch).

Each works as a context manager and as a decorator."""

from engine import _C


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
    return _C.is_inference_mode_enabled()


class inference_mode(_GradModeContext):
    """Inference mode: nothing is recorded (as under ``no_grad``), and every tensor allocated
    inside is an *inference tensor* (``is_inference()``): it can never be saved for backward, and
    outside inference mode it cannot be modified in place nor made to require grad.

    ``inference_mode(False)`` turns it off again inside an enclosing block, and turns grad mode on,
    as in PyTorch. Works as a context manager and as a decorator (also bare: ``@inference_mode``).
    """

    def __new__(cls, mode=True):
        if isinstance(mode, bool) or not callable(mode):
            return super().__new__(cls)
        return cls()(mode)

    def __init__(self, mode=True):
        self.mode = bool(mode)

    def __enter__(self):
        self._prev = _C.is_grad_enabled()
        self._prev_inference = _C.is_inference_mode_enabled()
        _C._set_grad_enabled(not self.mode)
        _C._set_inference_mode(self.mode)

    def __exit__(self, *exc):
        _C._set_inference_mode(self._prev_inference)
        _C._set_grad_enabled(self._prev)
        return False

    def __call__(self, fn):
        mode = self.mode

        @_wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return fn(*args, **kwargs)

        return wrapper

    def clone(self):
        return inference_mode(self.mode)


_multithreading = [True]


class set_multithreading_enabled(_GradModeContext):
    """Context manager that turns the backward pass's use of worker threads on or off. Engine's
    backward always runs on the calling thread, so this only records the setting (read back by
    ``engine.autograd.is_multithreading_enabled()``), as PyTorch does on CPU."""

    def __init__(self, mode):
        self._prev_mt = _multithreading[0]
        self.mode = bool(mode)
        _multithreading[0] = self.mode

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _multithreading[0] = self._prev_mt
        return False

    def clone(self):
        return set_multithreading_enabled(self.mode)


def is_multithreading_enabled():
    """Whether ``set_multithreading_enabled`` last turned backward's worker threads on."""
    return _multithreading[0]
