"""Reverse-mode function transforms: ``grad``, ``grad_and_value``, ``vjp``, ``jacrev``, ``hessian``.

Each call of a transformed function opens a *grad level* (one entry of the transform stack in
:mod:`engine._transforms`, so levels nest and ``vmap`` sees them in order). Inside it, the inputs
being differentiated are made fresh autograd inputs of their own: a tensor that takes part in an
enclosing graph becomes a view of itself (so the enclosing level can still differentiate through
this one), any other tensor a detached leaf that requires grad. ``engine.autograd.grad`` then
gives exactly the partial derivatives with respect to those inputs: a tensor captured from
outside ``f`` is a constant to this level, as functorch specifies.

What leaves the level is *unwrapped*: a result whose graph reaches only this level's own inputs is
detached (the level is closed, nobody can differentiate it any more); a result that depends on
something an enclosing level or ordinary autograd tracks keeps its graph. The backward pass is
recorded (``create_graph=True``) only when grad mode is on where the transformed function is
called, as functorch does: under ``no_grad`` outside, results carry no graph.
"""

from __future__ import annotations

import contextlib
import functools
from typing import Any, Callable

import engine
from engine import _C, _transforms
from engine.func._tree import tree_flatten, tree_unflatten

__all__ = ["grad", "grad_and_value", "hessian", "jacrev", "vjp"]


class GradLevel(_transforms.Interpreter):
    """An open grad transform. It marks no tensors, so the native module never routes calls to it;
    it holds the level number and the identity of this level's own inputs."""

    functorch = True

    def __init__(self) -> None:
        self.own: dict[int, Any] = {}  # id -> tensor (kept alive so ids stay unique)
        self.record = True

    def process(self, func, args, kwargs):  # pragma: no cover - no tensor carries this level
        return func(*args, **kwargs)


@contextlib.contextmanager
def _outside_inference_mode():
    """Turns inference mode off for a block, leaving grad mode as it was (a transform computes
    gradients whatever mode surrounds it, as in PyTorch)."""
    if not engine.is_inference_mode_enabled():
        yield
        return
    grad_enabled = engine.is_grad_enabled()
    with engine.inference_mode(False), engine.set_grad_enabled(grad_enabled):
        yield


@contextlib.contextmanager
def _grad_level():
    level = GradLevel()
    level.record = engine.is_grad_enabled()
    _transforms.push(level)
    try:
        with _outside_inference_mode(), engine.enable_grad():
            yield level
    finally:
        _transforms.pop(level)


def _make_differentiable(level: GradLevel, value: Any) -> Any:
    if not isinstance(value, _C.Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(value)}")
    if level.record and value.requires_grad:
        # Stays connected to the enclosing graph, yet is an input of its own for this level.
        fresh = value.view_as(value)
    else:
        fresh = value.detach().requires_grad_()
    level.own[id(fresh)] = fresh
    # Under vmap the graph is built on the batched (physical) tensor behind ``fresh``: it is
    # this level's too.
    physical = getattr(_transforms.state_of(fresh), "physical", None)
    if physical is not None:
        level.own[id(physical)] = physical
    return fresh


def _reaches_outside(tensor: Any, level: GradLevel, memo: dict) -> bool:
    """Whether ``tensor``'s graph reaches a tensor that requires grad and is not this level's.

    ``memo`` (node -> answer) is shared by the leaves of one result: each node is walked once,
    and a node first met under one leaf still answers for the next (post-order, as a graph is a
    DAG)."""
    if not tensor.requires_grad:
        return False
    root = tensor.grad_fn
    if root is None:
        return id(tensor) not in level.own
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            memo[node] = any(memo[c] for c, _ in node.next_functions if c is not None)
            continue
        if node in memo:
            continue
        variable = getattr(node, "variable", None)
        if variable is not None and node.__class__.__name__ == "AccumulateGrad":
            memo[node] = id(variable) not in level.own
            continue
        memo[node] = False  # in progress; answered once its children are
        stack.append((node, True))
        for child, _ in node.next_functions:
            if child is not None and child not in memo:
                stack.append((child, False))
    return memo[root]


