"""Optimizer: the bookkeeping every engine.optim algorithm shares (``torch.optim.Optimizer``).

Parameter groups with defaults, per-parameter ``state``, ``zero_grad``, step hooks and
``state_dict()`` / ``load_state_dict()`` in PyTorch's format (state keyed by integer parameter
index, each group's ``params`` a list of indices). The update math itself runs natively, one call
per group and step (``engine._C._optim_*``).
"""

import functools
import warnings
from collections import OrderedDict, defaultdict
from copy import deepcopy
from itertools import chain

import engine
from engine.utils.hooks import RemovableHandle

__all__ = [
    "Optimizer",
    "register_optimizer_step_post_hook",
    "register_optimizer_step_pre_hook",
    "required",
]


class _RequiredParameter:
    """Singleton marking a hyperparameter that every parameter group must give."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()

_global_optimizer_pre_hooks = OrderedDict()
_global_optimizer_post_hooks = OrderedDict()
_hook_ids = iter(range(1 << 62))


def _add_hook(hooks, hook, prepend=False):
    key = next(_hook_ids)
    hooks[key] = hook
    if prepend:
        hooks.move_to_end(key, last=False)
    return RemovableHandle(lambda: hooks.pop(key, None))


def register_optimizer_step_pre_hook(hook):
    """Registers ``hook(optimizer, args, kwargs)`` to run before every optimizer's ``step``."""
    return _add_hook(_global_optimizer_pre_hooks, hook)


def register_optimizer_step_post_hook(hook):
    """Registers ``hook(optimizer, args, kwargs)`` to run after every optimizer's ``step``."""
    return _add_hook(_global_optimizer_post_hooks, hook)


def _typename(obj):
    if isinstance(obj, engine.Tensor):
        return "torch." + type(obj).__name__ if type(obj) is engine.Tensor else type(obj).__name__
    module = type(obj).__module__
    name = type(obj).__qualname__
    return name if module in ("builtins", "__builtin__", None) else module + "." + name


def _with_step_hooks(step):
    """Wraps a subclass's ``step`` so the global and per-instance step hooks run around it."""

    @functools.wraps(step)
    def wrapper(*args, **kwargs):
        self = args[0]
        for pre_hook in chain(
            _global_optimizer_pre_hooks.values(), self._optimizer_step_pre_hooks.values()
        ):
            result = pre_hook(self, args, kwargs)
            if result is not None:
                if isinstance(result, tuple) and len(result) == 2:
                    args, kwargs = result
                else:
                    raise RuntimeError(
                        f"{step} must return None or a tuple of (new_args, new_kwargs), but got {result}."
                    )
        out = step(*args, **kwargs)
        for post_hook in chain(
            self._optimizer_step_post_hooks.values(), _global_optimizer_post_hooks.values()
        ):
            post_hook(self, args, kwargs)
        return out

    wrapper._engine_step_hooked = True
    return wrapper


