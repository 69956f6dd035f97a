"""Parametrizations: a module's tensor computed on every access from tensors it really stores.

``register_parametrization(module, "weight", P())`` moves the tensor to
``module.parametrizations.weight.original`` (or ``original0, original1, ...`` when
``P.right_inverse`` splits it) and makes ``module.weight`` a property returning ``P(original)``.
The property lives on a subclass made for that one module (``ParametrizedLinear``), so other
instances of the class are untouched; removing the last parametrization restores the class.
"""

from collections.abc import Sequence
from contextlib import contextmanager

import engine
from engine import _C
from engine.nn.modules.container import ModuleDict, ModuleList
from engine.nn.modules.module import Module
from engine.nn.parameter import Parameter

__all__ = [
    "ParametrizationList",
    "cached",
    "is_parametrized",
    "register_parametrization",
    "remove_parametrizations",
    "transfer_parametrizations_and_params",
    "type_before_parametrizations",
]

_cache_enabled = 0
_cache = {}


@contextmanager
def cached():
    """Within this block each parametrized tensor is computed once, on first access."""
    global _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache.clear()


def _register_parameter_or_buffer(module, name, tensor):
    if isinstance(tensor, Parameter):
        module.register_parameter(name, tensor)
    else:
        module.register_buffer(name, tensor)


def _set_in_place(original, new):
    # The stored tensor takes the new value without changing identity (optimizers keep it).
    with engine.no_grad():
        if original.shape == new.shape:
            original.copy_(new)
        else:
            original.data = new.detach().clone()


class ParametrizationList(ModuleList):
    """The chain of parametrizations on one tensor and the original tensor(s) they start from."""

    def __init__(self, modules, original, unsafe=False):
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape, original_dtype = original.shape, original.dtype
        with engine.no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
        if not isinstance(new, _C.Tensor) and not isinstance(new, Sequence):
            raise ValueError(
                "'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                f"Got {type(new).__name__}"
            )
        self.is_tensor = isinstance(new, _C.Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if original.dtype != new.dtype:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                    f"original.dtype: {original.dtype}\n"
                    f"right_inverse(original).dtype: {new.dtype}"
                )
            if new is not original:
                _set_in_place(original, new)
            _register_parameter_or_buffer(self, "original", original)
        else:
            for i, part in enumerate(new):
                if not isinstance(part, _C.Tensor):
                    raise ValueError(
                        "'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                        f"Got element {i} of the sequence with type {type(part).__name__}."
                    )
                if isinstance(original, Parameter):
                    part = Parameter(part, original.requires_grad)
                part.requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, f"original{i}", part)
        if not self.unsafe:
            value = self()
            if not isinstance(value, _C.Tensor):
                raise ValueError(
                    f"A parametrization must return a tensor. Got {type(value).__name__}."
                )
            if value.dtype != original_dtype:
                raise ValueError(
                    "Registering a parametrization may not change the dtype of the tensor, unless `unsafe` "
                    "flag is enabled.\n"
                    f"unparametrized dtype: {original_dtype}\n"
                    f"parametrized dtype: {value.dtype}"
                )
            if value.shape != original_shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape of the tensor, unless `unsafe` "
                    "flag is enabled.\n"
                    f"unparametrized shape: {original_shape}\n"
                    f"parametrized shape: {value.shape}"
                )

    def right_inverse(self, value):
        """Stores in the original tensor(s) what makes the parametrized tensor equal ``value``."""
        with engine.no_grad():
            for module in reversed(self):
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(
                        f"parametrization {type(module).__name__} does not implement right_inverse."
                    )
                value = module.right_inverse(value)
            if self.is_tensor:
                if not isinstance(value, _C.Tensor):
                    raise ValueError(
                        f"`right_inverse` should return a tensor. Got {type(value).__name__}"
                    )
                if value.dtype != self.original.dtype:
                    raise ValueError(
                        f"The tensor returned by `right_inverse` has dtype {value.dtype} "
                        f"while `original` has dtype {self.original.dtype}"
                    )
                _set_in_place(self.original, value)
                return
            if not isinstance(value, Sequence):
                raise ValueError(
                    f"'right_inverse' must return a sequence of tensors. Got {type(value).__name__}."
                )
            if len(value) != self.ntensors:
                raise ValueError(
                    "'right_inverse' must return a sequence of tensors of length "
                    f"{self.ntensors}. Got a sequence of length {len(value)}."
                )
            for i, tensor in enumerate(value):
                original_i = getattr(self, f"original{i}")
                if not isinstance(tensor, _C.Tensor):
                    raise ValueError(f"`right_inverse` must return a sequence of tensors. Got element {i} of type "
                                     f"{type(tensor).__name__}")  # fmt: skip
                if original_i.dtype != tensor.dtype:
                    raise ValueError(
                        f"Tensor {i} returned by `right_inverse` has dtype {tensor.dtype} "
                        f"while `original{i}` has dtype {original_i.dtype}"
                    )
                _set_in_place(original_i, tensor)

    def forward(self):
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in list(self)[1:]:
            x = module(x)
        return x


def _refuse_pickling(self):
    raise RuntimeError(
        "Serialization of parametrized modules is only supported through state_dict(). See:\n"
        "https://pytorch.org/tutorials/beginner/saving_loading_models.html"
        "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training"
    )


def _deepcopy_parametrized(self, memo):
    import copy

    obj = memo.get(id(self))
    if obj is not None:
        return obj
    replica = self.__new__(self.__class__)
    memo[id(self)] = replica
    state = copy.deepcopy(Module.__getstate__(self), memo)
    replica.__setstate__(state)
    return replica


def _give_own_class(module):
    cls = module.__class__
    namespace = {"__getstate__": _refuse_pickling}
    if not hasattr(cls, "__deepcopy__"):
        namespace["__deepcopy__"] = _deepcopy_parametrized
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), namespace)


