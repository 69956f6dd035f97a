"""Forward-mode function transforms: ``jvp``, ``jacfwd`` and ``linearize`` (``torch.func``).

Each call of ``jvp`` opens a forward-AD level of its own (:class:`ForwardLevel`, one entry of the
transform stack), so calls nest (``jvp`` of ``jvp``) and compose with ``engine.func.grad``,
``vjp`` and ``jacrev`` in both orders:

* the primals are made dual tensors on inputs that require grad (a fresh leaf where the primal
  does not), so a reverse-mode transform inside ``func`` sees tensors it can differentiate
  without cutting them off their tangents: ``jvp(grad(f))`` and ``jacfwd(jacrev(f))`` (Hessians)
  work, through the forward rule of ``autograd.grad`` itself (see ``_forward_level``);
* the results' tangents are computed with differentiable operations, so ``grad`` of a function
  that calls ``jvp`` works too.

``jacfwd`` computes one Jacobian column per input element with ``jvp`` (a standard-basis
tangent each time); ``linearize`` returns a ``jvp_fn`` that re-runs ``func`` with the given
tangents at the fixed primals.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import engine
from engine import _C, _transforms
from engine.autograd._forward_level import ForwardLevel, state_at
from engine.autograd.forward_ad import _primal_view, make_dual
from engine.func._grad import _reaches_outside
from engine.func._tree import tree_flatten, tree_unflatten

__all__ = ["jacfwd", "jvp", "linearize"]

_JVP = "jvp(f, primals, tangents)"


def _check_tensors(flat: list, argname: str) -> None:
    if len(flat) == 0:
        raise RuntimeError(f"{_JVP}: Expected {argname} to contain at least one Tensor.")
    for value in flat:
        if not isinstance(value, _C.Tensor):
            raise RuntimeError(
                f"{_JVP}: Expected {argname} to only contain Tensors, got {type(value)}"
            )


def _check_outputs(flat: list) -> None:
    if len(flat) < 1 or (len(flat) == 1 and flat[0] is None):
        raise RuntimeError(
            f"{_JVP}: Expected f to be a function that has non-empty output (got output = {flat})"
        )
    for out in flat:
        if not isinstance(out, _C.Tensor):
            raise RuntimeError(
                f"{_JVP}: expected f(*primals) to return only tensors, got unsupported type "
                f"{type(out)}"
            )


def _dual_input(level: ForwardLevel, primal, tangent, made: list):
    """``primal`` as a dual tensor of ``level``; a fresh leaf that requires grad underneath
    where it does not, so reverse-mode transforms inside ``f`` keep its tangent."""
    base = primal
    if primal.is_floating_point() and not (_C.is_grad_enabled() and primal.requires_grad):
        base = primal.detach().requires_grad_()
        made.append(base)
    with engine.enable_grad():  # the dual view must require grad whatever the caller's mode
        return make_dual(base, tangent, level=level)


def _result(level: ForwardLevel, value, leaves, strict: bool):
    """One output: (primal without this level's tangent, tangent or zeros)."""
    state = state_at(value, level.level)
    primal = _primal_view(level, value) if state is not None else value
    if state is None:
        if strict:
            raise RuntimeError(
                "jvp(f, primals, tangents, strict=True): The output of f is independent of the "
                "inputs. This is not allowed with strict=True."
            )
        tangent = _C.zeros_like(primal)
    else:
        tangent = state.tangent
    primal = _plain(primal, leaves)
    tangent = _plain(tangent, leaves)
    return primal, tangent


class _FreshLeaves:
    """The leaves this call made (``own``, as a grad level names its inputs), for
    :func:`engine.func._grad._reaches_outside`."""

    def __init__(self, made: list) -> None:
        self.own = {id(t): t for t in made}
        self.memo: dict = {}


def _plain(value, leaves):
    """Drops the history the fresh ``leaves`` gave ``value`` — all history when ``leaves`` is
    None (the caller's mode records nothing) — keeping a graph that reaches a tensor tracked
    outside (a model's parameters captured by ``f``, as in PyTorch), and any value an enclosing
    forward level's tangent rides on (detaching would drop that too)."""
    if not isinstance(value, _C.Tensor) or not value.requires_grad or _carries_dual(value):
        return value
    if leaves is None or not _reaches_outside(value, leaves, leaves.memo):
        return value.detach()
    return value


def _carries_dual(value) -> bool:
    """Whether ``value`` is a dual tensor, or batched by vmap over one."""
    state = _C._transform_state(value)
    while state is not None:
        physical = getattr(state, "physical", None)
        if physical is None:
            return True  # a forward level's mark
        state = _C._transform_state(physical)
    return False


def _jvp_with_argnums(func, primals, tangents, argnums, *, strict=False, has_aux=False):
    if not isinstance(primals, tuple):
        raise RuntimeError(
            f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals)."
        )
    if argnums is None:
        diff_args = primals
    else:
        diff_args = tuple(primals[i] for i in argnums)
    flat_primals, primals_spec = tree_flatten(diff_args)
    flat_tangents, tangents_spec = tree_flatten(tangents)
    if primals_spec != tangents_spec:
        raise RuntimeError(
            f"{_JVP}: Expected primals and tangents to have the same python structure. For "
            "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
            f"with structure {primals_spec} and tangents with structure {tangents_spec}"
        )
    _check_tensors(flat_primals, "primals")
    _check_tensors(flat_tangents, "tangents")
    # Results keep a graph only where the caller's tensors have one (ordinary autograd, or an
    # enclosing grad transform); the fresh leaves made here are nobody else's business.
    record = _C.is_grad_enabled()
    level = ForwardLevel(transform=True)
    _transforms.push(level)
    try:
        made: list = []
        flat_duals = [_dual_input(level, p, t, made) for p, t in zip(flat_primals, flat_tangents)]
        leaves = _FreshLeaves(made) if record else None
        duals = tree_unflatten(flat_duals, primals_spec)
        if argnums is None:
            args = duals
        else:
            args = list(primals)
            for i, d in zip(argnums, duals):
                args[i] = d
            args = tuple(args)
        # Grad mode on inside, as functorch's transforms see it: a reverse transform in func
        # then keeps the dual inputs' tangents even under an outer no_grad (what leaves is
        # detached below when the caller's mode records nothing).
        with engine.enable_grad():
            output = func(*args)
        aux = None
        if has_aux:
            if not (isinstance(output, tuple) and len(output) == 2):
                raise RuntimeError(
                    f"{_JVP}: output of function f should be a tuple: (output, aux) if has_aux "
                    "is True"
                )
            output, aux = output
            flat_aux, aux_spec = tree_flatten(aux)
            aux = tree_unflatten(
                [
                    _result(level, a, leaves, False)[0] if isinstance(a, _C.Tensor) else a
                    for a in flat_aux
                ],
                aux_spec,
            )
        flat_out, out_spec = tree_flatten(output)
        _check_outputs(flat_out)
        pairs = [_result(level, o, leaves, strict) for o in flat_out]
    finally:
        _transforms.pop(level)
    primals_out = tree_unflatten([p for p, _ in pairs], out_spec)
    tangents_out = tree_unflatten([t for _, t in pairs], out_spec)
    if has_aux:
        return primals_out, tangents_out, aux
    return primals_out, tangents_out


