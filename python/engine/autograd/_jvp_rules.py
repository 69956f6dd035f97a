"""Forward-mode (jvp) rules: how each native function carries tangents, in one table.

A rule is called as ``rule(func, args, kwargs, out, tangent_of)`` after the operation ran on the
primals: ``tangent_of(value)`` is the tangent of an argument at the level being processed (None
for an argument without one), ``out`` the operation's result. It returns the output's tangent,
a list aligned with a tuple/list result, or None for "no tangent".

Rules are written with engine's own differentiable operations, so a tangent has a graph of its
own (``autograd.grad`` of a tangent gives Hessian-vector products) and lower transform levels see
the operations the rule performs (forward-over-forward, forward inside ``vmap``).

Rule kinds, so that most operations need one line:

* ``LINEAR``: the operation is linear in its floating-point tensor arguments (views, reshapes,
  indexing, joining, ``sum``/``mean``...): the tangent is the same call on the tangents.
* ``AFFINE(positions)``: linear once the plain numbers at ``positions`` are read as 0
  (``masked_fill(x, mask, 2.0)``, ``where(c, x, 0.5)``).
* ``ADD``: sums and differences, with ``alpha``.
* ``unary(derivative)``: elementwise ``f`` with ``f'(x)`` written from ``x`` and ``f(x)``.
* ``bilinear``: products (``mul``, ``matmul``...): ``f(ta, b) + f(a, tb)``.
* ``ZERO``: piecewise-constant results (``floor``, ``sign``, random fills): a zero tangent.
* ``NO_TANGENT`` names give none at all (``detach``, ``new_zeros``, ``.data``).

Every other operation uses :func:`generic`, the *double-vjp* rule: with ``u`` a dummy cotangent
that requires grad, ``g(u) = vjp(u)`` is linear in ``u``, so ``d<g(u), t>/du = J t``. It is right
for every operation whose backward is itself differentiable, at the price of two backward passes.
In-place operations are handled by the interpreter through their out-of-place counterpart.
"""

from __future__ import annotations

import math

from engine import _C
from engine.autograd._jvp_activation_rules import ACTIVATION_RULES

__all__ = ["RULES", "NO_TANGENT", "ZERO", "generic", "name_of", "out_of_place_name"]

_FLOATING = {_C.float16, _C.bfloat16, _C.float32, _C.float64}
_PROPERTY_NAMES = {
    prop.fget: key
    for key, prop in vars(_C.Tensor).items()
    if isinstance(prop, property) and prop.fget is not None
}


def is_floating(value) -> bool:
    """Whether ``value`` is a tensor that can carry a tangent (floating point)."""
    return isinstance(value, _C.Tensor) and value.dtype in _FLOATING


def name_of(func) -> str:
    """The name a native function is known by in the table (property getters by property name)."""
    name = getattr(func, "__name__", "")
    if not name:
        name = _PROPERTY_NAMES.get(func, "")
    return name


_INPLACE_DUNDER = {
    "__iadd__": "__add__",
    "__isub__": "__sub__",
    "__imul__": "__mul__",
    "__itruediv__": "__truediv__",
    "__ifloordiv__": "__floordiv__",
    "__imod__": "__mod__",
    "__ipow__": "__pow__",
    "__imatmul__": "__matmul__",
}


def out_of_place_name(name: str) -> str | None:
    """For an in-place operation, the name of its out-of-place counterpart ("" if it has none);
    None if ``name`` is not in place."""
    if name in _INPLACE_DUNDER:
        return _INPLACE_DUNDER[name]
    if name == "__setitem__":
        return ""
    if name.endswith("_") and not name.startswith("_"):
        base = name[:-1]
        return base if hasattr(_C.Tensor, base) else ""
    return None


# ---- the kinds ----------------------------------------------------------------------------------


