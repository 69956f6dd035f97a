"""Hostile runtime objects that generated calls refer to by name.

Every generated call is Python source evaluated in ``namespace()``; the objects here are what that
source can name beyond ``engine`` and ``np``: protocol objects whose dunders raise or lie, custom
``autograd.Function`` classes whose forward/backward misbehave, and hooks that raise or return
garbage. They raise ``FuzzError`` so an error that reaches the caller can be told apart from one
engine raised itself. Only the child process imports this module (it imports engine).
"""

import array
import copy
import fractions
import math
import pickle
import sys
import threading
from decimal import Decimal

import engine
import numpy as np


class FuzzError(Exception):
    """Raised on purpose by the objects below; engine may propagate it but must never crash."""


def _raise(*_args, **_kwargs):
    raise FuzzError("raised on purpose")


# ---- protocol objects: engine converts arguments through these slots ----


class BadIndex:
    """``__index__`` raises: integer conversion must propagate the error."""

    __index__ = _raise


class BadInt:
    """``__int__`` raises and there is no ``__index__``."""

    __int__ = _raise


class BadFloat:
    """``__float__`` raises."""

    __float__ = _raise


class BadBool:
    """``__bool__`` raises: flags like ``keepdim`` go through it."""

    __bool__ = _raise


class IndexNotInt:
    """``__index__`` returns a string, which CPython itself rejects with TypeError."""

    def __index__(self):
        return "3"


class IndexHuge:
    """``__index__`` returns a value no C integer type holds."""

    def __index__(self):
        return 2**70


class FloatNotFloat:
    """``__float__`` returns a non-float."""

    def __float__(self):
        return "1.0"


class BadLen:
    """A sequence whose ``__len__`` raises."""

    __len__ = _raise

    def __getitem__(self, i):
        if i >= 2:
            raise IndexError(i)
        return 1.0


class BadIter:
    """``__iter__`` raises although ``__len__`` claims two items."""

    __iter__ = _raise

    def __len__(self):
        return 2


class BadGetitem:
    """``__getitem__`` raises although ``__len__`` claims three items."""

    __getitem__ = _raise

    def __len__(self):
        return 3


class LyingShort:
    """Claims five items but yields one: code that trusts ``len()`` must not read past the end."""

    def __len__(self):
        return 5

    def __getitem__(self, i):
        if i >= 1:
            raise IndexError(i)
        return 1.0

    def __iter__(self):
        return iter([1.0])


class LyingLong:
    """Claims one item but yields a thousand: a buffer sized by ``len()`` must not overflow."""

    def __len__(self):
        return 1

    def __getitem__(self, i):
        if i >= 1000:
            raise IndexError(i)
        return 1.0

    def __iter__(self):
        return iter([1.0] * 1000)


class HugeLen:
    """``__len__`` returns ``sys.maxsize``: reserving that much must fail cleanly."""

    def __len__(self):
        return sys.maxsize

    def __getitem__(self, i):
        raise IndexError(i)


class BadRepr:
    """``__repr__``/``__str__`` raise: error messages that format the argument must cope."""

    __repr__ = _raise
    __str__ = _raise


class BadEq:
    """Comparison and hashing raise."""

    __eq__ = _raise
    __hash__ = _raise


class BadArray:
    """``__array__`` raises."""

    __array__ = _raise


class ArrayNotArray:
    """``__array__`` returns something that is not an ndarray."""

    def __array__(self, *args, **kwargs):
        return [1.0, 2.0]


class Clearing:
    """Converting it empties the list it sits in: code holding borrowed items must not read freed
    memory or past the new end."""

    def __init__(self, owner):
        self.owner = owner

    def _clear(self, value):
        self.owner.clear()
        return value

    def __float__(self):
        return self._clear(1.0)

    def __index__(self):
        return self._clear(1)


def clearing_list(n=4):
    """A list of ``n`` items whose first item empties the list when converted to a number."""
    owner = []
    owner.append(Clearing(owner))
    owner.extend([1.0] * (n - 1))
    return owner


class ShrinkingList(list):
    """A list subclass that loses its last item every time an item is read."""

    def __getitem__(self, i):
        value = list.__getitem__(self, i)
        if len(self) > 0:
            self.pop()
        return value


