"""nn.Module: the base class of every layer and model, as PyTorch 2.13 defines it.

A Module keeps its parameters, buffers and submodules in three dicts, filled by attribute
assignment in definition order; everything else (iteration, state dicts, device/dtype moves,
hooks, repr) walks those dicts.
"""

import functools
import itertools
import weakref
from collections import OrderedDict, namedtuple
from typing import TypeVar

import engine
from engine import _C
from engine.nn.modules._registry import REGISTRY_NAMES, Registry, bind
from engine.nn.parameter import Buffer, Parameter
from engine.utils.hooks import RemovableHandle

__all__ = [
    "Module",
    "register_module_forward_hook",
    "register_module_forward_pre_hook",
    "register_module_full_backward_hook",
    "register_module_full_backward_pre_hook",
]

_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()
_global_forward_hooks_always_called = OrderedDict()
_global_backward_hooks = OrderedDict()
_global_backward_pre_hooks = OrderedDict()
_hook_ids = itertools.count()


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _register(hooks, hook, prepend=False, extra=None):
    """Adds `hook` to the ordered dict `hooks` (and its id to the `extra` dicts/sets)."""
    key = next(_hook_ids)
    hooks[key] = hook
    if prepend:
        hooks.move_to_end(key, last=False)
    extras = [] if extra is None else extra

    def remove():
        hooks.pop(key, None)
        for e in extras:
            if isinstance(e, dict):
                e.pop(key, None)
            else:
                e.discard(key)

    return RemovableHandle(remove, key)


