"""Lazy modules: layers whose input size is read off the first input (``LazyLinear(10)`` learns
``in_features`` at its first call). Until then their parameters are uninitialized; the first
forward materializes and initialises them, and the module becomes the ordinary class
(``LazyLinear`` -> ``Linear``)."""

import itertools

import engine
from engine.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d, _BatchNorm, _NormBase
from engine.nn.modules.conv import (
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose1d,
    ConvTranspose2d,
    ConvTranspose3d,
)
from engine.nn.modules.instancenorm import (
    InstanceNorm1d,
    InstanceNorm2d,
    InstanceNorm3d,
    _InstanceNorm,
)
from engine.nn.modules.linear import Linear
from engine.nn.parameter import (
    UninitializedBuffer,
    UninitializedParameter,
    _MaterializedBuffer,
    is_lazy,
)

__all__ = [
    "LazyBatchNorm1d",
    "LazyBatchNorm2d",
    "LazyBatchNorm3d",
    "LazyConv1d",
    "LazyConv2d",
    "LazyConv3d",
    "LazyConvTranspose1d",
    "LazyConvTranspose2d",
    "LazyConvTranspose3d",
    "LazyInstanceNorm1d",
    "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
    "LazyLinear",
    "LazyModuleMixin",
]


class LazyModuleMixin:
    """The lazy behaviour: a forward pre-hook that calls ``initialize_parameters(*input)`` once,
    and a load hook that materializes uninitialized tensors from a state dict's shapes."""

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(
            self._infer_parameters, with_kwargs=True
        )

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = (
                    param if is_lazy(param) or keep_vars else param.detach()
                )
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if is_lazy(buf) or keep_vars else buf.detach()

    def _lazy_load_hook(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ):
        for name, param in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if (
                key in state_dict
                and param is not None
                and is_lazy(param)
                and not is_lazy(state_dict[key])
            ):
                with engine.no_grad():
                    param.materialize(state_dict[key].shape)
        self._replace_materialized_buffers()

    def initialize_parameters(self, *args, **kwargs):
        """Materializes the parameters for this first input (each lazy class defines it)."""
        raise NotImplementedError(
            f"initialize_parameters is not implemented for {self.__class__.__name__}"
        )

    def has_uninitialized_params(self):
        """Whether a parameter or buffer is still uninitialized."""
        return any(
            is_lazy(t) for t in itertools.chain(self._parameters.values(), self._buffers.values())
        )

    def _replace_materialized_buffers(self):
        # A materialized buffer is an ordinary tensor of a private class: store the plain one.
        for name, buf in list(self._buffers.items()):
            if isinstance(buf, _MaterializedBuffer):
                self._buffers[name] = buf.data

    def _infer_parameters(self, module, args, kwargs=None):
        module.initialize_parameters(*args, **(kwargs or {}))
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._replace_materialized_buffers()
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _replicate_for_data_parallel(self):
        raise RuntimeError(
            "Modules with uninitialized parameters can't be used with `DataParallel`. "
            "Run a dummy forward pass to correctly initialize the modules"
        )


