"""Rprop: resilient backpropagation, per-element step sizes driven by gradient signs."""

import engine
from engine import _C
from engine.optim.optimizer import (
    Optimizer,
    _check_lr,
    _check_unsupported,
    _closure_loss,
    _real_views,
    _scalar,
    _step_tensor,
)

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Rprop (``torch.optim.Rprop``): each element's step size (starting at ``lr``) grows by
    ``etas[1]`` while its gradient keeps its sign and shrinks by ``etas[0]`` when it flips (that
    step is then skipped), within ``step_sizes``; the parameter moves by the step against the
    gradient's sign."""

    def __init__(
        self,
        params,
        lr=1e-2,
        etas=(0.5, 1.2),
        step_sizes=(1e-6, 50),
        *,
        capturable=False,
        foreach=None,
        maximize=False,
        differentiable=False,
    ):
        _check_lr(lr, foreach, capturable)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {
            "lr": lr,
            "etas": etas,
            "step_sizes": step_sizes,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)
        _check_unsupported("Rprop", differentiable, capturable)

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

            def init(state, p, i, grads=grads, group=group):
                state["step"] = _step_tensor()
                state["prev"] = engine.zeros_like(p)
                lr = _scalar(group["lr"])
                # A complex parameter is two real ones: its imaginary half gets the step size too.
                state["step_size"] = engine.full_like(
                    grads[i], complex(lr, lr) if grads[i].is_complex() else lr
                )

            states = self._states(params, init)
            eta_minus, eta_plus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            _C._optim_rprop(
                _real_views(params),
                _real_views(grads),
                _real_views([s["prev"] for s in states]),
                _real_views([s["step_size"] for s in states]),
                [s["step"] for s in states],
                eta_minus=_scalar(eta_minus),
                eta_plus=_scalar(eta_plus),
                step_size_min=_scalar(step_size_min),
                step_size_max=_scalar(step_size_max),
                maximize=bool(group["maximize"]),
            )
        return loss
