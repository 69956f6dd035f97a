"""Call generation: one call of the fuzzer as Python source, from (seed, index) alone.

Most calls are plausible — right arity, arguments that fit each parameter — with one or two
arguments swapped for hostile values (of the kind the parameter expects, more often than not),
because a call rejected by argument parsing exercises nothing behind it. A quarter are composite
``scenarios``; the rest call a discovered function or method, read or write a property, or apply
an operator or builtin to a tensor.
"""

from . import scenarios, values
from .discovery import discover

__all__ = ["discover", "generate"]

# Integers that are safe thread counts: a huge count would try to start that many threads.
THREAD_COUNTS = ["1", "2", "0", "-1", "None", "'2'", "2.5", "BadIndex()", "IndexNotInt()"]

DATA = [
    "[1.0, 2.0, 3.0]",
    "[[1, 2], [3, 4]]",
    "[True, False]",
    "3.5",
    "7",
    "[]",
    "[[1.0], [2.0]]",
    "np.ones((2, 3))",
    "engine.ones(2)",
    "[engine.tensor(1.0), engine.tensor(2.0)]",
    "(1, 2.5, True)",
]

BINARY_OPS = [
    "+",
    "-",
    "*",
    "/",
    "//",
    "%",
    "**",
    "@",
    "&",
    "|",
    "^",
    "<",
    "<=",
    ">",
    ">=",
    "==",
    "!=",
]
INPLACE_OPS = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "&=", "|=", "^="]
UNARY = ["-{}", "+{}", "~{}", "abs({})"]
BUILTINS = [
    "len({})",
    "bool({})",
    "int({})",
    "float({})",
    "complex({})",
    "list({})",
    "hash({})",
    "repr({})",
    "str({})",
    "format({}, '.2f')",
    "format({}, 'x')",
    "round({})",
    "divmod({}, 2)",
    "pow({}, 2, 3)",
    "reversed({})",
    "sorted({})",
    "sum({})",
    "max({})",
    "math.floor({})",
    "np.asarray({})",
    "np.array({}, dtype=np.float16)",
    "np.array({}, copy=False)",
    "np.add({}, np.ones(3))",
    "np.ones(3) + {}",
    "np.ones((4, 4)) * {}",
    "np.float64(2.0) * {}",
    "{}.numpy()",
    "{}.tolist()",
    "{}.item()",
    "{}.__array__(np.int8)",
    "1.0 in {}",
    "dir({})",
    "copy.copy({})",
    "[*{}]",
]


def _value(slot, rng):
    if slot == "DATA":
        return rng.choice(DATA)
    if slot == "THREADS":
        return rng.choice(THREAD_COUNTS)
    if slot == "KEY":
        return values.hostile_index(rng)
    return values.plausible(slot, rng)


def _hostile_for(slot, rng):
    # Thread counts stay in their safe pool: a hostile 2**31 would start that many threads.
    if slot == "THREADS":
        return rng.choice(THREAD_COUNTS)
    return values.hostile_like(slot, rng)


def _arguments(overload, rng):
    """(positional sources, keyword sources) for one overload, with hostile mutations."""
    pos, kw = [], {}
    slots = []  # parallel to pos: the slot each positional came from
    for p in overload:
        if p.kind == "varargs" or p.slot in ("SZ*", "D*"):
            if p.slot == "D*":
                items = [values.dim(rng) for _ in range(rng.choice([0, 1, 2, 2]))]
            else:
                items = values.sizes(rng)
            pos += items
            slots += ["I"] * len(items)
        elif p.kind == "kwonly":
            if rng.random() < 0.3:
                kw[p.name] = _value(p.slot, rng)
        elif p.optional and rng.random() < 0.4:
            break  # trailing optional positionals are left out as often as not
        else:
            pos.append(_value(p.slot, rng))
            slots.append(p.slot)
    r = rng.random()
    if r < 0.15:
        pass  # fully plausible: checks the ordinary path of every target too
    elif r < 0.8:
        n = 1 if rng.random() < 0.6 else 2
        for _ in range(n):
            if pos and (not kw or rng.random() < 0.8):
                i = rng.randrange(len(pos))
                pos[i] = _hostile_for(slots[i], rng)
            elif kw:
                key = rng.choice(sorted(kw))
                kw[key] = values.hostile(rng)
    elif r < 0.88:
        pos.append(values.hostile(rng))  # one argument too many
    elif r < 0.93 and pos:
        pos.pop(rng.randrange(len(pos)))  # one argument too few
    else:
        kw[rng.choice(values.KWARG_NAMES)] = (
            values.hostile(rng) if rng.random() < 0.5 else values.plausible("ANY", rng)
        )
    return pos, kw


