"""scatter's ``reduce=`` keyword ('add' or 'multiply'), which PyTorch 2.13 still takes (deprecated,
with a warning once per process where ``src`` is a tensor): the native scatter writes; with
``reduce`` the call becomes scatter_reduce with the input included, the scalar ``value`` first
converted to the input's dtype as PyTorch's kernel does. PyTorch has no derivative for it: the
result records a node whose backward says so."""

import warnings

from engine import _C
from engine.autograd import Function
from engine.autograd.grad_mode import no_grad

_REDUCE_NAMES = {"add": "sum", "multiply": "prod"}
_warned = []


class _ScatterReduceArg(Function):
    """Carries the inputs' history so that backward raises PyTorch's error."""

    @staticmethod
    def forward(ctx, result, *inputs):
        return result

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::scatter is not implemented")


def _reduced(input, dim, index, src, value, reduce):
    if reduce not in _REDUCE_NAMES:
        raise RuntimeError("reduce argument must be either add or multiply.")
    if src is None:
        if value is None:
            raise TypeError(
                "scatter() received an invalid combination of arguments - expected (int dim, "
                "Tensor index, Tensor src, *, str reduce) or (int dim, Tensor index, Number "
                "value, *, str reduce)"
            )
        number = value.item() if isinstance(value, _C.Tensor) else value
        if not input.dtype.is_floating_point and input.dtype != _C.bool:
            number = int(number)
        src = _C.full(tuple(index.shape), number, dtype=input.dtype)
    elif not isinstance(src, _C.Tensor):
        return _reduced(input, dim, index, None, src, reduce)
    else:
        if not _warned:
            _warned.append(True)
            warnings.warn(
                "The reduce argument of torch.scatter with Tensor src is deprecated and will be "
                "removed in a future PyTorch release. Use torch.scatter_reduce instead for more "
                "reduction options.",
                UserWarning,
                stacklevel=3,
            )
    with no_grad():
        result = input.scatter_reduce(dim, index, src, _REDUCE_NAMES[reduce], include_self=True)
    records = _C.is_grad_enabled() and (input.requires_grad or src.requires_grad)
    return _ScatterReduceArg.apply(result, input, src) if records else result


def with_reduce(scatter):
    """``scatter`` (the native function or method) taking ``reduce=``."""

    def scatter_(input, dim, index, src=None, *, value=None, reduce=None):
        if reduce is None:
            if value is None:
                return scatter(input, dim, index, src)
            return scatter(input, dim, index, src, value=value)
        return _reduced(input, dim, index, src, value, reduce)

    scatter_.__name__ = scatter_.__qualname__ = "scatter"
    scatter_.__doc__ = scatter.__doc__
    return scatter_


def in_place(scatter):
    """Tensor.scatter_ over the out-of-place form, with PyTorch's in-place rules via copy_."""

    def scatter_(self, *args, **kwargs):
        return self.copy_(scatter(self, *args, **kwargs))

    scatter_.__name__ = scatter_.__qualname__ = "scatter_"
    return scatter_
