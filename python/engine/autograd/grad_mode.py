"""Grad-mode switches: no_grad, enable_grad, set_grad_enabled (thread-local, as in PyTorch).

Each works as a context manager and as a decorator."""

import functools

from engine import _C


class _GradModeContext:
    _enabled: bool

    def __enter__(self):
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(self._enabled)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._prev)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
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

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)

        return wrapper

    def clone(self):
        return set_grad_enabled(self._enabled)
