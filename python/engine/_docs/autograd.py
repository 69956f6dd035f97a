"""Docstrings of engine.autograd names documented from here: the methods a custom Function
overrides, its ctx, the native graph nodes, and the grad-mode context managers' ``clone``."""

from engine._docs._format import entry, wrap

FUNCTION_CLASS = {
    "Function": wrap(
        "Base class of custom autograd operations, with the API of PyTorch's ``autograd.Function``:"
        " subclass it, write :meth:`forward` and :meth:`backward` as static methods, and"
        " call the class's :meth:`apply` (never ``forward`` directly)."
    )
    + "\n\n"
    + wrap(
        "``forward`` runs with gradient recording off and may take the context ``ctx`` as first"
        " argument (storing what backward needs with ``ctx.save_for_backward``), or leave that"
        " to a separate :meth:`setup_context`. ``backward(ctx, *grads)`` returns one gradient"
        " per input of ``forward`` (``None`` where there is none). Written with engine"
        " operations, ``backward`` is itself differentiable, so double backward works; check it"
        " with :func:`engine.autograd.gradcheck` and :func:`engine.autograd.gradgradcheck`."
    )
    + "\n\nExample::\n\n"
    + "\n".join(
        "    " + line
        for line in (
            ">>> class Exp(engine.autograd.Function):",
            "...     @staticmethod",
            "...     def forward(x):",
            "...         return x.exp()",
            "...     @staticmethod",
            "...     def setup_context(ctx, inputs, output):",
            "...         ctx.save_for_backward(output)",
            "...     @staticmethod",
            "...     def backward(ctx, grad):",
            "...         (y,) = ctx.saved_tensors",
            "...         return grad * y",
            ">>> x = engine.tensor([0.0, 1.0], requires_grad=True)",
            ">>> Exp.apply(x).sum().backward()",
            ">>> x.grad",
            "tensor([1.0000, 2.7183])",
        )
    ),
}

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

_GRAD_ARGS = (
    "    retain_graph (bool, optional): keep the graph (and its saved tensors) for another\n"
    "        backward through it. Default: the value of ``create_graph``.\n"
    "    create_graph (bool): record the backward computation itself, so that the gradients\n"
    "        can be differentiated again (higher derivatives). Default: ``False``."
)

# The entry points (engine/autograd/__init__.py).
AUTOGRAD = {
    "backward": entry(
        "backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,"
        " inputs=None) -> None",
        "Computes the gradients of ``tensors`` with respect to the leaves of the graph behind"
        " them and accumulates (adds) them into each leaf's ``.grad``. A tensor with more than"
        " one element needs its ``grad_tensors`` entry: the vector of the vector-Jacobian"
        " product.",
        "    tensors (Tensor or sequence of Tensors): the outputs to differentiate.\n"
        "    grad_tensors (sequence of Tensors or None): the gradient with respect to each"
        " output;\n        ``None`` stands for 1 for a one-element tensor.\n"
        + _GRAD_ARGS
        + "\n    inputs (sequence of Tensors, optional): accumulate into these tensors only.",
        ">>> x = engine.tensor([1.0, 2.0], requires_grad=True)\n"
        ">>> engine.autograd.backward([(x * x).sum()])\n>>> x.grad\ntensor([2., 4.])",
    ),
    "grad": entry(
        "grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,"
        " allow_unused=None, is_grads_batched=False, materialize_grads=False) -> tuple of Tensors",
        "Computes and returns the gradients of ``outputs`` with respect to ``inputs``, without"
        " touching any ``.grad``. With ``create_graph=True`` the results are part of a graph, so"
        " that they can be differentiated again.",
        "    outputs (Tensor or sequence of Tensors): the outputs to differentiate.\n"
        "    inputs (Tensor or sequence of Tensors): the tensors to differentiate with respect to.\n"
        "    grad_outputs (sequence of Tensors or None): the vector of the vector-Jacobian"
        " product;\n        ``None`` stands for 1 for a one-element output.\n"
        + _GRAD_ARGS
        + "\n    allow_unused (bool, optional): return ``None`` for an input the outputs do not"
        " depend\n        on, instead of raising.\n"
        "    is_grads_batched (bool): the first dimension of each ``grad_outputs`` is a batch.\n"
        "    materialize_grads (bool): return zeros rather than ``None`` for unused inputs.",
        ">>> x = engine.tensor([1.0, 2.0], requires_grad=True)\n"
        ">>> (g,) = engine.autograd.grad((x ** 3).sum(), x, create_graph=True)\n"
        ">>> g.detach()\ntensor([ 3., 12.])\n>>> engine.autograd.grad(g.sum(), x)\n"
        "(tensor([ 6., 12.]),)",
    ),
}

