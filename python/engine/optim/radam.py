"""RAdam: Adam with a rectified adaptive learning rate."""

import engine
from engine import _C
from engine.optim._validation import check_betas, check_nonnegative
from engine.optim.optimizer import (
    Optimizer,
    _check_lr,
    _check_unsupported,
    _closure_loss,
    _real_views,
    _scalar,
    _step_tensor,
)

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """RAdam (``torch.optim.RAdam``): plain momentum steps while the variance estimate is
    intractable (``rho_t <= 5``), rectified Adam steps after. ``decoupled_weight_decay`` gives
    RAdamW."""

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        decoupled_weight_decay=False,
        *,
        foreach=None,
        maximize=False,
        capturable=False,
        differentiable=False,
    ):
        _check_lr(lr, foreach, capturable)
        check_nonnegative(eps, "epsilon")
        betas = check_betas(betas)
        check_nonnegative(weight_decay, "weight_decay")
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "decoupled_weight_decay": decoupled_weight_decay,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)
        _check_unsupported("RAdam", differentiable, capturable)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            group.setdefault("decoupled_weight_decay", False)
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
                state["exp_avg"] = engine.zeros_like(p)
                state["exp_avg_sq"] = engine.zeros_like(p)

            states = self._states(params, init)
            beta1, beta2 = group["betas"]
            _C._optim_radam(
                _real_views(params),
                _real_views(grads),
                _real_views([s["exp_avg"] for s in states]),
                _real_views([s["exp_avg_sq"] for s in states]),
                [s["step"] for s in states],
                lr=_scalar(group["lr"]),
                beta1=_scalar(beta1),
                beta2=_scalar(beta2),
                eps=_scalar(group["eps"]),
                weight_decay=_scalar(group["weight_decay"]),
                decoupled_weight_decay=bool(group["decoupled_weight_decay"]),
                maximize=bool(group["maximize"]),
            )
        return loss
