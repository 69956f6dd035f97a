"""Docstrings of engine.autograd names whose source files are documented from here: the
methods a custom Function overrides, and the grad-mode context managers' ``clone``."""

from engine._docs._format import entry

FUNCTION = {
    "apply": entry(
        "apply(*args, **kwargs) -> Tensor or tuple",
        "Runs the Function: calls :meth:`forward` with grad mode off (and :meth:`setup_context`"
        " if the class defines it), then, when grad mode is on and some tensor input requires"
        " grad, attaches a node to the outputs whose backward calls :meth:`backward`. Call"
        " ``MyFunction.apply(x)``, never ``forward`` directly.",
        example=">>> class Double(engine.autograd.Function):\n"
        "...     @staticmethod\n...     def forward(ctx, x):\n...         return x * 2\n"
        "...     @staticmethod\n...     def backward(ctx, grad):\n...         return grad * 2\n"
        ">>> x = engine.tensor([1.0, 3.0], requires_grad=True)\n>>> y = Double.apply(x)\n"
        ">>> y.sum().backward()\n>>> x.grad\ntensor([2., 2.])",
    ),
    "forward": entry(
        "forward(ctx, *args, **kwargs) -> Tensor or tuple",
        "The computation, which every Function overrides as a static method. Two styles:"
        " ``forward(ctx, *args)`` stores what backward needs on ``ctx`` itself"
        " (``ctx.save_for_backward(...)``); ``forward(*args)`` without ``ctx`` leaves that to"
        " :meth:`setup_context`. It runs with grad mode off, so what it computes is not"
        " recorded; return tensors (or a tuple mixing tensors and other values).",
    ),
    "setup_context": entry(
        "setup_context(ctx, inputs, output) -> None",
        "Optional: stores on ``ctx`` what :meth:`backward` needs, given the ``inputs`` tuple"
        " and the ``output`` of a :meth:`forward` that does not take ``ctx``. Keeping it apart"
        " lets the same forward serve function transforms.",
    ),
    "backward": entry(
        "backward(ctx, *grad_outputs) -> Tensor or tuple",
        "The vector-Jacobian product, overridden as a static method: given one gradient per"
        " output of :meth:`forward`, return one gradient per input of forward (``None`` for"
        " inputs that need none, or that are not tensors). ``ctx.needs_input_grad`` tells"
        " which are wanted; ``ctx.saved_tensors`` gives what was saved. Written with engine"
        " operations it is itself differentiable (``create_graph=True``). Alias: ``vjp``.",
    ),
    "jvp": entry(
        "jvp(ctx, *grad_inputs) -> Tensor or tuple",
        "The Jacobian-vector product for forward-mode differentiation: given one tangent per"
        " input of :meth:`forward`, return one tangent per output. Optional; without it the"
        " Function raises under forward-mode AD.",
    ),
}

_CLONE = "A new context manager with the same setting, so that a decorated function enters a fresh one on each call."

GRAD_MODE = {"clone": entry("clone() -> context manager", _CLONE)}


def targets(engine):
    import engine.autograd

    return [
        (engine.autograd.Function, FUNCTION),
        (engine.autograd.inference_mode, GRAD_MODE),
        (engine.autograd.set_grad_enabled, GRAD_MODE),
        (engine.autograd.grad_mode.set_multithreading_enabled, GRAD_MODE),
    ]