# Checking a backward against finite differences (engine/autograd/gradcheck.py).
GRADCHECK = {
    "gradcheck": entry(
        "gradcheck(func, inputs, *, eps=1e-06, atol=1e-05, rtol=0.001, raise_exception=True,"
        " nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,"
        " check_batched_grad=False, check_batched_forward_grad=False, check_forward_ad=False,"
        " check_backward_ad=True, fast_mode=False, masked=None) -> bool",
        "Checks the gradients ``func`` computes (its backward, e.g. a custom Function's) against"
        " central finite differences at ``inputs``: column by column of the Jacobian, for every"
        " input that requires grad. Use float64 inputs: float32 differences are too coarse."
        " Returns ``True``, or raises :class:`GradcheckError` naming the input and the"
        " mismatching entries.",
        "    func (callable): takes the tensors of ``inputs``, returns a tensor or a tuple.\n"
        "    inputs (Tensor or tuple of Tensors): the point; those requiring grad are checked.",
        ">>> x = engine.tensor([1.0, 2.0], dtype=engine.float64, requires_grad=True)\n"
        ">>> engine.autograd.gradcheck(lambda t: (t * t).sum(), (x,))\nTrue",
        "    eps (float): the finite-difference step. Default: 1e-6.\n"
        "    atol (float): the absolute tolerance. Default: 1e-5.\n"
        "    rtol (float): the relative tolerance. Default: 1e-3.\n"
        "    raise_exception (bool): raise on a mismatch (else return ``False``). Default:"
        " ``True``.\n"
        "    check_undefined_grad (bool): also check that undefined output gradients are"
        " handled.\n"
        "    check_forward_ad (bool): also check forward-mode gradients (``jvp``).\n"
        "    check_backward_ad (bool): check backward-mode gradients. Default: ``True``.\n"
        "    fast_mode (bool): check one random projection instead of the whole Jacobian.",
    ),
    "gradgradcheck": entry(
        "gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-06, atol=1e-05, rtol=0.001,"
        " gen_non_contig_grad_outputs=False, raise_exception=True, ...) -> bool",
        "Checks second derivatives: runs :func:`gradcheck` on the map from ``(inputs,"
        " grad_outputs)`` to the vector-Jacobian product, which exercises a backward written"
        " with differentiable operations under ``create_graph=True``. ``grad_outputs`` are drawn"
        " at random when not given.",
        "    func (callable): takes the tensors of ``inputs``, returns a tensor or a tuple.\n"
        "    inputs (Tensor or tuple of Tensors): the point.\n"
        "    grad_outputs (tuple of Tensors, optional): the vectors of the product.",
        ">>> x = engine.tensor([1.0, 2.0], dtype=engine.float64, requires_grad=True)\n"
        ">>> engine.autograd.gradgradcheck(lambda t: (t ** 3).sum(), (x,))\nTrue",
        "    eps, atol, rtol, raise_exception: as for :func:`gradcheck`.",
    ),
}

# Anomaly detection (engine/autograd/anomaly_mode.py).
ANOMALY = {
    "detect_anomaly": entry(
        "detect_anomaly(check_nan=True)",
        "Context manager (and decorator) turning anomaly detection on inside its block: each"
        " node records the traceback of the forward operation that made it, so that an error"
        " in backward also shows where that operation was called; with ``check_nan`` a"
        " backward function that returns NaN raises, naming the node. It slows everything"
        " down: use it to debug. It warns when entered, as PyTorch's does.",
        "    check_nan (bool): raise when a backward function returns NaN. Default: ``True``.",
    ),
    "set_detect_anomaly": entry(
        "set_detect_anomaly(mode, check_nan=True)",
        "Turns anomaly detection (see :class:`detect_anomaly`) on or off: at once when called,"
        " and back to the previous setting at the end of a ``with`` block.",
        "    mode (bool): whether anomaly detection is on.\n"
        "    check_nan (bool): raise when a backward function returns NaN. Default: ``True``.",
        ">>> with engine.autograd.set_detect_anomaly(False):\n"
        "...     print(engine.is_anomaly_enabled())\nFalse",
    ),
}

