"""One open forward-mode AD level: the interpreter that carries tangents through native calls.

A *dual tensor* is an ordinary ``engine.Tensor`` marked (``_C._set_transform_state``) with a
:class:`DualState` holding its level and tangent. Marks stack: a tensor that is dual at two levels,
or batched by ``vmap`` and dual, keeps the lower level's mark in ``state.inner``. The native module
sends every call on a marked tensor to :meth:`ForwardLevel.process`, which

1. swaps this level's marks off its arguments (they show their ``inner`` mark meanwhile, so the
   call and the tangent rule's own operations reach lower levels only),
2. runs the operation and its rule from :mod:`engine.autograd._jvp_rules` (in-place operations
   through their out-of-place counterpart, on a copy of the overwritten value where the rule
   reads it),
3. puts the marks back and marks the results with their tangents.

The primal of a dual tensor is the tensor itself: operations on it keep their autograd history,
in-place operations write through, and ``autograd.grad`` with respect to it works.
"""

from __future__ import annotations

from engine import _C, _transforms
from engine.autograd import _jvp_rules as rules

_FLOATING = rules._FLOATING
_NAMES: dict = {}  # native function -> (its table name, its out-of-place name or None)


def _enable_grad():
    from engine.autograd.grad_mode import enable_grad

    return enable_grad()


class DualState:
    """The mark of a dual tensor: its level, tangent, and the mark of the level below (if any)."""

    __slots__ = ("level", "tangent", "inner")

    def __init__(self, level: int, tangent, inner) -> None:
        self.level = level
        self.tangent = tangent
        self.inner = inner

    def on_level_closed(self, tensor) -> None:
        """The level was exited: the tensor is no longer dual there (PyTorch drops its tangent)."""
        if _C._transform_state(tensor) is self:
            _C._set_transform_state(tensor, self.inner)


def state_at(tensor, level: int):
    """The DualState of ``tensor`` at ``level`` (None if it has no tangent there)."""
    state = _C._transform_state(tensor) if isinstance(tensor, _C.Tensor) else None
    while state is not None:
        if getattr(state, "level", None) == level and isinstance(state, DualState):
            return state
        state = getattr(state, "inner", None)
    return None


def _each_tensor(args, kwargs):
    for value in (*args, *kwargs.values()):
        if isinstance(value, _C.Tensor):
            yield value
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, _C.Tensor):
                    yield item


def _size_message(primal, tangent) -> str:
    return (
        "Trying to set a forward gradient that has a different size than that of the original "
        "Tensor, this is not supported. Tensor is of size "
        f"{list(primal.shape)} while the given forward gradient is of size {list(tangent.shape)}."
    )


