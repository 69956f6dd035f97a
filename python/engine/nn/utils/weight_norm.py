"""Weight normalisation by a forward pre-hook (PyTorch's original, now deprecated, form).

``weight = g * v / ||v||`` with the norm taken over every dim but ``dim``: the parameter ``name``
is replaced by ``name_g`` (magnitude) and ``name_v`` (direction), and a hook recomputes ``name``
before each forward. :func:`engine.nn.utils.parametrizations.weight_norm` is the modern form.
"""

import warnings

from engine import _weight_norm, norm_except_dim
from engine.nn.parameter import Parameter

__all__ = ["WeightNorm", "remove_weight_norm", "weight_norm"]


class WeightNorm:
    """The forward pre-hook that recomputes ``module.<name>`` from its magnitude and direction."""

    def __init__(self, name, dim):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module):
        """The weight ``g * v / ||v||`` from ``module``'s ``<name>_g`` and ``<name>_v``."""
        return _weight_norm(
            getattr(module, self.name + "_v"), getattr(module, self.name + "_g"), self.dim
        )

    @staticmethod
    def apply(module, name, dim):
        """Registers the hook on ``module`` (what :func:`weight_norm` does): replaces ``<name>``
        by the parameters ``<name>_g`` (magnitude) and ``<name>_v`` (direction)."""
        warnings.warn(
            "`torch.nn.utils.weight_norm` is deprecated in favor of `torch.nn.utils.parametrizations.weight_norm`.",
            FutureWarning,
            stacklevel=3,
        )
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}"
                )
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        """Removes the hook from ``module`` and leaves ``<name>`` as a plain parameter holding
        the current weight."""
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    """Reparametrises ``module.<name>`` as ``g * v / ||v||`` (norm over every dim but ``dim``;
    ``dim=None`` for the whole tensor), recomputed before every forward. Returns ``module``.

    Example::

        >>> m = engine.nn.utils.weight_norm(engine.nn.Linear(20, 40), name="weight")
        >>> m.weight_g.size(), m.weight_v.size()
        (torch.Size([40, 1]), torch.Size([40, 20]))
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name="weight"):
    """Folds the weight normalisation of ``module.<name>`` back into one parameter."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
