"""scatter's ``reduce=`` keyword ('add' or 'multiply'), which PyTorch 2.13 still takes (deprecated,
with a warning once per process where ``src`` is a tensor). The native scatter (and scatter_)
hands a call with ``reduce`` here, where it becomes scatter_reduce with the input included; a
scalar ``value`` is first converted to the input's dtype, as PyTorch's kernel does. PyTorch has
no derivative for it: the result records a node whose backward says so."""

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


def reduced(input, dim, index, src, value, reduce):
    """scatter(input, dim, index, src or value, reduce=reduce), called by the native scatter."""
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
        return reduced(input, dim, index, None, src, reduce)
    else:
        if not _warned:
            _warned.append(True)
            warnings.warn(
                "The reduce argument of torch.scatter with Tensor src is deprecated and will be "
                "removed in a future PyTorch release. Use torch.scatter_reduce instead for more "
                "reduction options.",
                UserWarning,
                stacklevel=2,
            )
    with no_grad():
        result = input.scatter_reduce(dim, index, src, _REDUCE_NAMES[reduce], include_self=True)
    records = _C.is_grad_enabled() and (input.requires_grad or src.requires_grad)
    return _ScatterReduceArg.apply(result, input, src) if records else result
