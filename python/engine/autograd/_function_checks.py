"""Checked mode for custom Functions: ``engine.autograd.set_function_checks(True)``.

A wrong ``backward`` fails silently: training just goes worse. In checked mode, the first call of
each custom ``Function`` class that records a graph (grad mode on, a floating-point input that
requires grad) is followed by a gradient check on float64 copies of that call's inputs: the
outputs are weighted by fixed random numbers and summed, ``backward`` gives the gradient of that
sum with respect to each input that required grad, and central finite differences recompute it
for every element (for at most ``MAX_ELEMENTS`` of them, spread over the input, when an input is
larger). Where they disagree, a ``FunctionCheckWarning`` names the class, the input and the worst
element. The call itself, its result and its graph are untouched.

Switching on and off replaces ``Function.apply`` (the class attribute every subclass inherits),
so unchecked code runs the native entry point directly, without a test per call. A class's own
``apply`` bound before the switch (``f = MyFn.apply``) keeps the entry point it was bound to;
``ENGINE_CHECK_FUNCTIONS=1`` in the environment switches checks on when engine is imported.

engine's own Functions (module ``engine.*``) are not checked. A Function whose backward is
deliberately not the derivative (a straight-through estimator) will be reported: silence it with
``warnings.filterwarnings("ignore", category=FunctionCheckWarning, message="MyQuantizer")``.
"""

import os
import warnings
import weakref
from _thread import _local

from engine import _C
from engine.autograd import function as _function

__all__ = ["FunctionCheckWarning", "is_function_checks_enabled", "set_function_checks"]

# Inputs with at most this many elements are checked at every element; larger ones at this many.
MAX_ELEMENTS = 64
# float64 steps and tolerances (those of gradcheck); looser ones when the forward computes in a
# lower precision whatever its inputs (finite differences are then only rough).
EPS, ATOL, RTOL = 1e-6, 1e-5, 1e-3
LOW_PRECISION_EPS, LOW_PRECISION_ATOL, LOW_PRECISION_RTOL = 1e-3, 1e-2, 1e-2


class FunctionCheckWarning(UserWarning):
    """Checked mode found a custom Function whose ``backward`` disagrees with finite
    differences, or could not check it."""


_native_apply = _function.Function.__dict__["apply"]
_checked = weakref.WeakSet()  # classes already checked (or found uncheckable)
_state = _local()  # per thread: set while a check runs, so Functions it calls are not checked


def set_function_checks(mode):
    """Switches checked mode on (``True``) or off (``False``): each custom Function class is
    gradient-checked on its first call that records a graph, and a ``FunctionCheckWarning``
    reports a ``backward`` that disagrees with finite differences.

    Example::

        engine.autograd.set_function_checks(True)
        y = MyFn.apply(x)      # checked here, once for MyFn
    """
    _function.Function.apply = classmethod(_checked_apply) if mode else _native_apply


def is_function_checks_enabled():
    """True while checked mode is on (see ``set_function_checks``)."""
    return _function.Function.__dict__["apply"] is not _native_apply


def _checked_apply(cls, *args, **kwargs):
    out = _C._function_apply(cls, *args, **kwargs)
    if (
        cls not in _checked
        and not getattr(_state, "busy", False)
        and _C.is_grad_enabled()
        and not cls.__module__.startswith("engine.")
        and any(_differentiable(a) for a in args)
    ):
        _checked.add(cls)
        _state.busy = True
        try:
            message = _check(cls, args, kwargs)
        except Exception as e:  # the check must never break the user's call
            message = (
                f"{cls.__name__} could not be checked against finite differences: "
                f"{type(e).__name__}: {e}"
            )
        finally:
            _state.busy = False
        if message:
            warnings.warn(message, FunctionCheckWarning, stacklevel=2)
    return out


def _differentiable(a):
    return _C.is_tensor(a) and a.requires_grad and a.is_floating_point()


def _as_float64(a):
    if _C.is_tensor(a):
        a = a.detach()
        return a.to(_C.float64).contiguous() if a.is_floating_point() else a.clone()
    return a


def _fresh(a):
    return a.clone() if _C.is_tensor(a) else a


