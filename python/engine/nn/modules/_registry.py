"""The dicts in which a Module keeps its parameters, buffers and submodules.

PyTorch keeps them only in ``_parameters``/``_buffers``/``_modules`` and finds ``module.weight`` in
``Module.__getattr__``, which Python calls after the ordinary lookup has failed and built an
AttributeError with its message: about a microsecond per attribute, several per layer call.
Here each of those dicts also writes every entry into the module's instance ``__dict__``, so
``module.weight`` is an ordinary attribute hit, while the three dicts stay what every piece of
code reads and writes (``module._parameters[name] = p`` and ``del module._buffers[name]`` keep
the mirror right). A registry pickles and copies as a plain dict; ``Module.__setstate__`` binds
it to the module again.
"""

from __future__ import annotations

from typing import Any


class Registry(dict):
    """A dict whose entries are mirrored into ``owner_dict`` (a module's ``__dict__``)."""

    __slots__ = ("_owner_dict",)

    def __init__(self, owner_dict: dict, items: Any = ()) -> None:
        super().__init__()
        self._owner_dict = owner_dict
        self.update(items)

    def __setitem__(self, key: str, value: Any) -> None:
        dict.__setitem__(self, key, value)
        self._owner_dict[key] = value

    def __delitem__(self, key: str) -> None:
        dict.__delitem__(self, key)
        self._owner_dict.pop(key, None)

    def pop(self, key: str, *default: Any) -> Any:
        if key in self:
            self._owner_dict.pop(key, None)
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple:
        key, value = dict.popitem(self)
        self._owner_dict.pop(key, None)
        return key, value

    def clear(self) -> None:
        for key in self:
            self._owner_dict.pop(key, None)
        dict.clear(self)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return dict.__getitem__(self, key)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __ior__(self, other: Any) -> Registry:
        self.update(other)
        return self

    def copy(self) -> dict:
        return dict(self)

    def __reduce_ex__(self, protocol: int) -> tuple:
        return (dict, (dict(self),))

    def __repr__(self) -> str:
        return dict.__repr__(self)


REGISTRY_NAMES = ("_parameters", "_buffers", "_modules")


def bind(module_dict: dict) -> None:
    """Makes the three member dicts in ``module_dict`` registries mirrored into it (after
    unpickling or copying, or when code assigns a whole new dict to one of them)."""
    for name in REGISTRY_NAMES:
        current = module_dict.get(name)
        if current is None or (type(current) is Registry and current._owner_dict is module_dict):
            continue
        module_dict[name] = Registry(module_dict, current)
