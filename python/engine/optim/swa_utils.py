"""Weight averaging: stochastic weight averaging (SWA) and exponential moving averages (EMA) of a
model's parameters, the SWA learning-rate schedule, and recomputing batch-norm statistics for
the averaged weights."""

import itertools
import math
from copy import deepcopy

import engine
from engine.nn.modules.module import Module
from engine.optim.lr_scheduler import LRScheduler, _format_param, _warn_get_lr_called_within_step

__all__ = [
    "SWALR",
    "AveragedModel",
    "get_ema_avg_fn",
    "get_ema_multi_avg_fn",
    "get_swa_avg_fn",
    "get_swa_multi_avg_fn",
    "update_bn",
]


def _check_decay(decay):
    if decay < 0.0 or decay > 1.0:
        raise ValueError(
            f"Invalid decay value {decay} provided. Please provide a value in [0,1] range."
        )


def get_ema_multi_avg_fn(decay=0.999):
    """An in-place update of lists of averaged tensors: ``ema = decay * ema + (1 - decay) * p``."""
    _check_decay(decay)

    def ema_update(ema_param_list, current_param_list, _):
        with engine.no_grad():
            for ema, current in zip(ema_param_list, current_param_list):
                if ema.is_floating_point():
                    ema.lerp_(current, 1 - decay)
                else:
                    ema.copy_(ema * decay + current * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn():
    """An in-place update of lists of averaged tensors to the running mean of the models seen."""

    def swa_update(averaged_param_list, current_param_list, num_averaged):
        with engine.no_grad():
            n = float(num_averaged)
            for averaged, current in zip(averaged_param_list, current_param_list):
                if averaged.is_floating_point():
                    averaged.lerp_(current, 1 / (n + 1))
                else:
                    averaged.add_((current - averaged) / (n + 1))

    return swa_update


def get_ema_avg_fn(decay=0.999):
    """``avg_fn(ema, p, n) -> decay * ema + (1 - decay) * p`` for :class:`AveragedModel`."""
    _check_decay(decay)

    def ema_update(ema_param, current_param, num_averaged):
        with engine.no_grad():
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    """``avg_fn(avg, p, n) -> avg + (p - avg) / (n + 1)``: the running mean."""

    def swa_update(averaged_param, current_param, num_averaged):
        with engine.no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A copy of ``model`` whose parameters are the average (SWA by default, or what ``avg_fn`` /
    ``multi_avg_fn`` compute, e.g. an EMA) of ``model``'s at each :meth:`update_parameters`.
    Buffers are copied from ``model`` unless ``use_buffers=True``, which averages them too.

    Example::

        >>> model = engine.nn.Linear(2, 1)
        >>> ema = engine.optim.swa_utils.AveragedModel(
        ...     model, multi_avg_fn=engine.optim.swa_utils.get_ema_multi_avg_fn(0.9))
        >>> ema.update_parameters(model)
        >>> int(ema.n_averaged)
        1
    """

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", engine.tensor(0, dtype=engine.long))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        """Folds ``model``'s current parameters into the average (the first call copies them)."""
        if self.use_buffers:
            mine = itertools.chain(self.module.parameters(), self.module.buffers())
            theirs = itertools.chain(model.parameters(), model.buffers())
        else:
            mine, theirs = self.parameters(), model.parameters()
        averaged, current = [], []
        first = int(self.n_averaged) == 0
        for p_averaged, p_model in zip(mine, theirs):
            averaged.append(p_averaged.detach())
            current.append(p_model.detach())
            if first:
                p_averaged.detach().copy_(p_model.detach())
        if not first:
            n = self.n_averaged
            if self.avg_fn is None:
                (self.multi_avg_fn or get_swa_multi_avg_fn())(averaged, current, n)
            else:
                for p_averaged, p_model in zip(averaged, current):
                    p_averaged.copy_(self.avg_fn(p_averaged, p_model, n))
        if not self.use_buffers:
            # Statistics such as batch norm's are not averaged: the latest model's are kept
            # (update_bn recomputes them for the averaged weights).
            for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                b_swa.detach().copy_(b_model.detach())
        self.n_averaged += 1


def update_bn(loader, model, device=None):
    """Recomputes the running statistics of ``model``'s batch-norm layers with one pass over
    ``loader`` (cumulative averages), as the averaged weights need their own."""
    from engine.nn.modules.batchnorm import _BatchNorm

    with engine.no_grad():
        momenta = {}
        for module in model.modules():
            if isinstance(module, _BatchNorm):
                module.reset_running_stats()
                momenta[module] = module.momentum
        if not momenta:
            return
        was_training = model.training
        model.train()
        for module in momenta:
            module.momentum = None
        for input in loader:
            if isinstance(input, (list, tuple)):
                input = input[0]
            if device is not None:
                input = input.to(device)
            model(input)
        for module, momentum in momenta.items():
            module.momentum = momentum
        model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's learning rate to ``swa_lr`` over ``anneal_epochs`` steps (``"cos"`` or
    ``"linear"``), then keeps it there: the schedule used while SWA averages weights."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1):
        swa_lrs = _format_param("swa_lr", optimizer, swa_lr)
        for value, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = value
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        return swa_lr if alpha == 1 else (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        # The lr before annealing, recovered from the current one (other schedulers may have
        # changed it), then moved toward swa_lr.
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        prev_lrs = [
            self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
            for group in self.optimizer.param_groups
        ]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [
            group["swa_lr"] * alpha + lr * (1 - alpha)
            for group, lr in zip(self.optimizer.param_groups, prev_lrs)
        ]

    def _set_anneal_func(self, anneal_strategy):
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self):
        return {
            key: value
            for key, value in self.__dict__.items()
            if key not in ("optimizer", "anneal_func")
        }

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
