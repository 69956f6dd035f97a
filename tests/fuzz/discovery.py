"""Target discovery: every callable engine exposes, with the parameters to generate calls for.

``discover()`` walks ``dir()`` of engine, ``engine._C``, ``engine.autograd``,
``engine.nn.functional`` and ``engine.Tensor`` and learns each callable's parameters from its
signature (pybind11 puts it in the docstring's first line; Python functions have a real one). Each
parameter gets a slot kind (see ``values.plausible``) from its name or annotation.

Runs in the child (it needs engine). The result is sorted, so for a given build a call depends
only on (seed, index).
"""

import inspect
import re
from dataclasses import dataclass, field

# Parameter name -> slot kind (see ``values.plausible``). Names decide more reliably than
# pybind11's ``object`` annotations, which say nothing.
SLOT_BY_NAME = {
    **dict.fromkeys(["input", "self", "tensor", "a", "b", "x", "mat", "mat2", "vec"], "T"),
    **dict.fromkeys(["end", "source", "target", "bias", "pos_weight", "out"], "T"),
    **dict.fromkeys(["other", "src", "weight", "exponent", "gradient"], "X"),
    "index": "TI",
    "mask": "TB",
    **dict.fromkeys(
        ["tensors", "inputs", "outputs", "operands", "grad_outputs", "grad_tensors"], "TL"
    ),
    **dict.fromkeys(["dim", "dim0", "dim1", "dim2", "dims", "start_dim", "end_dim"], "D"),
    **dict.fromkeys(
        [
            "keepdim",
            "inplace",
            "training",
            "force",
            "unbiased",
            "requires_grad",
            "create_graph",
            "retain_graph",
            "keep_graph",
            "allow_unused",
            "accumulate",
            "copy",
        ],
        "B",
    ),
    "dtype": "DT",
    **dict.fromkeys(
        ["p", "alpha", "value", "min", "max", "mean", "std", "from_", "to", "label_smoothing"], "F"
    ),
    **dict.fromkeys(
        [
            "decimals",
            "diagonal",
            "offset",
            "shifts",
            "chunks",
            "start",
            "length",
            "steps",
            "num_classes",
            "correction",
            "split_size_or_sections",
            "ignore_index",
            "n",
            "seed",
            "protocol",
        ],
        "I",
    ),
    **dict.fromkeys(["sizes", "size", "shape"], "SZ"),
    "reduction": "RED",
    **dict.fromkeys(["approximate", "equation"], "STR"),
    **dict.fromkeys(["hook", "fn", "func", "pack_hook", "unpack_hook"], "FN"),
    "generator": "GEN",
}

# Calls whose parameters the signature does not describe (``*args``) or describes too loosely.
# Each entry is a list of overloads; an overload is (positional slots, keyword slots). A positional
# slot "SZ*" expands into zero to three size ints.
MANUAL = {
    "engine.zeros": [(["SZ*"], {"dtype": "DT", "requires_grad": "B"}), (["SZ"], {"dtype": "DT"})],
    "engine.ones": [(["SZ*"], {"dtype": "DT", "requires_grad": "B"}), (["SZ"], {"dtype": "DT"})],
    "engine.empty": [(["SZ*"], {"dtype": "DT", "requires_grad": "B"}), (["SZ"], {"dtype": "DT"})],
    "engine.rand": [(["SZ*"], {"dtype": "DT", "generator": "GEN"}), (["SZ"], {"dtype": "DT"})],
    "engine.randn": [(["SZ*"], {"dtype": "DT", "generator": "GEN"}), (["SZ"], {"dtype": "DT"})],
    "engine.randint": [
        (["I", "SZ"], {"dtype": "DT", "generator": "GEN"}),
        (["I", "I", "SZ"], {"dtype": "DT"}),
    ],
    "engine.arange": [
        (["F"], {"dtype": "DT"}),
        (["F", "F"], {}),
        (["F", "F", "F"], {"dtype": "DT"}),
    ],
    "engine.linspace": [(["F", "F", "I"], {"dtype": "DT", "requires_grad": "B"})],
    "engine.full": [(["SZ", "F"], {"dtype": "DT", "requires_grad": "B"})],
    "engine.tensor": [(["DATA"], {"dtype": "DT", "requires_grad": "B"})],
    "engine.from_numpy": [(["NP"], {})],
    "engine.einsum": [(["STR", "T"], {}), (["STR", "T", "T"], {})],
    "engine.where": [(["TB", "X", "X"], {}), (["TB"], {})],
    "engine.set_num_threads": [(["THREADS"], {})],
    "engine.manual_seed": [(["I"], {})],
    "engine.set_default_dtype": [(["DT"], {})],
    "engine._C.set_num_threads": [(["THREADS"], {})],
    "engine._C._push_saved_tensors_hooks": [(["FN", "FN"], {})],
    "Tensor.view": [(["SZ*"], {}), (["DT"], {})],
    "Tensor.reshape": [(["SZ*"], {})],
    "Tensor.expand": [(["SZ*"], {})],
    "Tensor.permute": [(["D*"], {})],
    "Tensor.repeat": [(["SZ*"], {})],
    "Tensor.flip": [(["D*"], {})],
    "Tensor.to": [(["DT"], {}), (["T"], {}), ([], {"dtype": "DT"}), (["STR"], {})],
    "Tensor.size": [(["D"], {}), ([], {})],
    "Tensor.stride": [(["D"], {}), ([], {})],
    "Tensor.__getitem__": [(["KEY"], {})],
    "Tensor.__setitem__": [(["KEY", "X"], {})],
    "Tensor.__reduce_ex__": [(["I"], {})],
    "Tensor.__init__": [(["ANY"], {}), ([], {})],
}

