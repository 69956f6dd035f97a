"""Adam (and the decoupled weight decay of AdamW) with optional AMSGrad."""

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

__all__ = ["Adam"]


class Adam(Optimizer):
    """Adam (``torch.optim.Adam``): bias-corrected first and second moment estimates.

    ``m = lerp(m, g, 1 - beta1)``, ``v = beta2 * v + (1 - beta2) * g * g`` (``v_max = max(v_max,
    v)`` with ``amsgrad``), ``param -= lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) +
    eps)``. ``weight_decay`` adds ``weight_decay * param`` to the gradient, or with
    ``decoupled_weight_decay=True`` (AdamW) scales the parameter by ``1 - lr * weight_decay``.

    Args:
        params (iterable): the parameters to optimize, or dicts defining parameter groups.
        lr (float or Tensor): the learning rate. Default: 1e-3.
        betas (tuple of 2 floats): the decay rates of the first and second moment estimates.
            Default: (0.9, 0.999).
        eps (float): added to the denominator for stability. Default: 1e-8.
        weight_decay (float): the L2 penalty. Default: 0.
        amsgrad (bool): use the maximum of past second moments (AMSGrad). Default: ``False``.
        maximize (bool): maximize the objective instead. Default: ``False``.
        decoupled_weight_decay (bool): decay the parameter directly, as AdamW. Default:
            ``False``.
        foreach, capturable, differentiable, fused: accepted for compatibility.

    Example::

        >>> w = engine.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = engine.optim.Adam([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        amsgrad=False,
        *,
        foreach=None,
        maximize=False,
        capturable=False,
        differentiable=False,
        fused=None,
        decoupled_weight_decay=False,
    ):
        _check_lr(lr, foreach, capturable)
        check_nonnegative(eps, "epsilon")
        betas_checked = check_betas(betas, tensors_allowed=False)
        check_nonnegative(weight_decay, "weight_decay")
        betas = check_betas(
            betas_checked, tensors_allowed=True, foreach=foreach, capturable=capturable
        )
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
        _check_unsupported(type(self).__name__, differentiable, capturable)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("amsgrad", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("capturable", False)
            group.setdefault("differentiable", False)
            group.setdefault("fused", None)
            group.setdefault("decoupled_weight_decay", False)

    @engine.no_grad()
    def step(self, closure=None):
        """Performs a single optimization step; ``closure`` re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params, grads = self._params_with_grad(group)
            if not params:
                continue
            amsgrad = bool(group["amsgrad"])

            def init(state, p, i, amsgrad=amsgrad):
                state["step"] = _step_tensor()
                state["exp_avg"] = engine.zeros_like(p)
                state["exp_avg_sq"] = engine.zeros_like(p)
                if amsgrad:
                    state["max_exp_avg_sq"] = engine.zeros_like(p)

            states = self._states(params, init)
            beta1, beta2 = group["betas"]
            _C._optim_adam(
                _real_views(params),
                _real_views(grads),
                _real_views([s["exp_avg"] for s in states]),
                _real_views([s["exp_avg_sq"] for s in states]),
                _real_views([s["max_exp_avg_sq"] if amsgrad else None for s in states]),
                [s["step"] for s in states],
                lr=_scalar(group["lr"]),
                beta1=_scalar(beta1),
                beta2=_scalar(beta2),
                eps=_scalar(group["eps"]),
                weight_decay=_scalar(group["weight_decay"]),
                amsgrad=amsgrad,
                maximize=bool(group["maximize"]),
                decoupled_weight_decay=bool(group["decoupled_weight_decay"]),
            )
        return loss
