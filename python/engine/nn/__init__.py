"""engine.nn: modules, parameters, initialisation and the functional interface, as torch.nn."""

from engine.nn import (
    functional,
    grad,
    init,
    utils,  # noqa: E402  (utils imports modules)
)
from engine.nn.modules import *  # noqa: F403
from engine.nn.modules import module as _module_file
from engine.nn.parameter import Buffer, Parameter

Module = _module_file.Module

__all__ = ["Buffer", "Module", "Parameter", "functional", "grad", "init", "utils"]
__all__ += [name for name in dir() if name[:1].isupper() and name not in __all__]


def __getattr__(name):
    # engine.nn.parallel (DistributedDataParallel) loads when first named: import engine stays lean.
    if name == "parallel":
        import importlib

        return importlib.import_module("engine.nn.parallel")
    raise AttributeError(f"module 'engine.nn' has no attribute '{name}'")