def _add_property(module, name):
    def get(self):
        parametrization = self.parametrizations[name]
        if not _cache_enabled:
            return parametrization()
        key = (id(self), name)
        if key not in _cache:
            _cache[key] = parametrization()
        return _cache[key]

    def set_(self, value):
        self.parametrizations[name].right_inverse(value)

    setattr(module.__class__, name, property(get, set_))


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """Makes ``module.<tensor_name>`` the output of ``parametrization`` applied to the stored
    tensor (registering on an already parametrized name chains the new one after the others).

    ``parametrization.right_inverse`` (optional) maps a value back to what is stored; it may
    split it into several tensors. ``unsafe=True`` allows changing the shape or dtype.
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        chain = module.parametrizations[tensor_name]
        if not unsafe:
            value = getattr(module, tensor_name)
            out = parametrization(value)
            if not isinstance(out, _C.Tensor):
                raise ValueError(
                    f"A parametrization must return a tensor. Got {type(out).__name__}."
                )
            if out.dtype != value.dtype:
                raise ValueError(
                    "Registering a parametrization may not change the dtype of the tensor, unless the `unsafe` "
                    "flag is enabled.\n"
                    f"module.{tensor_name}.dtype: {value.dtype}\n"
                    f"parametrization(module.{tensor_name}).dtype: {out.dtype}"
                )
            if out.shape != value.shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape of the tensor, unless the `unsafe` "
                    "flag is enabled.\n"
                    f"module.{tensor_name}.shape: {value.shape}\n"
                    f"parametrization(module.{tensor_name}).shape: {out.shape}"
                )
            if hasattr(parametrization, "right_inverse"):
                try:
                    back = parametrization.right_inverse(out)
                except NotImplementedError:
                    pass
                else:
                    if not isinstance(back, _C.Tensor):
                        raise ValueError(
                            f"parametrization.right_inverse must return a tensor. Got: {type(back).__name__}"
                        )
                    if back.dtype != value.dtype:
                        raise ValueError(
                            "The tensor returned by parametrization.right_inverse must have the same dtype as "
                            f"module.{tensor_name}, unless the `unsafe` flag is enabled.\n"
                            f"module.{tensor_name}.dtype: {value.dtype}\n"
                            f"returned dtype: {back.dtype}"
                        )
                    if back.shape != value.shape:
                        raise ValueError(
                            "The tensor returned by parametrization.right_inverse must have the same shape as "
                            f"module.{tensor_name}, unless the `unsafe` flag is enabled.\n"
                            f"module.{tensor_name}.shape: {value.shape}\n"
                            f"returned shape: {back.shape}"
                        )
        chain.append(parametrization)
        chain.unsafe |= unsafe
        return module
    if tensor_name not in module._buffers and tensor_name not in module._parameters:
        raise ValueError(
            f"Module '{module}' does not have a parameter, a buffer, or a parametrized element with name "
            f"'{tensor_name}'"
        )
    original = getattr(module, tensor_name)
    chain = ParametrizationList([parametrization], original, unsafe=unsafe)
    delattr(module, tensor_name)
    if not is_parametrized(module):
        _give_own_class(module)
        module.parametrizations = ModuleDict()
    _add_property(module, tensor_name)
    module.parametrizations[tensor_name] = chain
    return module


def is_parametrized(module, tensor_name=None):
    """Whether ``module`` has parametrizations (on ``tensor_name``, if given)."""
    parametrizations = getattr(module, "parametrizations", None)
    if not isinstance(parametrizations, ModuleDict):
        return False
    return len(parametrizations) > 0 if tensor_name is None else tensor_name in parametrizations


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Removes the parametrizations on ``module.<tensor_name>``; the tensor keeps its current
    value (``leave_parametrized=True``) or gets back the stored original."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    chain = module.parametrizations[tensor_name]
    if chain.is_tensor:
        original = chain.original
        if leave_parametrized:
            with engine.no_grad():
                value = getattr(module, tensor_name)
            with engine.no_grad():
                if value.dtype != original.dtype:
                    raise ValueError(
                        f"The parametrized tensor has dtype {value.dtype} while the original has dtype "
                        f"{original.dtype}: leave_parametrized=True needs them equal"
                    )
                _set_in_place(original, value)
    else:
        if not leave_parametrized:
            raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                             "parametrized in terms of a sequence of tensors.")  # fmt: skip
        with engine.no_grad():
            value = getattr(module, tensor_name)
        if chain.original0.requires_grad or isinstance(chain.original0, Parameter):
            original = Parameter(value.detach(), chain.original0.requires_grad)
        else:
            original = value.detach()
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module):
    """The module's class as it was before any parametrization was registered."""
    return module.__class__.__bases__[0] if is_parametrized(module) else type(module)


def transfer_parametrizations_and_params(from_module, to_module, tensor_name=None):
    """Registers ``from_module``'s parametrizations (on ``tensor_name`` or all) on ``to_module``,
    with the same original tensors' values. Returns ``to_module``."""
    if not is_parametrized(from_module):
        return to_module
    names = (
        [tensor_name]
        if isinstance(tensor_name, str)
        else list(tensor_name or from_module.parametrizations)
    )
    for name in names:
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name)))
        for parametrization in from_module.parametrizations[name]:
            register_parametrization(to_module, name, parametrization)
        source, target = from_module.parametrizations[name], to_module.parametrizations[name]
        with engine.no_grad():
            if source.is_tensor:
                _set_in_place(target.original, source.original)
            else:
                for i in range(source.ntensors):
                    _set_in_place(getattr(target, f"original{i}"), getattr(source, f"original{i}"))
    return to_module