# The grad-mode switches (engine/autograd/grad_mode.py); each works as a context manager and as
# a decorator, and is thread-local.
GRAD_MODE_CLASSES = {
    "no_grad": entry(
        "no_grad()",
        "Context manager (and decorator) that turns gradient recording off: inside it, results"
        " have no ``grad_fn`` and do not require grad, even when their inputs do. Use it for"
        " inference and for updating parameters by hand; it saves the memory of the graph. The"
        " setting is per thread.",
        example=">>> x = engine.ones(2, requires_grad=True)\n>>> with engine.no_grad():\n"
        "...     y = x * 2\n>>> y.requires_grad\nFalse\n>>> @engine.no_grad()\n"
        "... def double(t):\n...     return t * 2\n>>> double(x).requires_grad\nFalse",
    ),
    "enable_grad": entry(
        "enable_grad()",
        "Context manager (and decorator) that turns gradient recording back on inside a"
        " :class:`no_grad` region.",
        example=">>> x = engine.ones(2, requires_grad=True)\n>>> with engine.no_grad():\n"
        "...     with engine.enable_grad():\n...         y = x * 2\n>>> y.requires_grad\nTrue",
    ),
    "set_grad_enabled": entry(
        "set_grad_enabled(mode)",
        "Turns gradient recording on or off: at once when called, and back to the previous"
        " setting at the end of a ``with`` block.",
        "    mode (bool): whether to record operations.",
        ">>> x = engine.ones(2, requires_grad=True)\n>>> with engine.set_grad_enabled(False):\n"
        "...     y = x * 2\n>>> y.requires_grad\nFalse\n>>> engine.is_grad_enabled()\nTrue",
    ),
}

# The ctx a custom Function's forward/setup_context/backward receive (engine._C._FunctionCtx,
# exposed as engine.autograd.function.FunctionCtx); the same object is the outputs' grad_fn.
CTX = {
    "save_for_backward": entry(
        "save_for_backward(*tensors) -> None",
        "Saves tensors (or ``None``) for :meth:`Function.backward`, which reads them back as"
        " :attr:`saved_tensors`. Call it at most once, in ``forward`` or ``setup_context``."
        " Saving through it, rather than as ctx attributes, lets autograd check that they were"
        " not modified in place before backward, and frees them once backward has run.",
        "    *tensors (Tensor or None): the inputs, outputs or intermediates backward needs.",
        ">>> class Square(engine.autograd.Function):\n"
        "...     @staticmethod\n...     def forward(ctx, x):\n...         ctx.save_for_backward(x)\n"
        "...         return x * x\n...     @staticmethod\n...     def backward(ctx, grad):\n"
        "...         (x,) = ctx.saved_tensors\n...         return 2 * x * grad\n"
        ">>> x = engine.tensor([3.0], requires_grad=True)\n>>> Square.apply(x).backward()\n"
        ">>> x.grad\ntensor([6.])",
    ),
    "saved_tensors": entry(
        "ctx.saved_tensors -> tuple",
        "The tensors given to :meth:`save_for_backward`, in order. Raises if one of them was"
        " modified in place since (its version changed), or if they were already freed by a"
        " backward without ``retain_graph=True``.",
    ),
    "needs_input_grad": entry(
        "ctx.needs_input_grad -> tuple of bool",
        "One flag per input of ``forward``: whether that input is a tensor that requires grad."
        " ``backward`` may skip computing the gradients nobody needs (and return ``None``).",
    ),
    "mark_dirty": entry(
        "mark_dirty(*tensors) -> None",
        "Declares the inputs ``forward`` modified in place (and returns as outputs), so that"
        " autograd updates their history. Call it in ``forward`` or ``setup_context``.",
        "    *tensors (Tensor): the inputs changed in place.",
    ),
    "mark_non_differentiable": entry(
        "mark_non_differentiable(*tensors) -> None",
        "Declares outputs that have no gradient (indices, masks): they get"
        " ``requires_grad=False``, and ``backward`` always receives zeros for them.",
        "    *tensors (Tensor): outputs of ``forward``.",
    ),
    "set_materialize_grads": entry(
        "set_materialize_grads(value) -> None",
        "Whether ``backward`` receives zero tensors (``True``, the default) or ``None`` for"
        " the outputs whose gradient is undefined, e.g. outputs that did not take part in the"
        " loss.",
        "    value (bool): materialize undefined gradients as zeros.",
    ),
    "next_functions": entry(
        "ctx.next_functions -> tuple of (Node, int)",
        "The graph edges of this node: for each input of ``forward``, the node that receives"
        " its gradient and the input number there (``(None, 0)`` for inputs that need none).",
    ),
}
CTX_CLASS = {
    "FunctionCtx": wrap(
        "The context object of a custom :class:`Function`: ``forward`` (or ``setup_context``)"
        " stores on it what ``backward`` needs, with :meth:`save_for_backward` for tensors and"
        " plain attributes for the rest, and declares in-place or non-differentiable outputs."
        " After the call it is also the outputs' ``grad_fn``."
    )
}
NODE_CLASS = {
    "Node": wrap(
        "A node of the autograd graph: what ``tensor.grad_fn`` is for the result of a built-in"
        " operation (``MulBackward0``, ``SumBackward0``, ...) and, for leaves, the"
        " ``AccumulateGrad`` node that writes their ``grad``. Nodes link to their inputs'"
        " nodes through :attr:`next_functions` and accept hooks (:meth:`register_hook`,"
        " :meth:`register_prehook`)."
    )
}
BACKWARD_FUNCTION = {
    "name": entry("name() -> str", "The node's name, ``'<Function>Backward'``."),
    "metadata": entry(
        "metadata -> dict",
        "A dict that travels with the node, free for the user (e.g. to tag nodes for hooks).",
    ),
    "saved_variables": entry(
        "saved_variables -> tuple", "Deprecated name of :attr:`saved_tensors` (it warns)."
    ),
}

