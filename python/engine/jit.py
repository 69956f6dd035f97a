"""engine.jit: TorchScript's entry points and annotations, for code written for them.

engine runs Python eagerly and has no TorchScript compiler: ``script`` and ``trace`` hand back
what they are given (a scripted function or module computes the same values as the original),
the annotations are the identity, and ``is_scripting()`` / ``is_tracing()`` are False, so
``if not torch.jit.is_scripting():`` branches take the eager path they take in PyTorch too.
``save``/``load`` of a TorchScript archive raise: save a ``state_dict`` with ``engine.save``.
"""

import typing
import warnings

from engine.nn.modules.module import Module

__all__ = [
    "Attribute",
    "Final",
    "ScriptFunction",
    "ScriptModule",
    "annotate",
    "export",
    "fork",
    "freeze",
    "ignore",
    "interface",
    "is_scripting",
    "is_tracing",
    "load",
    "optimize_for_inference",
    "save",
    "script",
    "script_method",
    "trace",
    "trace_module",
    "unused",
    "wait",
]

Final = typing.Final


class ScriptModule(Module):
    """Base class of TorchScript modules; here an ordinary :class:`engine.nn.Module`."""


class ScriptFunction:
    """The type PyTorch gives scripted functions (``script`` returns the function itself here)."""


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """Returns ``obj`` (a function or module) unchanged: it runs eagerly with the same results."""
    warnings.warn(
        "`torch.jit.script` is deprecated. Please switch to `torch.compile` or `torch.export`.",
        DeprecationWarning,
        stacklevel=2,
    )
    return obj


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-5,
          strict=True, _force_outplace=False, _module_class=None, _compilation_unit=None, example_kwarg_inputs=None,
          _store_inputs=True):  # fmt: skip
    """Returns ``func`` unchanged (it runs eagerly); ``example_inputs`` are not needed."""
    warnings.warn(
        "`torch.jit.trace` is deprecated. Please switch to `torch.compile` or `torch.export`.",
        DeprecationWarning,
        stacklevel=2,
    )
    return func


def trace_module(mod, inputs, *args, **kwargs):
    """Returns the module unchanged (it runs eagerly)."""
    return mod


def script_method(fn):
    """Marks a method of a ScriptModule: the identity here."""
    return fn


def ignore(drop=False, **kwargs):
    """Leaves a function to Python (``@torch.jit.ignore`` or ``@torch.jit.ignore(drop=True)``)."""
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    """Marks a function the compiler should skip: the identity here."""
    return fn


def export(fn):
    """Marks a method to compile as an entry point: the identity here."""
    return fn


def interface(obj):
    """Marks a class as a TorchScript interface: the identity here."""
    return obj


def is_scripting():
    """False: engine code always runs in Python."""
    return False


def is_tracing():
    """False: engine never traces."""
    return False


def annotate(the_type, the_value):
    """Returns ``the_value`` (the type is for the TorchScript compiler)."""
    return the_value


def Attribute(value, type):  # noqa: N802  (PyTorch's name)
    """Returns ``value`` (the type is for the TorchScript compiler)."""
    return value


class _Future:
    def __init__(self, value):
        self._value = value

    def wait(self):
        return self._value


def fork(func, *args, **kwargs):
    """Runs ``func(*args, **kwargs)`` now and returns a future whose ``wait()`` gives the result."""
    return _Future(func(*args, **kwargs))


def wait(future):
    """The result of a :func:`fork`."""
    return future.wait()


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    """Returns the module unchanged."""
    return mod


def optimize_for_inference(mod, other_methods=None):
    """Returns the module unchanged."""
    return mod


def save(m, f, _extra_files=None):
    """TorchScript archives do not exist in engine: raises, naming what to do instead."""
    raise RuntimeError(
        "engine.jit.save: engine has no TorchScript; save the weights with engine.save(model.state_dict(), f)"
    )


def load(f, map_location=None, _extra_files=None, _restore_shapes=False):
    """TorchScript archives do not exist in engine: raises, naming what to do instead."""
    raise RuntimeError(
        "engine.jit.load: engine cannot read TorchScript archives; load a state_dict saved with torch.save "
        "(engine.load reads those)"
    )
