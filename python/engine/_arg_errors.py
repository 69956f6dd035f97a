"""PyTorch-style messages for calls whose arguments match none of a native function's signatures.

The native module routes pybind11's "incompatible function arguments" failures here (see
cpp/engine/python/py_dispatch_guard.cpp). pybind11's message lists each accepted signature, e.g.
``(self: Tensor, dim: typing.SupportsInt | typing.SupportsIndex) -> Tensor``; from those and the
actual arguments this module names the first argument that does not fit, as PyTorch does:
``unsqueeze(): argument 'dim' (position 1) must be int, not str``. It runs only on that error path.
"""

import re

# "1. (self: Tensor, dim: int) -> Tensor" for functions, "1. engine._C.Generator(device: object = None)"
# for constructors.
_OVERLOAD = re.compile(r"^\s*\d+\. ([\w.]*)\((.*)\)(?: -> .*)?$")
_INT = "typing.SupportsInt | typing.SupportsIndex"
_FLOAT = "typing.SupportsFloat | typing.SupportsIndex"


class _Param:
    __slots__ = ("name", "kind", "optional", "has_default", "keyword_only")

    def __init__(self, name, kind, optional, has_default, keyword_only):
        self.name = name
        self.kind = (
            kind  # "int", "float", "bool", "str", "Tensor", "tuple of ints", or "" (anything)
        )
        self.optional = optional
        self.has_default = has_default
        self.keyword_only = keyword_only

    def label(self, position):
        if re.fullmatch(r"arg\d+", self.name):  # a binding without a declared argument name
            return f"argument at position {position}" if position else "argument"
        where = f" (position {position})" if position else ""
        return f"argument '{self.name}'{where}"

    def signature_part(self):
        kind = self.kind or "object"
        return f"{kind} {self.name}" + (" = None" if self.has_default and self.optional else "")


def _split_top_level(text):
    """Splits on commas outside brackets: ``a: list[int, str], b: int`` -> two parts."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    tail = text[start:].strip()
    if tail:
        parts.append(tail)
    return parts


def _kind(annotation):
    annotation = annotation.strip()
    optional = annotation.endswith(" | None")
    if optional:
        annotation = annotation[: -len(" | None")]
    if annotation == _INT or annotation == "int":
        return "int", optional
    if annotation == _FLOAT or annotation == "float":
        return "float", optional
    if annotation in ("bool", "str", "Tensor"):
        return annotation, optional
    if _INT in annotation and ("Sequence" in annotation or "list" in annotation):
        return "tuple of ints", optional
    return "", optional


def _parse(signature):
    params, keyword_only = [], False
    for part in _split_top_level(signature):
        if part == "*":
            keyword_only = True
            continue
        if part.startswith("*"):  # *args or **kwargs: anything goes
            return params, True
        name, _, rest = part.partition(":")
        annotation, eq, _default = rest.partition(" = ")
        kind, optional = _kind(annotation)
        params.append(_Param(name.strip(), kind, optional, bool(eq), keyword_only))
    return params, False


def _type_name(value):
    if isinstance(value, type):
        return "type"
    return type(value).__name__


def _fits(kind, value):
    from engine import _C

    if kind == "Tensor":
        return isinstance(value, _C.Tensor)
    if kind == "bool":
        return isinstance(value, bool) or type(value).__name__ == "bool_"
    if kind == "str":
        return isinstance(value, str)
    if kind == "int":
        return (
            not isinstance(value, float)
            and hasattr(type(value), "__index__")
            and not (isinstance(value, _C.Tensor) and value.dim() > 0)
        )
    if kind == "float":
        return hasattr(type(value), "__float__") or hasattr(type(value), "__index__")
    if kind == "tuple of ints":
        return isinstance(value, (tuple, list)) and all(_fits("int", v) for v in value)
    return True


def _bind(name, params, args, kwargs):
    """The first problem binding args/kwargs to params, as an exception, or None if all fit."""
    positional = [p for p in params if not p.keyword_only]
    if len(args) > len(positional):
        n = len(positional)
        return TypeError(
            f"{name}() takes {n} positional argument{'s' if n != 1 else ''} but {len(args)} were given"
        )
    by_name = {p.name: p for p in params}
    for key in kwargs:
        if key not in by_name or by_name[key] in positional[: len(args)]:
            return TypeError(f"{name}() got an unexpected keyword argument '{key}'")
    missing = [
        p.name
        for i, p in enumerate(params)
        if not p.has_default and p.name not in kwargs and (p.keyword_only or i >= len(args))
    ]
    if missing:
        names = ", ".join(f'"{m}"' for m in missing)
        return TypeError(f"{name}() missing {len(missing)} required positional arguments: {names}")
    values = [(p, v, i + 1) for i, (p, v) in enumerate(zip(positional, args))]
    values += [(by_name[k], v, 0) for k, v in kwargs.items()]
    for p, v, position in values:
        if v is None and p.optional:
            continue
        if not _fits(p.kind, v):
            return TypeError(f"{name}(): {p.label(position)} must be {p.kind}, not {_type_name(v)}")
    for p, v, _ in values:
        # Every type fits, so pybind11 refused a value: an int beyond 64 bits.
        if p.kind == "int" and isinstance(v, int) and not -(2**63) <= v < 2**63:
            return ValueError("Overflow when unpacking long long")
    return None


def describe(message, args, kwargs):
    """The exception to raise instead of pybind11's overload-resolution TypeError `message`."""
    name = message.split("(): incompatible", 1)[0]
    matches = [m for m in map(_OVERLOAD.match, message.splitlines()) if m]
    parsed = [_parse(m.group(2)) for m in matches]
    if name == "__init__" and matches:
        # A constructor: named for its class, called with the new object first.
        name = matches[0].group(1).rsplit(".", 1)[-1]
        args = args[1:]
    elif parsed and parsed[0][0] and parsed[0][0][0].name == "self":
        args = args[1:]
        parsed = [(params[1:], anything) for params, anything in parsed]
    if len(parsed) == 1 and not parsed[0][1]:
        problem = _bind(name, parsed[0][0], args, kwargs)
        if problem is not None:
            return problem
    got = ", ".join(
        [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()]
    )
    expected = "\n".join(
        " * (" + ", ".join(p.signature_part() for p in params) + (", ..." if anything else "") + ")"
        for params, anything in parsed
    )
    return TypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected one of:\n{expected}"
    )