# A built-in operation's node, what ``tensor.grad_fn`` is (``MulBackward0``, ...).
NODE = {
    "name": entry(
        "name() -> str",
        "The node's type name, such as ``'MulBackward0'``.",
        example=">>> x = engine.ones(2, requires_grad=True)\n>>> (x * 2).grad_fn.name()\n"
        "'MulBackward0'",
    ),
    "next_functions": entry(
        "next_functions -> tuple of (Node, int)",
        "The edges toward the inputs: for each input of the operation, the node that receives"
        " its gradient (``AccumulateGrad`` for a leaf, ``None`` for an input that needs none)"
        " and the input number there. Walking them from ``loss.grad_fn`` visits the graph.",
        example=">>> x = engine.ones(2, requires_grad=True)\n"
        ">>> [type(n).__name__ for n, _ in (x * 2).sum().grad_fn.next_functions]\n"
        "['MulBackward0']",
    ),
    "variable": entry(
        "variable -> Tensor",
        "For an ``AccumulateGrad`` node: the leaf tensor whose ``grad`` it accumulates into.",
    ),
}

_CLONE = "A new context manager with the same setting, so that a decorated function enters a fresh one on each call."

GRAD_MODE = {"clone": entry("clone() -> context manager", _CLONE)}


def targets(engine):
    import engine.autograd
    import engine.autograd.function

    return [
        (engine.autograd, AUTOGRAD),
        (engine.autograd, GRAD_MODE_CLASSES),
        (engine.autograd, GRADCHECK),
        (engine.autograd, ANOMALY),
        (engine.autograd, FUNCTION_CLASS),
        (engine.autograd.Function, FUNCTION),
        (engine.autograd.inference_mode, GRAD_MODE),
        (engine.autograd.set_grad_enabled, GRAD_MODE),
        (engine.autograd.grad_mode.set_multithreading_enabled, GRAD_MODE),
        (engine.autograd.function, CTX_CLASS),
        (engine.autograd.function.FunctionCtx, CTX),
        (engine.autograd.function.BackwardCFunction, BACKWARD_FUNCTION),
        (engine._C, NODE_CLASS),
        (engine._C.Node, NODE),
    ]
