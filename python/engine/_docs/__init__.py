"""Documentation of the public names, written here and attached once at ``import engine``.

Each area module of this package documents one area as dicts ``{name: text}`` (pointwise,
torch_functions, tensor_methods, nn_functional, autograd, classes), composed with the builders
of ``_format``. ``python -m engine._docs.build`` writes their final texts into ``_built.py``,
which is all that ``import engine`` loads: composing the texts is left to the build, so that
attaching them costs well under a millisecond. Native functions get their text appended after
pybind11's signature lines (``_C._add_docstr``), which ``help()`` and the stub generator read;
Python functions, classes and properties get ``__doc__``. Keeping the text out of the code that
implements a name lets that code change without touching its documentation, as PyTorch's
``_torch_docs.py`` does. The texts of a module that loads after ``import engine`` (engine.nn
loads on first use) are attached when it has loaded (:func:`apply_pending`)."""

import sys
import types

from engine import _C

_applied = False
_pending = ()  # entries of _built.TEXTS whose module or name has not loaded yet


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
    """Attaches the texts of ``_built.py`` to what is loaded; the second and later calls do
    nothing (native text is appended, so it must be attached once). The texts of modules not
    yet imported wait for :func:`apply_pending`. A name that no longer exists, or became an
    object that takes no docstring, is skipped rather than breaking ``import engine``;
    tests/test_docstrings.py reports both."""
    global _applied, _pending
    if _applied:
        return
    _applied = True
    from engine._docs._built import TEXTS

    _pending = _attach_loaded(TEXTS)


def apply_pending():
    """Attaches the texts that waited for their module (engine.nn.functional loads on first
    use, after ``import engine``); cheap when none waits."""
    global _pending
    if _pending:
        _pending = _attach_loaded(_pending)


def _attach_loaded(entries):
    """Attaches each entry whose object exists now; returns the others. A module's attribute is
    read from its namespace, so that a lazily provided name is not loaded for its text: it is
    documented when it loads."""
    waiting = []
    owners = {}  # (module, qualname) -> owner: a few dozen owners serve the ~500 entries
    for entry in entries:
        module, qualname, name, text = entry
        key = (module, qualname)
        owner = owners[key] if key in owners else owners.setdefault(key, resolve(module, qualname))
        if owner is None or (isinstance(owner, types.ModuleType) and name not in vars(owner)):
            waiting.append(entry)
            continue
        obj = raw_attribute(owner, name)
        if obj is not None:
            try:
                attach(obj, text)
            except (AttributeError, TypeError):
                pass
    return waiting


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