def _substitute(value, tangent_of, zero_numbers=False):
    """``value`` with every floating tensor replaced by its tangent (zeros where it has none)."""
    if isinstance(value, _C.Tensor):
        if value.dtype not in _FLOATING:
            return value
        t = tangent_of(value)
        return _C.zeros_like(value) if t is None else t
    if isinstance(value, (list, tuple)) and any(isinstance(v, _C.Tensor) for v in value):
        return type(value)(_substitute(v, tangent_of) for v in value)
    if zero_numbers and isinstance(value, (int, float)) and not isinstance(value, bool):
        return 0.0 if isinstance(value, float) else 0
    return value


def LINEAR(func, args, kwargs, out, tangent_of):
    """Linear in the floating tensor arguments: the same call on their tangents."""
    return func(
        *[_substitute(a, tangent_of) for a in args],
        **{k: _substitute(v, tangent_of) for k, v in kwargs.items()},
    )


def AFFINE(*positions, keywords=()):
    """Linear once the plain numbers at ``positions`` (or these ``keywords``) are read as 0."""

    def rule(func, args, kwargs, out, tangent_of):
        new_args = [_substitute(a, tangent_of, i in positions) for i, a in enumerate(args)]
        new_kwargs = {k: _substitute(v, tangent_of, k in keywords) for k, v in kwargs.items()}
        return func(*new_args, **new_kwargs)

    return rule


def ZERO(func, args, kwargs, out, tangent_of):
    """A piecewise-constant result: zero tangents for its floating outputs."""
    if isinstance(out, (tuple, list)):
        return [_C.zeros_like(o) if is_floating(o) else None for o in out]
    return _C.zeros_like(out)


def _scaled(t, factor):
    return t if factor == 1 else t * factor


def _add_rule(sign):
    """``self + sign * alpha * other`` (add and sub)."""

    def rule(func, args, kwargs, out, tangent_of):
        alpha = kwargs.get("alpha", args[2] if len(args) > 2 else 1)
        ta = tangent_of(args[0])
        tb = tangent_of(args[1] if len(args) > 1 else kwargs.get("other"))
        total = ta
        if tb is not None:
            part = _scaled(tb, sign * alpha)
            total = part if total is None else total + part
        return total

    return rule


ADD = _add_rule(1)
SUB = _add_rule(-1)


def RSUB(func, args, kwargs, out, tangent_of):
    """``other - alpha * self`` (``Tensor.__rsub__`` / ``rsub``)."""
    alpha = kwargs.get("alpha", args[2] if len(args) > 2 else 1)
    ta, tb = tangent_of(args[0]), tangent_of(args[1])
    total = None if ta is None else _scaled(ta, -alpha)
    if tb is not None:
        total = tb if total is None else total + tb
    return total


def unary(derivative):
    """Elementwise ``y = f(x)`` with ``f'(x) = derivative(x, y)``."""

    def rule(func, args, kwargs, out, tangent_of):
        t = tangent_of(args[0])
        if t is None:
            return None
        return t * derivative(args[0], out)

    return rule


def IDENTITY_DERIVATIVE(func, args, kwargs, out, tangent_of):
    """Elementwise with derivative 1 (``frac``): the tangent passes unchanged."""
    return tangent_of(args[0])


def bilinear(func, args, kwargs, out, tangent_of):
    """``f(a, b)`` linear in each argument: ``f(ta, b) + f(a, tb)``."""
    a, b = args[0], args[1]
    ta, tb = tangent_of(a), tangent_of(b)
    total = None
    if ta is not None:
        total = func(ta, b, *args[2:], **kwargs)
    if tb is not None:
        part = func(a, tb, *args[2:], **kwargs)
        total = part if total is None else total + part
    return total


