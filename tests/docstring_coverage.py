"""How much of engine's public surface carries a docstring, by area.

    python -m tests.docstring_coverage            # the share per area
    python -m tests.docstring_coverage --missing  # and the names still undocumented
    python -m tests.docstring_coverage --terse    # and those without arguments or an example

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


def _from_private_module(obj):
    module = getattr(obj, "__module__", None) or ""
    return module != "engine._C" and any(part.startswith("_") for part in module.split("."))


def _public_names(module):
    """The public names of module: all of dir() but, where the module declares ``__all__``,
    helpers it imports from private modules without listing them."""
    names = _public(dir(module))
    listed = getattr(module, "__all__", None)
    if listed is None:
        return names
    return [n for n in names if n in listed or not _from_private_module(getattr(module, n))]


def _class_entries(prefix, cls):
    """cls and the public methods and properties it defines itself (inherited ones are listed
    under the class that defines them)."""
    yield prefix, cls
    for name in _public(vars(cls)):
        raw = vars(cls)[name]
        if isinstance(raw, (staticmethod, classmethod)):
            raw = raw.__func__
        if isinstance(raw, type):  # a class held as an attribute (LazyLinear.cls_to_become)
            continue
        if isinstance(raw, property) or callable(raw):
            yield f"{prefix}.{name}", getattr(cls, name) if not isinstance(raw, property) else raw


def _module_entries(prefix, module):
    """The documentable public names of module, and the members of the classes among them."""
    for name in _public_names(module):
        obj = getattr(module, name)
        if not _documentable(obj):
            continue
        if isinstance(obj, type):
            yield from _class_entries(f"{prefix}.{name}", obj)
        else:
            yield f"{prefix}.{name}", obj


# area: the modules whose public names it covers (engine.Tensor is an area of its own).
AREAS = {
    "engine": ["engine"],
    "nn.functional": ["engine.nn.functional"],
    "nn": ["engine.nn"],
    "nn.init": ["engine.nn.init"],
    "nn.utils": [
        "engine.nn.utils",
        "engine.nn.utils.rnn",
        "engine.nn.utils.parametrize",
        "engine.nn.utils.parametrizations",
        "engine.nn.utils.prune",
    ],
    "optim": ["engine.optim", "engine.optim.optimizer"],
    "optim.lr_scheduler": ["engine.optim.lr_scheduler"],
    "linalg": ["engine.linalg"],
    "special": ["engine.special"],
    "fft": ["engine.fft"],
    "autograd": [
        "engine.autograd",
        "engine.autograd.function",
        "engine.autograd.graph",
        "engine.autograd.forward_ad",
        "engine.autograd.functional",
    ],
    "func": ["engine.func"],
    "utils.data": ["engine.utils.data"],
    "utils": ["engine.utils.checkpoint", "engine.utils.hooks", "engine.utils.safetensors"],
    "amp, cuda, ...": [
        "engine.amp",
        "engine.cuda",
        "engine.testing",
        "engine.serialization",
        "engine.return_types",
    ],
}


# Packages left out of the measure while their authors write them; each leaves once its public
# names are documented and its examples run against engine (engine.viz: DotSource.source;
# engine.distributions: the domain/codomain/param_shape/... properties, and examples that name
# torch and print random draws).
PENDING = ("engine.viz", "engine.distributions")


def areas():
    """{area: [(qualified name, object)]} over the public surface, aliases listed once."""
    import importlib
    import pkgutil

    import engine

    found = {"Tensor": list(_class_entries("engine.Tensor", engine.Tensor))}
    for area, module_names in AREAS.items():
        entries = []
        for module_name in module_names:
            try:
                module = importlib.import_module(module_name)
            except ImportError:  # an optional namespace (special, fft) not there yet
                continue
            entries.extend(_module_entries(module_name, module))
        if entries:
            found[area] = entries
    # Every other public module of the package (engine.random, engine.jit, engine.viz, ...), so
    # that a new module is measured without being listed here.
    listed = {name for names in AREAS.values() for name in names}
    others = []
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        pending = any(info.name == p or info.name.startswith(p + ".") for p in PENDING)
        private = any(part.startswith("_") for part in info.name.split(".")[1:])
        if info.name in listed or pending or private:
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # needs an optional dependency
            continue
        others.extend(_module_entries(info.name, module))
    found["other modules"] = others
    # What a tensor's grad_fn is (a native node) and a custom Function's ctx.
    found["autograd"].extend(_class_entries("engine.autograd.graph.Node (grad_fn)", engine._C.Node))
    seen = set()
    for area, entries in found.items():
        unique = []
        for name, obj in entries:
            key = id(getattr(obj, "__func__", obj))  # a classmethod is bound anew on each access
            if key not in seen:
                seen.add(key)
                unique.append((name, obj))
        found[area] = unique
    return found


_FULL_MARKERS = (
    "Args:",
    "Arguments:",
    "Example",
    ">>>",
    "See :func:",
    "See :meth:",
    "In-place version",
)


def _takes_arguments(obj):
    """Whether obj's callers pass arguments (beyond self); False for properties."""
    import inspect

    if isinstance(obj, property):
        return False
    try:
        parameters = list(inspect.signature(obj).parameters.values())
    except (TypeError, ValueError):
        return True
    return len([p for p in parameters if p.name not in ("self", "cls")]) > 0


def is_complete(obj):
    """Documented in PyTorch's fuller style: an Args or Example section (or a pointer to the
    function that has them), unless there are no arguments to describe."""
    text = doc_text(obj)
    if len(text) < MIN_TEXT:
        return False
    return any(marker in text for marker in _FULL_MARKERS) or not _takes_arguments(obj)


def coverage():
    """{area: (documented, total, [undocumented names])}."""
    result = {}
    for area, entries in areas().items():
        missing = [name for name, obj in entries if not is_documented(obj)]
        result[area] = (len(entries) - len(missing), len(entries), missing)
    return result


def main(argv):
    """Prints, per area, the share of names with a docstring (the tested measure) and, for
    information, the share written in the fuller style (arguments or an example)."""
    print(f"{'area':22s} {'documented':>18s} {'with Args/Example':>18s}")
    totals = [0, 0, 0]
    for area, entries in areas().items():
        missing = [name for name, obj in entries if not is_documented(obj)]
        complete = sum(is_complete(obj) for _, obj in entries)
        count = len(entries)
        for i, value in enumerate((count - len(missing), complete, count)):
            totals[i] += value
        print(
            f"{area:22s} {(count - len(missing)) / count:7.1%} {count - len(missing):4d}/{count:<5d}"
            f" {complete / count:7.1%} {complete:4d}/{count:<5d}"
        )
        if "--missing" in argv and missing:
            print("   ", " ".join(missing))
        if "--terse" in argv:
            terse = [name for name, obj in entries if is_documented(obj) and not is_complete(obj)]
            if terse:
                print("    terse:", " ".join(terse))
    documented, complete, count = totals
    print(
        f"{'all':22s} {documented / count:7.1%} {documented:4d}/{count:<5d}"
        f" {complete / count:7.1%} {complete:4d}/{count:<5d}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
