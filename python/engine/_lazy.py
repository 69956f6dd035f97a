"""Module attributes that load on first access (PEP 562), so that ``import engine`` pays only for
what every script uses.

``attach(__name__, submodules, attributes)`` returns the ``__getattr__`` and ``__dir__`` of a
package: a name in submodules imports ``package.name``; a name in attributes imports its module
and takes the attribute from it. The value is then stored in the package's namespace, so the
second access is an ordinary lookup and never reaches ``__getattr__`` again. ``dir()`` lists the
lazy names beside those already loaded, and ``from package import *`` loads what ``__all__``
names, as an eager package would.
"""

import importlib
import sys
import types


class _NotifyingPackage(types.ModuleType):
    """A package that calls its ``_on_load`` hook whenever a value is bound on it. The import
    system binds a submodule on its package with setattr once the submodule has run, also for
    ``import package.sub``, which never passes through ``__getattr__``."""

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        self.__dict__["_on_load"]()


def attach(package, submodules=(), attributes=None, on_load=None):
    """``(__getattr__, __dir__)`` for ``package``.

    Args:
        package (str): the package's ``__name__``.
        submodules (iterable of str): submodule names loaded when first named.
        attributes (dict): ``name -> (module, attribute)``; a module starting with ``.`` is
            relative to package.
        on_load (callable, optional): called after each submodule or attribute of the package
            loads, however it was imported (engine/_docs attaches the texts of what loaded).
    """
    submodules = frozenset(submodules)
    attributes = dict(attributes or {})
    if on_load is not None:
        module = sys.modules[package]
        module._on_load = on_load
        module.__class__ = _NotifyingPackage

    def __getattr__(name):
        if name in submodules:
            return importlib.import_module(f"{package}.{name}")
        if name in attributes:
            module_name, attribute = attributes[name]
            if module_name.startswith("."):
                module_name = package + module_name
            value = getattr(importlib.import_module(module_name), attribute)
            setattr(sys.modules[package], name, value)
            return value
        raise AttributeError(f"module '{package}' has no attribute '{name}'")

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | submodules | attributes.keys())

    return __getattr__, __dir__
