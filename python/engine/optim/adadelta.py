"""Adadelta: step sizes from running averages of squared gradients and squared updates."""

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

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta (``torch.optim.Adadelta``): ``v = rho * v + (1 - rho) * g * g``,
    ``delta = sqrt(u + eps) / sqrt(v + eps) * g``, ``u = rho * u + (1 - rho) * delta**2``,
    ``param -= lr * delta``."""

    def __init__(
        self,
        params,
        lr=1.0,
        rho=0.9,
        eps=1e-6,
        weight_decay=0,
        foreach=None,
        *,
        capturable=False,
        maximize=False,
        differentiable=False,
    ):
        _check_lr(lr, foreach, capturable)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        check_nonnegative(eps, "epsilon")
        check_nonnegative(weight_decay, "weight_decay")
        defaults = {
            "lr": lr,
            "rho": rho,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "capturable": capturable,
            "foreach": foreach,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)
        _check_unsupported("Adadelta", differentiable, capturable)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            group.setdefault("capturable", False)

    @engine.no_grad()
    def step(self, closure=None):
        """Performs a single optimization step; ``closure`` re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params, grads = self._params_with_grad(group)
            if not params:
                continue

            def init(state, p, i):
                state["step"] = _step_tensor()
                state["square_avg"] = engine.zeros_like(p)
                state["acc_delta"] = engine.zeros_like(p)

            states = self._states(params, init)
            _C._optim_adadelta(
                _real_views(params),
                _real_views(grads),
                _real_views([s["square_avg"] for s in states]),
                _real_views([s["acc_delta"] for s in states]),
                [s["step"] for s in states],
                lr=_scalar(group["lr"]),
                rho=_scalar(group["rho"]),
                eps=_scalar(group["eps"]),
                weight_decay=_scalar(group["weight_decay"]),
                maximize=bool(group["maximize"]),
            )
        return loss
