"""Custom differentiable operations: subclass ``Function``, define ``forward`` and ``backward``.

``Function.apply`` is native (``autograd.set_function_checks(True)`` swaps in a wrapper that
gradient-checks each class's first call: see _function_checks.py). How ``forward`` is called is
decided once per class, when the class is created:

* no ``setup_context`` override: ``forward(ctx, *args)`` (PyTorch's original style);
* ``setup_context`` overridden and ``forward``'s first parameter named ``ctx``:
  ``forward(ctx, *args)`` and then ``setup_context(ctx, inputs, output)``;
* ``setup_context`` overridden otherwise: ``forward(*args)``, then ``setup_context``
  (PyTorch's new style).

PyTorch rejects the middle combination; engine accepts it because the ``setup_context``
tutorials write it.
"""

import warnings

from engine import _C
from engine.autograd.grad_mode import _wraps

__all__ = [
    "Function",
    "FunctionCtx",
    "BackwardCFunction",
    "InplaceFunction",
    "once_differentiable",
]

FunctionCtx = _C._FunctionCtx


class BackwardCFunction(_C._FunctionCtx):
    """Base of every ``<Fn>Backward`` type: the ctx object, which is also the output's grad_fn."""

    _forward_cls = None

    def apply(self, *grads):
        """Runs the user's backward on ``grads`` (what the engine does for this node)."""
        return self._engine_backward(self, *grads)

    def name(self):
        return type(self).__name__

    @property
    def saved_variables(self):
        warnings.warn(
            "'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning, stacklevel=2
        )
        return self.saved_tensors

    @property
    def metadata(self):
        return self.__dict__.setdefault("_metadata", {})

    def save_for_forward(self, *tensors):
        """Saves ``tensors`` for ``jvp`` (forward-mode AD), which reads them as ``saved_tensors``.

        Args:
            *tensors: tensors (or None) of ``forward`` that ``jvp`` needs.
        """
        for i, t in enumerate(tensors):
            if t is not None and not _C.is_tensor(t):
                raise TypeError(
                    "save_for_forward expects all arguments to be tensors; but got "
                    f"{type(t).__name__} at position {i}"
                )
        self._saved_for_forward = tensors

    def register_hook(self, hook):
        """Registers ``hook(grad_inputs, grad_outputs)``, run after this node's backward."""
        return _C._register_node_hook(self, hook)

    def register_prehook(self, hook):
        """Registers ``hook(grad_outputs)``, run before this node's backward."""
        return _C._register_node_prehook(self, hook)


def _not_overridden(cls, name):
    return getattr(cls, name) is getattr(Function, name)


def _backward_impl(cls):
    """The function the engine calls for this class's nodes, chosen once."""
    has_backward = not _not_overridden(cls, "backward")
    has_vjp = not _not_overridden(cls, "vjp")
    if has_backward and has_vjp and cls.backward is not cls.vjp:

        def both(ctx, *grads):
            raise RuntimeError(
                "Implementing both 'backward' and 'vjp' for a custom Function is not allowed. "
                "You should only implement one of them."
            )

        return both
    return cls.vjp if has_vjp else cls.backward


def _make_info(cls, backward_cls):
    forward = cls.forward
    if _not_overridden(cls, "setup_context"):
        return _C._FunctionInfo(forward, None, backward_cls, cls.__name__, True, -1, (), None)
    code = getattr(forward, "__code__", None)
    if code is None:  # a callable object as forward: only inspect can read its parameters
        names, simple, defaults = _parameters_by_inspect(forward)
    else:
        # Read off the code object, once per class: inspect costs ~9 ms to import, and engine's
        # own new-style Functions are defined while `import engine` runs.
        nargs = code.co_argcount
        names = code.co_varnames[:nargs]
        simple = not (code.co_kwonlyargcount or code.co_flags & 0x0C)  # no *args, **kwargs, kw-only
        defaults = tuple(forward.__defaults__ or ())
    takes_ctx = bool(names) and names[0] == "ctx"
    signature = []

    def bind(*args, **kwargs):
        if not signature:
            import inspect

            sig = inspect.signature(forward)
            if takes_ctx:
                sig = sig.replace(parameters=list(sig.parameters.values())[1:])
            signature.append(sig)
        bound = signature[0].bind(*args, **kwargs)
        bound.apply_defaults()
        return tuple(bound.args)

    nparams = len(names) - int(takes_ctx) if simple else -1
    return _C._FunctionInfo(
        forward, cls.setup_context, backward_cls, cls.__name__, takes_ctx, nparams, defaults, bind
    )


