"""``autograd.grad(..., is_grads_batched=True)``: the first dimension of every grad_output is a
batch of vectors, and each input's gradient comes back stacked along a new first dimension.

PyTorch runs the backward pass once under vmap; engine runs it once per batch entry on the same
graph (kept until the last one), which gives the same values, stacked."""

from engine import _C


def check_batched_shapes(outputs, grad_outputs):
    """PyTorch's error for a grad_output whose shape past the batch dim is not its output's."""
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if g is None or not _C.is_tensor(out):
            continue
        if g.dim() == 0 or g.shape[1:] != out.shape:
            # PyTorch's message shows the shape with its first two dims dropped (it is built from
            # a per-sample grad_output inside its vmap): copied as it is.
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each grad_output "
                "as the batch dimension. The sizes of the remaining dimensions are expected to "
                "match the shape of corresponding output, but a mismatch was detected: "
                f"grad_output[{i}] has a shape of {g.shape[2:]} and output[{i}] has a shape of "
                f"{out.shape}. If you only want some tensors in `grad_output` to be considered "
                "batched, consider using vmap."
            )


def batched_grad(
    grad_fn,
    outputs,
    inputs,
    grad_outputs,
    retain_graph,
    create_graph,
    allow_unused,
    materialize_grads,
):
    """``grad_fn`` (autograd.grad) once per batch entry of ``grad_outputs``, results stacked; an
    input that got no gradient in any entry stays None, or with ``materialize_grads`` becomes
    zeros of the input's own (unbatched) shape, as PyTorch's does."""
    kwargs = {"allow_unused": allow_unused or materialize_grads}
    check_batched_shapes(outputs, grad_outputs)
    sizes = {g.shape[0] for g in grad_outputs if g is not None}
    if len(sizes) != 1:
        # No batched grad_output at all: the unbatched call raises PyTorch's error for it.
        if not sizes:
            return grad_fn(
                outputs,
                inputs,
                grad_outputs,
                retain_graph,
                create_graph,
                allow_unused=allow_unused,
                materialize_grads=materialize_grads,
            )
        raise RuntimeError(
            "If `is_grads_batched=True`, every grad_output must have the same batch size, got "
            f"{sorted(sizes)}"
        )
    (batch,) = sizes
    if batch == 0:
        raise IndexError("index 0 is out of bounds for dimension 0 with size 0")
    if retain_graph is None:
        retain_graph = create_graph
    per_entry = []
    for b in range(batch):
        entry = [None if g is None else g[b] for g in grad_outputs]
        keep = retain_graph if b == batch - 1 else True
        per_entry.append(grad_fn(outputs, inputs, entry, keep, create_graph, **kwargs))
    result = []
    for i, inp in enumerate(inputs):
        column = [r[i] for r in per_entry]
        if all(c is None for c in column):
            result.append(
                _C.zeros_like(inp, requires_grad=create_graph) if materialize_grads else None
            )
        else:
            result.append(_C.stack([_C.zeros_like(inp) if c is None else c for c in column]))
    return tuple(result)