def _quotient(func, args, kwargs, out, tangent_of):
    """``a / b``: ``(ta - out * tb) / b``; a rounding mode makes the result piecewise constant."""
    if kwargs.get("rounding_mode") is not None or (len(args) > 2 and args[2] is not None):
        return _C.zeros_like(out)
    a, b = args[0], args[1]
    ta, tb = tangent_of(a), tangent_of(b)
    total = None
    if ta is not None:
        total = ta / b
    if tb is not None:
        part = -(out * tb) / b
        total = part if total is None else total + part
    return total


def _reverse_quotient(func, args, kwargs, out, tangent_of):
    """``other / self`` (``Tensor.__rtruediv__``)."""
    return _quotient(func, (args[1], args[0]), {}, out, tangent_of)


def _power(func, args, kwargs, out, tangent_of):
    """``x ** e`` with a number exponent: ``e * x ** (e - 1) * tx``; tensor exponents: generic."""
    exponent = args[1] if len(args) > 1 else kwargs.get("exponent")
    if isinstance(exponent, _C.Tensor):
        return _GENERIC_SENTINEL
    t = tangent_of(args[0])
    if t is None:
        return None
    if exponent == 0:
        return _C.zeros_like(out)
    return t * (args[0].pow(exponent - 1) * exponent)


_GENERIC_SENTINEL = object()  # a rule's answer: "use the generic rule for this call"

_LN2, _LN10 = math.log(2.0), math.log(10.0)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _indicator(condition, like):
    return condition.to(like.dtype)


_UNARY = {
    "exp": lambda x, y: y,
    "exp2": lambda x, y: y * _LN2,
    "expm1": lambda x, y: y + 1,
    "log": lambda x, y: x.reciprocal(),
    "log2": lambda x, y: (x * _LN2).reciprocal(),
    "log10": lambda x, y: (x * _LN10).reciprocal(),
    "log1p": lambda x, y: (x + 1).reciprocal(),
    "sqrt": lambda x, y: 0.5 / y,
    "rsqrt": lambda x, y: y.pow(3) * -0.5,
    "sin": lambda x, y: x.cos(),
    "cos": lambda x, y: -x.sin(),
    "tan": lambda x, y: 1 + y * y,
    "asin": lambda x, y: (1 - x * x).rsqrt(),
    "acos": lambda x, y: -(1 - x * x).rsqrt(),
    "atan": lambda x, y: (1 + x * x).reciprocal(),
    "sinh": lambda x, y: x.cosh(),
    "cosh": lambda x, y: x.sinh(),
    "tanh": lambda x, y: 1 - y * y,
    "asinh": lambda x, y: (x * x + 1).rsqrt(),
    "acosh": lambda x, y: (x * x - 1).rsqrt(),
    "atanh": lambda x, y: (1 - x * x).reciprocal(),
    "sigmoid": lambda x, y: y * (1 - y),
    "relu": lambda x, y: _indicator(x > 0, x),
    "abs": lambda x, y: x.sign(),
    "reciprocal": lambda x, y: -(y * y),
    "square": lambda x, y: 2 * x,
    "erf": lambda x, y: (-(x * x)).exp() * _TWO_OVER_SQRT_PI,
    "_normal_cdf": lambda x, y: (x * x * -0.5).exp() * (1.0 / math.sqrt(2.0 * math.pi)),
    "erfc": lambda x, y: (-(x * x)).exp() * -_TWO_OVER_SQRT_PI,
}
_UNARY_ALIASES = {
    "absolute": "abs",
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arcsinh": "asinh",
    "arccosh": "acosh",
    "arctanh": "atanh",
    "__abs__": "abs",
}