def _parameters_by_inspect(forward):
    import inspect

    params = list(inspect.signature(forward).parameters.values())
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    simple = all(p.kind in positional for p in params)
    defaults = tuple(p.default for p in params if p.default is not inspect.Parameter.empty)
    return tuple(p.name for p in params), simple, defaults


def _saved_tensors_once(ctx):
    """ctx.saved_tensors of a Function with ``clear_saved_tensors_on_access = True``: the tensors
    are let go as they are handed out, so the caller's references are the only ones left."""
    if ctx.__dict__.get("_engine_saved_read"):
        raise RuntimeError(
            "saved_tensors can only be accessed once when clear_saved_tensors_on_access=True is "
            "set on the autograd.Function. Either access saved_tensors only once, or set "
            "clear_saved_tensors_on_access=False."
        )
    out = BackwardCFunction.saved_tensors.__get__(ctx)
    ctx.__dict__["_engine_saved_read"] = True
    ctx._release_saved_tensors()
    return out


class Function:
    """Base class of custom autograd operations (``torch.autograd.Function``'s API).

    Example::

        class Exp(engine.autograd.Function):
            @staticmethod
            def forward(x):
                return x.exp()

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.save_for_backward(output)

            @staticmethod
            def backward(ctx, grad):
                (y,) = ctx.saved_tensors
                return grad * y

        y = Exp.apply(x)
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # engine's own Functions standing for a PyTorch operator take its node's name
        # (`_backward_name = "BinaryCrossEntropyBackward0"`); a user's is `<Class>Backward`.
        backward_cls = type(
            cls.__dict__.get("_backward_name") or cls.__name__ + "Backward",
            (BackwardCFunction,),
            {"_forward_cls": cls, "__module__": "engine.autograd.function"},
        )
        if getattr(cls, "clear_saved_tensors_on_access", False):
            backward_cls.saved_tensors = property(_saved_tensors_once)
        backward_cls._engine_backward = staticmethod(_backward_impl(cls))
        cls._backward_cls = backward_cls
        cls._engine_info = _make_info(cls, backward_cls)

    apply = classmethod(_C._function_apply)
    # With True, ctx.saved_tensors may be read once in backward, and frees the saved tensors then.
    clear_saved_tensors_on_access = False

    def __init__(self, *args, **kwargs):
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions are all "
            "static, so you "
            "should invoke them on the class itself. Instantiating an autograd function will "
            "raise an error in a "
            "future version of PyTorch.",
            DeprecationWarning,
            stacklevel=2,
        )

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd "
            "function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it "
            "with backward mode AD."
        )

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD."
        )

    # With True, vmap of the Function is derived from forward/backward; engine has no vmap of
    # custom Functions, so the flag and the hook below only answer as PyTorch's do.
    generate_vmap_rule = False

    @staticmethod
    def vmap(info, in_dims, *args):
        """The rule vmap would use for this Function; not overridable in engine yet, so it
        raises PyTorch's NotImplementedError."""
        raise NotImplementedError(
            "To use autograd.Function with vmap, you must either override the vmap staticmethod "
            "or set generate_vmap_rule=True."
        )


def once_differentiable(fn):
    """Marks a backward as not differentiable: it runs without recording a graph.

    Under ``create_graph=True``, when some incoming gradient requires grad, its results come back
    with ``grad_fn=<Error>``, and differentiating them raises ``trying to differentiate twice a
    function that was marked with @once_differentiable`` (PyTorch's behaviour)."""

    @_wraps(fn)
    def wrapper(ctx, *args):
        with _no_grad():
            result = fn(ctx, *args)
        return _C._once_differentiable_wrap(result, *args)

    return wrapper


def _no_grad():
    from engine.autograd.grad_mode import no_grad

    return no_grad()


class InplaceFunction(Function):
    """A ``Function`` that may work in place on its input (``self.inplace``), as PyTorch's legacy
    ``torch.autograd.function.InplaceFunction``."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace
