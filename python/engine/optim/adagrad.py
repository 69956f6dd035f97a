"""Adagrad: per-element learning rates from the accumulated squared gradients."""

import engine
from engine import _C
from engine.optim._validation import check_nonnegative
from engine.optim.optimizer import (
    Optimizer,
    _check_lr,
    _check_unsupported,
    _closure_loss,
    _real_views,
    _scalar,
    _step_tensor,
)

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad (``torch.optim.Adagrad``): ``sum += g * g``, ``param -= clr * g / (sqrt(sum) + eps)``
    with ``clr = lr / (1 + (t - 1) * lr_decay)``. The state is created with the optimizer."""

    def __init__(
        self,
        params,
        lr=1e-2,
        lr_decay=0,
        weight_decay=0,
        initial_accumulator_value=0,
        eps=1e-10,
        foreach=None,
        *,
        maximize=False,
        differentiable=False,
        fused=None,
    ):
        _check_lr(lr, foreach)
        check_nonnegative(lr_decay, "lr_decay")
        check_nonnegative(weight_decay, "weight_decay")
        check_nonnegative(initial_accumulator_value, "initial_accumulator_value")
        check_nonnegative(eps, "epsilon")
        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
        _check_unsupported("Adagrad", differentiable)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = _step_tensor()
                state["sum"] = engine.full_like(p, group["initial_accumulator_value"])

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            group.setdefault("fused", None)

    def share_memory(self):
        """Kept for PyTorch compatibility: engine tensors live in ordinary process memory."""

    @engine.no_grad()
    def step(self, closure=None):
        """Performs a single optimization step; ``closure`` re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params, grads = self._params_with_grad(group)
            if not params:
                continue
            states = [self.state[p] for p in params]
            for s in states:
                if not isinstance(s["step"], engine.Tensor):
                    s["step"] = _step_tensor(s["step"])
            _C._optim_adagrad(
                _real_views(params),
                _real_views(grads),
                _real_views([s["sum"] for s in states]),
                [s["step"] for s in states],
                lr=_scalar(group["lr"]),
                lr_decay=_scalar(group["lr_decay"]),
                weight_decay=_scalar(group["weight_decay"]),
                eps=_scalar(group["eps"]),
                maximize=bool(group["maximize"]),
            )
        return loss
