"""gradcheck / gradgradcheck: compare analytical gradients with central finite differences.

Same signature and semantics as PyTorch's. The check always builds the full Jacobians (``fast_mode``
is accepted and gives the same verdict); on failure the report names the output, the input and the
element with the largest difference."""

from engine import _C
from engine.autograd._gradcheck_deprecated import (  # noqa: F401
    get_analytical_jacobian,
    get_numerical_jacobian,
)

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Raised by gradcheck when the analytical and numerical Jacobians differ."""


def _tensors(xs):
    return [x for x in xs if _C.is_tensor(x)]


def _as_outputs(out):
    if _C.is_tensor(out):
        return (out,)
    return tuple(o for o in out if _C.is_tensor(o))


def _flat(t):
    return t.detach().reshape(-1).tolist() if t.numel() else []


def _perturbed(inputs, which, index, delta):
    """The inputs with element `index` of input `which` moved by `delta` (fresh tensors that
    require grad as the original does, so ``func`` may register hooks on its results)."""
    out = list(inputs)
    x = inputs[which]
    vals = _flat(x)
    vals[index] += delta
    fresh = _C.tensor(vals, dtype=x.dtype).reshape(*x.shape) if vals else x.detach()
    out[which] = fresh.requires_grad_(x.requires_grad)
    return out


def _check_same_meta(reference, perturbed, eps):
    # PyTorch's words (its _check_outputs_same_dtype_and_shape).
    for a, b in zip(reference, perturbed):
        if a.shape != b.shape:
            raise AssertionError(
                "Expected `func` to return outputs with the same shape when inputs are perturbed "
                f"by {eps}, but got: shapes {a.shape} and {b.shape}."
            )
        if a.dtype != b.dtype:
            raise AssertionError(
                "Expected `func` to return outputs with the same dtype when inputs are perturbed "
                f"by {eps}, but got: dtypes {a.dtype} and {b.dtype}."
            )


def _central_difference(func, inputs, which, j, step, eps, reference):
    """Per output, (f(x + step) - f(x - step)) / (2 |step|) with step on element j of input which."""
    plus = _as_outputs(func(*_perturbed(inputs, which, j, step)))
    minus = _as_outputs(func(*_perturbed(inputs, which, j, -step)))
    if reference is not None:
        _check_same_meta(reference, plus, eps)
        _check_same_meta(reference, minus, eps)
    return [[(a - b) / (2 * eps) for a, b in zip(_flat(p), _flat(m))] for p, m in zip(plus, minus)]


def _numerical_jacobians(func, inputs, diff_idx, eps, reference=None, complex_inputs=False):
    """jac[k][j] = column j (input element j) of d outputs_k / d input, flattened. ``func`` runs in
    grad mode on inputs that require grad like the originals, as PyTorch's gradcheck runs it.
    With complex_inputs (backward mode, whose outputs are real by then), a complex input's column
    is ds/dx + i ds/dy, stepping its real and imaginary parts: PyTorch's convention for the
    gradient of a real function of a complex variable."""
    result = {}
    for which in diff_idx:
        n = inputs[which].numel()
        cols = []
        for j in range(n):
            col = _central_difference(func, inputs, which, j, eps, eps, reference)
            if complex_inputs and inputs[which].is_complex():
                dy = _central_difference(func, inputs, which, j, eps * 1j, eps, reference)
                col = [[a + 1j * b for a, b in zip(ox, oy)] for ox, oy in zip(col, dy)]
            cols.append(col)
        result[which] = cols
    return result


def _analytical_jacobians(outputs, inputs, diff_idx):
    """rows[k][which][i] = row i (output element i) of d outputs_k / d input `which`."""
    from engine.autograd import grad

    diff_inputs = [inputs[i] for i in diff_idx]
    rows = []
    for out in outputs:
        per_input = {w: [] for w in diff_idx}
        n = out.numel()
        for i in range(n):
            if not out.requires_grad:
                for w in diff_idx:
                    per_input[w].append([0.0] * inputs[w].numel())
                continue
            basis = [0.0] * n
            basis[i] = 1.0
            g_out = _C.tensor(basis, dtype=out.dtype).reshape(*out.shape)
            grads = grad(out, diff_inputs, g_out, retain_graph=True, allow_unused=True)
            for w, g in zip(diff_idx, grads):
                if g is not None and tuple(g.shape) != tuple(inputs[w].shape):
                    raise GradcheckError(
                        f"Analytical gradient has incorrect size: got {list(g.shape)}, expected "
                        f"{list(inputs[w].shape)}"
                    )
                per_input[w].append(_flat(g) if g is not None else [0.0] * inputs[w].numel())
        rows.append(per_input)
    return rows


def _matrix_str(m, rows, cols):
    dtype = _C.complex128 if any(isinstance(v, complex) for v in m) else _C.float64
    t = (
        _C.tensor(m, dtype=dtype).reshape(rows, cols)
        if rows * cols
        else _C.zeros(rows, cols, dtype=_C.float64)
    )
    return repr(t)


def gradcheck(
    func,
    inputs,
    *,
    eps=1e-6,
    atol=1e-5,
    rtol=1e-3,
    raise_exception=True,
    nondet_tol=0.0,
    check_undefined_grad=True,
    check_grad_dtypes=False,
    check_batched_grad=False,
    check_batched_forward_grad=False,
    check_forward_ad=False,
    check_backward_ad=True,
    fast_mode=False,
    masked=None,
):
    """True if ``func``'s backward agrees with finite differences at ``inputs``; raises
    ``GradcheckError`` (or returns False with ``raise_exception=False``) otherwise."""
    import warnings

    if not (check_forward_ad or check_backward_ad):
        raise AssertionError(
            "Expected at least one of check_forward_ad or check_backward_ad to be True"
        )
    if check_batched_grad and not check_backward_ad:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_backward_ad to be True"
        )
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError(
            "Setting check_batched_forward_grad=True requires check_forward_ad to be True"
        )
    inputs = (inputs,) if _C.is_tensor(inputs) else tuple(inputs)
    diff_idx = [i for i, x in enumerate(inputs) if _C.is_tensor(x) and x.requires_grad]
    if not diff_idx:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of the "
            "them have requires_grad=True."
        )
    for i in diff_idx:
        x = inputs[i]
        if x.dtype not in (_C.float64, _C.complex128):
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point or "
                "complex. This check "
                "will likely fail if all the inputs are not of double precision floating point or "
                "complex. ",
                UserWarning,
                stacklevel=2,
            )

    try:
        return _gradcheck_checks(
            func,
            inputs,
            diff_idx,
            eps,
            atol,
            rtol,
            nondet_tol,
            check_undefined_grad,
            check_backward_ad,
            check_forward_ad,
            check_batched_forward_grad,
        )
    except GradcheckError:
        # Only gradcheck's own verdicts become False; any other error of `func` propagates.
        if raise_exception:
            raise
        return False


# PyTorch's note, line for line (scripts print the error's last line).
_NONDET_NOTE = (
    "\n\nNOTE: If your op relies on non-deterministic operations i.e., it is listed here:\n"
    "https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html\n"
    "this failure might be expected.\n\n"
    "If you are adding a new operator, please file an issue and then use one of the\n"
    "workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.\n"
    "If the test\n"
    "- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck\n"
    "  with `nondet_tol=<tol>` as a keyword argument.\n"
    "- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test\n"
    "  to have `gradcheck_nondet_tol=<tol>`.\n"
    "- is a Module test (e.g., in common_nn.py), then modify the corresponding\n"
    "  module_test entry to have `gradcheck_nondet_tol=<tol>`\n"
)


def _max_abs_diff(rows1, rows2):
    worst = 0.0
    for r1, r2 in zip(rows1, rows2):
        for a, b in zip(r1, r2):
            d = abs(a - b)
            if d > worst or d != d:
                worst = d
    return worst


def _gradcheck_checks(
    func,
    inputs,
    diff_idx,
    eps,
    atol,
    rtol,
    nondet_tol,
    check_undefined_grad,
    check_backward_ad,
    check_forward_ad=False,
    check_batched_forward_grad=False,
):
    """PyTorch's sequence of checks; each failure raises GradcheckError."""
    func_out = func(*inputs)
    all_outputs = _as_outputs(func_out)
    outputs = tuple(o for o in all_outputs if o.requires_grad)
    if not outputs:
        # No differentiable output: the function must then be locally constant.
        numerical = _numerical_jacobians(func, inputs, diff_idx, eps, all_outputs)
        for cols in numerical.values():
            for col in cols:
                if any(v != 0 for per_out in col for v in per_out):
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    if check_backward_ad:
        complex_outputs = [k for k, o in enumerate(all_outputs) if o.is_complex()]
        if not complex_outputs:
            _check_backward_jacobians(
                func, inputs, diff_idx, eps, atol, rtol, nondet_tol, all_outputs
            )
        # As PyTorch: complex outputs are checked as their imaginary parts, then their real parts.
        for part in ("imag", "real") if complex_outputs else ():
            part_fn = _output_part(func, part)
            _check_backward_jacobians(
                part_fn,
                inputs,
                diff_idx,
                eps,
                atol,
                rtol,
                nondet_tol,
                _as_outputs(part_fn(*inputs)),
                (part, complex_outputs),
            )
    # Forward mode after backward mode, as in PyTorch: a failing backward hides a failing jvp.
    if check_forward_ad:
        from engine.autograd import _gradcheck_forward as forward

        def fail(msg):
            raise GradcheckError(msg)

        forward.check_forward_ad(func, inputs, diff_idx, eps, atol, rtol, fail)
        if check_undefined_grad:
            forward.check_undefined_forward_grad(func, inputs, diff_idx, fail)
        if check_batched_forward_grad:
            forward.check_batched_forward_grad(func, inputs, fail)
    if not check_backward_ad:
        return True
    _check_backward_mul_by_grad_output(outputs, inputs, diff_idx)
    if check_undefined_grad:
        _check_undefined_output_grads(func, inputs, diff_idx)
    return True


