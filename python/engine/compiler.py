"""engine.compiler and ``engine.compile``: the graph compiler's entry points, for code written for
them. engine has no graph compiler (its per-call overhead is what torch.compile tries to
remove): ``compile`` returns the model or function unchanged, ``disable`` is the identity, and
``is_compiling()`` is False."""

__all__ = [
    "allow_in_graph",
    "assume_constant_result",
    "compile",
    "cudagraph_mark_step_begin",
    "disable",
    "is_compiling",
    "is_dynamo_compiling",
    "reset",
]


def compile(model=None, *, fullgraph=False, dynamic=None, backend=None, mode=None, options=None,
            name=None, disable=False, recompile_limit=None, isolate_recompiles=False,
            shapes_spec=None):  # fmt: skip
    """Returns ``model`` unchanged (or, without one, a decorator that does); it runs eagerly."""
    if model is None:
        return lambda fn: fn
    if not callable(model):
        raise RuntimeError(
            "torch.compile() requires a callable or an nn.Module, got " + type(model).__name__
        )
    return model


def disable(fn=None, recursive=True, *, reason=None):
    """Keeps ``fn`` out of compilation: the identity (also as ``@disable()``)."""
    if fn is None:
        return lambda f: f
    return fn


def is_compiling():
    """False: nothing is ever being compiled."""
    return False


def is_dynamo_compiling():
    """False: nothing is ever being compiled."""
    return False


def allow_in_graph(fn):
    """The identity."""
    return fn


def assume_constant_result(fn):
    """The identity."""
    return fn


def reset():
    """Clears compilation caches: there are none."""


def cudagraph_mark_step_begin():
    """Marks a CUDA-graph step: nothing to do on the CPU."""
