"""Utilities shared by the autograd API (``torch.utils``-shaped)."""

import importlib

# Loaded on first use, so ``import engine`` stays cheap: ``engine.utils.data.DataLoader`` works
# after a plain ``import engine``, as ``torch.utils.data`` does after ``import torch``.
_LAZY_SUBMODULES = ("checkpoint", "data", "dlpack", "safetensors")


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"engine.utils.{name}")
    raise AttributeError(f"module 'engine.utils' has no attribute '{name}'")