def _unwrap(tree: Any, level: GradLevel, tensors_only: bool = False) -> Any:
    """``tree`` as the enclosing level sees it: tensors tied only to this level come detached.
    With ``tensors_only`` (an ``aux`` output) every leaf must be a tensor, as in PyTorch."""
    leaves, spec = tree_flatten(tree)
    seen: dict = {}
    out = []
    for leaf in leaves:
        if tensors_only and not isinstance(leaf, _C.Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")
        if isinstance(leaf, _C.Tensor) and leaf.requires_grad:
            if not level.record or not _reaches_outside(leaf, level, seen):
                leaf = leaf.detach()
        out.append(leaf)
    return tree_unflatten(out, spec)


def _autograd_grad(outputs, inputs, grad_outputs=None, *, retain_graph=False, create_graph=True):
    """``autograd.grad`` that treats outputs not requiring grad and unused inputs as zero."""
    if grad_outputs is None:
        pairs = [(out, None) for out in outputs if out.requires_grad]
    else:
        pairs = [(out, g) for out, g in zip(outputs, grad_outputs) if out.requires_grad]
    if not pairs:
        return tuple(_C.zeros_like(inp) for inp in inputs)
    grads = engine.autograd.grad(
        [out for out, _ in pairs],
        list(inputs),
        None if grad_outputs is None else [g for _, g in pairs],
        retain_graph=retain_graph,
        create_graph=create_graph,
        allow_unused=True,
    )
    return tuple(_C.zeros_like(inp) if g is None else g for g, inp in zip(grads, inputs))


# ---- argnums -------------------------------------------------------------------------------------


def _wrap_argnum(argnum: Any, num_args: int) -> int:
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if 0 <= argnum < num_args:
        return argnum
    if -num_args <= argnum < 0:
        return argnum + num_args
    raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")


def _normalize_argnums(argnums: Any, num_args: int) -> int | tuple[int, ...]:
    if isinstance(argnums, int):
        return _wrap_argnum(argnums, num_args)
    if not isinstance(argnums, tuple):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    wrapped = tuple(_wrap_argnum(a, num_args) for a in argnums)
    if not wrapped:
        raise RuntimeError("argnums must be non-empty")
    if len(set(wrapped)) != len(wrapped):
        raise RuntimeError(f"argnums elements must be unique, got {wrapped}")
    return wrapped


def _differentiable_args(level: GradLevel, args: tuple, argnums: Any) -> tuple[tuple, Any]:
    """``args`` with the ones ``argnums`` names made fresh inputs; and those (as a tree)."""
    argnums = _normalize_argnums(argnums, len(args))
    args = list(args)
    positions = (argnums,) if isinstance(argnums, int) else argnums
    for i in positions:
        leaves, spec = tree_flatten(args[i])
        args[i] = tree_unflatten([_make_differentiable(level, v) for v in leaves], spec)
    if isinstance(argnums, int):
        return tuple(args), args[argnums]
    return tuple(args), tuple(args[i] for i in positions)


def _check_has_aux(output: Any, api: str) -> tuple[Any, Any]:
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(
            f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True"
        )
    return output


# ---- grad / grad_and_value -----------------------------------------------------------------------


def _grad_and_value_impl(func, argnums, has_aux, args, kwargs):
    with _grad_level() as level:
        args, diff_args = _differentiable_args(level, args, argnums)
        output = func(*args, **kwargs)
        aux = None
        if has_aux:
            output, aux = _check_has_aux(output, "grad_and_value(f)(*args)")
        if not isinstance(output, _C.Tensor):
            raise RuntimeError(
                f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(output)}"
            )
        if output.dim() != 0:
            raise RuntimeError(
                "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                f"tensor with {output.dim()} dims. Maybe you wanted to use the vjp or jacrev "
                "APIs instead?"
            )
        flat_diff, spec = tree_flatten(diff_args)
        # The graph is kept when recorded: an enclosing level differentiates through it.
        grads = _autograd_grad(
            (output,), flat_diff, retain_graph=level.record, create_graph=level.record
        )
        grads = _unwrap(tree_unflatten(list(grads), spec), level)
        output = _unwrap(output, level)
        if has_aux:
            return grads, (output, _unwrap(aux, level, tensors_only=True))
        return grads, output