# Ops whose arguments reach raw memory most directly (sizes, indices, nested data, strides).
PRIORITY = {
    "tensor",
    "zeros",
    "ones",
    "empty",
    "full",
    "arange",
    "linspace",
    "randn",
    "rand",
    "randint",
    "from_numpy",
    "cat",
    "stack",
    "where",
    "matmul",
    "mm",
    "bmm",
    "einsum",
    "gather",
    "scatter",
    "scatter_",
    "scatter_add",
    "scatter_add_",
    "index_select",
    "index_add",
    "index_add_",
    "index_copy",
    "index_copy_",
    "masked_fill",
    "masked_fill_",
    "take",
    "narrow",
    "diagonal",
    "expand",
    "view",
    "reshape",
    "permute",
    "repeat",
    "copy_",
    "__getitem__",
    "__setitem__",
    "_slice",
    "_run_backward",
    "_edge_list",
    "unflatten",
    "split",
    "chunk",
    "roll",
    "flip",
    "cross_entropy",
    "nll_loss",
    "one_hot",
}

# Never called: nothing here can crash engine, and each one would stall or disturb the child.
SKIP = {
    "engine.seed",  # reseeds from os.urandom: the call would not reproduce
    "Tensor.__class__",
    "Tensor.__init_subclass__",
    "Tensor.__subclasshook__",
    "Tensor._pybind11_conduit_v1_",  # pybind11's own cross-module hook, not engine's API
}


@dataclass
class Param:
    name: str
    slot: str
    kind: str = "pos"  # "pos", "varargs" or "kwonly"
    optional: bool = False


@dataclass
class Target:
    """One callable: ``label`` names it in reports, ``expr`` is the source that reaches it."""

    label: str
    kind: str  # "call", "method", "property"
    expr: str
    overloads: list = field(default_factory=list)  # list of list[Param]


@dataclass
class Catalog:
    calls: list
    methods: list
    properties: list
    call_weights: list = field(default_factory=list)  # cumulative, parallel to ``calls``
    method_weights: list = field(default_factory=list)


def _weight(label):
    """How often a target is picked relative to others: the core ops that take raw sizes, indices
    and nested data, and the native module's private entry points (they trust their callers), get
    more calls; private Python helpers fewer."""
    name = label.rsplit(".", 1)[-1]
    if name in PRIORITY:
        return 5.0
    if name.startswith("_") and not name.startswith("__"):
        return 2.0 if label.startswith("engine._C.") else 0.3
    return 1.0


def _cumulative(targets):
    total, out = 0.0, []
    for t in targets:
        total += _weight(t.label)
        out.append(total)
    return out


_SIG_LINE = re.compile(r"^\s*(?:\d+\.\s*)?[\w.]+\((.*)\)\s*(?:->.*)?$")


def _split_top(params):
    """Splits a parameter list at commas outside brackets."""
    out, depth, cur = [], 0, ""
    for ch in params:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _slot(name, annotation):
    if name in SLOT_BY_NAME:
        slot = SLOT_BY_NAME[name]
        # A dim typed as an int takes no tuple or None: offering those would only test parsing.
        return "DI" if slot == "D" and "SupportsInt" in annotation else slot
    if "Tensor" in annotation:
        return "T"
    if "SupportsInt" in annotation:
        return "I"
    if "SupportsFloat" in annotation:
        return "F"
    if annotation.strip() == "bool":
        return "B"
    return "ANY"