_LINEAR_NAMES = (
    # views and reshapes
    "view view_as reshape reshape_as permute transpose swapaxes swapdims movedim moveaxis t T mT "
    "mH H adjoint expand expand_as broadcast_to squeeze unsqueeze flatten unflatten ravel narrow "
    "select _slice __getitem__ diagonal as_strided unfold alias real conj resolve_conj resolve_neg "
    "split split_with_sizes chunk unbind tensor_split hsplit vsplit dsplit "
    # indexing and joining
    "index_select gather take take_along_dim masked_select diag diag_embed diagflat tril triu "
    "flip fliplr flipud roll rot90 repeat repeat_interleave tile cat concat concatenate stack "
    "hstack vstack dstack column_stack row_stack index_put index_add index_copy "
    "scatter_add masked_scatter block_diag "
    # linear arithmetic and reductions
    "neg negative __neg__ positive __pos__ sum mean cumsum trace diff deg2rad rad2deg "
    # copies and conversions
    "clone contiguous to float double half bfloat16 type type_as cpu detach_copy"
).split()

# Results that carry no tangent although they may be floating tensors.
NO_TANGENT = frozenset(
    (
        "detach data grad _base new_zeros new_ones new_empty new_full new_tensor new_empty_strided "
        "zeros_like ones_like empty_like full_like rand_like randn_like randint_like "
        "requires_grad_ retain_grad register_hook detach_ share_memory_ resize_ resize_as_ "
        # queries: metadata, conversions to Python values, autograd bookkeeping
        "requires_grad is_leaf grad_fn output_nr _version retains_grad dtype ndim _shape shape "
        "size stride dim numel nelement item tolist data_ptr element_size storage_offset "
        "is_contiguous __len__ __bool__ __float__ __int__ __index__ __complex__ __array__ numpy "
        "untyped_storage storage get_device device backward __repr__ __str__ __format__ "
        "__hash__ __reduce_ex__ __getstate__ __setstate__ __iter__ argmax argmin argsort "
        "nonzero count_nonzero isnan isinf isfinite isclose allclose equal "
        # comparisons and logic: boolean results
        "eq ne lt le gt ge __eq__ __ne__ __lt__ __le__ __gt__ __ge__ greater less greater_equal "
        "less_equal not_equal logical_and logical_or logical_xor logical_not signbit"
    ).split()
)

_ZERO_NAMES = (
    "sign sgn floor ceil round trunc fix heaviside floor_divide __floordiv__ "
    "zero_ uniform_ normal_ bernoulli_ exponential_ cauchy_ log_normal_ geometric_ random_ "
    "bernoulli multinomial normal poisson"
).split()


RULES: dict = {}
for _name in _LINEAR_NAMES:
    RULES[_name] = LINEAR
for _name in _ZERO_NAMES:
    RULES[_name] = ZERO
for _name, _derivative in _UNARY.items():
    RULES[_name] = unary(_derivative)
for _alias, _name in _UNARY_ALIASES.items():
    RULES[_alias] = RULES[_name]
RULES.update(ACTIVATION_RULES)
for _name in ("add", "__add__", "__radd__"):
    RULES[_name] = ADD
for _name in ("sub", "subtract", "__sub__"):
    RULES[_name] = SUB
for _name in ("__rsub__", "rsub"):
    RULES[_name] = RSUB
for _name in (
    "mul multiply __mul__ __rmul__ matmul __matmul__ mm bmm mv dot vdot inner outer ger kron"
).split():
    RULES[_name] = bilinear
RULES["__rmatmul__"] = lambda func, args, kwargs, out, tangent_of: bilinear(
    lambda a, b: a @ b, (args[1], args[0]), {}, out, tangent_of
)
for _name in ("div", "divide", "true_divide", "__truediv__"):
    RULES[_name] = _quotient
RULES["__rtruediv__"] = _reverse_quotient
for _name in ("pow", "__pow__"):
    RULES[_name] = _power
RULES["frac"] = IDENTITY_DERIVATIVE
RULES["where"] = AFFINE(1, 2, keywords=("input", "other"))
RULES["masked_fill"] = AFFINE(2, keywords=("value",))
RULES["index_fill"] = AFFINE(3, keywords=("value",))
RULES["fill_"] = AFFINE(1, keywords=("value",))
RULES["fill"] = AFFINE(1, keywords=("value",))
RULES["fill_diagonal_"] = AFFINE(1, keywords=("fill_value",))
_SCATTER_VALUE = AFFINE(3, keywords=("value",))