def grad_and_value(func: Callable, argnums: int | tuple[int, ...] = 0, has_aux: bool = False):
    """Returns a function computing ``(gradient, value)`` of scalar-valued ``func``
    (``torch.func.grad_and_value``).

    Args:
        func (callable): returns a 0-d tensor (with ``has_aux=True``: ``(output, aux)``).
        argnums (int or tuple of ints): the positional argument(s) to differentiate, each a
            tensor or a pytree of tensors; a tuple gives a tuple of gradients.
        has_aux (bool): ``func`` returns ``(output, aux)``; the result is then
            ``(gradient, (value, aux))``.

    Example::

        >>> x = engine.tensor([1.0, 2.0])
        >>> g, value = engine.func.grad_and_value(lambda v: (v**2).sum())(x)
        >>> g, value
        (tensor([2., 4.]), tensor(5.))
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return _grad_and_value_impl(func, argnums, has_aux, args, kwargs)

    return wrapper


def grad(func: Callable, argnums: int | tuple[int, ...] = 0, has_aux: bool = False):
    """Returns a function computing the gradient of scalar-valued ``func`` with respect to the
    argument(s) ``argnums`` (``torch.func.grad``). Nests: ``grad(grad(f))`` is a second derivative.

    Args:
        func (callable): returns a 0-d tensor (with ``has_aux=True``: ``(output, aux)``).
        argnums (int or tuple of ints): the positional argument(s) to differentiate.
        has_aux (bool): ``func`` returns ``(output, aux)``; the result is ``(gradient, aux)``.

    Example::

        >>> x = engine.tensor([0.0, 1.0])
        >>> engine.func.grad(lambda v: v.sin().sum())(x)
        tensor([1.0000, 0.5403])
        >>> engine.func.grad(lambda v: engine.func.grad(lambda u: (u**3).sum())(v).sum())(x)
        tensor([0., 6.])
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        grads, value = _grad_and_value_impl(func, argnums, has_aux, args, kwargs)
        if has_aux:
            return grads, value[1]
        return grads

    return wrapper


# ---- vjp -----------------------------------------------------------------------------------------


def _check_tensor_outputs(flat: list, api: str) -> None:
    if len(flat) < 1 or (len(flat) == 1 and flat[0] is None):
        raise RuntimeError(
            f"{api}: Expected f to be a function that has non-empty output (got output = {flat})"
        )
    for out in flat:
        if not isinstance(out, _C.Tensor):
            raise RuntimeError(
                f"{api}: expected f(*primals) to return only tensors, got unsupported type "
                f"{type(out)}"
            )


