"""gradcheck's forward-mode part (``check_forward_ad=True``): Jacobian columns from jvps.

Column ``j`` of ``d output / d input`` is the tangent of the output when input element ``j``
carries tangent 1 and everything else none; it is compared with the central finite differences
gradcheck already computes, and the report has gradcheck's layout.
"""

from __future__ import annotations

from engine import _C, _transforms
from engine.autograd._forward_level import ForwardLevel, state_at
from engine.autograd.forward_ad import make_dual

__all__ = ["check_forward_ad", "forward_jacobian_columns"]


def _outputs(out):
    if isinstance(out, _C.Tensor):
        return (out,)
    return tuple(o for o in out if isinstance(o, _C.Tensor))


def _flat(t):
    return t.detach().reshape(-1).tolist() if t.numel() else []


def forward_jacobian_columns(func, inputs, which):
    """``cols[j][k]``: output ``k``'s tangent (flattened) for a unit tangent on element ``j`` of
    input ``which``."""
    x = inputs[which]
    cols = []
    for j in range(x.numel()):
        basis = _C.zeros(x.numel(), dtype=x.dtype)
        basis[j] = 1
        basis = basis.reshape(x.shape)
        level = ForwardLevel()
        _transforms.push(level)
        try:
            args = list(inputs)
            # A leaf that requires grad underneath, so that a function computing gradients
            # (gradgradcheck's first derivative) differentiates the dual tensor itself.
            args[which] = make_dual(x.detach().requires_grad_(), basis, level=level)
            outs = _outputs(func(*args))
            col = []
            for o in outs:
                state = state_at(o, level.level)
                col.append(_flat(state.tangent) if state is not None else [0.0] * o.numel())
        finally:
            _transforms.pop(level)
        cols.append(col)
    return cols


def check_forward_ad(func, inputs, diff_idx, eps, atol, rtol, fail):
    """True if forward-mode Jacobians match finite differences, else ``fail(message)``."""
    from engine.autograd.gradcheck import _matrix_str, _numerical_jacobians

    numerical = _numerical_jacobians(func, inputs, diff_idx, eps)
    for pos, w in enumerate(diff_idx):
        forward = forward_jacobian_columns(func, inputs, w)
        n_in = inputs[w].numel()
        for k in range(len(numerical[w][0]) if n_in else 0):
            n_out = len(numerical[w][0][k])
            num = [numerical[w][j][k] for j in range(n_in)]
            ana = [forward[j][k] for j in range(n_in)]
            worst, where, ok = 0.0, None, True
            for j in range(n_in):
                for i in range(n_out):
                    a, b = ana[j][i], num[j][i]
                    diff = abs(a - b)
                    if not diff <= atol + rtol * abs(b):
                        ok = False
                    if where is None or diff > worst or diff != diff:
                        worst, where = diff, (j, i)
            if not ok:
                j, i = where
                return fail(
                    f"Jacobian computed with forward mode mismatch for output {k} with respect "
                    f"to input {pos},\n"
                    f"numerical:{_matrix_str([v for row in num for v in row], n_in, n_out)}\n"
                    f"analytical:{_matrix_str([v for row in ana for v in row], n_in, n_out)}\n"
                    f"The largest difference is at input element {j}, output element {i}: "
                    f"numerical {num[j][i]!r}, analytical {ana[j][i]!r}.\n"
                )
    return True
