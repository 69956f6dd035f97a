"""sort / argsort / msort / topk / kthvalue / median. The order comes from NumPy's stable sort
(native, on a detached copy); the values are gathered from the input by that order, so they are
differentiable like any gather. NaN sorts above every number, as in PyTorch."""

import contextlib

from engine import _C, _grad_fn_names, _transforms, return_types
from engine._composite_ops import _tensor_arg
from engine._dense_layout import dense_order, inverse
from engine._out_param import accepts_out
from engine._out_rules import median_out
from engine.autograd.grad_mode import no_grad


def _order(input, dim, descending):
    """int64 indices sorting input along dim (stable; equal elements keep their order)."""
    import numpy as np

    x = input.detach() if input.dim() else input.detach().reshape(1)
    if x.dtype == _C.bfloat16:
        x = x.float()  # NumPy has no bfloat16; float32 holds every value exactly, same order
    a = x.numpy()
    if descending:
        # Stable descending: sort the reversed slice ascending, then map back and reverse.
        n = a.shape[dim]
        idx = (n - 1) - np.flip(np.argsort(np.flip(a, dim), axis=dim, kind="stable"), dim)
    else:
        idx = np.argsort(a, axis=dim, kind="stable")
    out = _C.from_numpy(np.ascontiguousarray(idx, dtype=np.int64))
    return out if input.dim() else out.reshape(())


def _sorted_in_layout(input, dim, descending, order):
    """(values, indices) of sort laid out as ``input`` (dims in ``order`` from dense_order):
    sorted in that order's row-major space, then permuted back."""
    back = inverse(order)
    permuted = input.permute(order)
    at = order.index(dim)
    indices = _order(permuted, at, descending)
    values = _C.gather(permuted, at, indices)
    return values.permute(back), indices.permute(back)


def _empty_median(dtype):
    """The median of no elements: NaN, or what PyTorch's kernel makes of NaN in an integer dtype."""
    if dtype.is_floating_point:
        return _C.full((), float("nan"), dtype=dtype)
    nan_as = {_C.int64: -(2**63), _C.int32: -(2**31), _C.bool: True}.get(dtype, 0)
    return _C.full((), nan_as, dtype=dtype)


def _refuse_bool(input, dim):
    """PyTorch has no median kernel for bool; its message names the one it looked for."""
    if input.dtype == _C.bool:
        kernel = "median_cpu" if dim is None else "median_out"
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


def _dim(input, dim):
    n = max(input.dim(), 1)
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim % n


@_transforms.values_op
def sort(input, dim=-1, descending=False, stable=False):
    """Sorts ``input`` along ``dim`` and returns the named tuple ``(values, indices)``, where
    ``indices`` are the positions of the values in ``input``. The sort is stable (equal
    elements keep their order) whatever ``stable`` says; NaN sorts as the largest value.

    Args:
        input (Tensor): the input tensor.
        dim (int): the dimension to sort along. Default: -1.
        descending (bool): largest first. Default: ``False``.
        stable (bool): accepted; the sort is always stable.

    Example::

        >>> engine.sort(engine.tensor([3, 1, 2]))
        torch.return_types.sort(
        values=tensor([1, 2, 3]),
        indices=tensor([1, 2, 0]))
    """
    _tensor_arg("sort", input, "input", 1)
    given = dim
    dim = _dim(input, dim)
    order = dense_order(input)
    if order is not None:
        values, indices = _sorted_in_layout(input, dim, descending, order)
    else:
        indices = _order(input, dim, descending)
        values = _C.gather(input, dim, indices) if input.dim() else input.clone()
    return _grad_fn_names.name_grad_fn(
        return_types.sort(values, indices),
        "SortBackward1" if stable else "SortBackward0",
        (input,),
        {"dim": given, "indices": indices, "self_sym_sizes": tuple(input.shape)},
        only_shown=True,
    )


@_transforms.values_op
def argsort(input, dim=-1, descending=False, stable=False):
    """The indices that sort ``input`` along ``dim``: ``sort(input, ...).indices``.

    Args:
        input (Tensor): the input tensor.
        dim (int): the dimension to sort along. Default: -1.
        descending (bool): largest first. Default: ``False``.
        stable (bool): keep the order of equal elements (always done). Default: ``False``.

    Example::

        >>> engine.argsort(engine.tensor([3, 1, 2]), descending=True)
        tensor([0, 2, 1])
    """
    _tensor_arg("argsort", input, "input", 1)
    dim = _dim(input, dim)
    order = dense_order(input)
    if order is not None:
        back = inverse(order)
        return _order(input.permute(order), order.index(dim), descending).permute(back)
    return _order(input, dim, descending)


@_transforms.values_op
def msort(input):
    """input sorted along its first dim."""
    return sort(input, 0).values


@_transforms.values_op
def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002 - PyTorch's parameter name
    """The ``k`` largest (or, with ``largest=False``, smallest) elements along ``dim``, as the
    named tuple ``(values, indices)``.

    Args:
        input (Tensor): the input tensor.
        k (int): how many elements, at most the size of ``dim``.
        dim (int): the dimension to search. Default: -1.
        largest (bool): the largest (``True``) or the smallest. Default: ``True``.
        sorted (bool): return them in sorted order. Default: ``True``.

    Example::

        >>> engine.topk(engine.tensor([1.0, 5.0, 3.0, 4.0]), 2)
        torch.return_types.topk(
        values=tensor([5., 4.]),
        indices=tensor([1, 3]))
    """
    _tensor_arg("topk", input, "input", 1)
    if input.dtype == _C.bool:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    given = dim
    dim = _dim(input, dim)
    size = input.shape[dim] if input.dim() else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if input.dim():
        indices = _row_positions(
            input, dim, lambda rows: _C._topk_positions(rows, k, bool(largest), bool(sorted))
        )
    else:
        indices = _order(input, dim, largest)
    values = _C.gather(input, dim, indices) if input.dim() else input.clone()
    return _grad_fn_names.name_grad_fn(
        return_types.topk(values, indices),
        "TopkBackward0",
        (input,),
        {"dim": given, "indices": indices, "self_sym_sizes": tuple(input.shape)},
        only_shown=True,
    )


