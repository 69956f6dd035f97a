"""Flattening parameters into one vector and back."""

import engine

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """The parameters flattened and concatenated into one 1-D tensor (in iteration order);
    :func:`vector_to_parameters` writes such a vector back.

    Args:
        parameters (iterable of Tensors): e.g. ``model.parameters()``.

    Example::

        >>> model = engine.nn.Linear(3, 2)
        >>> engine.nn.utils.parameters_to_vector(model.parameters()).shape
        torch.Size([8])
    """
    return engine.cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Copies consecutive slices of the 1-D ``vec`` into ``parameters`` (their ``.data``)."""
    if not isinstance(vec, engine.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    pointer = 0
    for param in parameters:
        num_param = param.numel()
        param.data = vec[pointer : pointer + num_param].view_as(param).data
        pointer += num_param