class Optimizer:
    """Base class of all optimizers.

    Args:
        params: an iterable of tensors, of ``(name, tensor)`` pairs, or of dicts defining
            parameter groups (each with a ``"params"`` entry and optional per-group options).
        defaults: the options a group takes when it does not set them.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        step = cls.__dict__.get("step")
        if step is not None and not getattr(step, "_engine_step_hooked", False):
            cls.step = _with_step_hooks(step)

    def __init__(self, params, defaults):
        self.defaults = defaults
        self._optimizer_step_pre_hooks = OrderedDict()
        self._optimizer_step_post_hooks = OrderedDict()
        self._optimizer_state_dict_pre_hooks = OrderedDict()
        self._optimizer_state_dict_post_hooks = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks = OrderedDict()
        self._optimizer_load_state_dict_post_hooks = OrderedDict()
        if isinstance(params, engine.Tensor):
            raise TypeError(
                "params argument given to the optimizer should be "
                "an iterable of Tensors or dicts, but got " + _typename(params)
            )
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in (
            "_optimizer_step_pre_hooks",
            "_optimizer_step_post_hooks",
            "_optimizer_state_dict_pre_hooks",
            "_optimizer_state_dict_post_hooks",
            "_optimizer_load_state_dict_pre_hooks",
            "_optimizer_load_state_dict_post_hooks",
        ):
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())

    def __repr__(self):
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    # -- parameter groups -------------------------------------------------------------------------

    def add_param_group(self, param_group):
        """Adds a parameter group (a dict with ``"params"`` and optional options) to the optimizer."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, engine.Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but "
                "the ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)

        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) != len(tensors):
                raise ValueError(
                    "all optimizer params should be with/without names. Some param names are missing"
                )
            param_group["param_names"] = names

        for param in tensors:
            if not isinstance(param, engine.Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    + _typename(param)
                )
            if not self.defaults.get("differentiable", None) and not (
                param.is_leaf or param.retains_grad
            ):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    f"parameter group didn't specify a value of required optimization parameter {name}"
                )
            param_group.setdefault(name, default)

        if len(tensors) != len(set(tensors)):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; "
                "in future, this will cause an error; "
                "see github.com/pytorch/pytorch/issues/40967 for more information",
                stacklevel=3,
            )

        seen = set()
        for group in self.param_groups:
            seen.update(group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                kind = "with names" if "param_names" in param_group else "without names"
                raise ValueError(
                    "all optimizer param groups should be with/without names. "
                    f"cannot add param group {kind} to the optimizer"
                )
        if not seen.isdisjoint(tensors):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    # -- gradients and steps ----------------------------------------------------------------------

    def zero_grad(self, set_to_none=True):
        """Resets the gradients of all optimized tensors: to None (default), or to zeros in place."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def step(self, closure=None):
        """Performs one optimization step; ``closure`` re-evaluates the model and returns the loss."""
        raise NotImplementedError

    def register_step_pre_hook(self, hook):
        """Registers ``hook(optimizer, args, kwargs)`` to run before this optimizer's ``step``.

        The hook may return a new ``(args, kwargs)`` pair for ``step``.
        """
        return _add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        """Registers ``hook(optimizer, args, kwargs)`` to run after this optimizer's ``step``."""
        return _add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend=False):
        """Registers ``hook(optimizer)`` to run before ``state_dict()``."""
        return _add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend=False):
        """Registers ``hook(optimizer, state_dict)`` to run after ``state_dict()``; it may return a new dict."""
        return _add_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend=False):
        """Registers ``hook(optimizer, state_dict)`` to run before loading; it may return a new dict."""
        return _add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend=False):
        """Registers ``hook(optimizer)`` to run after ``load_state_dict()``."""
        return _add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # -- state dicts ------------------------------------------------------------------------------

    def state_dict(self):
        """The optimizer's state as a dict: ``state`` keyed by parameter index, and ``param_groups``.

        Parameters are numbered in the order they appear across the groups; the state tensors are
        the optimizer's own (not copies), as in PyTorch.
        """
        for hook in self._optimizer_state_dict_pre_hooks.values():
            hook(self)
        mapping = {}
        start = 0

        def pack_group(group):
            nonlocal start
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                mapping.setdefault(id(p), i)
            packed["params"] = [mapping[id(p)] for p in group["params"]]
            start += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {
            (mapping[id(k)] if isinstance(k, engine.Tensor) else k): v
            for k, v in self.state.items()
        }
        result = {"state": packed_state, "param_groups": param_groups}
        for hook in self._optimizer_state_dict_post_hooks.values():
            out = hook(self, result)
            if out is not None:
                result = out
        return result

    @staticmethod
    def _cast_state_value(param, value, key=None):
        # Floating state follows its parameter's dtype; the step counter stays as saved.
        if isinstance(value, engine.Tensor):
            if key != "step" and param.is_floating_point():
                return value.to(dtype=param.dtype)
            return value
        if isinstance(value, dict):
            return {k: Optimizer._cast_state_value(param, v, key=k) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(Optimizer._cast_state_value(param, v, key=key) for v in value)
        return value

    def load_state_dict(self, state_dict):
        """Loads a ``state_dict()`` result: parameters are matched by their position in the groups."""
        state_dict = state_dict.copy()
        for hook in self._optimizer_load_state_dict_pre_hooks.values():
            out = hook(self, state_dict)
            if out is not None:
                state_dict = out
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"
            )
        id_map = dict(
            zip(
                chain.from_iterable(g["params"] for g in saved_groups),
                chain.from_iterable(g["params"] for g in groups),
            )
        )
        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = self._cast_state_value(param, v)
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})
        for hook in self._optimizer_load_state_dict_post_hooks.values():
            hook(self)

    # -- helpers for the algorithms ---------------------------------------------------------------

    def _params_with_grad(self, group):
        """The group's parameters that have a gradient, with those gradients."""
        params, grads = [], []
        for p in group["params"]:
            if p.grad is not None:
                params.append(p)
                grads.append(p.grad)
        return params, grads

    def _states(self, params, init, scalars=("step",)):
        """The state of each of ``params``: filled by ``init(state, p, i)`` on a parameter's first
        step; otherwise the counters named in ``scalars``, when a state dict loaded them as
        numbers, become the 0-d tensors PyTorch keeps them as."""
        states = []
        for i, p in enumerate(params):
            state = self.state[p]
            if len(state) == 0:
                init(state, p, i)
            else:
                for key in scalars:
                    if not isinstance(state[key], engine.Tensor):
                        state[key] = _step_tensor(state[key])
            states.append(state)
        return states


def _real_views(tensors):
    """Complex tensors as their (real, imaginary) views: the update rules treat each half as a
    parameter of its own, as PyTorch's optimizers do (view_as_real)."""
    return [engine.view_as_real(t) if t is not None and t.is_complex() else t for t in tensors]


def _scalar(value):
    """A hyperparameter as a Python float (groups may hold 1-element tensors, e.g. lr)."""
    return float(value.item()) if isinstance(value, engine.Tensor) else float(value)


def _step_tensor(value=0.0):
    """A fresh step counter: a 0-d tensor of the default float dtype's scalar type, as PyTorch's."""
    dtype = engine.float64 if engine.get_default_dtype() == engine.float64 else engine.float32
    return engine.tensor(float(value), dtype=dtype)


def _check_lr(lr, foreach=None, capturable=False):
    if isinstance(lr, engine.Tensor):
        if foreach and not capturable:
            raise ValueError(
                "lr as a Tensor is not supported for capturable=False and foreach=True"
            )
        if lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def _check_unsupported(fname, differentiable=False, capturable=False):
    if differentiable:
        raise NotImplementedError(f"{fname}: differentiable=True is not supported by engine.optim")
    if capturable:
        raise NotImplementedError(
            f"{fname}: capturable=True needs an accelerator; engine runs on the CPU"
        )


def _closure_loss(closure):
    if closure is None:
        return None
    with engine.enable_grad():
        return closure()
