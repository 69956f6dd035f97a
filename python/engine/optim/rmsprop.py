"""RMSprop, optionally centered and with momentum."""

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

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop (``torch.optim.RMSprop``): divides the gradient by a running root mean square.

    ``v = alpha * v + (1 - alpha) * g * g``; ``centered`` subtracts the square of a running mean of
    ``g``; the step is ``lr * g / (sqrt(v) + eps)``, accumulated in a buffer with ``momentum``.
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        alpha=0.99,
        eps=1e-8,
        weight_decay=0,
        momentum=0,
        centered=False,
        capturable=False,
        foreach=None,
        maximize=False,
        differentiable=False,
    ):
        _check_lr(lr, foreach, capturable)
        check_nonnegative(eps, "epsilon")
        check_nonnegative(momentum, "momentum")
        check_nonnegative(weight_decay, "weight_decay")
        check_nonnegative(alpha, "alpha")
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)
        _check_unsupported("RMSprop", differentiable, capturable)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("momentum", 0)
            group.setdefault("centered", False)
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
            momentum = _scalar(group["momentum"])
            centered = bool(group["centered"])

            def init(state, p, i, momentum=momentum, centered=centered):
                state["step"] = _step_tensor()
                state["square_avg"] = engine.zeros_like(p)
                if momentum > 0:
                    state["momentum_buffer"] = engine.zeros_like(p)
                if centered:
                    state["grad_avg"] = engine.zeros_like(p)

            states = self._states(params, init)
            _C._optim_rmsprop(
                _real_views(params),
                _real_views(grads),
                _real_views([s["square_avg"] for s in states]),
                _real_views([s["grad_avg"] if centered else None for s in states]),
                _real_views([s["momentum_buffer"] if momentum > 0 else None for s in states]),
                [s["step"] for s in states],
                lr=_scalar(group["lr"]),
                alpha=_scalar(group["alpha"]),
                eps=_scalar(group["eps"]),
                weight_decay=_scalar(group["weight_decay"]),
                momentum=momentum,
                centered=centered,
                maximize=bool(group["maximize"]),
            )
        return loss
