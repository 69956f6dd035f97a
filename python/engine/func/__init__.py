"""Composable function transforms (``torch.func``): ``grad``, ``grad_and_value``, ``vjp``,
``jacrev``, ``hessian``, ``functional_call`` and ``stack_module_state``; ``jvp``, ``jacfwd``,
``linearize`` (forward mode) and ``vmap`` where those transforms are present."""

from engine.func._functional_call import functional_call, stack_module_state
from engine.func._grad import grad, grad_and_value, hessian, jacrev, vjp

__all__ = [
    "functional_call",
    "grad",
    "grad_and_value",
    "hessian",
    "jacrev",
    "stack_module_state",
    "vjp",
]

try:  # forward mode lives in its own module; absent, the names are simply not offered
    from engine.func._forward import jacfwd, jvp, linearize
except ImportError:
    pass
else:
    __all__ += ["jacfwd", "jvp", "linearize"]

try:
    from engine.func._vmap import vmap
except ImportError:
    pass
else:
    __all__ += ["vmap"]

from engine.func import _routes

_routes.install()
del _routes
