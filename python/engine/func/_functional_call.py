"""``functional_call``: call an ``nn.Module`` with some parameters and buffers replaced.

The given tensors are swapped into the module's registries for the duration of one call and the
originals put back afterwards (also when the call raises). Because the module then computes with
exactly the tensors it was handed, gradients flow to them: this is how ``engine.func.grad`` takes
gradients with respect to a model's parameters.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from engine import _C

__all__ = ["functional_call", "stack_module_state"]

_MISSING = object()


def _swap(module: Any, dotted: str, value: Any) -> Any:
    """Puts ``value`` at ``dotted`` (``_MISSING`` removes it); returns what was there."""
    path, _, name = dotted.rpartition(".")
    owner = module.get_submodule(path)
    if value is not _MISSING and value is not None and not isinstance(value, _C.Tensor):
        raise TypeError(f"{value} is not an instance of torch.Tensor")
    for registry in (owner._parameters, owner._buffers):
        if name in registry:
            old = registry[name]
            if value is _MISSING:
                del registry[name]
            else:
                registry[name] = value
            return old
    old = getattr(owner, name, _MISSING)
    if old is not _MISSING and old is not None and not isinstance(old, _C.Tensor):
        raise TypeError(f"attribute `{name}`: {old} is not an instance of torch.Tensor")
    if value is not _MISSING:
        object.__setattr__(owner, name, value)
    elif old is not _MISSING:
        object.__delattr__(owner, name)
    return old


def _named_tensors(module: Any) -> dict[str, Any]:
    named = dict(module.named_parameters(remove_duplicate=False))
    named.update(module.named_buffers(remove_duplicate=False))
    return named


def _untie(module: Any, given: dict[str, Any]) -> dict[str, Any]:
    """``given`` extended so that every name tied to a given name receives the same value."""
    names_of: dict[int, set[str]] = {}
    for name, tensor in _named_tensors(module).items():
        names_of.setdefault(id(tensor), set()).add(name)
    tied = {n: names for names in names_of.values() if len(names) > 1 for n in names}
    given_tied = [n for n in given if n in tied]
    for name in given_tied:
        group = tied[name]
        values = {id(given[n]) for n in group if n in given}
        if len(values) > 1:
            raise ValueError(
                f"functional_call got multiple values for keys {sorted(group)}, which are tied. "
                "Consider using tie_weights=False"
            )
    result = dict(given)
    for name in given_tied:
        for other in tied[name]:
            result[other] = given[name]
    return result


def _check_keys(module: Any, given: dict[str, Any]) -> None:
    expected = set(_named_tensors(module))
    unexpected = sorted(set(given) - expected)
    missing = sorted(expected - set(given))
    messages = []
    if unexpected:
        messages.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
    if missing:
        messages.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
    if messages:
        raise RuntimeError(
            f"Error(s) in reparametrizing for {module._get_name()}:\n\t" + "\n\t".join(messages)
        )


@contextlib.contextmanager
def _reparametrized(module, tensors, tie_weights, strict):
    if tie_weights:
        tensors_in = _untie(module, tensors)
    else:
        tensors_in = tensors
    if strict:
        _check_keys(module, tensors_in)
    originals: dict[str, Any] = {}
    try:
        for name, value in tensors_in.items():
            originals[name] = _swap(module, name, value)
        yield
    finally:
        current = {}
        for name, old in reversed(list(originals.items())):
            current[name] = _swap(module, name, old)
        # In-place updates the module made (a buffer replaced by `self.x = ...`) reach the caller's
        # dict, as in PyTorch.
        for name in tensors:
            if name in current and current[name] is not _MISSING:
                tensors[name] = current[name]


def _merge_dicts(dicts: Any) -> dict[str, Any]:
    if isinstance(dicts, dict):
        return dicts
    if isinstance(dicts, Sequence) and not isinstance(dicts, str):
        if not all(isinstance(d, dict) for d in dicts):
            raise ValueError(
                "Expected all elements of parameter_and_buffer_dicts to be dictionaries"
            )
        counts: dict[str, int] = {}
        for d in dicts:
            for key in d:
                counts[key] = counts.get(key, 0) + 1
        repeated = [key for key, n in counts.items() if n > 1]
        if repeated:
            raise ValueError(
                f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
                "ambiguous"
            )
        return {k: v for d in dicts for k, v in d.items()}
    raise ValueError(
        "Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
        f"{type(dicts)}"
    )


def _call(module, tensors, args, kwargs, tie_weights, strict):
    from engine.nn import Module

    if not isinstance(module, Module):
        # PyTorch fails on the missing attribute: the same exception type, a clearer message.
        raise AttributeError(
            f"functional_call(): '{type(module).__name__}' object has no attribute "
            "'named_parameters' (expected an nn.Module)"
        )
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _reparametrized(module, tensors, tie_weights, strict):
        return module(*args, **kwargs)


def functional_call(
    module: Any,
    parameter_and_buffer_dicts: Any,
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """Calls ``module(*args, **kwargs)`` with its parameters and buffers replaced by the tensors
    in ``parameter_and_buffer_dicts`` (a dict of dotted names, or a sequence of dicts with
    distinct keys) for this call only (``torch.func.functional_call``).

    ``args`` that is not a tuple is the single positional argument. With ``tie_weights`` (the
    default) names tied in the module (one tensor reachable under two names) all take the given
    value; with ``strict`` the names must be exactly the module's parameters and buffers.

    Example::

        >>> model = engine.nn.Linear(2, 1)
        >>> params = {"weight": engine.tensor([[1.0, 2.0]]), "bias": engine.tensor([0.5])}
        >>> engine.func.functional_call(model, params, engine.tensor([3.0, 4.0]))
        tensor([11.5000])
        >>> engine.func.grad(
        ...     lambda p, x: engine.func.functional_call(model, p, x).sum()
        ... )(params, engine.tensor([3.0, 4.0]))["weight"]
        tensor([[3., 4.]])
    """
    tensors = _merge_dicts(parameter_and_buffer_dicts)
    return _call(module, tensors, args, kwargs, tie_weights, strict)


def _stacked_leaf(tensors: tuple, name: str) -> Any:
    requires = [t.requires_grad for t in tensors]
    if any(requires) and not all(requires):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    stacked = _C.stack(list(tensors))
    # A new leaf: the stacked parameters are what an optimizer of the ensemble updates.
    return stacked.detach().requires_grad_() if all(requires) else stacked


def stack_module_state(models: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Stacks the parameters and buffers of same-class ``models`` along a new first dimension
    (``torch.func.stack_module_state``): ``(params, buffers)`` for ``vmap`` over an ensemble."""
    models = list(models)
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or not any(m.training for m in models)):
        raise RuntimeError(
            "stack_module_state: Expected all models to have the same training/eval mode."
        )
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    params = [dict(m.named_parameters()) for m in models]
    buffers = [dict(m.named_buffers()) for m in models]
    return (
        {k: _stacked_leaf(tuple(p[k] for p in params), k) for k in params[0]},
        {k: _stacked_leaf(tuple(b[k] for b in buffers), k) for k in buffers[0]},
    )