def _output_part(func, part):
    """func with each complex output replaced by its real or imaginary part."""

    def wrapped(*inputs):
        out = func(*inputs)
        outs = (out,) if _C.is_tensor(out) else tuple(out)
        return tuple(getattr(o, part) if _C.is_tensor(o) and o.is_complex() else o for o in outs)

    return wrapped


def _check_backward_jacobians(
    func, inputs, diff_idx, eps, atol, rtol, nondet_tol, all_outputs, complex_part=None
):
    """complex_part: ("real" or "imag", indices of the outputs that were complex), when func
    gives one part of each complex output."""
    numerical = _numerical_jacobians(func, inputs, diff_idx, eps, all_outputs, complex_inputs=True)
    for k, out in enumerate(all_outputs):
        n_out = out.numel()
        analytical = _analytical_jacobians((out,), inputs, diff_idx)[0]
        # Computed twice: a backward that gives different values on the same input is not
        # reentrant (PyTorch's check, with its tolerance nondet_tol).
        again = _analytical_jacobians((out,), inputs, diff_idx)[0]
        for w in diff_idx:
            if _max_abs_diff(analytical[w], again[w]) > nondet_tol:
                raise GradcheckError(
                    "Backward is not reentrant, i.e., running backward with same input and "
                    "grad_output multiple times gives different values, although analytical "
                    "gradient matches numerical gradient."
                    f"The tolerance for nondeterminism was {nondet_tol}." + _NONDET_NOTE
                )
        # Inputs are numbered among those that require grad, as in PyTorch's report.
        for pos, w in enumerate(diff_idx):
            n_in = inputs[w].numel()
            # numerical[w][j][k][i] is d out_k[i] / d in_w[j]; lay both out as (n_in, n_out) like
            # PyTorch.
            num = [[numerical[w][j][k][i] for i in range(n_out)] for j in range(n_in)]
            ana = [[analytical[w][i][j] for i in range(n_out)] for j in range(n_in)]
            worst, where = 0.0, None
            ok = True
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
                prefix = ""
                if complex_part is not None and k in complex_part[1]:
                    part = "imaginary" if complex_part[0] == "imag" else "real"
                    prefix = f"While considering the {part} part of complex outputs only, "
                raise GradcheckError(
                    prefix + f"Jacobian mismatch for output {k} with respect to input {pos},\n"
                    f"numerical:{_matrix_str([v for row in num for v in row], n_in, n_out)}\n"
                    f"analytical:{_matrix_str([v for row in ana for v in row], n_in, n_out)}\n"
                    f"The largest difference is at input element {j}, output element {i}: "
                    f"numerical {num[j][i]!r}, analytical {ana[j][i]!r}.\n"
                )


