"""``all_to_all_single`` and ``all_to_all``: every process sends a distinct piece to every other
(MPI_Alltoall / MPI_Alltoallv over the tensors' bytes)."""

import engine
from engine.distributed import _mpi
from engine.distributed._process_group import resolve
from engine.distributed.collectives import _check_tensor, _check_tensor_list, _run

__all__ = ["all_to_all", "all_to_all_single"]


def _byte_counts(split_sizes, tensor, group_size, name):
    """Per-rank byte counts and displacements of ``tensor`` cut along dim 0 by ``split_sizes``
    (None: equal parts)."""
    rows = tensor.shape[0] if tensor.dim() > 0 else 1
    row_bytes = (tensor.numel() // rows if rows else 0) * tensor.element_size()
    if split_sizes is None:
        if rows % group_size:
            raise RuntimeError("Tensor's dim 0 does not divide equally across group size")
        split_sizes = [rows // group_size] * group_size
    split_sizes = [int(s) for s in split_sizes]
    if len(split_sizes) != group_size:
        raise RuntimeError(f"all_to_all_single: {name} must have one entry per rank ({group_size})")
    if any(s < 0 for s in split_sizes) or sum(split_sizes) != rows:
        raise RuntimeError(
            f"all_to_all_single: {name} {split_sizes} must be non-negative and add up to the "
            f"tensor's dim 0 ({rows})"
        )
    counts = [s * row_bytes for s in split_sizes]
    displacements = [sum(counts[:i]) for i in range(group_size)]
    return counts, displacements


def all_to_all_single(
    output, input, output_split_sizes=None, input_split_sizes=None, group=None, async_op=False
):
    """Splits ``input`` along dim 0 into one piece per rank (equal parts, or
    ``input_split_sizes``), sends piece ``i`` to rank ``i``, and concatenates the pieces received
    into ``output`` (cut by ``output_split_sizes``). MPI reads and writes the tensors' memory."""
    _check_tensor(output, "output")
    _check_tensor(input, "input")
    pg = resolve(group)
    if pg is None:
        return None
    if output.dtype != input.dtype:
        raise RuntimeError("Tensors are not equal in size or data type")
    if output_split_sizes is None and input_split_sizes is None and output.numel() != input.numel():
        raise RuntimeError("Tensors are not equal in size or data type")
    n = pg.size()
    send_counts = _byte_counts(input_split_sizes, input, n, "input_split_sizes")
    receive_counts = _byte_counts(output_split_sizes, output, n, "output_split_sizes")
    source = _mpi.Staged(input, typed=False)
    target = _mpi.Staged(output, typed=False)
    MPI = _mpi.MPI()
    send = [source.array, send_counts, MPI.BYTE]  # (counts, displacements) in bytes
    receive = [target.array, receive_counts, MPI.BYTE]
    return _run(
        async_op,
        lambda: pg._comm.Alltoallv(send, receive),
        lambda: [pg._comm.Ialltoallv(send, receive)],
        [target.finish],
        [output],
        (source, target),
    )


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """Sends ``input_tensor_list[i]`` to rank ``i`` and receives rank ``i``'s tensor into
    ``output_tensor_list[i]`` (tensors of any sizes; one dtype)."""
    _check_tensor_list(output_tensor_list, "output_tensor_list")
    _check_tensor_list(input_tensor_list, "input_tensor_list")
    pg = resolve(group)
    if pg is None:
        return None
    n = pg.size()
    if len(input_tensor_list) != n:
        raise RuntimeError("Number of input tensors are not equal to group size")
    if len(output_tensor_list) != n:
        raise RuntimeError("Number of output tensors are not equal to group size")
    dtypes = {t.dtype for t in input_tensor_list + output_tensor_list}
    if len(dtypes) != 1:
        raise RuntimeError("all_to_all: all tensors must have the same dtype")
    with engine.no_grad():
        packed = engine.cat([t.detach().reshape(-1) for t in input_tensor_list])
    flat_out = engine.empty(
        sum(t.numel() for t in output_tensor_list), dtype=output_tensor_list[0].dtype
    )
    size = packed.element_size()
    send_counts = [t.numel() * size for t in input_tensor_list]
    receive_counts = [t.numel() * size for t in output_tensor_list]
    MPI = _mpi.MPI()
    send = [_mpi._raw_bytes(packed), (send_counts, _offsets(send_counts)), MPI.BYTE]
    receive = [_mpi._raw_bytes(flat_out), (receive_counts, _offsets(receive_counts)), MPI.BYTE]

    def unpack():
        offset = 0
        with engine.no_grad():
            for out in output_tensor_list:
                out.detach().copy_(flat_out[offset : offset + out.numel()].view(out.shape))
                offset += out.numel()

    return _run(
        async_op,
        lambda: pg._comm.Alltoallv(send, receive),
        lambda: [pg._comm.Ialltoallv(send, receive)],
        [unpack],
        output_tensor_list,
        (packed, flat_out, send, receive),
    )


def _offsets(counts):
    return [sum(counts[:i]) for i in range(len(counts))]
