"""Full backward hooks of a module whose call takes or returns tensors that need no gradient (a
mask input, an index output from argmax or a custom Function's non-differentiable result): the
hook sees zeros for such inputs in grad_input and None for such outputs in grad_output, those
tensors keep requires_grad=False after the module's hook nodes, and the differentiable ones are
unchanged. engine handed the hook zeros for an index output and the mask's would-be gradient.
Recorded from PyTorch 2.13."""

from __future__ import annotations


def _module(lib):
    class Pick(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = lib.nn.Linear(3, 4)

        def forward(self, x, mask):
            logits = self.lin(x) * mask
            return logits, logits.argmax(-1)

    return Pick()


def test_hook_sees_none_for_tensors_without_gradient(lib):
    lib.manual_seed(0)
    module = _module(lib)
    seen = []
    module.register_full_backward_hook(lambda m, gin, gout: seen.append((gin, gout)))
    x = lib.randn(2, 3, requires_grad=True)
    mask = lib.ones(2, 4)
    logits, idx = module(x, mask)
    assert idx.requires_grad is False and logits.requires_grad is True
    logits.sum().backward()
    ((grad_x, grad_mask), (grad_logits, grad_idx)) = seen[0]
    assert grad_x.shape == (2, 3) and grad_logits.shape == (2, 4) and grad_idx is None
    assert grad_mask.tolist() == [[0.0] * 4] * 2
    assert x.grad.shape == (2, 3)


def test_hook_input_mask_stays_without_gradient(lib):
    module = _module(lib)
    inside = []
    module.lin.register_forward_pre_hook(lambda m, args: inside.append(args[0].requires_grad))
    module.register_full_backward_hook(lambda m, gin, gout: None)
    mask = lib.ones(2, 4)
    module(lib.randn(2, 3, requires_grad=True), mask)[0].sum().backward()
    assert mask.grad is None and inside == [True]
