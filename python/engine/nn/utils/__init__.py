"""engine.nn.utils: gradient clipping, parameter/vector conversion, weight and spectral
normalisation, parametrizations."""

from engine.nn.utils import rnn
from engine.nn.utils.clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from engine.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters

# Imported eagerly: the functions must win over their modules' names (engine.nn.utils.weight_norm
# is the function, as in PyTorch).
from engine.nn.utils.spectral_norm import remove_spectral_norm, spectral_norm
from engine.nn.utils.weight_norm import remove_weight_norm, weight_norm

__all__ = [
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grad_value_",
    "clip_grads_with_norm_",
    "get_total_norm",
    "parameters_to_vector",
    "parametrizations",
    "parametrize",
    "remove_spectral_norm",
    "remove_weight_norm",
    "rnn",
    "spectral_norm",
    "vector_to_parameters",
    "weight_norm",
]


# Loaded on first use, so that import engine does not pay for them: name -> (module, attribute).
_LAZY = {
    "stateless": ("stateless", None),  # functional_call's old home; it imports engine.func
    "parametrize": ("parametrize", None),
    "parametrizations": ("parametrizations", None),
}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        module_name, attribute = _LAZY[name]
        module = importlib.import_module(f"engine.nn.utils.{module_name}")
        return module if attribute is None else getattr(module, attribute)
    raise AttributeError(f"module 'engine.nn.utils' has no attribute '{name}'")
