"""Gradient clipping by total norm or by value, as torch.nn.utils does it."""

import types
import warnings

import engine

__all__ = [
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grad_value_",
    "clip_grads_with_norm_",
    "get_total_norm",
]


def _tensors(tensors):
    if isinstance(tensors, engine.Tensor):
        return [tensors]
    return list(tensors)


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The ``norm_type``-norm of all ``tensors`` together, as if concatenated into one vector."""
    tensors = [t for t in _tensors(tensors) if t is not None]
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return engine.tensor(0.0)
    norms = (
        [engine.linalg.vector_norm(t, norm_type) for t in tensors]
        if hasattr(engine, "linalg")
        else None
    )
    if norms is None:
        norms = [t.norm(norm_type) for t in tensors]
    total_norm = (
        engine.linalg.vector_norm(engine.stack(norms), norm_type)
        if hasattr(engine, "linalg")
        else engine.stack(norms).norm(norm_type)
    )
    if error_if_nonfinite and (total_norm.isnan() | total_norm.isinf()).item():
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be "
            "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
            "`error_if_nonfinite=False`"
        )
    return total_norm


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scales the gradients of ``parameters`` in place so that their total norm is at most
    ``max_norm``; returns the total norm before clipping.

    The total norm is that of all gradients concatenated into one vector; when it exceeds
    ``max_norm`` every gradient is multiplied by ``max_norm / (total_norm + 1e-6)``.

    Args:
        parameters (Tensor or iterable of Tensors): the tensors whose ``grad`` is clipped.
        max_norm (float): the largest total norm allowed.
        norm_type (float or inf): the p of the norm. Default: 2.
        error_if_nonfinite (bool): raise when the total norm is NaN or infinite.
            Default: ``False``.
        foreach (bool, optional): accepted for compatibility.

    Example::

        >>> w = engine.tensor([3.0, 4.0], requires_grad=True)
        >>> w.grad = engine.tensor([3.0, 4.0])
        >>> engine.nn.utils.clip_grad_norm_([w], max_norm=1.0)
        tensor(5.)
        >>> w.grad
        tensor([0.6000, 0.8000])
    """
    if isinstance(parameters, engine.Tensor):
        params = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        params = list(parameters)
        if is_generator and not params:
            warnings.warn(
                "`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=2
            )
    grads = [p.grad for p in params if p.grad is not None]
    with engine.no_grad():
        total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(params, max_norm, total_norm, foreach)
    return total_norm


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scales the gradients of ``parameters`` in place by ``min(max_norm / (total_norm + 1e-6), 1)``.

    :func:`clip_grad_norm_` with the total norm computed beforehand (for instance by
    :func:`get_total_norm` over gradients gathered from several places).

    Args:
        parameters (Tensor or iterable of Tensors): the tensors whose ``grad`` is scaled.
        max_norm (float): the largest total norm allowed.
        total_norm (Tensor): the total norm of the gradients.
        foreach (bool, optional): accepted for compatibility.

    Example::

        >>> w = engine.zeros(2, requires_grad=True)
        >>> w.grad = engine.tensor([3.0, 4.0])
        >>> engine.nn.utils.clip_grads_with_norm_([w], 1.0, engine.tensor(10.0))
        >>> w.grad
        tensor([0.3000, 0.4000])
    """
    grads = [p.grad for p in _tensors(parameters) if p.grad is not None]
    if not grads:
        return
    with engine.no_grad():
        clip_coef = float(max_norm) / (total_norm + 1e-6)
        clip_coef_clamped = engine.clamp(clip_coef, max=1.0)
        for g in grads:
            g.mul_(clip_coef_clamped.to(g.dtype))


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Deprecated: use :func:`clip_grad_norm_`."""
    warnings.warn(
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
        FutureWarning,
        stacklevel=2,
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamps every gradient of ``parameters`` in place to [-clip_value, clip_value].

    Args:
        parameters (Tensor or iterable of Tensors): the tensors whose ``grad`` is clipped.
        clip_value (float): the largest magnitude allowed.
        foreach (bool, optional): accepted for compatibility.

    Example::

        >>> w = engine.zeros(3, requires_grad=True)
        >>> w.grad = engine.tensor([-2.0, 0.5, 3.0])
        >>> engine.nn.utils.clip_grad_value_([w], 1.0)
        >>> w.grad
        tensor([-1.0000,  0.5000,  1.0000])
    """
    clip_value = float(clip_value)
    with engine.no_grad():
        for p in _tensors(parameters):
            if p.grad is not None:
                p.grad.clamp_(min=-clip_value, max=clip_value)
