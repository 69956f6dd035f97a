"""Higher-level autograd on functions (``torch.autograd.functional``): ``vjp``, ``jvp``,
``jacobian``, ``hessian``, ``vhp``, ``hvp``.

Each takes ``func`` and its ``inputs`` (a tensor or a tuple of tensors) and answers in the same
shape: a tensor where a tensor was given, a tuple where a tuple was. The inputs are differentiated
as fresh tensors (detached leaves, or views of themselves when ``create_graph=True`` and they
already require grad, so the result stays differentiable with respect to them). ``jvp`` and
``hvp`` use the double-vjp trick: the vjp is linear in its cotangent ``u``, so differentiating
``<vjp(u), v>`` with respect to ``u`` gives ``J v``. ``vectorize=True`` and
``strategy="forward-mode"`` use ``vmap`` and forward-mode AD where those transforms are present,
and otherwise compute the same Jacobians row by row in reverse mode.
"""

from __future__ import annotations

import engine
from engine import _C

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


def _as_tuple(value, arg_name, fn_name):
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for i, item in enumerate(items):
        if not isinstance(item, _C.Tensor):
            where = f"value at index {i}" if is_tuple else f"given {arg_name}"
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors "
                f"but the {where} has type {type(item)}."
            )
    return is_tuple, items


def _prepare(inputs, create_graph, need_graph):
    return tuple(
        inp.view_as(inp)
        if create_graph and inp.requires_grad
        else inp.detach().requires_grad_(need_graph)
        for inp in inputs
    )


def _finish(values, create_graph):
    """Results as the caller sees them: detached unless ``create_graph``."""
    if values and isinstance(values[0], _C.Tensor):
        return values if create_graph else tuple(v.detach() for v in values)
    return tuple(_finish(v, create_graph) for v in values)


def _unpack(result, keep):
    """Undoes the tuple wrapping of inputs/outputs that were given as single tensors."""
    if isinstance(keep, tuple):
        outer, inner = keep
        if not inner:
            result = tuple(r[0] for r in result)
        return result if outer else result[0]
    return result if keep else result[0]


def _validate_v(v, other, other_is_tuple):
    if len(other) != len(v):
        if other_is_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}."
            )
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prefix = f"Entry {idx} in " if other_is_tuple else ""
            raise RuntimeError(
                f"{prefix}v has invalid size: should be {el_other.size()} but got {el_v.size()}."
            )


_STRICT_MESSAGES = {
    "outputs": (
        "Output {i} of the user-provided function does not require gradients. The outputs must "
        "be computed in a differentiable manner from the input when running in strict mode."
    ),
    "grad_inputs": (
        "The gradient with respect to input {i} is independent of the inputs of the "
        "user-provided function. This is not allowed in strict mode."
    ),
    "jacobian": (
        "While computing the hessian, found that the jacobian of the user-provided function "
        "with respect to input {i} is independent of the input. This is not allowed in strict "
        "mode. You should ensure that your function is twice differentiable and that the "
        "jacobian depends on the inputs (this would be violated by a linear function for "
        "example)."
    ),
    "hessian": (
        "The hessian of the user-provided function with respect to input {i} is independent of "
        "the input. This is not allowed in strict mode. You should ensure that your function is "
        "thrice differentiable and that the hessian depends on the inputs."
    ),
}