def deep_list(depth, leaf=1.0):
    """``[[[...leaf...]]]`` nested ``depth`` deep; built iteratively since the source form would
    exceed the parser's own nesting limit."""
    out = [leaf]
    for _ in range(depth - 1):
        out = [out]
    return out


def uninit_tensor():
    """A Tensor instance whose native part was never constructed."""
    return engine.Tensor.__new__(engine.Tensor)


def misaligned(n=4):
    """A float64 array whose data pointer is not 8-byte aligned."""
    return np.frombuffer(b"\0" * (8 * n + 1), dtype=np.float64, count=n, offset=1)


def readonly(a):
    """``a`` with its writeable flag cleared."""
    a = np.array(a)
    a.setflags(write=False)
    return a


def zero_stride(n=4):
    """A length-``n`` array whose stride is zero (every element aliases one value)."""
    return np.broadcast_to(np.ones(1), (n,))


# ---- hooks: tensor hooks get (grad,), node hooks (grad_inputs, grad_outputs), post-accumulate
# hooks (tensor,), prehooks (grad_outputs,); these accept any of them ----


def hook_raises(*_args):
    raise FuzzError("hook raised on purpose")


def hook_str(*_args):
    return "not a tensor"


def hook_int(*_args):
    return 3


def hook_wrong_shape(*_args):
    return engine.ones(7)


def hook_wrong_dtype(*args):
    first = args[0] if args else None
    if isinstance(first, tuple):
        first = first[0] if first else None
    if engine.is_tensor(first):
        return first.long()
    return engine.ones(1, dtype=engine.int64)


def hook_zero_d(*_args):
    return engine.tensor(1.0)


def hook_tuple_long(*_args):
    return (None,) * 5


def hook_tuple_garbage(*_args):
    return ("x", 1, None)


def hook_empty_tuple(*_args):
    return ()


def hook_list_wrong_shape(*_args):
    return [engine.ones(7)]


def hook_inplace(*args):
    """Zeroes the gradient it was handed in place and returns nothing."""
    for a in args:
        for t in a if isinstance(a, tuple) else (a,):
            if engine.is_tensor(t):
                t.zero_()


def hook_requires_grad(*_args):
    return engine.ones(1, requires_grad=True)


def hook_reentrant(*_args):
    """Runs a whole separate backward from inside the hook."""
    x = engine.randn(3, requires_grad=True)
    (x * 2).sum().backward()


def hook_set_grad_garbage(t, *_args):
    """As a post-accumulate hook: replaces the leaf's ``.grad`` with a wrong-shaped tensor."""
    t.grad = engine.ones(7)


def hook_clear_grad(t, *_args):
    t.grad = None


HOOKS = [
    hook_raises,
    hook_str,
    hook_int,
    hook_wrong_shape,
    hook_wrong_dtype,
    hook_zero_d,
    hook_tuple_long,
    hook_tuple_garbage,
    hook_empty_tuple,
    hook_list_wrong_shape,
    hook_inplace,
    hook_requires_grad,
    hook_reentrant,
    hook_set_grad_garbage,
    hook_clear_grad,
]


# ---- custom autograd Functions: forward is a plain x * 2; each class breaks one rule ----


