"""engine: a compiled autograd engine with PyTorch's tensor and autograd.Function API.

Port a PyTorch script by changing one line: ``import engine as torch``.
"""

from engine import (
    _C,
    autograd,
)
from engine._C import (
    Generator,
    Tensor,
    abs,
    add,
    arange,
    clone,
    cos,
    default_generator,
    detach,
    div,
    dtype,
    empty,
    empty_like,
    eq,
    exp,
    full,
    full_like,
    ge,
    get_default_dtype,
    gt,
    is_grad_enabled,
    is_tensor,
    le,
    linspace,
    log,
    lt,
    matmul,
    maximum,
    minimum,
    mm,
    mul,
    ne,
    neg,
    numel,
    ones,
    ones_like,
    permute,
    pow,
    rand,
    randint,
    randn,
    relu,
    reshape,
    result_type,
    select,
    set_default_dtype,
    sigmoid,
    sign,
    sin,
    sqrt,
    squeeze,
    sub,
    t,
    tanh,
    tensor,
    transpose,
    unsqueeze,
    where,
    zeros,
    zeros_like,
)
from engine._C import get_num_threads, set_num_threads
from engine._tensor import Size
from engine._tensor_str import set_printoptions
from engine.autograd import Function, enable_grad, no_grad, set_grad_enabled

# dtype objects and PyTorch's aliases for them; assigned here because several shadow builtins.
globals().update(
    {
        "float32": _C.float32,
        "float": _C.float32,
        "float64": _C.float64,
        "double": _C.float64,
        "int64": _C.int64,
        "long": _C.int64,
        "int32": _C.int32,
        "int": _C.int32,
        "bool": _C.bool,
    }
)

subtract = sub
multiply = mul
divide = div
true_divide = div
negative = neg
absolute = abs


def sum(input, *args, **kwargs):
    """Sum of all elements, or over ``dim`` (int or tuple), like ``torch.sum``."""
    return input.sum(*args, **kwargs)


def mean(input, *args, **kwargs):
    """Mean of all elements, or over ``dim`` (int or tuple), like ``torch.mean``."""
    return input.mean(*args, **kwargs)


def manual_seed(seed):
    """Seeds the global generator; the streams then match PyTorch's for the same seed."""
    return default_generator.manual_seed(seed)


def initial_seed():
    """The seed the global generator was last seeded with."""
    return default_generator.initial_seed()


def seed():
    """Seeds the global generator from the operating system's entropy and returns the seed."""
    import os

    s = int.from_bytes(os.urandom(8), "little")
    default_generator.manual_seed(s)
    return s


def is_floating_point(input):
    return input.is_floating_point()


__version__ = "0.1.0"