def jvp(
    func: Callable,
    primals: Any,
    tangents: Any,
    *,
    strict: bool = False,
    has_aux: bool = False,
):
    """``(func(*primals), J·tangents)``: the Jacobian-vector product (``torch.func.jvp``).

    Args:
        func (callable): takes the primals, returns a tensor or a pytree of tensors (with
            ``has_aux=True``: ``(output, aux)``).
        primals (tuple): the arguments of ``func`` (pytrees of tensors allowed).
        tangents (tuple): one tangent per primal tensor, same structure and shapes.
        strict (bool): refuse outputs that do not depend on the primals.
        has_aux (bool): ``func`` returns ``(output, aux)``; ``aux`` comes back third.

    Example::

        >>> x = engine.tensor([0.0, 1.0])
        >>> out, tangent = engine.func.jvp(engine.sin, (x,), (engine.ones(2),))
        >>> tangent
        tensor([1.0000, 0.5403])
    """
    return _jvp_with_argnums(func, primals, tangents, None, strict=strict, has_aux=has_aux)


def _normalize_argnums(argnums, num_args):
    from engine.func._grad import _normalize_argnums as normalize

    return normalize(argnums, num_args)


def _check_real(tree, is_input: bool) -> None:
    for idx, leaf in enumerate(tree_flatten(tree)[0]):
        if isinstance(leaf, _C.Tensor) and leaf.dtype.is_complex:
            which = "inputs" if is_input else "outputs"
            raise RuntimeError(
                f"jacfwd: Expected all {which} to be real but received complex tensor at "
                f"flattened input idx: {idx}"
            )