def _check_backward_mul_by_grad_output(outputs, inputs, diff_idx):
    """Zero output gradients must give zero input gradients."""
    from engine.autograd import grad

    diff = [inputs[i] for i in diff_idx]
    zeros = [_C.zeros_like(o) for o in outputs]
    for g in grad(outputs, diff, zeros, allow_unused=True, retain_graph=True):
        if g is not None and not bool((g == 0).all()):
            raise GradcheckError("backward not multiplied by grad_output")


def _undefined_grad(t):
    """An identity on ``t`` whose backward sends no gradient on (PyTorch's UndefinedGrad node)."""
    from engine.autograd.function import Function

    class UndefinedGrad(Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return None

    return UndefinedGrad.apply(t)


def _check_undefined_output_grads(func, inputs, diff_idx):
    """Every backward must accept outputs that received no gradient (PyTorch's check)."""
    import warnings

    from engine.autograd import grad

    def warn_bc_breaking():
        warnings.warn(
            "Backwards compatibility: New undefined gradient support checking "
            "feature is enabled by default, but it may break existing callers "
            "of this function. If this is true for you, you can call this "
            'function with "check_undefined_grad=False" to disable the feature',
            stacklevel=4,
        )

    diff = [inputs[i] for i in diff_idx]

    def differentiable():
        return [o for o in _as_outputs(func(*inputs)) if o.requires_grad]

    cases = [[_undefined_grad(o) for o in differentiable()]]
    if len(cases[0]) > 1:
        for undef in range(len(cases[0])):
            outs = differentiable()
            cases.append([_undefined_grad(o) if i == undef else o for i, o in enumerate(outs)])
    for outs in cases:
        try:
            grads = grad(outs, diff, [_C.zeros_like(o) for o in outs], allow_unused=True)
        except RuntimeError as e:
            warn_bc_breaking()
            raise GradcheckError(
                "Expected backward function to handle undefined output grads. "
                'Please look at "Notes about undefined output gradients" in '
                '"tools/autograd/derivatives.yaml"'
            ) from e
        for g in grads:
            if g is not None and not bool((g == 0).all()):
                warn_bc_breaking()
                raise GradcheckError(
                    "Expected all input grads to be undefined or zero when all output grads are "
                    'undefined or zero. Please look at "Notes about undefined output gradients" '
                    'in "tools/autograd/derivatives.yaml"'
                )


def gradgradcheck(
    func,
    inputs,
    grad_outputs=None,
    *,
    eps=1e-6,
    atol=1e-5,
    rtol=1e-3,
    gen_non_contig_grad_outputs=False,
    raise_exception=True,
    nondet_tol=0.0,
    check_undefined_grad=True,
    check_grad_dtypes=False,
    check_batched_grad=False,
    check_fwd_over_rev=False,
    check_rev_over_rev=True,
    fast_mode=False,
    masked=False,
):
    """Checks second derivatives: gradcheck of the map (inputs, v) -> vᵀ·J(inputs)."""
    from engine.autograd import grad
    from engine.autograd.grad_mode import enable_grad

    inputs = (inputs,) if _C.is_tensor(inputs) else tuple(inputs)
    diff_idx = [i for i, x in enumerate(inputs) if _C.is_tensor(x) and x.requires_grad]
    outputs = _as_outputs(func(*inputs))
    if grad_outputs is None:
        gen = _C.Generator().manual_seed(0)
        grad_outputs = tuple(
            _C.randn(*o.shape, dtype=o.dtype, generator=gen).requires_grad_()
            for o in outputs
            if o.requires_grad
        )
    else:
        grad_outputs = (grad_outputs,) if _C.is_tensor(grad_outputs) else tuple(grad_outputs)
    n_in = len(inputs)

    def first_derivative(*args):
        # The first derivative needs a graph of its own: grad mode on, and the differentiable
        # inputs as leaves that require grad.
        with enable_grad():
            # (a dual tensor from the forward-mode check keeps its tangent: requires_grad_ on
            # itself rather than on a detached copy)
            ins = [
                x.requires_grad_() if i in diff_idx and not x.requires_grad else x
                for i, x in enumerate(args[:n_in])
            ]
            vs = args[n_in:]
            outs = [o for o in _as_outputs(func(*ins)) if o.requires_grad]
            diff = [ins[i] for i in diff_idx]
            return grad(outs, diff, vs, create_graph=True, allow_unused=True)

    return gradcheck(
        lambda *a: tuple(g for g in first_derivative(*a) if g is not None),
        inputs + tuple(grad_outputs),
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        check_forward_ad=check_fwd_over_rev,
        check_backward_ad=check_rev_over_rev,
        nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad,
    )
