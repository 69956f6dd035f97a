"""AdamW: Adam with decoupled weight decay."""

from engine.optim.adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    """AdamW (``torch.optim.AdamW``): Adam whose weight decay scales the parameter by
    ``1 - lr * weight_decay`` instead of entering the moment estimates.

    Args:
        params (iterable): the parameters to optimize, or dicts defining parameter groups.
        lr (float or Tensor): the learning rate. Default: 1e-3.
        betas (tuple of 2 floats): the decay rates of the moment estimates.
            Default: (0.9, 0.999).
        eps (float): added to the denominator for stability. Default: 1e-8.
        weight_decay (float): the decoupled weight decay. Default: 1e-2.
        amsgrad (bool): use the maximum of past second moments (AMSGrad). Default: ``False``.
        maximize (bool): maximize the objective instead. Default: ``False``.
        foreach, capturable, differentiable, fused: accepted for compatibility.

    Example::

        >>> model = engine.nn.Linear(3, 1)
        >>> opt = engine.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
        >>> model(engine.ones(4, 3)).pow(2).mean().backward()
        >>> opt.step()
        >>> opt.zero_grad()
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=1e-2,
        amsgrad=False,
        *,
        maximize=False,
        foreach=None,
        capturable=False,
        differentiable=False,
        fused=None,
    ):
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=True,
        )

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
