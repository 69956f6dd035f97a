"""Grad-mode switches: no_grad, enable_grad, set_grad_enabled (thread-local, as in PyTorch).

Each works as a context manager and as a decorator."""

from engine import _C


def _wraps(fn):
    # functools costs several milliseconds to import; only decorating needs it.
    import functools

    return functools.wraps(fn)


def _is_generator_function(fn):
    # inspect.isgeneratorfunction without importing inspect (~9 ms at `import engine`, where the
    # optimizers' step methods are decorated): the code object's CO_GENERATOR flag.
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    return code is not None and bool(code.co_flags & 0x20)


def _decorate(make_context, fn):
    """Wraps ``fn`` so that it runs inside ``make_context()``. A generator function gets the mode
    around each step it runs (not while suspended at ``yield``), as PyTorch's decorators do; a
    class is decorated through its constructor, with PyTorch's deprecation warning."""
    if isinstance(fn, type):
        import warnings

        warnings.warn(
            "Decorating classes is deprecated and will be disabled in future versions. You should "
            "only decorate functions or methods. To preserve the current behavior of class "
            "decoration, you can directly decorate the `__init__` method and nothing else.",
            FutureWarning,
            stacklevel=3,
        )
        cls = fn

        def fn(*args, **kwargs):
            return cls(*args, **kwargs)

    if _is_generator_function(fn):

        @_wraps(fn)
        def generator_wrapper(*args, **kwargs):
            gen = fn(*args, **kwargs)
            try:
                with make_context():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with make_context():
                            gen.close()
                        raise
                    except BaseException as exc:
                        with make_context():
                            response = gen.throw(exc)
                    else:
                        with make_context():
                            response = gen.send(request)
            except StopIteration as stop:
                return stop.value

        return generator_wrapper

    @_wraps(fn)
    def wrapper(*args, **kwargs):
        with make_context():
            return fn(*args, **kwargs)

    return wrapper


class _GradModeContext:
    _enabled: bool

    def __new__(cls, orig_func=None):
        # Bare decoration (@no_grad, no parentheses) passes the function itself.
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)

    def __enter__(self):
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(self._enabled)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._prev)
        return False

    def __call__(self, fn):
        return _decorate(self.clone, fn)

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

    def __new__(cls, mode):
        return object.__new__(cls)

    def __call__(self, fn):
        _C._set_grad_enabled(self._prev)
        mode = self._enabled
        return _decorate(lambda: set_grad_enabled(mode), fn)

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
            return object.__new__(cls)
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
        return _decorate(lambda: inference_mode(mode), fn)

    def clone(self):
        return inference_mode(self.mode)


_multithreading = [True]


class set_multithreading_enabled(_GradModeContext):
    """Context manager that turns the backward pass's use of worker threads on or off. Engine's
    backward always runs on the calling thread, so this only records the setting (read back by
    ``engine.autograd.is_multithreading_enabled()``), as PyTorch does on CPU."""

    def __new__(cls, mode):
        return object.__new__(cls)

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


class _unsafe_preserve_version_counter:
    """Context manager (and decorator) that hides in-place writes from autograd: on exit the
    tensors' version counters are set back to what they were on entry, as PyTorch's does. Only
    for code that knows the saved values are restored before backward reads them."""

    def __init__(self, tensors):
        self.tensors = (tensors,) if isinstance(tensors, _C.Tensor) else tensors
        if not isinstance(self.tensors, tuple):
            raise AssertionError("Expected tensors to be a tuple")
        self.prev_versions = tuple(t._version for t in self.tensors)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _C._autograd._unsafe_set_version_counter(self.tensors, self.prev_versions)
        return False

    def __call__(self, fn):
        return _decorate(lambda: _unsafe_preserve_version_counter(self.tensors), fn)