def register_module_forward_pre_hook(hook):
    """Registers a forward pre-hook common to all modules (``hook(module, args)``)."""
    return _register(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    """Registers a forward hook common to all modules (``hook(module, args, output)``)."""
    handle = _register(_global_forward_hooks, hook, extra=[_global_forward_hooks_always_called])
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


def register_module_full_backward_pre_hook(hook):
    """Registers a backward pre-hook common to all modules (``hook(module, grad_output)``)."""
    return _register(_global_backward_pre_hooks, hook)


def register_module_full_backward_hook(hook):
    """Registers a backward hook common to all modules (``hook(module, grad_input, grad_output)``)."""
    return _register(_global_backward_hooks, hook)


def _addindent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    first = lines.pop(0)
    return first + "\n" + "\n".join(" " * spaces + line for line in lines)


def _type_name(value):
    """How PyTorch names a wrong value in its assignment errors: 'torch.FloatTensor' for tensors."""
    if isinstance(value, _C.Tensor):
        return value.type() if hasattr(value, "type") else "torch.Tensor"
    return engine.typename(value) if hasattr(engine, "typename") else type(value).__name__


def _forward_unimplemented(self, *input):
    """The computation the module performs on each call; every subclass overrides it.

    Call the module itself (``module(x)``) rather than ``module.forward(x)``: the call also runs
    the registered forward and backward hooks."""
    raise NotImplementedError(
        f'Module [{type(self).__name__}] is missing the required "forward" function'
    )


class Module:
    """Base class for all neural network modules; models subclass it.

    Submodules, parameters and buffers assigned as attributes are registered in order::

        class Model(engine.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = engine.nn.Linear(4, 2)

            def forward(self, x):
                return self.fc(x).relu()
    """

    T_destination = TypeVar("T_destination", bound=dict)
    dump_patches = False
    _version = 1
    training: bool
    call_super_init = False

    def __init__(self, *args, **kwargs):
        if self.call_super_init is False and bool(kwargs):
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                f"'{next(iter(kwargs))}'"
            )
        if self.call_super_init is False and bool(args):
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} were given"
            )
        setattr_ = object.__setattr__
        setattr_(self, "training", True)
        # Registries: dicts that also mirror their entries into __dict__ (see _registry.py).
        setattr_(self, "_parameters", Registry(self.__dict__))
        setattr_(self, "_buffers", Registry(self.__dict__))
        setattr_(self, "_non_persistent_buffers_set", set())
        setattr_(self, "_backward_pre_hooks", OrderedDict())
        setattr_(self, "_backward_hooks", OrderedDict())
        setattr_(self, "_is_full_backward_hook", None)
        setattr_(self, "_forward_hooks", OrderedDict())
        setattr_(self, "_forward_hooks_with_kwargs", {})
        setattr_(self, "_forward_hooks_always_called", {})
        setattr_(self, "_forward_pre_hooks", OrderedDict())
        setattr_(self, "_forward_pre_hooks_with_kwargs", {})
        setattr_(self, "_state_dict_hooks", OrderedDict())
        setattr_(self, "_state_dict_pre_hooks", OrderedDict())
        setattr_(self, "_load_state_dict_pre_hooks", OrderedDict())
        setattr_(self, "_load_state_dict_post_hooks", OrderedDict())
        setattr_(self, "_modules", Registry(self.__dict__))
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    forward = _forward_unimplemented

    # ---- registration ----

    def register_buffer(self, name, tensor, persistent=True):
        """Adds a buffer: state that is not a parameter (running statistics, masks).

        A persistent buffer is part of ``state_dict()``; ``tensor=None`` registers the name with
        no value (left out of the state dict).
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, _C.Tensor):
            raise TypeError(
                f"cannot assign '{_type_name(tensor)}' object to buffer '{name}' (torch Tensor or None required)"
            )
        if isinstance(tensor, Buffer):
            persistent = tensor.persistent
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name, param):
        """Adds a parameter (an ``nn.Parameter`` or ``None``) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_type_name(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        elif param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, compute "
                "the value in the forward() method."
            )
        else:
            self._parameters[name] = param

    def add_module(self, name, module):
        """Adds a child module under ``name`` (``None`` allowed)."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_type_name(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {type(name).__name__}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    def register_module(self, name, module):
        """Alias for :meth:`add_module`."""
        self.add_module(name, module)

    def get_submodule(self, target):
        """The submodule at the dotted path ``target`` (``""`` is the module itself)."""
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def set_submodule(self, target, module, strict=False):
        """Replaces (or with ``strict=False`` also adds) the submodule at the dotted path ``target``."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        atoms = target.split(".")
        if not isinstance(module, Module):
            raise ValueError("`" + "module" + f"` is not an nn.Module, found {type(module)}")
        parent = self.get_submodule(".".join(atoms[:-1])) if len(atoms) > 1 else self
        if strict and not hasattr(parent, atoms[-1]):
            raise AttributeError(parent._get_name() + " has no attribute `" + atoms[-1] + "`")
        if hasattr(parent, atoms[-1]) and not isinstance(getattr(parent, atoms[-1]), Module):
            raise AttributeError("`" + atoms[-1] + "` is not an nn.Module")
        setattr(parent, atoms[-1], module)

    def _owner_and_name(self, target):
        module_path, _, name = target.rpartition(".")
        return self.get_submodule(module_path), name

    def get_parameter(self, target):
        """The parameter at the dotted path ``target``."""
        mod, name = self._owner_and_name(target)
        if not hasattr(mod, name):
            raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        """The buffer at the dotted path ``target``."""
        mod, name = self._owner_and_name(target)
        if not hasattr(mod, name):
            raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
        if name not in mod._buffers:
            raise AttributeError("`" + name + "` is not a buffer")
        return getattr(mod, name)

    def get_extra_state(self):
        """State beyond parameters and buffers to put in ``state_dict()``; override with
        :meth:`set_extra_state`."""
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
            "to report this bug."
        )

    def set_extra_state(self, state):
        """Restores what :meth:`get_extra_state` returned."""
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
            "to report this bug."
        )

    # ---- attribute protocol ----

    def __getattr__(self, name):
        # Members are found in __dict__ (mirrored by the registries) before Python gets here; this
        # covers a module whose __dict__ was replaced behind the registries' back.
        d = self.__dict__
        for store in REGISTRY_NAMES:
            if store in d and name in d[store]:
                return d[store][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        def remove_from(*dicts_or_sets):
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        if name in REGISTRY_NAMES and name in self.__dict__:
            # A whole new member dict (Sequential renumbering, user code): drop the old mirror.
            old = self.__dict__[name]
            for key, member in old.items():
                if self.__dict__.get(key) is member:
                    del self.__dict__[key]
            object.__setattr__(self, name, value)
            bind(self.__dict__)
            return
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(
                self.__dict__,
                self._buffers,
                self._modules,
                self._non_persistent_buffers_set,
            )
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_type_name(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(
                    self.__dict__,
                    self._parameters,
                    self._buffers,
                    self._non_persistent_buffers_set,
                )
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(
                        f"cannot assign '{_type_name(value)}' as child module '{name}' "
                        "(torch.nn.Module or None expected)"
                    )
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if isinstance(value, Buffer) or (buffers is not None and name in buffers):
                    if value is not None and not isinstance(value, _C.Tensor):
                        raise TypeError(
                            f"cannot assign '{_type_name(value)}' as buffer '{name}' "
                            "(torch.nn.Buffer, torch.Tensor or None expected)"
                        )
                    if isinstance(value, Buffer):
                        persistent = value.persistent
                    else:
                        persistent = name not in self._non_persistent_buffers_set
                    remove_from(self.__dict__, self._parameters, self._modules)
                    self.register_buffer(name, value, persistent)
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = dir(type(self)) + list(self.__dict__)
        keys += list(self._parameters) + list(self._modules) + list(self._buffers)
        return sorted(key for key in set(keys) if not key[0].isdigit())

    def __setstate__(self, state):
        self.__dict__.update(state)
        bind(self.__dict__)
        defaults = {
            "_forward_pre_hooks": OrderedDict,
            "_forward_pre_hooks_with_kwargs": dict,
            "_forward_hooks": OrderedDict,
            "_forward_hooks_with_kwargs": dict,
            "_forward_hooks_always_called": dict,
            "_backward_pre_hooks": OrderedDict,
            "_backward_hooks": OrderedDict,
            "_state_dict_hooks": OrderedDict,
            "_state_dict_pre_hooks": OrderedDict,
            "_load_state_dict_pre_hooks": OrderedDict,
            "_load_state_dict_post_hooks": OrderedDict,
            "_non_persistent_buffers_set": set,
        }
        for key, make in defaults.items():
            if key not in self.__dict__:
                self.__dict__[key] = make()
        self.__dict__.setdefault("_is_full_backward_hook", None)

    def __getstate__(self):
        return self.__dict__.copy()

    # ---- iteration ----

    def _named_members(self, get_members_fn, prefix="", recurse=True, remove_duplicate=True):
        memo = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield (module_prefix + ("." if module_prefix else "") + k, v)

    def parameters(self, recurse=True):
        """An iterator over the parameters (each shared parameter once)."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """An iterator over ``(dotted name, parameter)`` pairs."""
        yield from self._named_members(
            lambda module: module._parameters.items(),
            prefix=prefix,
            recurse=recurse,
            remove_duplicate=remove_duplicate,
        )

    def buffers(self, recurse=True):
        """An iterator over the buffers."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """An iterator over ``(dotted name, buffer)`` pairs."""
        yield from self._named_members(
            lambda module: module._buffers.items(),
            prefix=prefix,
            recurse=recurse,
            remove_duplicate=remove_duplicate,
        )

    def children(self):
        """An iterator over the immediate child modules."""
        for _, module in self.named_children():
            yield module

    def named_children(self):
        """An iterator over ``(name, child)`` pairs of the immediate children (each once)."""
        memo = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def modules(self):
        """An iterator over all modules in the tree, this one first (each once)."""
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """An iterator over ``(dotted name, module)`` pairs of the whole tree, this one first."""
        if memo is None:
            memo = set()
        if id(self) in memo:
            return
        if remove_duplicate:
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            submodule_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, submodule_prefix, remove_duplicate)

    # ---- modes and gradients ----

    def train(self, mode=True):
        """Sets training mode (dropout active, batch norm on batch statistics) here and below."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        """Sets evaluation mode: ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        """Sets ``requires_grad`` on every parameter."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Resets the gradients of all parameters: to ``None`` by default, else to zeros."""
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def share_memory(self):
        """Kept for PyTorch compatibility: engine tensors are shared with worker processes on
        pickling as copies, so this does nothing."""
        return self

    # ---- moving ----

    def _apply(self, fn, recurse=True):
        if recurse:
            for module in self.children():
                module._apply(fn)
        for param in self._parameters.values():
            if param is None:
                continue
            with engine.no_grad():
                param_applied = fn(param)
            if param_applied is param:
                continue
            # The parameter object keeps its identity (optimizers hold it): rebind its data.
            param.data = param_applied
            if param.grad is not None:
                with engine.no_grad():
                    grad_applied = fn(param.grad)
                param.grad = grad_applied.requires_grad_(param.grad.requires_grad)
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def apply(self, fn):
        """Calls ``fn`` on every submodule (children first) and on this module, e.g. to
        initialise weights."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def to(self, *args, **kwargs):
        """Moves and/or casts parameters and buffers: ``to(dtype)``, ``to(device)``,
        ``to(device, dtype)``, ``to(tensor)``, ``to(memory_format=engine.channels_last)`` (4-d
        and 5-d tensors only); only floating-point tensors change dtype."""
        memory_format = kwargs.pop("memory_format", None)
        device, dtype = _parse_to(args, kwargs)
        if dtype is not None and not (
            dtype.is_floating_point or getattr(dtype, "is_complex", False)
        ):
            raise TypeError(
                "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype="
                + str(dtype)
            )

        def convert(t):
            if device is not None:
                t = t.to(device)
            if dtype is not None and t.is_floating_point():
                t = t.to(dtype)
            if memory_format is not None and t.dim() in (4, 5):
                t = t.contiguous(memory_format=memory_format)
            return t

        return self._apply(convert)

    def cpu(self):
        """Moves everything to the CPU (where it already is)."""
        return self._apply(lambda t: t.cpu())

    def cuda(self, device=None):
        """Raises as PyTorch does on a machine without CUDA."""
        return self._apply(lambda t: t.cuda(device))

    def type(self, dst_type):
        """Casts all parameters and buffers to ``dst_type``."""
        return self._apply(lambda t: t.type(dst_type))

    def float(self):
        """Casts floating-point parameters and buffers to float32."""
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        """Casts floating-point parameters and buffers to float64."""
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        """Casts floating-point parameters and buffers to float16."""
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        """Casts floating-point parameters and buffers to bfloat16."""
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def to_empty(self, *, device=None, recurse=True):
        """Replaces parameters and buffers by uninitialised tensors of the same shapes on
        ``device`` (None: where each is): how a model built on the meta device gets memory,
        before ``reset_parameters()`` or ``load_state_dict`` fills it."""
        return self._apply(lambda t: engine.empty_like(t, device=device), recurse=recurse)

    # ---- state dicts ----

    def register_state_dict_pre_hook(self, hook):
        """``hook(module, prefix, keep_vars)`` runs before ``state_dict()`` collects this module."""
        return _register(self._state_dict_pre_hooks, hook)

    def register_state_dict_post_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata)`` runs after; it may edit the dict."""
        return _register(self._state_dict_hooks, hook)

    def _register_state_dict_hook(self, hook):
        return self.register_state_dict_post_hook(hook)

    def register_load_state_dict_pre_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` runs before this module loads its part."""
        return _register(
            self._load_state_dict_pre_hooks,
            functools.partial(_with_module, hook, weakref.ref(self)),
        )

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        if with_module:
            return self.register_load_state_dict_pre_hook(hook)
        return _register(self._load_state_dict_pre_hooks, hook)

    def register_load_state_dict_post_hook(self, hook):
        """``hook(module, incompatible_keys)`` runs after ``load_state_dict``; it may edit the
        key lists in place."""
        return _register(self._load_state_dict_post_hooks, hook)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + "_extra_state"] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """An ordered dict of every parameter and persistent buffer under its dotted name
        (detached unless ``keep_vars``), with per-module versions in ``_metadata``."""
        if args:
            # PyTorch still accepts (destination, prefix, keep_vars) positionally, with a warning.
            import warnings

            warnings.warn(
                "Positional args are being deprecated, use kwargs instead. Refer to "
                "https://pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.state_dict"
                " for details.",
                FutureWarning,
                stacklevel=2,
            )
            names = ("destination", "prefix", "keep_vars")
            given = dict(zip(names, args))
            destination = given.get("destination", destination)
            prefix = given.get("prefix", prefix)
            keep_vars = given.get("keep_vars", keep_vars)
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(
                    destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars
                )
        for hook in self._state_dict_hooks.values():
            result = hook(self, destination, prefix, local_metadata)
            if result is not None:
                destination = result
        return destination

    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ):
        for hook in self._load_state_dict_pre_hooks.values():
            hook(
                state_dict,
                prefix,
                local_metadata,
                strict,
                missing_keys,
                unexpected_keys,
                error_msgs,
            )
        persistent_buffers = {
            k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set
        }
        local_state = {
            k: v
            for k, v in itertools.chain(self._parameters.items(), persistent_buffers.items())
            if v is not None
        }
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, _C.Tensor):
                error_msgs.append(
                    f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like '
                    f"object from checkpoint but received {type(input_param)}"
                )
                continue
            if tuple(input_param.shape) != tuple(param.shape):
                error_msgs.append(
                    f"size mismatch for {key}: copying a param with shape {input_param.shape} from "
                    f"checkpoint, the shape in current model is {param.shape}."
                )
                continue
            try:
                with engine.no_grad():
                    if assign:
                        if isinstance(param, Parameter):
                            if not isinstance(input_param, Parameter):
                                input_param = Parameter(
                                    input_param, requires_grad=param.requires_grad
                                )
                            else:
                                input_param.requires_grad_(param.requires_grad)
                        setattr(self, name, input_param)
                    else:
                        param.copy_(input_param)
            except Exception as ex:  # noqa: BLE001 - reported as PyTorch reports it
                action = "swapping" if assign else "copying"
                error_msgs.append(
                    f'While {action} the parameter named "{key}", whose dimensions in the model are '
                    f"{param.shape} and whose dimensions in the checkpoint are {input_param.shape}, "
                    f"an exception occurred : {ex.args}."
                )
        extra_state_key = prefix + "_extra_state"
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra_state_key in state_dict:
                self.set_extra_state(state_dict[extra_state_key])
            elif strict:
                missing_keys.append(extra_state_key)
        elif strict and extra_state_key in state_dict:
            unexpected_keys.append(extra_state_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_state_key:
                    input_name = key[len(prefix) :].split(".", 1)
                    if input_name[0] not in self._modules and input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copies parameters and buffers from ``state_dict`` into this module and its
        descendants; with ``strict`` (default) missing or unexpected keys are errors. Returns
        ``(missing_keys, unexpected_keys)``."""
        from collections.abc import Mapping

        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        _load_tree(
            self, state_dict, "", metadata, assign, missing_keys, unexpected_keys, error_msgs
        )
        if strict:
            if unexpected_keys:
                error_msgs.insert(
                    0,
                    "Unexpected key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in unexpected_keys)
                    ),
                )
            if missing_keys:
                error_msgs.insert(
                    0,
                    "Missing key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in missing_keys)
                    ),
                )
        if error_msgs:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(
                    type(self).__name__, "\n\t".join(error_msgs)
                )
            )
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # ---- hooks ----

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """``hook(module, args)`` (or ``hook(module, args, kwargs)`` with ``with_kwargs``) runs
        before ``forward``; a non-None result replaces the arguments."""
        handle = _register(
            self._forward_pre_hooks, hook, prepend, extra=[self._forward_pre_hooks_with_kwargs]
        )
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """``hook(module, args, output)`` (or with kwargs) runs after ``forward``; a non-None
        result replaces the output. ``always_call`` runs it even when forward raised."""
        handle = _register(
            self._forward_hooks,
            hook,
            prepend,
            extra=[self._forward_hooks_with_kwargs, self._forward_hooks_always_called],
        )
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """``hook(module, grad_output)`` runs when the gradients of the module's outputs are
        known; a non-None result replaces them."""
        return _register(self._backward_pre_hooks, hook, prepend)

    def register_full_backward_hook(self, hook, prepend=False):
        """``hook(module, grad_input, grad_output)`` runs when the gradients of the module's
        tensor inputs are computed; a non-None result replaces ``grad_input``."""
        if self._is_full_backward_hook is False:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single Module. "
                "Please use only one of them."
            )
        self._is_full_backward_hook = True
        return _register(self._backward_hooks, hook, prepend)

    def register_backward_hook(self, hook):
        """The legacy backward hook; engine runs it as a full backward hook (what PyTorch
        recommends, and what its legacy hook gets wrong for modules of several operations)."""
        if self._is_full_backward_hook is True:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single Module. "
                "Please use only one of them."
            )
        self._is_full_backward_hook = False
        return _register(self._backward_hooks, hook)

    def _get_backward_hooks(self):
        return list(_global_backward_hooks.values()) + list(self._backward_hooks.values())

    def _get_backward_pre_hooks(self):
        return list(_global_backward_pre_hooks.values()) + list(self._backward_pre_hooks.values())

    # ---- calling ----

    def _call_impl(self, *args, **kwargs):
        forward_call = self.forward
        if not (
            self._backward_hooks
            or self._backward_pre_hooks
            or self._forward_hooks
            or self._forward_pre_hooks
            or _global_backward_pre_hooks
            or _global_backward_hooks
            or _global_forward_hooks
            or _global_forward_pre_hooks
        ):
            return forward_call(*args, **kwargs)
        return _call_with_hooks(self, forward_call, args, kwargs)

    __call__ = _call_impl

    # ---- printing ----

    def extra_repr(self):
        """The text between the parentheses of this module's repr; layers override it."""
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra_lines = []
        extra = self.extra_repr()
        if extra:
            extra_lines = extra.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            mod_str = _addindent(repr(module), 2)
            child_lines.append("(" + key + "): " + mod_str)
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        main_str += ")"
        return main_str

    def compile(self, *args, **kwargs):
        """engine runs modules eagerly; ``compile`` leaves the module as it is."""
        return None


def _load_tree(
    module, local_state_dict, prefix, metadata, assign, missing_keys, unexpected_keys, error_msgs
):
    """Loads `module`'s part of the state dict, then its children's, then runs its post-hooks."""
    local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
    if assign:
        local_metadata["assign_to_params_buffers"] = assign
    module._load_from_state_dict(
        local_state_dict,
        prefix,
        local_metadata,
        True,
        missing_keys,
        unexpected_keys,
        error_msgs,
    )
    for name, child in module._modules.items():
        if child is not None:
            child_prefix = prefix + name + "."
            child_state_dict = {
                k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)
            }
            _load_tree(
                child,
                child_state_dict,
                child_prefix,
                metadata,
                assign,
                missing_keys,
                unexpected_keys,
                error_msgs,
            )
    incompatible = _IncompatibleKeys(missing_keys, unexpected_keys)
    for hook in module._load_state_dict_post_hooks.values():
        out = hook(module, incompatible)
        if out is not None:
            raise RuntimeError(
                "Hooks registered with ``register_load_state_dict_post_hook`` are not"
                "expected to return new values, if incompatible_keys need to be modified,"
                "it should be done inplace."
            )


def _with_module(hook, module_ref, *args, **kwargs):
    return hook(module_ref(), *args, **kwargs)


def _parse_to(args, kwargs):
    """(device, dtype) from the arguments of ``Module.to`` / ``Tensor.to``."""
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    kwargs.pop("copy", None)
    if kwargs:
        raise TypeError(
            f"to() received an invalid combination of arguments - got unexpected keyword {next(iter(kwargs))!r}"
        )
    for arg in args:
        if isinstance(arg, _C.Tensor):
            device, dtype = arg.device, arg.dtype
        elif isinstance(arg, engine.dtype):
            dtype = arg
        elif isinstance(arg, (str, int, engine.device)):
            device = engine.device(arg) if not isinstance(arg, int) else engine.device("cuda", arg)
        elif isinstance(arg, bool):
            continue
        else:
            raise TypeError(
                f"to() received an invalid combination of arguments - got ({type(arg).__name__})"
            )
    return device, dtype


def _call_with_hooks(module, forward_call, args, kwargs):
    from engine.nn.modules._backward_hooks import BackwardHook

    called_always_hooks = set()
    result = None
    full_backward_hooks = module._get_backward_hooks()
    backward_pre_hooks = module._get_backward_pre_hooks()
    try:
        for hook_id, hook in itertools.chain(
            _global_forward_pre_hooks.items(), module._forward_pre_hooks.items()
        ):
            if hook_id in module._forward_pre_hooks_with_kwargs:
                result = hook(module, args, kwargs)
                if result is not None:
                    if isinstance(result, tuple) and len(result) == 2:
                        args, kwargs = result
                    else:
                        raise RuntimeError(
                            "forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                            f"but got {result}."
                        )
            else:
                result = hook(module, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        bw_hook = None
        if full_backward_hooks or backward_pre_hooks:
            bw_hook = BackwardHook(module, full_backward_hooks, backward_pre_hooks)
            args = bw_hook.setup_input_hook(args)
        result = forward_call(*args, **kwargs)
        for hook_id, hook in itertools.chain(
            _global_forward_hooks.items(), module._forward_hooks.items()
        ):
            if (
                hook_id in _global_forward_hooks_always_called
                or hook_id in module._forward_hooks_always_called
            ):
                called_always_hooks.add(hook_id)
            if hook_id in module._forward_hooks_with_kwargs:
                hook_result = hook(module, args, kwargs, result)
            else:
                hook_result = hook(module, args, result)
            if hook_result is not None:
                result = hook_result
        if bw_hook is not None:
            result = bw_hook.setup_output_hook(result)
        return result
    except Exception:
        for hook_id, hook in itertools.chain(
            _global_forward_hooks.items(), module._forward_hooks.items()
        ):
            always = (
                hook_id in _global_forward_hooks_always_called
                or hook_id in module._forward_hooks_always_called
            )
            if always and hook_id not in called_always_hooks:
                try:
                    if hook_id in module._forward_hooks_with_kwargs:
                        hook(module, args, kwargs, result)
                    else:
                        hook(module, args, result)
                except Exception as e:  # noqa: BLE001 - PyTorch warns and re-raises the original
                    import warnings

                    warnings.warn(
                        "global module forward hook with ``always_call=True`` raised an exception "
                        f"that was silenced as another error was raised in forward: {str(e)}",
                        stacklevel=2,
                    )
        raise
