"""Documentation of the public names, written here and attached once at ``import engine``.

Each area module of this package documents one area as dicts ``{name: text}`` (pointwise,
torch_functions, tensor_methods, nn_functional, autograd, classes), composed with the builders
of ``_format``. ``python -m engine._docs.build`` writes their final texts into ``_built.py``,
which is all that ``import engine`` loads: composing the texts is left to the build, so that
attaching them costs well under a millisecond. Native functions get their text appended after
pybind11's signature lines (``_C._add_docstr``), which ``help()`` and the stub generator read;
Python functions, classes and properties get ``__doc__``. Keeping the text out of the code that
implements a name lets that code change without touching its documentation, as PyTorch's
``_torch_docs.py`` does."""

import sys
import types

from engine import _C

_applied = False


def attach(obj, text):
    """Gives obj (native or Python function, class, property, static/class method) the text."""
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if isinstance(obj, types.BuiltinFunctionType) or type(obj).__name__ == "instancemethod":
        _C._add_docstr(obj, text)
    elif isinstance(obj, types.MethodType):
        attach(obj.__func__, text)
    else:
        obj.__doc__ = text


def raw_attribute(owner, name):
    """owner's attribute as stored (the property or staticmethod itself, not what it gives), or
    None where owner has no such name."""
    if isinstance(owner, type):
        for klass in owner.__mro__:
            if name in vars(klass):
                return vars(klass)[name]
    return getattr(owner, name, None)


def resolve(module, qualname):
    """The module, or the class ``qualname`` in it, when the module is already imported (a
    lazily imported module is never loaded for its documentation); else None."""
    owner = sys.modules.get(module)
    for part in qualname.split(".") if qualname else ():
        owner = getattr(owner, part, None)
    return owner


def apply():
    """Attaches the texts of ``_built.py``; the second and later calls do nothing (native text
    is appended, so it must be attached once). A name that no longer exists, or became an
    object that takes no docstring, is skipped rather than breaking ``import engine``;
    tests/test_docstrings.py reports both."""
    global _applied
    if _applied:
        return
    _applied = True
    from engine._docs._built import TEXTS

    for module, qualname, name, text in TEXTS:
        owner = resolve(module, qualname)
        obj = None if owner is None else raw_attribute(owner, name)
        if obj is not None:
            try:
                attach(obj, text)
            except (AttributeError, TypeError):
                pass


def areas():
    """The modules of this package, one per area, each with ``targets(engine)``: the pairs
    (namespace or class, {name: text}) it documents."""
    from engine._docs import (
        autograd,
        classes,
        nn_functional,
        pointwise,
        tensor_methods,
        torch_functions,
    )

    return (pointwise, torch_functions, tensor_methods, nn_functional, autograd, classes)
