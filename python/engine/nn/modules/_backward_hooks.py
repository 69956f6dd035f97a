"""Module full backward hooks: identity nodes around a module's tensor inputs and outputs.

The node on the outputs sees grad_output (and runs the backward pre-hooks); the node on the inputs
sees grad_input and runs the backward hooks with both, so a hook observes the module as one
operation however many ops its forward records.
"""

import warnings

import engine
from engine import _C
from engine.autograd import Function

__all__ = ["BackwardHook"]


class _HookNode(Function):
    """Passes tensors through unchanged; its backward hands the gradients to the BackwardHook."""

    # PyTorch's node for module hooks is BackwardHookFunctionBackward; hook code matches on it.
    _backward_name = "BackwardHookFunctionBackward"

    @staticmethod
    def forward(ctx, hook, which, *tensors):
        ctx.hook, ctx.which = hook, which
        out = tuple(t.view_as(t) for t in tensors)
        # As PyTorch's hook node: what did not require grad stays so (an index output, a mask
        # input); its gradient reaches the hooks as zeros for an input, None for an output.
        ctx.mark_non_differentiable(*(o for o, t in zip(out, tensors) if not t.requires_grad))
        return out

    @staticmethod
    def backward(ctx, *grads):
        return (None, None) + tuple(ctx.hook.on_grads(ctx.which, grads))


class BackwardHook:
    """The backward hooks of one module call: wraps its inputs, then its outputs."""

    def __init__(self, module, hooks, pre_hooks):
        self.module = module
        self.hooks = hooks
        self.pre_hooks = pre_hooks
        self.grad_outputs = None
        self.n_inputs = self.n_outputs = 0
        self.input_index = self.output_index = None
        self.differentiable = {}  # "input"/"output" -> requires_grad of each wrapped tensor

    def _wrap(self, values, which):
        index = [i for i, v in enumerate(values) if isinstance(v, _C.Tensor)]
        if not engine.is_grad_enabled() or not any(values[i].requires_grad for i in index):
            return values, None
        self.differentiable[which] = [values[i].requires_grad for i in index]
        wrapped = _HookNode.apply(self, which, *(values[i] for i in index))
        out = list(values)
        for i, t in zip(index, wrapped):
            out[i] = t
        return tuple(out), index

    def setup_input_hook(self, args):
        self.n_inputs = len(args)
        args, self.input_index = self._wrap(tuple(args), "input")
        return args

    def setup_output_hook(self, result):
        is_tuple = isinstance(result, tuple)
        values = result if is_tuple else (result,)
        self.n_outputs = len(values)
        values, self.output_index = self._wrap(values, "output")
        return values if is_tuple else values[0]

    @staticmethod
    def _spread(grads, index, n):
        full = [None] * n
        for i, g in zip(index, grads):
            full[i] = g
        return tuple(full)

    def on_grads(self, which, grads):
        if which == "output":
            # PyTorch's hooks see None for an output that needs no gradient (grad_input keeps
            # its zeros for such inputs).
            grads = tuple(g if d else None for g, d in zip(grads, self.differentiable[which]))
            full = self._spread(grads, self.output_index, self.n_outputs)
            for hook in self.pre_hooks:
                result = hook(self.module, full)
                if result is not None:
                    full = self._checked(result, len(full), "grad_output")
            self.grad_outputs = full
            if self.input_index is None:
                # No input needs a gradient: the hooks run now, with None for every grad_input.
                if self.hooks:
                    warnings.warn(
                        "Full backward hook is firing when gradients are computed with respect to module "
                        "outputs since no inputs require gradients. See "
                        "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                        "#torch.nn.Module.register_full_backward_hook for more details.",
                        stacklevel=3,  # the caller of backward()
                    )
                for hook in self.hooks:
                    result = hook(self.module, (None,) * self.n_inputs, full)
                    if result is not None and not all(r is None for r in result):
                        raise RuntimeError(
                            "Backward hook for Modules where no input requires gradient should always "
                            "return None or None for all gradients."
                        )
                self.grad_outputs = None
            return tuple(full[i] for i in self.output_index)
        full = self._spread(grads, self.input_index, self.n_inputs)
        if self.grad_outputs is None:
            # The gradient reached the inputs without passing through the outputs (a double
            # backward through the module's forward): as in PyTorch, the hooks do not run.
            return tuple(full[i] for i in self.input_index)
        for hook in self.hooks:
            result = hook(self.module, full, self.grad_outputs)
            if result is not None:
                full = self._checked(result, len(full), "grad_input")
        self.grad_outputs = None
        return tuple(full[i] for i in self.input_index)

    @staticmethod
    def _checked(result, expected, what):
        if not isinstance(result, tuple):
            result = (result,)
        if len(result) != expected:
            raise RuntimeError(
                f"Backward hook returned an invalid number of {what}, got {len(result)}, but expected {expected}"
            )
        return result