def _scatter(func, args, kwargs, out, tangent_of):
    """``scatter``: affine in (self, src or value); a ``reduce`` makes it a generic case."""
    if kwargs.get("reduce") is not None or len(args) > 4:
        return _GENERIC_SENTINEL
    return _SCATTER_VALUE(func, args, kwargs, out, tangent_of)


RULES["scatter"] = _scatter


def _linear(func, args, kwargs, out, tangent_of):
    """``linear(x, w, b)``: bilinear in ``(x, w)`` plus the bias."""
    x, w = args[0], args[1] if len(args) > 1 else kwargs["weight"]
    b = args[2] if len(args) > 2 else kwargs.get("bias")
    tx, tw, tb = tangent_of(x), tangent_of(w), tangent_of(b)
    total = None if tx is None else func(tx, w)
    if tw is not None:
        part = func(x, tw)
        total = part if total is None else total + part
    if tb is not None:
        total = tb if total is None else total + tb
    return total


RULES["linear"] = _linear


def _logsumexp(func, args, kwargs, out, tangent_of):
    """``sum(exp(x - out) * t)`` over the reduced dims: the softmax-weighted tangent."""
    x, t = args[0], tangent_of(args[0])
    if t is None:
        return None
    dim = args[1] if len(args) > 1 else kwargs.get("dim")
    keepdim = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
    dims = [dim] if isinstance(dim, int) else dim
    if x.dim() == 0 or not isinstance(dims, (list, tuple)) or not dims:
        return _GENERIC_SENTINEL
    kept = out
    if not keepdim:
        for d in sorted(d % x.dim() for d in dims):
            kept = kept.unsqueeze(d)
    return ((x - kept).exp() * t).sum(tuple(dims), keepdim=bool(keepdim))


def _extremum(func, args, kwargs, out, tangent_of):
    """``max``/``min`` of everything (the mean tangent of the elements equal to the result, as
    PyTorch reads ties evenly) or along a dim (the tangent at the index found)."""
    x, t = args[0], tangent_of(args[0])
    other = args[1] if len(args) > 1 else kwargs.get("other", kwargs.get("dim"))
    if isinstance(other, _C.Tensor):
        return _GENERIC_SENTINEL  # elementwise against another tensor
    if t is None:
        return None
    if len(args) == 1 and not kwargs:
        mask = (x == out).to(t.dtype)
        return (t * mask).sum() / mask.sum()
    if isinstance(other, _C.Tensor) or not isinstance(out, tuple) or x.dim() == 0:
        return _GENERIC_SENTINEL
    dim = other % x.dim()
    keepdim = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
    index = out[1] if keepdim else out[1].unsqueeze(dim)
    tangent = t.gather(dim, index)
    return [tangent if keepdim else tangent.squeeze(dim), None]


def _variance_args(x, args, kwargs):
    """(dims, correction, keepdim) of a var/std call, or None for a form not read here."""
    rest = list(args[1:])
    dim, keepdim = kwargs.get("dim"), kwargs.get("keepdim", False)
    unbiased, correction = kwargs.get("unbiased"), kwargs.get("correction")
    if rest and isinstance(rest[0], bool):
        unbiased = rest.pop(0)
    elif rest:
        dim = rest.pop(0)
        if rest and isinstance(rest[0], bool) and len(rest) == 2:
            unbiased = rest.pop(0)
    if rest:
        keepdim = rest.pop(0)
    if rest or x.dim() == 0 or not isinstance(correction, (int, float, type(None))):
        return None
    if correction is None:
        correction = 0 if unbiased is False else 1
    if dim is None:
        dims = tuple(range(x.dim()))
    elif isinstance(dim, int):
        dims = (dim % x.dim(),)
    else:
        dims = tuple(d % x.dim() for d in dim) or tuple(range(x.dim()))
    return dims, correction, bool(keepdim)