class LazyLinear(LazyModuleMixin, Linear):
    """A :class:`Linear` whose ``in_features`` is the last dim of its first input."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs):
        if self.has_uninitialized_params():
            with engine.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()


class _LazyConvXdMixin(LazyModuleMixin):
    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs):
        if self.has_uninitialized_params():
            self.in_channels = self._get_in_channels(input)
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            if self.transposed:
                shape = (self.in_channels, self.out_channels // self.groups, *self.kernel_size)
            else:
                shape = (self.out_channels, self.in_channels // self.groups, *self.kernel_size)
            self.weight.materialize(shape)
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()

    def _get_in_channels(self, input):
        unbatched = self._num_spatial_dims + 1
        if input.dim() not in (unbatched, unbatched + 1):
            raise RuntimeError(
                f"Expected {unbatched}D (unbatched) or {unbatched + 1}D (batched) input to "
                f"{self.__class__.__name__}, but got input of size: {input.shape}"
            )
        return input.shape[1] if input.dim() == unbatched + 1 else input.shape[0]


def _lazy_conv(name, base, spatial):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):  # fmt: skip
        # Through the mixin, which registers the hooks and then runs the layer's own __init__.
        LazyModuleMixin.__init__(
            self, 0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode
        )
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    doc = f"A :class:`{base.__name__}` whose ``in_channels`` is read off its first input."
    namespace = {
        "__init__": __init__,
        "cls_to_become": base,
        "_num_spatial_dims": spatial,
        "__doc__": doc,
    }
    return type(name, (_LazyConvXdMixin, base), namespace)


def _lazy_conv_transpose(name, base, spatial):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
                 dilation=1, padding_mode="zeros", device=None, dtype=None):  # fmt: skip
        LazyModuleMixin.__init__(
            self,
            0,
            0,
            kernel_size,
            stride,
            padding,
            output_padding,
            groups,
            False,
            dilation,
            padding_mode,
        )
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    doc = f"A :class:`{base.__name__}` whose ``in_channels`` is read off its first input."
    namespace = {
        "__init__": __init__,
        "cls_to_become": base,
        "_num_spatial_dims": spatial,
        "__doc__": doc,
    }
    return type(name, (_LazyConvXdMixin, base), namespace)


LazyConv1d = _lazy_conv("LazyConv1d", Conv1d, 1)
LazyConv2d = _lazy_conv("LazyConv2d", Conv2d, 2)
LazyConv3d = _lazy_conv("LazyConv3d", Conv3d, 3)
LazyConvTranspose1d = _lazy_conv_transpose("LazyConvTranspose1d", ConvTranspose1d, 1)
LazyConvTranspose2d = _lazy_conv_transpose("LazyConvTranspose2d", ConvTranspose2d, 2)
LazyConvTranspose3d = _lazy_conv_transpose("LazyConvTranspose3d", ConvTranspose3d, 3)


class _LazyNormBase(LazyModuleMixin, _NormBase):
    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None, *,
                 bias=True):  # fmt: skip
        super().__init__(0, eps, momentum, False, False, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(dtype=dtype)
            self.running_var = UninitializedBuffer(dtype=dtype)
            self.num_batches_tracked = engine.tensor(0, dtype=engine.long)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs):
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            if self.affine:
                self.weight.materialize((self.num_features,))
                if self.bias is not None:
                    self.bias.materialize((self.num_features,))
            if self.track_running_stats:
                self.running_mean.materialize((self.num_features,))
                self.running_var.materialize((self.num_features,))
            self._replace_materialized_buffers()
            self.reset_parameters()


def _lazy_norm(name, base, family, check_input_dim):
    doc = f"A :class:`{base.__name__}` whose ``num_features`` is read off its first input."
    namespace = {"cls_to_become": base, "_check_input_dim": check_input_dim, "__doc__": doc}
    if family is _InstanceNorm:
        namespace["_get_no_batch_dim"] = base._get_no_batch_dim
    return type(name, (_LazyNormBase, family), namespace)


LazyBatchNorm1d = _lazy_norm(
    "LazyBatchNorm1d", BatchNorm1d, _BatchNorm, BatchNorm1d._check_input_dim
)
LazyBatchNorm2d = _lazy_norm(
    "LazyBatchNorm2d", BatchNorm2d, _BatchNorm, BatchNorm2d._check_input_dim
)
LazyBatchNorm3d = _lazy_norm(
    "LazyBatchNorm3d", BatchNorm3d, _BatchNorm, BatchNorm3d._check_input_dim
)
LazyInstanceNorm1d = _lazy_norm(
    "LazyInstanceNorm1d", InstanceNorm1d, _InstanceNorm, InstanceNorm1d._check_input_dim
)
LazyInstanceNorm2d = _lazy_norm(
    "LazyInstanceNorm2d", InstanceNorm2d, _InstanceNorm, InstanceNorm2d._check_input_dim
)
LazyInstanceNorm3d = _lazy_norm(
    "LazyInstanceNorm3d", InstanceNorm3d, _InstanceNorm, InstanceNorm3d._check_input_dim
)