def _parse_doc_signatures(doc):
    """Overloads from pybind11's docstring: ``name(a: T, *, b: U = d) -> R`` lines."""
    overloads = []
    for line in (doc or "").splitlines():
        m = _SIG_LINE.match(line)
        if not m:
            continue
        params, kwonly = [], False
        for raw in _split_top(m.group(1)):
            if raw == "*":
                kwonly = True
                continue
            if raw.startswith("**"):
                continue
            if raw.startswith("*"):
                params.append(Param(raw[1:], "ANY", "varargs"))
                kwonly = True
                continue
            name, _, rest = raw.partition(":")
            annotation, _, default = rest.partition("=")
            name = name.strip()
            params.append(
                Param(name, _slot(name, annotation), "kwonly" if kwonly else "pos", bool(default))
            )
        overloads.append(params)
        if not line.lstrip()[:1].isdigit():
            break  # a single signature line; an overloaded function lists "1. ...", "2. ..."
    # pybind11 writes "f(*args, **kwargs)" above the numbered overloads; keep only the real ones.
    real = [o for o in overloads if not (len(o) == 1 and o[0].kind == "varargs")]
    return real or overloads


def _parse_inspect(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    params = []
    for p in sig.parameters.values():
        if p.kind == p.VAR_KEYWORD:
            continue
        kind = {p.VAR_POSITIONAL: "varargs", p.KEYWORD_ONLY: "kwonly"}.get(p.kind, "pos")
        params.append(Param(p.name, _slot(p.name, ""), kind, p.default is not p.empty))
    return [params]


def _manual(label):
    out = []
    for positional, keywords in MANUAL[label]:
        params = [Param(f"a{i}", slot) for i, slot in enumerate(positional)]
        params += [Param(k, slot, "kwonly", True) for k, slot in keywords.items()]
        out.append(params)
    return out


def _overloads(label, obj, is_method):
    if label in MANUAL:
        return _manual(label)
    overloads = _parse_inspect(obj)
    if overloads is None or (overloads[0] and overloads[0][0].kind == "varargs"):
        doc = getattr(obj, "__doc__", "")
        if isinstance(obj, type):
            # A pybind11 class documents its constructor on __init__, with ``self`` first.
            doc = getattr(obj.__init__, "__doc__", "")
            is_method = True
        overloads = _parse_doc_signatures(doc) or overloads
    overloads = overloads or [[Param("a0", "ANY", "pos", True)]]
    if is_method:
        # Drop ``self``: methods are called bound, on a generated tensor.
        overloads = [
            o[1:] if o and o[0].name in ("self", "input", "tensor") else o for o in overloads
        ]
    return overloads


def _module_calls(module, prefix, seen):
    out = []
    for name in sorted(dir(module)):
        if name.startswith("__") and name != "__init__":
            continue
        try:
            obj = getattr(module, name)
        except Exception:  # a lazy attribute may raise; it is simply not a target
            continue
        if inspect.ismodule(obj) or not callable(obj):
            continue
        label = f"{prefix}.{name}"
        if label in SKIP or id(obj) in seen:
            continue
        seen.add(id(obj))
        out.append(Target(label, "call", label, _overloads(label, obj, False)))
    return out


def discover(engine):
    """Every callable engine exposes, with the overloads its arguments are generated from."""
    seen = set()
    calls = []
    calls += _module_calls(engine, "engine", seen)
    calls += _module_calls(engine._C, "engine._C", seen)
    calls += _module_calls(engine.autograd, "engine.autograd", seen)
    calls += _module_calls(engine.autograd.graph, "engine.autograd.graph", seen)
    calls += _module_calls(engine.autograd.function, "engine.autograd.function", seen)
    calls += _module_calls(engine.nn.functional, "F", seen)
    methods, properties = [], []
    for name in sorted(dir(engine.Tensor)):
        label = f"Tensor.{name}"
        if label in SKIP:
            continue
        attr = inspect.getattr_static(engine.Tensor, name)
        if isinstance(attr, property):
            properties.append(Target(label, "property", name))
        elif callable(getattr(engine.Tensor, name, None)):
            obj = getattr(engine.Tensor, name)
            methods.append(Target(label, "method", name, _overloads(label, obj, True)))
    # In-place variants installed from Python (``scatter_(*args, **kwargs)``) take what their
    # out-of-place twin takes.
    by_label = {t.label: t for t in methods}
    for t in methods:
        twin = by_label.get(t.label[:-1]) if t.label.endswith("_") else None
        if twin and all(len(o) == 1 and o[0].kind == "varargs" for o in t.overloads):
            t.overloads = twin.overloads
    return Catalog(calls, methods, properties, _cumulative(calls), _cumulative(methods))