def _vjp_with_argnums(func, primals, argnums=None, has_aux=False):
    """``vjp``; with ``argnums`` (``jacrev``'s case) only those arguments are differentiated.
    Error messages are ``vjp``'s either way, as in PyTorch."""
    with _grad_level() as level:
        if argnums is None:
            leaves, spec = tree_flatten(primals)
            diff = tree_unflatten([_make_differentiable(level, v) for v in leaves], spec)
            primals = diff
        else:
            primals, diff = _differentiable_args(level, primals, argnums)
        output = func(*primals)
        aux = None
        if has_aux:
            output, aux = _check_has_aux(output, "vjp(f, *primals)")
            aux = _unwrap(aux, level, tensors_only=True)
        flat_out, out_spec = tree_flatten(output)
        _check_tensor_outputs(flat_out, "vjp(f, *primals)")
        for out in flat_out:
            if not (out.is_floating_point() or out.dtype.is_complex):
                raise RuntimeError(
                    "vjp(f, ...): All outputs of f must be floating-point or complex Tensors, "
                    f"got Tensor with dtype {out.dtype}"
                )
        flat_diff, diff_spec = tree_flatten(diff)
        result = _unwrap(output, level)

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        if create_graph is None:
            create_graph = engine.is_grad_enabled()
        flat_cot, cot_spec = tree_flatten(cotangents)
        if cot_spec != out_spec:
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure of "
                f"outputs to the function. cotangents: {cot_spec!r}, primal output: {out_spec!r}"
            )
        grad_mode = engine.enable_grad() if create_graph else contextlib.nullcontext()
        with _outside_inference_mode(), grad_mode:
            grads = _autograd_grad(
                flat_out,
                flat_diff,
                flat_cot,
                retain_graph=retain_graph,
                create_graph=create_graph,
            )
        level.record = create_graph
        return _unwrap(tree_unflatten(list(grads), diff_spec), level)

    if has_aux:
        return result, vjp_fn, aux
    return result, vjp_fn


def vjp(func: Callable, *primals: Any, has_aux: bool = False):
    """Runs ``func(*primals)`` and returns ``(output, vjp_fn)`` (``torch.func.vjp``).

    ``vjp_fn(cotangents)`` takes cotangents shaped like the output (same pytree) and returns the
    vector-Jacobian products, one per primal, as a tuple shaped like ``primals``. With
    ``has_aux=True`` ``func`` returns ``(output, aux)`` and so does ``vjp`` (``(output, vjp_fn,
    aux)``).

    Example::

        >>> x = engine.tensor([1.0, 2.0])
        >>> out, vjp_fn = engine.func.vjp(lambda v: v * v, x)
        >>> vjp_fn(engine.tensor([1.0, 0.5]))
        (tensor([2., 2.]),)
    """
    return _vjp_with_argnums(func, primals, None, has_aux)


# ---- jacrev / hessian ----------------------------------------------------------------------------


def _check_real(api: str, tree: Any, is_input: bool) -> None:
    for idx, leaf in enumerate(tree_flatten(tree)[0]):
        if isinstance(leaf, _C.Tensor) and leaf.dtype.is_complex:
            which = "inputs" if is_input else "outputs"
            raise RuntimeError(
                f"{api}: Expected all {which} to be real but received complex tensor at "
                f"flattened input idx: {idx}"
            )


def _basis_rows(flat_out: list, start: int, stop: int) -> list:
    """Rows ``start:stop`` of the identity over all outputs' elements, cut per output and shaped
    ``(rows, *output.shape)``: the cotangents whose vjps are those Jacobian rows."""
    rows = stop - start
    basis = []
    offset = 0
    for out in flat_out:
        n = out.numel()
        chunk = _C.zeros((rows, n), dtype=out.dtype)
        # Row r is the unit vector of element start + r; it falls in this output when
        # offset <= start + r < offset + n, i.e. on the diagonal shifted by start - offset.
        if offset < stop and start < offset + n:
            chunk.diagonal(start - offset).fill_(1)
        basis.append(chunk.view((rows, *out.shape)))
        offset += n
    return basis


def _vmap_or_none():
    try:
        from engine.func._vmap import vmap
    except ImportError:
        return None
    return vmap


