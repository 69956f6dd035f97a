"""Reverse-mode automatic differentiation: backward, grad, custom Functions, grad modes, checks."""

import engine as torch  # noqa: F401  (PyTorch's autograd module exposes its package as `torch`)
from engine import _C
from engine.autograd import _legacy_hooks, function, graph  # noqa: F401
from engine.autograd._function_checks import FunctionCheckWarning, set_function_checks  # noqa: F401
from engine.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly
from engine.autograd.function import Function, once_differentiable
from engine.autograd.grad_mode import (  # noqa: F401
    _unsafe_preserve_version_counter,
    enable_grad,
    inference_mode,
    is_inference_mode_enabled,
    is_multithreading_enabled,
    no_grad,
    set_grad_enabled,
    set_multithreading_enabled,
)
from engine.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck
from engine.autograd.variable import Variable

# The type of a node's saved tensors (`grad_fn._raw_saved_self`); only nodes make them.
SavedTensor = _C.SavedTensor

__all__ = [
    "Function",
    "GradcheckError",
    "Variable",
    "backward",
    "detect_anomaly",
    "enable_grad",
    "function",
    "grad",
    "graph",
    "gradcheck",
    "gradgradcheck",
    "inference_mode",
    "is_inference_mode_enabled",
    "is_multithreading_enabled",
    "no_grad",
    "once_differentiable",
    "set_detect_anomaly",
    "set_grad_enabled",
    "set_multithreading_enabled",
]


def _as_tuple(x):
    if x is None:
        return None
    if _C.is_tensor(x) or isinstance(x, graph.GradientEdge):
        return (x,)
    return tuple(x)


def _grad_list(grads, n, what):
    if grads is None:
        return [None] * n
    grads = list(_as_tuple(grads))
    if len(grads) != n:
        raise RuntimeError(f"{what} should be a sequence of length {n}, but got {len(grads)}")
    for g in grads:
        if g is not None and not _C.is_tensor(g):
            # PyTorch's words (torch.autograd's _make_grads).
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    return grads


def backward(
    tensors,
    grad_tensors=None,
    retain_graph=None,
    create_graph=False,
    grad_variables=None,
    inputs=None,
):
    """Accumulates the gradient of ``tensors`` into the leaves' ``.grad``
    (``torch.autograd.backward``); ``grad_variables`` is the deprecated name of ``grad_tensors``."""
    if grad_variables is not None:
        import warnings

        warnings.warn(
            "`grad_variables` is deprecated. Use `grad_tensors` instead.",
            FutureWarning,
            stacklevel=2,
        )
        if grad_tensors is not None:
            raise RuntimeError(
                "`grad_tensors` and `grad_variables` (deprecated) arguments both passed to "
                "`backward()`. Please only use `grad_tensors`."
            )
        grad_tensors = grad_variables
    tensors = _as_tuple(tensors)
    grads = _grad_list(grad_tensors, len(tensors), "grad_tensors")
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        import warnings

        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the "
            "parameter and its "
            "gradient which can cause a memory leak. We recommend using autograd.grad when "
            "creating the graph to "
            "avoid this. If you have to use this function, make sure to reset the .grad fields of "
            "your parameters "
            "to None after use to break the cycle and avoid the leak.",
            UserWarning,
            stacklevel=2,
        )
    if inputs is not None:
        inputs = list(_as_tuple(inputs))
        if not inputs:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    _C._run_backward(
        list(tensors), grads, retain_graph, create_graph, inputs or [], True, bool(inputs)
    )


def grad(
    outputs,
    inputs,
    grad_outputs=None,
    retain_graph=None,
    create_graph=False,
    only_inputs=True,
    allow_unused=None,
    is_grads_batched=False,
    materialize_grads=False,
):
    """Returns the gradients of ``outputs`` w.r.t. ``inputs`` without touching ``.grad``.

    ``only_inputs`` is accepted and ignored, as in PyTorch (which deprecated it: use
    :func:`backward` to accumulate into other leaves)."""
    outputs = _as_tuple(outputs)
    inputs = tuple(inputs.values()) if type(inputs) is dict else _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grads = _grad_list(grad_outputs, len(outputs), "grad_outputs")
    if retain_graph is None:
        retain_graph = create_graph
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, "
            "but got: allow_unused=False."
        )
    if allow_unused is None:
        allow_unused = materialize_grads
    if is_grads_batched:
        from engine.autograd._batched_grad import batched_grad

        return batched_grad(
            grad,
            outputs,
            inputs,
            grads,
            retain_graph,
            create_graph,
            allow_unused=allow_unused,
            materialize_grads=materialize_grads,
        )
    result = _C._run_backward(
        list(outputs), grads, retain_graph, create_graph, list(inputs), allow_unused, False
    )
    if materialize_grads:
        if any(r is None and not _C.is_tensor(i) for r, i in zip(result, inputs)):
            raise RuntimeError(
                "materialize_grads cannot be used when the given input is a GradientEdge"
            )
        # With create_graph the zeros take part in the next derivative, as in PyTorch.
        result = tuple(
            _C.zeros_like(i, requires_grad=create_graph) if r is None else r
            for r, i in zip(result, inputs)
        )
    return tuple(result)


def __getattr__(name):
    # engine.autograd.functional and forward_ad (with its rule table) load when first named, so
    # `import engine` does not pay for them.
    if name in ("functional", "forward_ad"):
        import importlib

        return importlib.import_module(f"engine.autograd.{name}")
    raise AttributeError(f"module 'engine.autograd' has no attribute '{name}'")