def _variance(root):
    """``var``: ``2 sum((x - mean) t) / (N - correction)``; ``std``: that over ``2 std``."""

    def rule(func, args, kwargs, out, tangent_of):
        x, t = args[0], tangent_of(args[0])
        if t is None:
            return None
        parsed = _variance_args(x, args, kwargs)
        if parsed is None or not isinstance(out, _C.Tensor):
            return _GENERIC_SENTINEL
        dims, correction, keepdim = parsed
        count = 1
        for d in dims:
            count *= x.shape[d]
        if count - correction <= 0:
            return _GENERIC_SENTINEL
        centred = x - x.mean(dims, keepdim=True)
        tangent = (centred * t).sum(dims, keepdim=keepdim) * (2.0 / (count - correction))
        return tangent / (out * 2) if root else tangent

    return rule


def _two_norm(func, args, kwargs, out, tangent_of):
    """``norm`` with p = 2 (or 'fro'): ``sum(x t) / norm``, 0 where the norm is 0."""
    x, t = args[0], tangent_of(args[0])
    if t is None:
        return None
    p = args[1] if len(args) > 1 else kwargs.get("p", "fro")
    dim = args[2] if len(args) > 2 else kwargs.get("dim")
    keepdim = args[3] if len(args) > 3 else kwargs.get("keepdim", False)
    if kwargs.get("dtype", args[4] if len(args) > 4 else None) is not None:
        return _GENERIC_SENTINEL
    if p not in (2, 2.0, "fro") or len(args) > 5 or set(kwargs) - {"p", "dim", "keepdim", "dtype"}:
        return _GENERIC_SENTINEL
    if x.dim() == 0 or not isinstance(out, _C.Tensor) or out.dtype != x.dtype:
        return _GENERIC_SENTINEL
    if dim is None:
        dims = tuple(range(x.dim()))
    elif isinstance(dim, int):
        dims = (dim,)
    else:
        dims = tuple(dim)
    inner = (x * t).sum(dims, keepdim=bool(keepdim))
    return _C.where(out == 0, _C.zeros((), dtype=out.dtype), inner / out)


def _clamp(func, args, kwargs, out, tangent_of):
    """``clamp`` with number bounds: the tangent where the input lies within them, else 0."""
    x, t = args[0], tangent_of(args[0])
    low = args[1] if len(args) > 1 else kwargs.get("min")
    high = args[2] if len(args) > 2 else kwargs.get("max")
    if any(isinstance(b, _C.Tensor) for b in (low, high)) or set(kwargs) - {"min", "max"}:
        return _GENERIC_SENTINEL
    if t is None:
        return None
    inside = _C.ones_like(x, dtype=_C.bool)
    if low is not None:
        inside = inside & (x >= low)
    if high is not None:
        inside = inside & (x <= high)
    return _C.where(inside, t, _C.zeros((), dtype=t.dtype))


RULES["var"] = _variance(root=False)
RULES["std"] = _variance(root=True)
RULES["norm"] = _two_norm
RULES["clamp"] = _clamp
RULES["clip"] = _clamp
RULES["logsumexp"] = _logsumexp
RULES["max"] = _extremum
RULES["min"] = _extremum


# ---- the generic rule ---------------------------------------------------------------------------


class NoForwardRule(NotImplementedError):
    """An operation whose backward cannot be differentiated, so no tangent can be derived.

    A NotImplementedError, as PyTorch raises for an op without a forward-AD formula (and so a
    RuntimeError too: Python's NotImplementedError derives from it)."""