def _input_names(cls):
    """The names of forward's inputs (after ``ctx``, where forward takes one), for messages."""
    code = getattr(cls.forward, "__code__", None)
    if code is None:
        return ()
    names = code.co_varnames[: code.co_argcount]
    takes_ctx = _function._not_overridden(cls, "setup_context") or (names[:1] == ("ctx",))
    return names[1:] if takes_ctx and names else names


def _outputs(out):
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return [o for o in outs if _C.is_tensor(o) and o.is_floating_point()]


def _check(cls, args, kwargs):
    """Returns the warning's text when backward disagrees with finite differences, else None."""
    import numpy as np  # only here: checked mode is opt-in, and NumPy is slow to import

    from engine.autograd import grad
    from engine.autograd.grad_mode import enable_grad, no_grad

    base = [_as_float64(a) for a in args]
    kw = {k: _as_float64(v) for k, v in kwargs.items()}
    checked = [i for i, a in enumerate(args) if _differentiable(a)]

    with enable_grad():
        leaves = {i: base[i].clone().requires_grad_(True) for i in checked}
        call = [leaves[i].clone() if i in leaves else _fresh(a) for i, a in enumerate(base)]
        outs = [o for o in _outputs(_C._function_apply(cls, *call, **kw)) if o.requires_grad]
        if not outs:
            return None
        rng = np.random.default_rng(0)
        weights = [_C.tensor(rng.uniform(0.5, 1.5, tuple(o.shape)), dtype=o.dtype) for o in outs]
        total = sum((o * w).sum() for o, w in zip(outs, weights))
        grads = grad(total, [leaves[i] for i in checked], allow_unused=True)

    precise = all(o.dtype == _C.float64 for o in outs)
    eps, atol, rtol = (
        (EPS, ATOL, RTOL)
        if precise
        else (LOW_PRECISION_EPS, LOW_PRECISION_ATOL, LOW_PRECISION_RTOL)
    )

    def weighted_sum(i, flat_index, delta):
        call = [_fresh(a) for a in base]
        moved = base[i].reshape(-1).clone()
        moved[flat_index] += delta
        call[i] = moved.reshape(base[i].shape)
        with no_grad():
            values = _outputs(
                _C._function_apply(cls, *call, **{k: _fresh(v) for k, v in kw.items()})
            )
        return sum(float((v.to(w.dtype) * w).sum()) for v, w in zip(values, weights))

    names = _input_names(cls)
    problems = []
    for i, g in zip(checked, grads):
        n = base[i].numel()
        if n == 0:
            continue
        if n <= MAX_ELEMENTS:
            picks = np.arange(n)
        else:
            picks = np.unique(np.linspace(0, n - 1, MAX_ELEMENTS).round().astype(np.int64))
        analytic = (
            np.zeros(n)
            if g is None
            else np.asarray(g.detach().reshape(-1).tolist(), dtype=np.float64)
        )
        analytic = analytic[picks]
        numeric = np.array(
            [
                (weighted_sum(i, int(k), eps) - weighted_sum(i, int(k), -eps)) / (2 * eps)
                for k in picks
            ]
        )
        with np.errstate(invalid="ignore"):
            excess = np.abs(analytic - numeric) / (atol + rtol * np.abs(numeric))
        excess = np.where(np.isnan(excess), np.inf, excess)
        worst = int(np.argmax(excess))
        if excess[worst] > 1:
            index = tuple(int(j) for j in np.unravel_index(int(picks[worst]), tuple(base[i].shape)))
            name = f" ({names[i]!r})" if i < len(names) else ""
            sampled = "" if len(picks) == n else f" (a sample of its {n})"
            problems.append(
                f"input {i}{name}, shape {tuple(base[i].shape)}: at index {index} backward gives "
                f"{analytic[worst]:.6g}, finite differences give {numeric[worst]:.6g} "
                f"({int((excess > 1).sum())} of the {len(picks)} elements checked{sampled} "
                "disagree)"
            )
    if not problems:
        return None
    return (
        f"{cls.__name__}.backward disagrees with finite differences (checked on float64 copies "
        f"of its first call's inputs, outputs weighted at random): " + "; ".join(problems)
    )


if os.environ.get("ENGINE_CHECK_FUNCTIONS", "") not in ("", "0"):
    set_function_checks(True)
