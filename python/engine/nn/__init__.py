"""engine.nn: for now the functional interface, ``import engine.nn.functional as F``."""

from engine.nn import functional

__all__ = ["functional"]
