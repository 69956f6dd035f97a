"""PyTorch's grad_fn names for ops engine builds from other ops.

engine writes many operators (losses, activations, normalisations, ...) as compositions of native
ops; the last node of such a composition would show the last primitive's name (a loss would print
``grad_fn=<DivBackward0>``). PyTorch runs them as single operators, so its output shows the
operator's node (``grad_fn=<NllLossBackward0>``): scripts print that, and code checks
``type(y.grad_fn).__name__``. ``named_grad_fn`` gives the composition's last node PyTorch's name;
the node still computes the composition's gradient."""

import functools

from engine import _C, _transforms


def name_grad_fn(out, name, inputs=(), shown=None, only_shown=False):
    """Shows ``out``'s grad_fn as ``name`` and returns ``out``; of a tuple of outputs, the first
    one's (sort's values: the rest are integer indices). Nothing is renamed when ``out`` is one of
    ``inputs`` (an op that returned its input built no node of its own). ``shown`` maps saved
    attribute names to the values the node shows for them (``{"dim": -1}``: the arguments as the
    caller gave them, as PyTorch's node keeps them); with ``only_shown`` they are all the node
    shows (the last primitive's own saved tensors and values are hidden)."""
    if name is None or _transforms._open:
        return out  # inside a transform the result is a wrapper; names are for the plain graph
    first = out[0] if isinstance(out, tuple) and out else out
    if not isinstance(first, _C.Tensor) or not first.requires_grad:
        return out
    for t in inputs:
        if t is first:
            return out
    _C._name_grad_fn(first, name)
    if shown:
        for key, value in shown.items():
            _C._show_saved(first, key, value)
        if only_shown:
            _C._show_saved_only(first)
    return out


def name_each(outs, name, inputs=()):
    """``name_grad_fn`` on each tensor of a tuple (the outputs of split, chunk, unbind)."""
    for t in outs:
        name_grad_fn(t, name, inputs)
    return outs


def named_grad_fn(name):
    """Decorator: the tensor the function returns (the first one of a tuple) has its grad_fn
    shown as ``name``. ``name`` may be a callable of the call's arguments returning the name, or
    None to leave the node as it is."""

    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            out = fn(*args, **kwargs)
            inputs = (*args, *kwargs.values()) if kwargs else args  # F.f(input=x, ...) too
            return name_grad_fn(out, name(*args, **kwargs) if callable(name) else name, inputs)

        return inner

    return wrap


def arg(args, kwargs, position, name, default=None):
    """The argument at ``position`` or keyword ``name`` of a call (for names that depend on it)."""
    if len(args) > position:
        return args[position]
    return kwargs.get(name, default)