def _jacobian_rows(vjp_fn, flat_out, out_spec, chunk_size):
    """One tensor per differentiated input: the Jacobian's rows for every output element,
    ``(total_output_numel, *input.shape)``; rows batched by vmap when it exists."""
    total = sum(out.numel() for out in flat_out)
    step = total if chunk_size is None else min(chunk_size, total)
    vmap = _vmap_or_none() if step > 1 else None
    pieces: list[list] = []
    for start in range(0, total, max(step, 1)):
        basis = _basis_rows(flat_out, start, min(start + step, total))
        rows = None
        if vmap is not None:
            try:
                with engine.set_grad_enabled(engine.is_grad_enabled()):
                    rows = tree_flatten(vmap(vjp_fn)(tree_unflatten(basis, out_spec)))[0]
            except Exception:  # noqa: BLE001
                # An op vmap cannot batch: the row-by-row loop below gives the same Jacobian
                # (and re-raises any error that is the function's own).
                rows = None
        if rows is None:
            per_row = [
                tree_flatten(vjp_fn(tree_unflatten([b[r] for b in basis], out_spec)))[0]
                for r in range(basis[0].shape[0])
            ]
            rows = [_C.stack(list(col)) for col in zip(*per_row)]
        pieces.append(rows)
    if len(pieces) == 1:
        return pieces[0]
    return [_C.cat(list(col)) for col in zip(*pieces)]


def jacrev(
    func: Callable,
    argnums: int | tuple[int, ...] = 0,
    *,
    has_aux: bool = False,
    chunk_size: int | None = None,
    _preallocate_and_copy: bool = False,
):
    """Returns a function computing the Jacobian of ``func`` by reverse mode (``torch.func.jacrev``).

    For an output ``o`` and a differentiated input ``x`` the block has shape
    ``o.shape + x.shape``; outputs and inputs may be pytrees, and the result nests output
    structure outside input structure. ``chunk_size`` bounds how many rows are computed at once
    (``1``: row by row).

    Example::

        >>> x = engine.tensor([0.0, 1.0])
        >>> engine.func.jacrev(lambda v: v * v.sum())(x)
        tensor([[1., 0.],
                [1., 2.]])
    """
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper(*args):
        _check_real("jacrev", args, is_input=True)
        if has_aux:
            output, vjp_fn, aux = _vjp_with_argnums(func, args, argnums, True)
        else:
            output, vjp_fn = _vjp_with_argnums(func, args, argnums, False)
        flat_out, out_spec = tree_flatten(output)
        _check_real("jacrev", flat_out, is_input=False)
        wrapped = _normalize_argnums(argnums, len(args))
        primals = args[wrapped] if isinstance(wrapped, int) else tuple(args[i] for i in wrapped)
        flat_primals, primals_spec = tree_flatten(primals)
        if sum(out.numel() for out in flat_out) == 0:
            rows = [_C.zeros((0, *p.shape), dtype=p.dtype) for p in flat_primals]
        else:
            rows = _jacobian_rows(vjp_fn, flat_out, out_spec, chunk_size)
        sizes = [out.numel() for out in flat_out]
        per_output = []
        for oi, out in enumerate(flat_out):
            lo = sum(sizes[:oi])
            # One output takes all the rows: no slicing (fewer ops for an enclosing transform).
            blocks = [
                (r if len(flat_out) == 1 else r[lo : lo + sizes[oi]]).reshape(
                    (*out.shape, *p.shape)
                )
                for r, p in zip(rows, flat_primals)
            ]
            per_output.append(tree_unflatten(blocks, primals_spec))
        jac = tree_unflatten(per_output, out_spec)
        if has_aux:
            return jac, aux
        return jac

    return wrapper


def _forward_jacobian():
    """The outer Jacobian of a Hessian: forward mode (PyTorch's choice) once ``jacfwd`` exists,
    reverse over reverse until then (the same values)."""
    try:
        from engine.func._forward import jacfwd
    except ImportError:
        return jacrev
    return jacfwd


def hessian(func: Callable, argnums: int | tuple[int, ...] = 0):
    """Returns a function computing the Hessian of ``func`` with respect to ``argnums``
    (``torch.func.hessian``): ``jacfwd(jacrev(func, argnums), argnums)``.

    Example::

        >>> x = engine.tensor([1.0, 2.0])
        >>> engine.func.hessian(lambda v: (v**3).sum())(x)
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    return _forward_jacobian()(jacrev(func, argnums), argnums)
