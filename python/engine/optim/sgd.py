"""SGD: stochastic gradient descent with momentum, dampening, Nesterov and weight decay."""

import engine
from engine import _C
from engine.optim.optimizer import Optimizer, _check_lr, _closure_loss, _real_views, _scalar

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent (``torch.optim.SGD``), optionally with momentum.

    ``buf = momentum * buf + (1 - dampening) * g`` (``buf = g`` on the first step), then
    ``param -= lr * (g + momentum * buf if nesterov else buf)``, with ``g`` the gradient plus
    ``weight_decay * param`` (negated first when ``maximize``).

    Args:
        params (iterable): the parameters to optimize, or dicts defining parameter groups.
        lr (float): the learning rate. Default: 1e-3.
        momentum (float): the momentum factor. Default: 0.
        dampening (float): the dampening of the momentum. Default: 0.
        weight_decay (float): the L2 penalty. Default: 0.
        nesterov (bool): use Nesterov momentum. Default: ``False``.
        maximize (bool): maximize the objective instead. Default: ``False``.
        foreach, differentiable, fused: accepted for compatibility.

    Example::

        >>> w = engine.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = engine.optim.SGD([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        tensor([ 0.8000, -1.6000], requires_grad=True)
        >>> opt.zero_grad()
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        momentum=0,
        dampening=0,
        weight_decay=0,
        nesterov=False,
        *,
        maximize=False,
        foreach=None,
        differentiable=False,
        fused=None,
    ):
        _check_lr(lr, foreach)
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(
            lr=lr,
            momentum=momentum,
            dampening=dampening,
            weight_decay=weight_decay,
            nesterov=nesterov,
            maximize=maximize,
            foreach=foreach,
            differentiable=differentiable,
            fused=fused,
        )
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        if differentiable:
            raise NotImplementedError("SGD: differentiable=True is not supported by engine.optim")

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", False)

    @engine.no_grad()
    def step(self, closure=None):
        """Performs a single optimization step; ``closure`` re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params, grads = self._params_with_grad(group)
            if not params:
                continue
            momentum = _scalar(group["momentum"])
            buffers = (
                [self.state[p].get("momentum_buffer") for p in params]
                if momentum != 0
                else [None] * len(params)
            )
            # Complex parameters are updated through their (real, imaginary) views: every rule
            # here is elementwise with real coefficients, so this is the complex update.
            buffers = _C._optim_sgd(
                _real_views(params),
                _real_views(grads),
                _real_views(buffers),
                lr=_scalar(group["lr"]),
                momentum=momentum,
                dampening=_scalar(group["dampening"]),
                weight_decay=_scalar(group["weight_decay"]),
                nesterov=bool(group["nesterov"]),
                maximize=bool(group["maximize"]),
            )
            if momentum != 0:
                for p, buf in zip(params, buffers):
                    if p.is_complex() and not buf.is_complex():
                        buf = engine.view_as_complex(buf)
                    self.state[p]["momentum_buffer"] = buf
        return loss