def jacfwd(
    func: Callable,
    argnums: int | tuple[int, ...] = 0,
    has_aux: bool = False,
    *,
    randomness: str = "error",
):
    """Returns a function computing the Jacobian of ``func`` by forward mode (``torch.func.jacfwd``).

    For an output ``o`` and a differentiated input ``x`` the block has shape ``o.shape + x.shape``;
    outputs and inputs may be pytrees (the result nests output structure outside input
    structure). Columns are computed one input element at a time with :func:`jvp`.

    Args:
        func (callable): the function to differentiate.
        argnums (int or tuple of ints): which positional arguments to differentiate.
        has_aux (bool): ``func`` returns ``(output, aux)``; the result is ``(jacobian, aux)``.
        randomness (str): ``'error'``, ``'different'`` or ``'same'`` (accepted as in PyTorch;
            the columns run one after another).

    Example::

        >>> engine.func.jacfwd(lambda a: a * a)(engine.tensor([1.0, 2.0]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(
            "Only allowed values for randomness are 'error', 'different', or 'same'. Got "
            f"{randomness}"
        )

    @functools.wraps(func)
    def wrapper(*args):
        _check_real(args, is_input=True)
        wrapped = _normalize_argnums(argnums, len(args))
        positions = (wrapped,) if isinstance(wrapped, int) else wrapped
        primals = tuple(args[i] for i in positions)
        flat_primals, primals_spec = tree_flatten(primals)
        _check_tensors(flat_primals, "primals")
        numels = [p.numel() for p in flat_primals]

        total = sum(numels)

        def push_jvp(*basis):
            result = _jvp_with_argnums(
                func, args, tree_unflatten(list(basis), primals_spec), positions, has_aux=has_aux
            )
            return (result[1], result[2]) if has_aux else (result[1], None)

        # The standard basis: row r is the unit tangent of element r of all inputs together.
        eye = engine.eye(max(total, 1), dtype=flat_primals[0].dtype)[:total]
        basis, start = [], 0
        for p, n in zip(flat_primals, numels):
            basis.append(eye[:, start : start + n].reshape((total, *p.shape)).to(p.dtype))
            start += n
        if not total:  # every differentiated input is empty: only the output's shape
            per_column = [push_jvp(*[_C.zeros_like(p) for p in flat_primals])]
            flat_rows = [
                _C.zeros((0, *o.shape), dtype=o.dtype) for o in tree_flatten(per_column[0][0])[0]
            ]
            out_spec, aux = tree_flatten(per_column[0][0])[1], per_column[0][1]
        else:
            flat_rows, out_spec, aux = _jacobian_rows(push_jvp, basis, total, randomness, has_aux)
        _check_real(flat_rows, is_input=False)
        per_output = []
        for rows in flat_rows:
            out_shape = tuple(rows.shape[1:])
            blocks, start = [], 0
            for p, n in zip(flat_primals, numels):
                block = rows[start : start + n]
                start += n
                blocks.append(block.movedim(0, -1).reshape((*out_shape, *p.shape)))
            block_tree = tree_unflatten(blocks, primals_spec)
            if isinstance(wrapped, int):
                block_tree = block_tree[0]
            per_output.append(block_tree)
        jac = tree_unflatten(per_output, out_spec)
        if has_aux:
            return jac, aux
        return jac

    return wrapper


def _jacobian_rows(push_jvp, basis, total, randomness, has_aux):
    """The Jacobian's rows (one per basis tangent, first dimension) for every output leaf, by
    one ``vmap`` of ``jvp`` over the basis, as PyTorch computes them. Where an operation's
    tangent comes from its backward pass (the generic rule, or a reverse transform inside
    ``func``), vmap cannot batch it: those run one basis tangent at a time."""
    from engine.autograd._jvp_rules import NoForwardRule
    from engine.func._vmap import vmap

    specs: list = []

    def batched(*tangents):
        out, aux = push_jvp(*tangents)
        flat_out, out_spec = tree_flatten(out)
        flat_aux, aux_spec = tree_flatten(aux) if has_aux else ([], None)
        specs[:] = [out_spec, aux_spec]
        return tuple(flat_out), tuple(flat_aux)

    try:
        rows, aux_rows = vmap(batched, randomness=randomness)(*basis)
    except NoForwardRule:
        return _rows_one_at_a_time(push_jvp, basis, total, randomness)
    # aux is the same for every basis tangent: sample 0's, as PyTorch takes it
    aux = tree_unflatten([a[0] for a in aux_rows], specs[1]) if has_aux else None
    return list(rows), specs[0], aux


def _rows_one_at_a_time(push_jvp, basis, total, randomness):
    generator = _C.default_generator
    seed = int(_C.randint(0, 2**62, ()).item()) if randomness == "same" else None
    per_column = []
    for r in range(total):
        if seed is not None:
            generator.manual_seed(seed)  # one draw shared by every column
        per_column.append(push_jvp(*[b[r] for b in basis]))
    if seed is not None:
        generator.manual_seed(int(_C.randint(0, 2**62, ()).item()) ^ seed)
    flat_cols = [tree_flatten(c[0])[0] for c in per_column]
    rows = [_C.stack(list(col)) for col in zip(*flat_cols)]
    return rows, tree_flatten(per_column[0][0])[1], per_column[0][1]


def linearize(func: Callable, *primals):
    """``(func(*primals), jvp_fn)`` with ``jvp_fn(*tangents)`` the Jacobian-vector product at
    ``primals`` (``torch.func.linearize``). ``jvp_fn`` re-runs ``func`` with the tangents.

    Args:
        func (callable): the function, of the primals.
        *primals: its arguments (pytrees of tensors allowed).

    Example::

        >>> out, jvp_fn = engine.func.linearize(engine.exp, engine.tensor([0.0, 1.0]))
        >>> jvp_fn(engine.tensor([1.0, 0.0]))
        tensor([1., 0.])
    """
    flat_primals, primals_spec = tree_flatten(primals)
    shapes = [p.shape for p in flat_primals]
    dtypes = [p.dtype for p in flat_primals]
    output = func(*primals)

    def jvp_fn(*tangents):
        flat_tangents, tangents_spec = tree_flatten(tangents)
        if tangents_spec != primals_spec:
            raise RuntimeError(
                f"Expected the tangents {tangents_spec} to have the same argspec as the primals "
                f"{primals_spec}"
            )
        for idx, t in enumerate(flat_tangents):
            if tuple(t.shape) != tuple(shapes[idx]):
                raise RuntimeError(
                    f"tangent:{idx} with shape {t.shape} in flattened pytree doesn't match the "
                    f"shape {shapes[idx]} of "
                    "the corresponding primal."
                )
            if t.dtype != dtypes[idx]:
                raise RuntimeError(
                    f"tangent:{idx} with dtype {t.dtype} in flattened pytree doesn't match the "
                    f"dtype {dtypes[idx]} of the corresponding primal."
                )
        return jvp(func, primals, tangents)[1]

    return output, jvp_fn
