"""engine.overrides: the ``__torch_function__`` helpers PyTorch's own Python functions call.

engine dispatches no ``__torch_function__`` overrides, so code copied from PyTorch that asks
``has_torch_function(...)`` gets False and takes its ordinary path.
"""

from engine import _C

__all__ = [
    "handle_torch_function",
    "has_torch_function",
    "has_torch_function_unary",
    "has_torch_function_variadic",
    "is_tensor_like",
]


def has_torch_function(relevant_args):
    """False: no argument type overrides engine's functions."""
    return False


def has_torch_function_unary(arg):
    """False: no argument type overrides engine's functions."""
    return False


def has_torch_function_variadic(*args):
    """False: no argument type overrides engine's functions."""
    return False


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Calls ``public_api(*args, **kwargs)`` (there is no override to hand it to)."""
    return public_api(*args, **kwargs)


def is_tensor_like(inp):
    """Whether ``inp`` is an engine tensor."""
    return isinstance(inp, _C.Tensor) or hasattr(type(inp), "__torch_function__")