def _check_requires_grad(values, kind, strict):
    if not strict:
        return
    for i, value in enumerate(values):
        if value is None:
            raise RuntimeError(
                f"The output of the user-provided function is independent of input {i}. This is "
                "not allowed in strict mode."
            )
        if not value.requires_grad:
            raise RuntimeError(_STRICT_MESSAGES[kind].format(i=i))


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """``autograd.grad`` over the outputs that require grad; ``None`` for unreached inputs."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    kept = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    return engine.autograd.grad(
        [o for o, _ in kept],
        list(inputs),
        [g for _, g in kept],
        retain_graph=retain_graph,
        create_graph=create_graph,
        allow_unused=True,
    )


_FILL_MESSAGES = {
    "back": (
        "The output of the user-provided function is independent of input {i}. This is not "
        "allowed in strict mode."
    ),
    "back_trick": (
        "The gradient with respect to the input is independent of entry {i} in the "
        "grad_outputs when using the double backward trick to compute forward mode gradients. "
        "This is not allowed in strict mode."
    ),
    "double_back": (
        "The jacobian of the user-provided function is independent of input {i}. This is not "
        "allowed in strict mode."
    ),
    "double_back_trick": (
        "The hessian of the user-provided function is independent of entry {i} in the "
        "grad_jacobian. This is not allowed in strict mode as it prevents from using the double "
        "backward trick to replace forward mode AD."
    ),
}


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    result = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_FILL_MESSAGES[stage].format(i=i))
            g = _C.zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of input {i}. This is "
                "not allowed in strict mode when create_graph=True."
            )
        result.append(g)
    return tuple(result)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(*inputs), v^T J)``: the vector-Jacobian product at ``inputs``.

    ``v`` may be omitted only when ``func`` returns a single one-element tensor.
    """
    with engine.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph, True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(
            outputs, "outputs of the user-provided function", "vjp"
        )
        _check_requires_grad(outputs, "outputs", strict)
        if v is not None:
            _, v = _as_tuple(v, "v", "vjp")
            v = _prepare(v, create_graph, False)
            _validate_v(v, outputs, is_outputs_tuple)
        elif len(outputs) != 1 or outputs[0].nelement() != 1:
            raise RuntimeError(
                "The vector v can only be None if the user-provided function returns a single "
                "Tensor with a single element."
            )
    with engine.set_grad_enabled(True if create_graph else engine.is_grad_enabled()):
        grads = _grad(outputs, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grads, inputs, strict, create_graph, "back")
    return (
        _unpack(_finish(outputs, create_graph), is_outputs_tuple),
        _unpack(_finish(result, create_graph), is_inputs_tuple),
    )


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(*inputs), J v)``: the Jacobian-vector product at ``inputs`` (by the double-vjp
    trick). ``v`` may be omitted only for a single one-element input."""
    with engine.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _prepare(inputs, create_graph, True)
        if v is not None:
            _, v = _as_tuple(v, "v", "jvp")
            v = _prepare(v, create_graph, False)
            _validate_v(v, inputs, is_inputs_tuple)
        elif len(inputs) != 1 or inputs[0].nelement() != 1:
            raise RuntimeError(
                "The vector v can only be None if the input to the user-provided function is a "
                "single Tensor with a single element."
            )
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(
            outputs, "outputs of the user-provided function", "jvp"
        )
        _check_requires_grad(outputs, "outputs", strict)
        dummies = tuple(_C.zeros_like(out).requires_grad_() for out in outputs)
        grad_inputs = _grad(outputs, inputs, dummies, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with engine.enable_grad() if create_graph else _nullcontext():
        grads = _grad(grad_inputs, dummies, v, create_graph=create_graph)
        result = _fill_in_zeros(grads, outputs, strict, create_graph, "back_trick")
    return (
        _unpack(_finish(outputs, create_graph), is_outputs_tuple),
        _unpack(_finish(result, create_graph), is_outputs_tuple),
    )


class _nullcontext:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _basis(refs, numels):
    """The identity over all ``refs``' elements, cut per tensor: ``(total, numel_i)`` each."""
    total = sum(numels)
    chunks = []
    start = 0
    for ref, n in zip(refs, numels):
        chunk = _C.zeros((total, n), dtype=ref.dtype)
        chunk.diagonal(-start).fill_(1)
        chunks.append(chunk)
        start += n
    return chunks


def _optional_vmap():
    try:
        from engine.func._vmap import vmap
    except ImportError:
        return None
    return vmap


def _optional_forward_ad():
    try:
        from engine.autograd import forward_ad
    except ImportError:
        return None
    return forward_ad


def _reverse_jacobian_vectorized(outputs, inputs, create_graph):
    """Per input, the ``(total_output_numel, *input.shape)`` Jacobian from batched cotangents:
    one vmap'd vjp where vmap exists, else one vjp per basis row."""
    numels = tuple(out.numel() for out in outputs)
    basis = _basis(outputs, numels)
    flat_outputs = tuple(out.reshape(-1) for out in outputs)
    total = sum(numels)

    def one_vjp(*cotangents):
        grads = _grad(
            flat_outputs, inputs, cotangents, create_graph=create_graph, retain_graph=True
        )
        return tuple(_C.zeros_like(inp) if g is None else g for g, inp in zip(grads, inputs))

    vmap = _optional_vmap()
    if vmap is not None and total > 0:
        try:
            with engine.set_grad_enabled(engine.is_grad_enabled()):
                return tuple(vmap(one_vjp)(*basis))
        except Exception:  # noqa: BLE001
            pass  # an op vmap cannot batch: the rows below give the same Jacobian
    rows = [one_vjp(*(b[r] for b in basis)) for r in range(total)]
    if not rows:
        return tuple(_C.zeros((0, *inp.shape), dtype=inp.dtype) for inp in inputs)
    return tuple(_C.stack(list(col)) for col in zip(*rows))


