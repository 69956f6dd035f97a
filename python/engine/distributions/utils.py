"""Helpers shared by the distributions: broadcasting parameters, probs/logits conversions,
lazily computed attributes, and triangular-matrix packing."""

from functools import update_wrapper
from numbers import Number

import engine

euler_constant = 0.57721566490153286060  # Euler-Mascheroni constant

__all__ = [
    "broadcast_all",
    "logits_to_probs",
    "clamp_probs",
    "probs_to_logits",
    "lazy_property",
    "tril_matrix_to_vec",
    "vec_to_tril_matrix",
]


def broadcast_all(*values):
    """Broadcasts numbers and tensors to one shape; numbers become tensors of the default dtype
    (or of the first tensor's dtype), as PyTorch's ``broadcast_all`` does."""
    if not all(isinstance(v, (engine.Tensor, Number)) for v in values):
        raise ValueError(
            "Input arguments must all be instances of Number, torch.Tensor or objects "
            "implementing __torch_function__."
        )
    if not all(isinstance(v, engine.Tensor) for v in values):
        options = {"dtype": engine.get_default_dtype()}
        for value in values:
            if isinstance(value, engine.Tensor):
                options = {"dtype": value.dtype, "device": value.device}
                break
        values = [
            v if isinstance(v, engine.Tensor) else engine.tensor(v, **options) for v in values
        ]
    return engine.broadcast_tensors(*values)


def _standard_normal(shape, dtype, device):
    """Standard normal draws in the order ``Tensor.normal_`` makes them."""
    return engine.empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim):
    """Sums out the ``dim`` rightmost dimensions of value."""
    if dim == 0:
        return value
    return value.reshape(value.shape[: value.dim() - dim] + (-1,)).sum(-1)


def logits_to_probs(logits, is_binary=False):
    """Probabilities from logits: sigmoid for binary, softmax over the last dim otherwise."""
    if is_binary:
        return engine.sigmoid(logits)
    return engine.softmax(logits, dim=-1)


def clamp_probs(probs):
    """Clamps probabilities into the open interval (0, 1) by the dtype's eps."""
    eps = engine.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    """Logits from probabilities: log-odds for binary, log-probabilities otherwise."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return engine.log(ps_clamped) - engine.log1p(-ps_clamped)
    return engine.log(ps_clamped)


class lazy_property:
    """A property computed on first access and then stored on the instance (so it is computed
    once); accessed on the class it is a placeholder the argument checks skip."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with engine.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _lazy_property_and_property(lazy_property, property):
    """What a lazy_property returns on the class: both a lazy_property and a property, so
    documentation tools see a property."""

    def __init__(self, wrapped):
        property.__init__(self, wrapped)


def tril_matrix_to_vec(mat, diag=0):
    """The lower triangle (offset ``diag``) of the last two dims of mat, row by row, as a vector."""
    n = mat.shape[-1]
    if not mat.shape[-2] == n:
        raise ValueError("tril_matrix_to_vec: the last two dimensions must be equal (square)")
    if not -n < diag <= 0:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, 0].")
    rows, cols = engine.tril_indices(n, n, offset=diag, device=mat.device)
    return mat[..., rows, cols]


def vec_to_tril_matrix(vec, diag=0):
    """The inverse of :func:`tril_matrix_to_vec`: a lower-triangular matrix from its entries."""
    n = (
        -(1 + 2 * diag)
        + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5
    ) / 2
    eps = engine.finfo(vec.dtype).eps
    if not round(n) - n < eps:
        raise ValueError(
            f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as "
            "the lower triangular part of a square D x D matrix."
        )
    n = round(n.item()) if isinstance(n, engine.Tensor) else round(n)
    mat = vec.new_zeros(vec.shape[:-1] + engine.Size((n, n)))
    rows, cols = engine.tril_indices(n, n, offset=diag, device=vec.device)
    mat[..., rows, cols] = vec
    return mat