def _functions():
    Function = engine.autograd.Function
    out = {}

    def define(name, forward=None, backward=None, setup_context=None):
        body = {}
        body["forward"] = staticmethod(forward or (lambda ctx, x, *rest: x * 2))
        body["backward"] = staticmethod(backward or (lambda ctx, g: g * 2))
        if setup_context is not None:
            body["setup_context"] = staticmethod(setup_context)
        out[name] = type(name, (Function,), body)

    define("FnBackwardRaises", backward=lambda ctx, g: _raise())
    define("FnBackwardTooMany", backward=lambda ctx, g: (g, g, g))
    define("FnBackwardTooFew", backward=lambda ctx, g: ())
    define("FnBackwardWrongShape", backward=lambda ctx, g: engine.ones(7))
    define("FnBackwardWrongDtype", backward=lambda ctx, g: g.long())
    define("FnBackwardStr", backward=lambda ctx, g: "grad")
    define("FnBackwardInt", backward=lambda ctx, g: 3)
    define("FnBackwardList", backward=lambda ctx, g: [g])
    define("FnBackwardNone", backward=lambda ctx, g: None)
    define("FnBackwardZeroD", backward=lambda ctx, g: engine.tensor(1.0))
    define("FnBackwardRequiresGrad", backward=lambda ctx, g: g * engine.ones(1, requires_grad=True))
    define("FnForwardRaises", forward=lambda ctx, x, *rest: _raise())
    define("FnForwardInt", forward=lambda ctx, x, *rest: 3)
    define("FnForwardNone", forward=lambda ctx, x, *rest: None)
    define("FnForwardMixed", forward=lambda ctx, x, *rest: (x * 2, "x", None))
    define("FnForwardList", forward=lambda ctx, x, *rest: [x * 2, x * 3])
    define("FnForwardIdentity", forward=lambda ctx, x, *rest: x)
    define("FnForwardEmptyTuple", forward=lambda ctx, x, *rest: ())

    def save_garbage(ctx, x, *rest):
        ctx.save_for_backward("x", None, 3, x)
        return x * 2

    define("FnSaveNonTensor", forward=save_garbage)

    def save_then_read(ctx, x, *rest):
        y = x * 2
        ctx.save_for_backward(y)
        return y

    def read_saved(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y

    define("FnSaveOutput", forward=save_then_read, backward=read_saved)

    def read_twice(ctx, g):
        _ = ctx.saved_tensors  # the first read; the second must see the same values
        return g * ctx.saved_tensors[0]

    def save_input(ctx, x, *rest):
        ctx.save_for_backward(x)
        return x * 2

    define("FnReadSavedTwice", forward=save_input, backward=read_twice)

    def dirty_non_input(ctx, x, *rest):
        ctx.mark_dirty(engine.ones(1))
        return x * 2

    define("FnDirtyNonInput", forward=dirty_non_input)

    def dirty_garbage(ctx, x, *rest):
        ctx.mark_dirty("x", None)
        return x * 2

    define("FnDirtyGarbage", forward=dirty_garbage)

    def dirty_input(ctx, x, *rest):
        ctx.mark_dirty(x)
        return x.mul_(2)

    define("FnDirtyInput", forward=dirty_input)

    def nondiff_garbage(ctx, x, *rest):
        ctx.mark_non_differentiable("x", engine.ones(1))
        return x * 2

    define("FnNonDiffGarbage", forward=nondiff_garbage)

    def materialize_garbage(ctx, x, *rest):
        ctx.set_materialize_grads(BadBool())
        return x * 2

    define("FnMaterializeGarbage", forward=materialize_garbage)

    def stash_attr(ctx, x, *rest):
        ctx.kept = x
        return x * 2

    def delete_attr(ctx, g):
        del ctx.kept
        return g

    define("FnDeleteCtxAttr", forward=stash_attr, backward=delete_attr)

    def reentrant(ctx, g):
        hook_reentrant()
        return g

    define("FnBackwardReentrant", backward=reentrant)

    def new_style_forward(x, *rest):
        return x * 2

    def bad_setup(ctx, inputs, output):
        raise FuzzError("setup_context raised on purpose")

    define("FnSetupRaises", forward=new_style_forward, setup_context=bad_setup)

    def setup_saves_garbage(ctx, inputs, output):
        ctx.save_for_backward(inputs)

    define("FnSetupSavesTuple", forward=new_style_forward, setup_context=setup_saves_garbage)
    return out


FUNCTIONS = _functions()


def run_threads(fn, n=2):
    """Runs ``fn(i)`` on ``n`` threads at once and re-raises the first error from any of them."""
    errors = []

    def body(i):
        try:
            fn(i)
        except BaseException as e:  # handed to the caller below, so no error is lost
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def namespace():
    """The globals generated source runs in: engine, numpy and every hostile object above."""
    ns = {
        "engine": engine,
        "F": engine.nn.functional,
        "np": np,
        "math": math,
        "pickle": pickle,
        "copy": copy,
        "threading": threading,
        "array": array,
        "fractions": fractions,
        "Decimal": Decimal,
        "nan": math.nan,
        "inf": math.inf,
    }
    this = sys.modules[__name__]
    for name in dir(this):
        obj = getattr(this, name)
        if isinstance(obj, type) or (
            callable(obj) and getattr(obj, "__module__", None) == __name__
        ):
            ns.setdefault(name, obj)
    ns.update(FUNCTIONS)
    return ns
