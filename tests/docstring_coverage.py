"""How much of engine's public surface carries a docstring, by area.

    python -m tests.docstring_coverage            # the share per area
    python -m tests.docstring_coverage --missing  # and the names still undocumented

A native function counts as documented only when its docstring says more than pybind11's
signature lines; a method may inherit its text from the method it overrides (as ``help()`` shows
it), a class may not."""

import inspect
import re
import sys
import types

# pybind11 writes `name(arg: type = default) -> type` per overload, and for several overloads an
# `name(*args, **kwargs)` line, "Overloaded function." and numbered signatures.
_SIGNATURE_LINE = re.compile(r"^(\d+\. )?[A-Za-z_][\w.]*\(.*\)( -> .*)?$|^Overloaded function\.$")
# Shorter than this after the signature lines is a placeholder, not documentation.
MIN_TEXT = 12


def doc_text(obj):
    """The documentation proper of obj: its docstring without pybind11's signature lines."""
    doc = obj.__doc__ if isinstance(obj, type) else inspect.getdoc(obj)
    if not isinstance(doc, str):
        return ""
    return "\n".join(line for line in doc.splitlines() if not _SIGNATURE_LINE.match(line)).strip()


def is_documented(obj):
    return len(doc_text(obj)) >= MIN_TEXT


def _is_engine_object(obj):
    module = getattr(obj, "__module__", None) or ""
    return module == "engine" or module.startswith("engine.")


def _documentable(obj):
    """Functions, classes and properties that engine defines (not modules, dtypes or constants)."""
    from engine import _C

    if isinstance(obj, (types.ModuleType, _C.dtype, int, float, str, bool, type(None))):
        return False
    if isinstance(obj, property):
        return True
    return callable(obj) and _is_engine_object(obj)


def _public(names):
    return sorted(n for n in names if not n.startswith("_"))


def _module_entries(prefix, module, names=None):
    for name in _public(dir(module) if names is None else names):
        obj = getattr(module, name)
        if _documentable(obj):
            yield f"{prefix}.{name}", obj


def _class_entries(prefix, cls):
    """cls and the public methods and properties it defines itself (inherited ones are listed
    under the class that defines them)."""
    yield prefix, cls
    for name in _public(vars(cls)):
        raw = vars(cls)[name]
        if isinstance(raw, (staticmethod, classmethod)):
            raw = raw.__func__
        if isinstance(raw, property) or callable(raw):
            yield f"{prefix}.{name}", getattr(cls, name) if not isinstance(raw, property) else raw


def _classes_of(prefix, module):
    for name in _public(dir(module)):
        obj = getattr(module, name)
        if isinstance(obj, type) and _is_engine_object(obj):
            yield from _class_entries(f"{prefix}.{name}", obj)


def areas():
    """{area: [(qualified name, object)]} over the public surface, aliases listed once."""
    import engine
    import engine.autograd
    import engine.linalg
    import engine.nn
    import engine.nn.functional
    import engine.nn.init
    import engine.nn.utils
    import engine.optim
    import engine.optim.lr_scheduler
    import engine.utils.data

    found = {
        "engine": list(_module_entries("engine", engine)),
        "Tensor": list(_class_entries("engine.Tensor", engine.Tensor)),
        "nn.functional": list(_module_entries("engine.nn.functional", engine.nn.functional)),
        "nn": list(_classes_of("engine.nn", engine.nn)),
        "nn.init": list(_module_entries("engine.nn.init", engine.nn.init)),
        "nn.utils": list(_module_entries("engine.nn.utils", engine.nn.utils)),
        "optim": list(_classes_of("engine.optim", engine.optim)),
        "optim.lr_scheduler": list(
            _classes_of("engine.optim.lr_scheduler", engine.optim.lr_scheduler)
        ),
        "linalg": list(_module_entries("engine.linalg", engine.linalg)),
        "autograd": list(_module_entries("engine.autograd", engine.autograd)),
        "utils.data": list(_module_entries("engine.utils.data", engine.utils.data)),
    }
    for optional in ("special", "fft"):
        module = getattr(engine, optional, None)
        if isinstance(module, types.ModuleType):
            found[optional] = list(_module_entries(f"engine.{optional}", module))
    # The classes engine.* exposes (Tensor, Generator, Size, ...) with their own members.
    for name, obj in list(found["engine"]):
        if isinstance(obj, type) and obj is not engine.Tensor:
            found["engine"].extend(list(_class_entries(name, obj))[1:])
    for name, obj in list(found["autograd"]) + list(found["utils.data"]):
        area = "autograd" if name.startswith("engine.autograd") else "utils.data"
        if isinstance(obj, type):
            found[area].extend(list(_class_entries(name, obj))[1:])
    seen = set()
    for area, entries in found.items():
        unique = []
        for name, obj in entries:
            key = id(obj)
            if key not in seen:
                seen.add(key)
                unique.append((name, obj))
        found[area] = unique
    return found


def coverage():
    """{area: (documented, total, [undocumented names])}."""
    result = {}
    for area, entries in areas().items():
        missing = [name for name, obj in entries if not is_documented(obj)]
        result[area] = (len(entries) - len(missing), len(entries), missing)
    return result


def main(argv):
    total_documented = total = 0
    for area, (documented, count, missing) in coverage().items():
        total_documented += documented
        total += count
        print(f"{area:20s} {documented / max(count, 1):7.1%}  {documented:5d} / {count:5d}")
        if "--missing" in argv and missing:
            print("   ", " ".join(missing))
    print(
        f"{'all':20s} {total_documented / max(total, 1):7.1%}  {total_documented:5d} / {total:5d}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