def _jacobian_by_forward_mode(func, inputs, forward_ad, vmap):
    """Per output, per input: the Jacobian blocks from one jvp per input element."""
    numels = tuple(inp.numel() for inp in inputs)
    tangent_basis = _basis(inputs, numels)
    info = []

    def column(*tangents):
        with forward_ad.dual_level():
            duals = tuple(
                forward_ad.make_dual(inp, t.view_as(inp)) for inp, t in zip(inputs, tangents)
            )
            outputs = func(*duals)
            is_tuple, outputs = _as_tuple(
                outputs, "outputs of the user-provided function", "jacobian"
            )
            primals, tangents_out = [], []
            for out in outputs:
                primal, tangent = forward_ad.unpack_dual(out)
                primals.append(primal)
                tangents_out.append(_C.zeros_like(primal) if tangent is None else tangent)
            if not info:
                info.extend([is_tuple, primals])
            return tuple(tangents_out)

    total = sum(numels)
    columns = None
    if vmap is not None:
        try:
            with engine.set_grad_enabled(engine.is_grad_enabled()):
                columns = vmap(column)(*tangent_basis)
        except Exception:  # noqa: BLE001
            info.clear()  # an op vmap cannot batch: the columns below give the same Jacobian
    if columns is None:
        per_column = [column(*(b[c] for b in tangent_basis)) for c in range(total)]
        columns = tuple(_C.stack(list(col)) for col in zip(*per_column))
    is_outputs_tuple, outputs = info
    blocks = []
    for jac_out, out in zip(columns, outputs):
        row = []
        for jac, inp in zip(jac_out.split(list(numels), 0), inputs):
            row.append(jac.permute(*range(1, jac.dim()), 0).reshape((*out.shape, *inp.shape)))
        blocks.append(tuple(row))
    return tuple(blocks), is_outputs_tuple


