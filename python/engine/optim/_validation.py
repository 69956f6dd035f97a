"""Hyperparameter checks shared by the optimizers, with PyTorch's messages."""

import engine

__all__ = ["check_betas", "check_nonnegative"]


def check_nonnegative(value, what):
    """``ValueError("Invalid <what> value: <value>")`` unless ``0 <= value``."""
    if not 0.0 <= value:
        raise ValueError(f"Invalid {what} value: {value}")


def check_betas(betas, *, tensors_allowed=False, foreach=None, capturable=False):
    """Each beta in [0, 1); Adam-style optimizers also accept a pair of 1-element tensors."""
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not tensors_allowed:
        return tuple(betas)
    both_floats = isinstance(betas[0], float) and isinstance(betas[1], float)
    both_tensors = isinstance(betas[0], engine.Tensor) and isinstance(betas[1], engine.Tensor)
    if not (both_floats or both_tensors):
        raise ValueError("betas must be either both floats or both Tensors")
    for i, beta in enumerate(betas):
        if isinstance(beta, engine.Tensor):
            if not capturable and foreach:
                raise ValueError(
                    f"betas[{i}] as a Tensor is not supported for capturable=False and foreach=True"
                )
            if beta.numel() != 1:
                raise ValueError(f"Tensor betas[{i}] must be 1-element")
    return tuple(float(b.item()) if isinstance(b, engine.Tensor) else b for b in betas)
