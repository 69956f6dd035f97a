"""ASGD: averaged stochastic gradient descent."""

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

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """ASGD (``torch.optim.ASGD``): SGD with the step ``eta = lr / (1 + lambd * lr * t)**alpha``
    and a decay ``1 - lambd * eta``, keeping in ``state["ax"]`` the running average of the
    parameter from step ``t0`` on (``mu = 1 / max(1, t - t0)``)."""

    def __init__(
        self,
        params,
        lr=1e-2,
        lambd=1e-4,
        alpha=0.75,
        t0=1e6,
        weight_decay=0,
        foreach=None,
        maximize=False,
        differentiable=False,
        capturable=False,
    ):
        _check_lr(lr, foreach, capturable)
        check_nonnegative(weight_decay, "weight_decay")
        defaults = {
            "lr": lr,
            "lambd": lambd,
            "alpha": alpha,
            "t0": t0,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)
        _check_unsupported("ASGD", differentiable, capturable)

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

            def init(state, p, i, group=group):
                state["step"] = _step_tensor()
                state["eta"] = _step_tensor(_scalar(group["lr"]))
                state["mu"] = _step_tensor(1.0)
                state["ax"] = engine.zeros_like(p)

            states = self._states(params, init, ("step", "eta", "mu"))
            _C._optim_asgd(
                _real_views(params),
                _real_views(grads),
                _real_views([s["ax"] for s in states]),
                [s["mu"] for s in states],
                [s["eta"] for s in states],
                [s["step"] for s in states],
                lr=_scalar(group["lr"]),
                lambd=_scalar(group["lambd"]),
                alpha=_scalar(group["alpha"]),
                t0=_scalar(group["t0"]),
                weight_decay=_scalar(group["weight_decay"]),
                maximize=bool(group["maximize"]),
            )
        return loss
