"""Spectral normalisation by a forward pre-hook (PyTorch's original form).

``weight = weight_orig / sigma`` where ``sigma``, the largest singular value of ``weight_orig``
seen as a matrix (``dim`` first), is estimated by power iteration on the buffers ``weight_u`` /
``weight_v``, one step per forward in training mode. Used to stabilise GAN discriminators.
:func:`engine.nn.utils.parametrizations.spectral_norm` is the modern form.
"""

import engine
from engine.nn import functional as F
from engine.nn.parameter import Parameter

__all__ = [
    "SpectralNorm",
    "SpectralNormLoadStateDictPreHook",
    "SpectralNormStateDictHook",
    "remove_spectral_norm",
    "spectral_norm",
]


def weight_as_matrix(weight, dim):
    """``weight`` with ``dim`` moved first and the rest flattened: (size of dim, everything else)."""
    if dim != 0:
        weight = weight.permute(dim, *[d for d in range(weight.dim()) if d != dim])
    return weight.reshape(weight.size(0), -1)


class SpectralNorm:
    """The forward pre-hook that sets ``module.<name>`` to ``<name>_orig / sigma``."""

    _version = 1

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        if n_power_iterations <= 0:
            raise ValueError(
                f"Expected n_power_iterations to be positive, but got n_power_iterations={n_power_iterations}"
            )
        self.name = name
        self.dim = dim
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        """``weight`` as the matrix whose largest singular value is estimated: ``dim`` first,
        the other dimensions flattened."""
        return weight_as_matrix(weight, self.dim)

    def compute_weight(self, module, do_power_iteration):
        """``<name>_orig`` divided by its estimated spectral norm, after one or more power
        iterations on the ``<name>_u`` / ``<name>_v`` vectors when ``do_power_iteration``."""
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            # In place on the buffers, so the estimate improves from one forward to the next;
            # then cloned, because sigma's graph must keep the values this forward used.
            with engine.no_grad():
                for _ in range(self.n_power_iterations):
                    v = F.normalize(engine.mv(weight_mat.t(), u), dim=0, eps=self.eps, out=v)
                    u = F.normalize(engine.mv(weight_mat, v), dim=0, eps=self.eps, out=u)
                u = u.clone()
                v = v.clone()
        sigma = engine.dot(u, engine.mv(weight_mat, v))
        return weight / sigma

    def remove(self, module):
        """Removes the hook from ``module`` and leaves ``<name>`` as a plain parameter holding
        the current normalised weight."""
        with engine.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    def _solve_v_and_rescale(self, weight_mat, u, target_sigma):
        # The v for which u^T W v equals target_sigma, from a state dict of before version 1.
        v = engine.linalg.multi_dot(
            [weight_mat.t().mm(weight_mat).pinverse(), weight_mat.t(), u.unsqueeze(1)]
        )
        v = v.squeeze(1)
        return v.mul_(target_sigma / engine.dot(u, engine.mv(weight_mat, v)))

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        """Registers the hook on ``module`` (what :func:`spectral_norm` does): moves ``<name>``
        to ``<name>_orig`` and adds the ``<name>_u`` / ``<name>_v`` buffers."""
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two spectral_norm hooks on the same parameter {name}"
                )
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        with engine.no_grad():
            h, w = fn.reshape_weight_to_matrix(weight).size()
            # Random starting vectors, drawn as PyTorch draws them (same stream, same order).
            u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Reads state dicts written before ``weight_v`` was saved (version None or 0)."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ):
        fn = self.fn
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is not None and version >= 1:
            return
        weight_key = prefix + fn.name
        if version is None and weight_key not in state_dict:
            if all(weight_key + s in state_dict for s in ("_orig", "_u", "_v")):
                return
        missing = False
        for suffix in ("_orig", "", "_u"):
            if weight_key + suffix not in state_dict:
                missing = True
                if strict:
                    missing_keys.append(weight_key + suffix)
        if missing:
            return
        with engine.no_grad():
            weight_orig = state_dict[weight_key + "_orig"]
            weight = state_dict.pop(weight_key)
            sigma = (weight_orig / weight).mean()
            weight_mat = fn.reshape_weight_to_matrix(weight_orig)
            u = state_dict[weight_key + "_u"]
            state_dict[weight_key + "_v"] = fn._solve_v_and_rescale(weight_mat, u, sigma)


class SpectralNormStateDictHook:
    """Records the format version in the state dict's metadata."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata):
        versions = local_metadata.setdefault("spectral_norm", {})
        key = self.fn.name + ".version"
        if key in versions:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        versions[key] = self.fn._version


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Divides ``module.<name>`` by its spectral norm (largest singular value), estimated by
    ``n_power_iterations`` power-iteration steps per training forward. ``dim`` is the output
    dimension (default 0, or 1 for ConvTranspose layers). Returns ``module``.

    Example::

        >>> m = engine.nn.utils.spectral_norm(engine.nn.Linear(20, 40))
        >>> m.weight_u.size()
        torch.Size([40])
    """
    if dim is None:
        from engine.nn import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d

        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module, name="weight"):
    """Folds the spectral normalisation of ``module.<name>`` back into one parameter."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    for k, hook in module._state_dict_hooks.items():
        if isinstance(hook, SpectralNormStateDictHook) and hook.fn.name == name:
            del module._state_dict_hooks[k]
            break
    for k, hook in module._load_state_dict_pre_hooks.items():
        if isinstance(hook, SpectralNormLoadStateDictPreHook) and hook.fn.name == name:
            del module._load_state_dict_pre_hooks[k]
            break
    return module