def _row_positions(input, dim, select):
    """``select`` run on input's slices along dim laid out as contiguous rows; its (rows, m)
    int64 positions are put back with dim of size m (a fresh tensor)."""
    moved = input.detach().movedim(dim, -1)
    rows = moved.reshape(-1, moved.shape[-1]).contiguous()
    positions = select(rows)
    positions = positions.reshape(
        *moved.shape[:-1], positions.shape[-1] if positions.dim() > 1 else 1
    )
    return positions.movedim(-1, dim).contiguous()


def _pick(input, dim, position, keepdim, nan_wins=False):
    """(values, indices) of the element at `position` of each slice sorted along dim; with
    nan_wins, a slice holding a NaN gives its first NaN instead."""
    indices = _order(input, dim, False)
    if input.dim() == 0:
        return input.clone(), indices
    indices = indices.narrow(dim, position, 1).contiguous()  # fresh, as PyTorch's result
    if nan_wins and input.is_floating_point():
        nan = _C.isnan(input.detach())
        first_nan = nan.to(_C.int64).argmax(dim, keepdim=True)
        indices = _C.where(nan.any(dim, keepdim=True), first_nan, indices)
    values = _C.gather(input, dim, indices)
    if not keepdim:
        values, indices = values.squeeze(dim), indices.squeeze(dim)
    return values, indices


def _own_node(input):
    """Whether the selection records its own node: input records, no function transform open
    (the transforms differentiate the composition) and a floating dtype."""
    return (
        not _transforms._open
        and _C.is_grad_enabled()
        and input.requires_grad
        and not input.is_complex()
    )


@_transforms.values_op
def kthvalue(input, k, dim=-1, keepdim=False):
    """(values, indices) of the k-th smallest element (1-based) along dim."""
    _tensor_arg("kthvalue", input, "input", 1)
    if input.dtype == _C.bool:
        raise NotImplementedError("\"kthvalue_cpu\" not implemented for 'Bool'")
    given = dim
    dim = _dim(input, dim)
    size = input.shape[dim] if input.dim() else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    records = _own_node(input)
    with no_grad() if records else contextlib.nullcontext():
        if input.dim() == 0:
            picked = _pick(input, dim, k - 1, keepdim)
        else:
            # PyTorch's quickselect decides which of equal values (or NaNs) is reported.
            indices = _row_positions(input, dim, lambda rows: _C._kthvalue_positions(rows, k))
            values = _C.gather(input, dim, indices)
            if not keepdim:
                values, indices = values.squeeze(dim), indices.squeeze(dim)
            picked = (values, indices)
    if records:  # one node, KthvalueBackward0, as PyTorch's
        values, indices = picked
        values = _C._record_value_selection(
            values, "KthvalueBackward0", input, indices, dim, given, bool(keepdim)
        )
        return return_types.kthvalue(values, indices)
    return _grad_fn_names.name_grad_fn(
        return_types.kthvalue(*picked),
        "KthvalueBackward0",
        (input,),
        {"dim": given, "keepdim": bool(keepdim)},
    )


@accepts_out(median_out)
@_transforms.values_op
def median(input, dim=None, keepdim=False, *, out=None):
    """The lower median (of all elements, or (values, indices) along dim); NaN if the slice has one."""
    _tensor_arg("median", input, "input", 1)
    if dim is None:
        flat = input.reshape(-1)
        if flat.numel() == 0:
            return _empty_median(input.dtype)
        _refuse_bool(input, dim)
        if _own_node(input):  # one node, MedianBackward0, as PyTorch's
            with no_grad():
                out = median(flat, 0).values
            return _C._record_median_all(out, input)
        return _grad_fn_names.name_grad_fn(median(flat, 0).values, "MedianBackward0", (input,))
    given = dim
    dim = _dim(input, dim)
    size = input.shape[dim] if input.dim() else 1
    if size == 0:
        raise IndexError(f"median(): Expected reduction dim {dim} to have non-zero size.")
    _refuse_bool(input, dim)
    if _own_node(input):  # one node, MedianBackward1, as PyTorch's
        with no_grad():
            values, indices = _pick(input, dim, (size - 1) // 2, keepdim, nan_wins=True)
        values = _C._record_value_selection(
            values, "MedianBackward1", input, indices, dim, given, bool(keepdim)
        )
        return return_types.median(values, indices)
    return _grad_fn_names.name_grad_fn(
        return_types.median(*_pick(input, dim, (size - 1) // 2, keepdim, nan_wins=True)),
        "MedianBackward1",
        (input,),
        {"dim": given, "keepdim": bool(keepdim)},
    )


FUNCTIONS = {f.__name__: f for f in (sort, argsort, msort, topk, kthvalue, median)}


def install():
    """Adds the Tensor methods."""
    for name, fn in FUNCTIONS.items():
        setattr(_C.Tensor, name, fn)
