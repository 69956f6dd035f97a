"""engine.nn.utils: gradient clipping, parameter/vector conversion, weight and spectral
normalisation, parametrizations."""

from engine.nn.utils import parametrizations, parametrize, rnn
from engine.nn.utils.clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    get_total_norm,
)
from engine.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters
from engine.nn.utils.spectral_norm import remove_spectral_norm, spectral_norm
from engine.nn.utils.weight_norm import remove_weight_norm, weight_norm

__all__ = [
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grad_value_",
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


def __getattr__(name):
    # stateless (functional_call's old home) loads on first use: it imports engine.func.
    if name == "stateless":
        import importlib

        return importlib.import_module("engine.nn.utils.stateless")
    raise AttributeError(f"module 'engine.nn.utils' has no attribute '{name}'")