def refuse_batched(name, tensors) -> None:
    """The generic rule differentiates with the native backward pass, which a batching transform
    (``vmap``) does not see into: a batched tensor there would give a wrong tangent, so it is an
    error instead (``jacfwd`` then computes its columns one at a time)."""
    for value in tensors:
        state = _C._transform_state(value)
        while state is not None:
            if type(state).__name__ != "DualState":
                raise NoForwardRule(
                    f"Trying to use forward AD with {name} on a tensor batched by vmap: engine "
                    "derives this tangent from the backward pass, which vmap does not batch."
                )
            state = getattr(state, "inner", None)


def generic(func, args, kwargs, tangent_of, name):
    """Runs ``func`` and derives its output tangents from its backward (the double-vjp rule).

    Returns ``(out, tangents)``. The floating inputs that carry a tangent are made to require
    grad (a fresh leaf where they did not), the operation runs once on them, and for the dummy
    cotangents ``u``: ``jvp = d/du <vjp(u), t>``."""
    from engine.autograd import grad as autograd_grad
    from engine.autograd.grad_mode import enable_grad

    grad_on = _C.is_grad_enabled()
    wants_history = False
    pairs = []  # (differentiable input, its tangent)
    prepared = {}  # id(argument) -> what it became: a tensor passed twice is one input

    def prepare(value):
        nonlocal wants_history
        if isinstance(value, (list, tuple)) and any(isinstance(v, _C.Tensor) for v in value):
            return type(value)(prepare(v) for v in value)
        if not isinstance(value, _C.Tensor):
            return value
        if grad_on and value.requires_grad:
            wants_history = True
        t = tangent_of(value)
        if t is None or value.dtype not in _FLOATING:
            return value
        if id(value) in prepared:
            return prepared[id(value)]
        original = value
        if not (grad_on and value.requires_grad):
            value = value.detach().requires_grad_()
        prepared[id(original)] = value
        pairs.append((value, t))
        return value

    with enable_grad():
        new_args = [prepare(a) for a in args]
        refuse_batched(name, [t for _, t in pairs] + [p for p, _ in pairs])
        new_kwargs = {k: prepare(v) for k, v in kwargs.items()}
        out = func(*new_args, **new_kwargs)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        live = [i for i, o in enumerate(outs) if is_floating(o) and o.requires_grad]
        tangents = [None] * len(outs)
        if live and pairs:
            dummies = [_C.zeros_like(outs[i]).requires_grad_() for i in live]
            try:
                vjps = autograd_grad(
                    [outs[i] for i in live],
                    [p for p, _ in pairs],
                    dummies,
                    create_graph=True,
                    allow_unused=True,
                )
                inner = None
                for g, (_, t) in zip(vjps, pairs):
                    if g is not None:
                        term = (g * t).sum()
                        inner = term if inner is None else inner + term
                if inner is not None and inner.requires_grad:
                    # A graph for the tangent only where something outside this call is tracked.
                    keep = grad_on and (wants_history or any(t.requires_grad for _, t in pairs))
                    jvps = autograd_grad(inner, dummies, create_graph=keep, allow_unused=True)
                else:
                    jvps = [None] * len(dummies)
            except RuntimeError as error:
                raise NoForwardRule(
                    f"Trying to use forward AD with {name} that does not support it because it "
                    f"has not been implemented yet. ({error})"
                ) from error
            for i, j in zip(live, jvps):
                tangents[i] = _C.zeros_like(outs[i]) if j is None else j
    if not wants_history:
        # The inputs were only made to require grad here: what the caller sees has no history.
        outs = [o.detach() if isinstance(o, _C.Tensor) and o.requires_grad else o for o in outs]
        if isinstance(out, _C.Tensor):
            out = outs[0]
        elif isinstance(out, list):
            out = outs
        elif isinstance(out, tuple):
            out = type(out)(*outs) if hasattr(out, "_fields") else tuple(outs)
    if not grad_on:
        tangents = [t.detach() if t is not None else None for t in tangents]
    return out, (tangents if isinstance(out, (tuple, list)) else tangents[0])
