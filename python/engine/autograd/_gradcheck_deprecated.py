"""``get_numerical_jacobian`` and ``get_analytical_jacobian``: PyTorch's deprecated Jacobian
helpers, kept for old scripts. Each warns with PyTorch's FutureWarning and returns Jacobians laid
out as PyTorch's do: one ``(input numel, output numel)`` tensor per differentiable input."""

import warnings

from engine import _C

_DEPRECATED = (
    "`{}` was part of PyTorch's private API and not meant to be exposed. We are deprecating it "
    "and it will be removed in a future version of PyTorch. If you have a specific use for this "
    "or feature request for this to be a stable API, please file us an issue at "
    "https://github.com/pytorch/pytorch/issues/new"
)


def _check_grad_out(grad_out, name):
    if grad_out != 1.0:
        raise ValueError(
            f"Expected grad_out to be 1.0. {name} no longer supports values of grad_out != 1.0."
        )


def _differentiable(xs):
    if _C.is_tensor(xs):
        xs = (xs,)
    return [x for x in xs if _C.is_tensor(x) and x.requires_grad]


def _first_output(out):
    return out if _C.is_tensor(out) else out[0]


def get_numerical_jacobian(fn, inputs, target=None, eps=1e-3, grad_out=1.0):
    """Deprecated: the central-difference Jacobian of ``fn(inputs)``'s first output with respect to
    each tensor of ``target`` (default: ``inputs``) that requires grad. ``target`` is perturbed in
    place, so it may be a tensor ``fn`` reaches without taking it as an argument."""
    warnings.warn(_DEPRECATED.format("get_numerical_jacobian"), FutureWarning, stacklevel=2)
    _check_grad_out(grad_out, "get_numerical_jacobian")
    import engine

    jacobians = []
    with engine.no_grad():
        for x in _differentiable(inputs if target is None else target):
            flat = x.view(-1)
            columns = []
            for j in range(flat.numel()):
                original = flat[j].item()
                flat[j] = original + eps
                plus = _first_output(fn(inputs)).detach().reshape(-1).clone()
                flat[j] = original - eps
                minus = _first_output(fn(inputs)).detach().reshape(-1).clone()
                flat[j] = original
                columns.append((plus - minus) / (2 * eps))
            jacobians.append(engine.stack(columns).to(x.dtype))
    return tuple(jacobians)


def _jacobian_rows(output, inputs):
    """One vector-Jacobian product per output element, for each differentiable input."""
    import engine

    flat_out = output.reshape(-1)
    rows = []
    for i in range(flat_out.numel()):
        basis = engine.zeros_like(flat_out)
        basis[i] = 1.0
        grads = engine.autograd.grad(
            output, inputs, basis.reshape(output.shape), retain_graph=True, allow_unused=True
        )
        rows.append(grads)
    return rows


def get_analytical_jacobian(inputs, output, nondet_tol=0.0, grad_out=1.0):
    """Deprecated: ``(jacobians, reentrant, correct_grad_sizes, correct_grad_types)`` for
    ``output`` with respect to the inputs that require grad, each Jacobian computed twice to tell
    whether backward is deterministic within ``nondet_tol`` (``reentrant``)."""
    warnings.warn(_DEPRECATED.format("get_analytical_jacobian"), FutureWarning, stacklevel=2)
    _check_grad_out(grad_out, "get_analytical_jacobian")
    import engine

    diff_inputs = _differentiable(inputs)
    sizes_ok = types_ok = True

    def stack(rows):
        nonlocal sizes_ok, types_ok
        jacobians = []
        for k, x in enumerate(diff_inputs):
            columns = []
            for grads in rows:
                g = grads[k]
                if g is None:
                    columns.append(engine.zeros(x.numel(), dtype=x.dtype))
                    continue
                sizes_ok = sizes_ok and tuple(g.shape) == tuple(x.shape)
                types_ok = types_ok and g.dtype == x.dtype
                columns.append(g.detach().reshape(-1).to(x.dtype))
            if columns:
                jacobians.append(engine.stack(columns, dim=1))
            else:
                jacobians.append(engine.zeros(x.numel(), 0, dtype=x.dtype))
        return tuple(jacobians)

    first = stack(_jacobian_rows(output, diff_inputs))
    second = stack(_jacobian_rows(output, diff_inputs))
    reentrant = all(
        a.numel() == 0 or (a - b).abs().max().item() <= nondet_tol for a, b in zip(first, second)
    )
    return first, reentrant, sizes_ok, types_ok
