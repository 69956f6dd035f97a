"""NAdam: Adam with Nesterov momentum and a momentum schedule."""

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

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """NAdam (``torch.optim.NAdam``): the momentum coefficient follows
    ``mu_t = beta1 * (1 - 0.5 * 0.96**(t * momentum_decay))``; the state keeps their running
    product (``mu_product``, a 0-d float32 tensor). ``decoupled_weight_decay`` gives NAdamW."""

    def __init__(
        self,
        params,
        lr=2e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        momentum_decay=4e-3,
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
        check_nonnegative(momentum_decay, "momentum_decay")
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "momentum_decay": momentum_decay,
            "decoupled_weight_decay": decoupled_weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)
        _check_unsupported("NAdam", differentiable, capturable)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("capturable", False)
            group.setdefault("differentiable", False)
            group.setdefault("decoupled_weight_decay", False)

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
                state["mu_product"] = _step_tensor(1.0)
                state["exp_avg"] = engine.zeros_like(p)
                state["exp_avg_sq"] = engine.zeros_like(p)

            states = self._states(params, init, ("step", "mu_product"))
            beta1, beta2 = group["betas"]
            _C._optim_nadam(
                _real_views(params),
                _real_views(grads),
                _real_views([s["exp_avg"] for s in states]),
                _real_views([s["exp_avg_sq"] for s in states]),
                [s["mu_product"] for s in states],
                [s["step"] for s in states],
                lr=_scalar(group["lr"]),
                beta1=_scalar(beta1),
                beta2=_scalar(beta2),
                eps=_scalar(group["eps"]),
                weight_decay=_scalar(group["weight_decay"]),
                momentum_decay=_scalar(group["momentum_decay"]),
                decoupled_weight_decay=bool(group["decoupled_weight_decay"]),
                maximize=bool(group["maximize"]),
            )
        return loss