def _arglist(pos, kw):
    return ", ".join([*pos, *(f"{k}={v}" for k, v in kw.items())])


def _self_tensor(rng):
    r = rng.random()
    if r < 0.85:
        return values.tensor(rng)
    return rng.choice(values.HOSTILE_TENSORS)


def _call(target, rng):
    pos, kw = _arguments(rng.choice(target.overloads), rng)
    code = f"{target.expr}({_arglist(pos, kw)})"
    if target.label == "engine._C._push_saved_tensors_hooks":
        # Balanced, so the hooks do not outlive the call (see scenarios.saved_tensors_hooks).
        code += "\nengine._C._pop_saved_tensors_hooks()"
    return code


def _method(target, rng):
    pos, kw = _arguments(rng.choice(target.overloads), rng)
    if rng.random() < 0.05:
        # Unbound, with something that is not a tensor as ``self``.
        return f"engine.Tensor.{target.expr}({_arglist([values.hostile(rng), *pos], kw)})"
    return f"({_self_tensor(rng)}).{target.expr}({_arglist(pos, kw)})"


def _property(target, rng):
    r = rng.random()
    name = target.expr
    if r < 0.4:
        return f"({_self_tensor(rng)}).{name}"
    if r < 0.9:
        value = values.plausible("T", rng) if rng.random() < 0.4 else values.hostile(rng)
        return f"t = {_self_tensor(rng)}\nt.{name} = {value}\nt.{name}"
    return f"t = {_self_tensor(rng)}\ndel t.{name}\nt.{name}"


def _operand(rng):
    r = rng.random()
    if r < 0.55:
        return values.tensor(rng)
    if r < 0.7:
        return values.scalar(rng)
    if r < 0.8:
        return rng.choice(values.HOSTILE_NUMPY)
    return values.hostile(rng)


def _operator(rng):
    """(label, source) for an operator, in-place operator or builtin applied to a tensor."""
    r = rng.random()
    a = values.tensor(rng) if rng.random() < 0.9 else rng.choice(values.HOSTILE_TENSORS)
    b = _operand(rng)
    if r < 0.55:
        op = rng.choice(BINARY_OPS)
        left, right = (a, b) if rng.random() < 0.7 else (b, a)
        return f"operator {op}", f"({left}) {op} ({right})"
    if r < 0.8:
        op = rng.choice(INPLACE_OPS)
        return f"operator {op}", f"t = {a}\nt {op} ({b})"
    if r < 0.87:
        template = rng.choice(UNARY)
        return f"operator {template.format('x')}", template.format(f"({a})")
    template = rng.choice(BUILTINS)
    return f"builtin {template.format('t')}", template.format(f"({a})")


def generate(rng, catalog):
    """One call: (label for the report, Python source to run)."""
    r = rng.random()
    if r < 0.25:
        name, fn = rng.choice(scenarios.SCENARIOS)
        return f"scenario:{name}", fn(rng)
    if r < 0.5 and catalog.calls:
        (target,) = rng.choices(catalog.calls, cum_weights=catalog.call_weights)
        return target.label, _call(target, rng)
    if r < 0.8 and catalog.methods:
        (target,) = rng.choices(catalog.methods, cum_weights=catalog.method_weights)
        return target.label, _method(target, rng)
    if r < 0.86 and catalog.properties:
        target = rng.choice(catalog.properties)
        return target.label, _property(target, rng)
    return _operator(rng)