def jacobian(
    func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"
):
    """The Jacobian of ``func`` at ``inputs``: for output ``i`` and input ``j`` a block of shape
    ``outputs[i].shape + inputs[j].shape``, nested as tuple-of-tuples when both are tuples.

    Args:
        func (callable): takes the input tensors, returns a tensor or a tuple of tensors.
        inputs (Tensor or tuple of Tensors): where to differentiate.
        create_graph (bool): make the result differentiable (for higher derivatives).
        strict (bool): raise when an output does not depend on an input instead of giving
            zeros.
        vectorize (bool): compute all rows in one batched pass (``vmap``) instead of one vjp
            per output element; the values are the same.
        strategy (str): ``"reverse-mode"`` or ``"forward-mode"`` (needs ``vectorize=True``).

    Example::

        >>> x = engine.tensor([0.0, 1.0])
        >>> engine.autograd.functional.jacobian(lambda v: v * v.sum(), x)
        tensor([[1., 0.],
                [1., 2.]])
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "torch.autograd.functional.jacobian: `create_graph=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either set '
                '`create_graph=False` or `strategy="reverse-mode"`.'
            )
        if strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either set '
                '`strict=False` or `strategy="reverse-mode"`.'
            )
        if not vectorize:
            raise NotImplementedError(
                "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                "only implemented for `vectorize=True`."
            )
        forward_ad = _optional_forward_ad()
        if forward_ad is not None:
            is_inputs_tuple, tensors = _as_tuple(inputs, "inputs", "jacobian")
            blocks, is_outputs_tuple = _jacobian_by_forward_mode(
                func, tensors, forward_ad, _optional_vmap()
            )
            return _unpack(blocks, (is_outputs_tuple, is_inputs_tuple))
        # Without forward mode the same Jacobian comes from reverse mode.
    with engine.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _prepare(inputs, create_graph, True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(
            outputs, "outputs of the user-provided function", "jacobian"
        )
        _check_requires_grad(outputs, "outputs", strict)
        if vectorize:
            if strict:
                raise RuntimeError(
                    "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                    "not supported together. Please either set `strict=False` or "
                    "`vectorize=False`."
                )
            per_input = _reverse_jacobian_vectorized(outputs, inputs, create_graph)
            numels = [out.numel() for out in outputs]
            per_input_blocks = [
                [
                    jac.reshape((*out.shape, *inp.shape))
                    for jac, out in zip(whole.split(numels, 0), outputs)
                ]
                for whole, inp in zip(per_input, inputs)
            ]
            blocks = tuple(zip(*per_input_blocks))
        else:
            blocks = _jacobian_by_rows(outputs, inputs, create_graph, strict)
        blocks = _finish(blocks, create_graph)
        return _unpack(blocks, (is_outputs_tuple, is_inputs_tuple))


def _jacobian_by_rows(outputs, inputs, create_graph, strict):
    """One vjp per output element (PyTorch's non-vectorised algorithm, with its strict checks)."""
    blocks = []
    for i, out in enumerate(outputs):
        columns: list[list] = [[] for _ in inputs]
        flat = out.reshape(-1)
        for j in range(out.nelement()):
            grads = _grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
            for k, (g, inp) in enumerate(zip(grads, inputs)):
                if g is None:
                    if strict:
                        raise RuntimeError(
                            f"Output {i} of the user-provided function is independent of input "
                            f"{k}. This is not allowed in strict mode."
                        )
                    g = _C.zeros_like(inp)
                elif strict and create_graph and not g.requires_grad:
                    raise RuntimeError(
                        f"The jacobian of the user-provided function is independent of input "
                        f"{i}. This is not allowed in strict mode when create_graph=True."
                    )
                columns[k].append(g)
        blocks.append(
            tuple(
                (_C.stack(col) if col else _C.zeros((0, *inp.shape), dtype=inp.dtype)).reshape(
                    (*out.shape, *inp.shape)
                )
                for col, inp in zip(columns, inputs)
            )
        )
    return tuple(blocks)


def hessian(
    func,
    inputs,
    create_graph=False,
    strict=False,
    vectorize=False,
    outer_jacobian_strategy="reverse-mode",
):
    """The Hessian of scalar ``func`` at ``inputs``: a block ``inputs[i].shape +
    inputs[j].shape`` per pair, nested as tuple-of-tuples when ``inputs`` is a tuple."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar_func(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict)
        if is_out_tuple or not isinstance(out, _C.Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError(
                "The Tensor returned by the function given to hessian should contain a single "
                "element"
            )
        return out.squeeze()

    def jac_func(*inp):
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(scalar_func, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    result = jacobian(
        jac_func,
        inputs,
        create_graph=create_graph,
        strict=strict,
        vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )
    return _unpack(result, (is_inputs_tuple, is_inputs_tuple))


def _single_output(func_name, outputs, is_outputs_tuple):
    if is_outputs_tuple or not isinstance(outputs[0], _C.Tensor):
        raise RuntimeError(f"The function given to {func_name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {func_name} should contain a single "
            "element"
        )


def _second_order_setup(func_name, func, inputs, v, create_graph, strict):
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", func_name)
    inputs = _prepare(inputs, create_graph, True)
    if v is not None:
        _, v = _as_tuple(v, "v", func_name)
        v = _prepare(v, create_graph, False)
        _validate_v(v, inputs, is_inputs_tuple)
    elif len(inputs) != 1 or inputs[0].nelement() != 1:
        raise RuntimeError(
            "The vector v can only be None if the input to the user-provided function is a "
            "single Tensor with a single element."
        )
    outputs = func(*inputs)
    is_outputs_tuple, outputs = _as_tuple(
        outputs, "outputs of the user-provided function", func_name
    )
    _check_requires_grad(outputs, "outputs", strict)
    _single_output(func_name, outputs, is_outputs_tuple)
    jac = _grad(outputs, inputs, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict)
    return is_inputs_tuple, is_outputs_tuple, inputs, v, outputs, jac


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(*inputs), v^T H)``: a vector-Hessian product of scalar ``func``."""
    with engine.enable_grad():
        is_inputs_tuple, is_outputs_tuple, inputs, v, outputs, jac = _second_order_setup(
            "vhp", func, inputs, v, create_graph, strict
        )
    with engine.set_grad_enabled(True if create_graph else engine.is_grad_enabled()):
        grads = _grad(jac, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grads, inputs, strict, create_graph, "double_back")
    return (
        _unpack(_finish(outputs, create_graph), is_outputs_tuple),
        _unpack(_finish(result, create_graph), is_inputs_tuple),
    )


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(*inputs), H v)``: a Hessian-vector product of scalar ``func`` (double-vjp trick).

    Example::

        >>> x = engine.tensor([1.0, 2.0])
        >>> engine.autograd.functional.hvp(lambda v: (v**3).sum(), x, engine.ones(2))
        (tensor(9.), tensor([ 6., 12.]))
    """
    with engine.enable_grad():
        is_inputs_tuple, is_outputs_tuple, inputs, v, outputs, jac = _second_order_setup(
            "hvp", func, inputs, v, create_graph, strict
        )
        grad_jac = tuple(_C.zeros_like(inp).requires_grad_() for inp in inputs)
        double_back = _grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict)
    with engine.set_grad_enabled(True if create_graph else engine.is_grad_enabled()):
        grads = _grad(double_back, grad_jac, v, create_graph=create_graph)
        result = _fill_in_zeros(grads, inputs, strict, create_graph, "double_back_trick")
    return (
        _unpack(_finish(outputs, create_graph), is_outputs_tuple),
        _unpack(_finish(result, create_graph), is_inputs_tuple),
    )