class ForwardLevel(_transforms.Interpreter):
    """An open forward-AD level (``dual_level`` or one ``engine.func.jvp`` call)."""

    def __init__(self, transform: bool = False) -> None:
        # Opened by engine.func.jvp (a function transform, with functorch's rules for custom
        # Functions) rather than by dual_level or gradcheck.
        self.transform = transform
        self.functorch = transform
        self.sources: list = []  # (tensor, DualState) of every make_dual at this level

    # ---- marks ----

    def take(self, args, kwargs):
        """Swaps this level's marks off the tensors among the arguments; returns them."""
        taken = []
        seen = set()
        for value in _each_tensor(args, kwargs):
            state = _C._transform_state(value)
            if isinstance(state, DualState) and state.level == self.level and id(value) not in seen:
                seen.add(id(value))
                taken.append((value, state))
                _C._set_transform_state(value, state.inner)
        return taken

    @staticmethod
    def give_back(taken) -> None:
        """Puts the marks back (keeping what lower levels marked meanwhile as their inner)."""
        for value, state in taken:
            state.inner = _C._transform_state(value)
            _C._set_transform_state(value, state)

    def set_tangent(self, tensor, tangent, in_place: bool = False) -> None:
        """Makes ``tensor`` dual at this level with ``tangent`` (or updates its tangent).

        An in-place operation updates an existing tangent in place, as PyTorch does, so views
        of the tensor (whose tangents are views of this one) see the change."""
        if tangent is None:
            return
        dtype = tensor.dtype
        if dtype not in _FLOATING:
            return
        shape = tensor.shape
        if tangent.shape != shape:
            try:
                tangent = tangent.expand(shape)
            except RuntimeError:
                raise RuntimeError(_size_message(tensor, tangent)) from None
        if tangent.dtype != dtype:
            tangent = tangent.to(dtype)
        # An expanded tangent (a broadcast, stride 0) could not take in-place updates.
        expanded = 0 in tangent.stride()
        state = _C._transform_state(tensor)
        if state.__class__ is DualState and state.level == self.level:
            old = state.tangent
            if in_place and old is not None and old is not tangent and 0 not in old.stride():
                old.copy_(tangent)
            else:
                state.tangent = tangent.clone() if expanded else tangent
            return
        if expanded:
            tangent = tangent.clone()
        if in_place and self._write_through_base(tensor, tangent):
            return
        _C._set_transform_state(tensor, DualState(self.level, tangent, state))

    def _write_through_base(self, view, tangent) -> bool:
        """An in-place write of a tangent into a view of a tensor without one makes the base
        dual too (zeros elsewhere), as PyTorch does: the view's tangent is the same strided
        window into the base's tangent as the view is into the base, so later in-place writes
        to either reach the other. False where the base is not a contiguous floating tensor
        (the view alone becomes dual)."""
        base = view._base
        if base is None or state_at(base, self.level) is not None:
            return False
        if base.dtype not in _FLOATING or not base.is_contiguous():
            return False
        base_tangent = _C.zeros_like(base).contiguous()
        offset = (view.data_ptr() - base.data_ptr()) // view.element_size()
        view_tangent = base_tangent.as_strided(tuple(view.shape), tuple(view.stride()), offset)
        view_tangent.copy_(tangent)
        _C._set_transform_state(
            base, DualState(self.level, base_tangent, _C._transform_state(base))
        )
        _C._set_transform_state(
            view, DualState(self.level, view_tangent, _C._transform_state(view))
        )
        return True

    # ---- the interpreter ----

    def process(self, func, args, kwargs):
        known = _NAMES.get(func)
        if known is None:
            name = rules.name_of(func)
            known = _NAMES[func] = (name, rules.out_of_place_name(name))
        name, base = known
        if name == "_function_apply":
            from engine.autograd._custom_function_jvp import apply_with_jvp

            return apply_with_jvp(self, func, args, kwargs)
        if name == "_run_backward":
            return self._backward(func, args, kwargs)
        if name in ("_inplace_apply", "_restride_"):
            return self._apply_in_place(name, func, args, kwargs)
        if kwargs.get("out") is not None:
            # PyTorch defines no tangent for out= variants, whichever side the dual is on.
            raise NotImplementedError(
                f"Trying to use forward AD with {name}_out that does not support it because it "
                "is an out= function"
            )
        taken = self.take(args, kwargs)
        tangents = {id(value): state.tangent for value, state in taken}

        def tangent_of(value):
            return tangents.get(id(value)) if isinstance(value, _C.Tensor) else None

        try:
            if base is None:
                out, out_tangents = self._run(name, func, args, kwargs, tangent_of)
            else:
                out, new_tangent = self._run_in_place(name, base, func, args, kwargs, tangent_of)
        finally:
            self.give_back(taken)
        if base is not None:
            if new_tangent is not None and isinstance(args[0], _C.Tensor):
                self.set_tangent(args[0], new_tangent, in_place=True)
            elif name in ("detach_",):
                state = state_at(args[0], self.level)
                if state is not None:
                    state.on_level_closed(args[0])
            return out
        self._mark(out, out_tangents)
        return out

    def run_generic(self, func, args, kwargs, name):
        """Runs ``func`` with the generic (double-vjp) rule and marks its results."""
        taken = self.take(args, kwargs)
        tangents = {id(value): state.tangent for value, state in taken}

        def tangent_of(value):
            return tangents.get(id(value)) if isinstance(value, _C.Tensor) else None

        try:
            out, out_tangents = rules.generic(func, args, kwargs, tangent_of, name)
        finally:
            self.give_back(taken)
        self._mark(out, out_tangents)
        return out

    def _run(self, name, func, args, kwargs, tangent_of):
        rule = rules.RULES.get(name)
        if rule is None:
            if name in rules.NO_TANGENT or name.startswith("is_"):
                return func(*args, **kwargs), None
            return rules.generic(func, args, kwargs, tangent_of, name)
        out = func(*args, **kwargs)
        if not _has_floating(out):
            return out, None
        result = rule(func, args, kwargs, out, tangent_of)
        if result is rules._GENERIC_SENTINEL:
            return rules.generic(func, args, kwargs, tangent_of, name)
        return out, result

    def _run_in_place(self, name, base, func, args, kwargs, tangent_of):
        """An in-place call: runs it, and returns the written tensor's new tangent."""
        self_ = args[0]
        if name in rules.NO_TANGENT:
            return func(*args, **kwargs), None
        if not isinstance(self_, _C.Tensor) or self_.dtype not in _FLOATING:
            return func(*args, **kwargs), None
        if name == "__setitem__":
            return self._set_item(func, args, tangent_of)
        if name == "copy_":
            out = func(*args, **kwargs)
            src = args[1] if len(args) > 1 else kwargs.get("src")
            t = tangent_of(src)
            if t is None:
                return out, (_C.zeros_like(self_) if tangent_of(self_) is not None else None)
            return out, t.to(self_.dtype).expand(self_.shape).clone()
        own_rule = rules.RULES.get(name)
        if own_rule is rules.ZERO:
            return func(*args, **kwargs), _C.zeros_like(self_)
        if own_rule is not None or base == "":
            # No out-of-place counterpart (fill_): the rule runs the in-place call on a scratch
            # copy of the tangent.
            if own_rule is None:  # refused before anything is written
                raise RuntimeError(
                    f"Trying to use forward AD with {name} that does not support it because it "
                    "has not been implemented yet."
                )
            out = func(*args, **kwargs)
            t = tangent_of(self_)
            scratch = _C.zeros_like(self_) if t is None else t.clone()
            return out, own_rule(func, (scratch, *args[1:]), kwargs, out, tangent_of)
        rule = rules.RULES.get(base)
        base_func = getattr(_C.Tensor, base)
        # Rules that read the primal need the value before it is overwritten.
        old = self_.clone() if rule is None or rule in _READS_PRIMAL else self_

        def tangent_of_old(value):
            return tangent_of(self_) if value is old else tangent_of(value)

        out = func(*args, **kwargs)
        call = (old, *args[1:])
        new = None if rule is None else rule(base_func, call, kwargs, out, tangent_of_old)
        if rule is None or new is rules._GENERIC_SENTINEL:
            _, new = rules.generic(base_func, call, kwargs, tangent_of_old, name)
        if new is None and tangent_of(self_) is not None:
            new = _C.zeros_like(self_)  # overwritten by a value with no derivative (eq_, sign_)
        return out, new

    def _backward(self, func, args, kwargs):
        """``autograd.grad`` on dual tensors (forward-over-reverse): the gradients' tangents.

        With the backward pass recorded, the gradients ``g`` are a function of this level's
        *sources* (the tensors ``make_dual`` made, through the graph) and of the incoming
        gradients; their tangent is that function's jvp along the sources' tangents, by the
        double-vjp rule. A dual input or incoming gradient that does not require grad adds its
        own tangent. (A tangent that reaches ``g`` only through a source that does not require
        grad is not seen: ``engine.func.jvp`` makes its sources require grad.)"""
        names = ("outputs", "grad_outputs", "keep_graph", "create_graph", "inputs")
        names += ("allow_unused", "accumulate")
        call = dict(zip(names, args))
        call.update(kwargs)
        if call["accumulate"] or not call["inputs"]:
            taken = self.take(args, kwargs)
            try:
                return func(*args, **kwargs)
            finally:
                self.give_back(taken)
        # The sources lose their marks too while the gradients are differentiated here.
        taken = self.take((*args, [source for source, _ in self.sources]), kwargs)
        tangents = {id(value): state.tangent for value, state in taken}
        try:
            from engine.autograd import grad as autograd_grad

            sources = [(x, state.tangent) for x, state in self.sources if x.requires_grad]
            seen = {id(x) for x, _ in sources}
            for x in (*call["inputs"], *call["grad_outputs"]):
                if isinstance(x, _C.Tensor) and id(x) in tangents and id(x) not in seen:
                    if not x.requires_grad:
                        sources.append((x, tangents[id(x)]))
                        seen.add(id(x))
            rules.refuse_batched("autograd.grad", [t for _, t in sources])
            with _enable_grad():
                grads = func(
                    call["outputs"],
                    call["grad_outputs"],
                    True,
                    True,
                    call["inputs"],
                    call["allow_unused"],
                    False,
                )
                live = [k for k, g in enumerate(grads) if g is not None and g.requires_grad]
                new_tangents = {}
                if live and sources:
                    dummies = [_C.zeros_like(grads[k]).requires_grad_() for k in live]
                    vjps = autograd_grad(
                        [grads[k] for k in live],
                        [x for x, _ in sources],
                        dummies,
                        create_graph=True,
                        allow_unused=True,
                    )
                    inner = None
                    for v, (_, t) in zip(vjps, sources):
                        if v is not None:
                            term = (v * t).sum()
                            inner = term if inner is None else inner + term
                    if inner is not None and inner.requires_grad:
                        jvps = autograd_grad(
                            inner, dummies, create_graph=call["create_graph"], allow_unused=True
                        )
                        new_tangents = {k: j for k, j in zip(live, jvps) if j is not None}
        finally:
            self.give_back(taken)
        grads = list(grads)
        for k, g in enumerate(grads):
            if g is None:
                continue
            if not call["create_graph"] and g.requires_grad:
                grads[k] = g = g.detach()
            self.set_tangent(g, new_tangents.get(k, _C.zeros_like(g)))
        return type(grads)(grads) if not isinstance(grads, list) else grads

    def _apply_in_place(self, name, func, args, kwargs):
        """``self = fn(self)`` in place (``_inplace_apply``: the generic in-place methods) or as
        a new view of itself (``_restride_``: ``t_``, ``squeeze_``...): the new tangent is that
        of ``fn`` on a dual copy (on ``self`` itself for a view), computed first."""
        self_, fn = args[0], args[1]
        if not isinstance(self_, _C.Tensor) or self_.dtype not in _FLOATING:
            return func(*args, **kwargs)
        probe = fn(self_.clone() if name == "_inplace_apply" else self_)
        state = state_at(probe, self.level) if isinstance(probe, _C.Tensor) else None
        taken = self.take(args, kwargs)
        try:
            out = func(*args, **kwargs)
        finally:
            self.give_back(taken)
        tangent = None if state is None else state.tangent
        if name == "_restride_":
            own = state_at(self_, self.level)
            if own is not None and tangent is not None:
                own.tangent = tangent  # the tangent takes the same new geometry
            return out
        if tangent is None and state_at(self_, self.level) is not None:
            tangent = _C.zeros_like(self_)
        if tangent is not None:
            self.set_tangent(self_, tangent, in_place=True)
        return out

    def _set_item(self, func, args, tangent_of):
        self_, index, value = args[0], args[1], args[2]
        t_self, t_value = tangent_of(self_), tangent_of(value)
        func(*args)
        if t_self is None and t_value is None:
            return None, None
        new = _C.zeros_like(self_) if t_self is None else t_self.clone()
        if t_value is not None:
            new[index] = t_value
        else:
            new[index] = 0.0
        return None, new

    def _mark(self, out, tangents) -> None:
        if tangents is None:
            return
        if isinstance(out, _C.Tensor):
            if not isinstance(tangents, _C.Tensor):
                return
            self.set_tangent(out, tangents)
            return
        if isinstance(out, (tuple, list)):
            for o, t in zip(out, tangents):
                if isinstance(o, _C.Tensor) and isinstance(t, _C.Tensor):
                    self.set_tangent(o, t)


_READS_PRIMAL = frozenset(
    [rules.bilinear, rules._quotient, rules._reverse_quotient, rules._power, rules._scatter]
    + [rules.RULES[name] for name in rules._UNARY]
)


def _has_floating(out) -> bool:
    if isinstance(out, _C.Tensor):
        return out.dtype in _FLOATING
    if isinstance(out, (tuple, list)):
        return any(isinstance(o, _C.Tensor) and o.dtype in _FLOATING for o in out)
    return False
