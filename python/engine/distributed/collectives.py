"""Collective and point-to-point operations on engine tensors, over MPI.

Each operation works in place on the tensors given (a contiguous tensor's own memory is MPI's
buffer; see ``_mpi.Staged``). With ``async_op=True`` it returns a :class:`Work` whose ``wait()``
completes it (MPI's non-blocking call underneath); otherwise it completes before returning None.
Processes outside a ``group`` given to an operation take no part and get None, as in PyTorch.
"""

import engine
from engine.distributed import _mpi
from engine.distributed._process_group import get_global_rank, get_group_rank, resolve
from engine.distributed._reduce_op import ReduceOp, _as_red_op_type
from engine.distributed._work import Work

__all__ = [
    "all_gather",
    "all_gather_into_tensor",
    "all_gather_object",
    "all_reduce",
    "barrier",
    "broadcast",
    "broadcast_object_list",
    "gather",
    "irecv",
    "isend",
    "recv",
    "reduce",
    "reduce_scatter",
    "reduce_scatter_tensor",
    "scatter",
    "send",
]


# ---------------------------------------------------------------- argument checks


def _check_tensor(param, name):
    if not engine.is_tensor(param):
        raise TypeError(
            f"""Invalid function argument. Expected parameter `{name}` of type torch.Tensor
             but got {type(param)} instead."""
        )


def _check_tensor_list(param, name):
    if not isinstance(param, list):
        raise TypeError(
            f"""Invalid function argument. Expected parameter `{name}` of type List[torch.Tensor]
             but got {type(param)} instead."""
        )
    if not all(engine.is_tensor(p) for p in param):
        raise TypeError(
            f"""Invalid function argument. Expected parameter `{name}` of type List[torch.Tensor]
             but got {type(param)} with elements of type {[type(p) for p in param]}."""
        )


def _check_same_size_and_type(reference, tensors):
    for t in tensors:
        if t.numel() != reference.numel() or t.dtype != reference.dtype:
            raise RuntimeError("Tensors are not equal in size or data type")


def _root(pg, global_rank, group_rank, function, noun="root"):
    """The group rank of a collective's root from its ``src``/``dst`` or ``group_src``/
    ``group_dst`` argument (exactly one of the two)."""
    if group_rank is not None:
        if global_rank is not None:
            raise ValueError("Can't specify both group_rank and global_rank")
        rank = group_rank
    elif global_rank is None:
        raise ValueError("Must specify global_rank or group_rank")
    else:
        rank = global_rank
    if isinstance(rank, bool) or not isinstance(rank, int):
        raise TypeError(f"{function}: the {noun} rank must be an int, got {type(rank).__name__}")
    if global_rank is not None and pg._global_ranks != list(range(pg.size())):
        return get_group_rank(pg, global_rank)
    if not 0 <= rank < pg.size():
        raise RuntimeError(f"ProcessGroupMPI::{function}: invalid {noun} rank: {rank}")
    return rank


def _reduce_op(op, dtype, function):
    """(MPI op, whether to divide by the group size afterwards) for ``op`` on ``dtype``."""
    kind = _as_red_op_type(op, function)
    average = kind is ReduceOp.AVG
    if average and not dtype.is_floating_point:
        raise RuntimeError(
            f"result type Float can't be cast to the desired output type {_mpi.type_name(dtype)}"
        )
    return _mpi.mpi_op(kind, dtype, function), average


def _divider(array, count):
    def divide():
        import numpy as np

        np.divide(array, count, out=array)

    return divide


def _run(async_op, blocking, nonblocking, finishers, outputs, keep_alive):
    """Runs an operation: at once (``blocking()``), or started (``nonblocking()`` gives the MPI
    requests) and returned as a Work; ``finishers`` run, in order, once it has completed."""
    if not async_op:
        blocking()
        for finish in finishers:
            finish()
        return None
    requests = nonblocking()
    return Work(requests, finishers, outputs, keep_alive)


# ---------------------------------------------------------------- collectives


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduces ``tensor`` across all processes of ``group`` in place: afterwards every process
    holds the same result (``op``: ``ReduceOp.SUM`` (default), ``AVG``, ``PRODUCT``, ``MIN``,
    ``MAX``; ``BAND``/``BOR``/``BXOR`` on integers).

    The tensor's memory is handed to MPI (``MPI_Allreduce`` with ``MPI_IN_PLACE``): no copy for
    a contiguous tensor. Half-precision tensors are reduced in float32.

    Example::

        >>> t = engine.tensor([float(dist.get_rank())])
        >>> dist.all_reduce(t)  # every rank now holds 0 + 1 + ... + (world_size - 1)
    """
    _check_tensor(tensor, "tensor")
    pg = resolve(group)
    if pg is None:
        return None
    mpi_op, average = _reduce_op(op, tensor.dtype, "all_reduce")
    staged = _mpi.Staged(tensor, typed=True)
    buffer = staged.array
    in_place = _mpi.MPI().IN_PLACE
    if not async_op:  # the common case, kept short: one MPI call on the tensor's memory
        pg._comm.Allreduce(in_place, buffer, mpi_op)
        if average:
            _divider(buffer, pg.size())()
        staged.finish()
        return None
    finishers = ([_divider(buffer, pg.size())] if average else []) + [staged.finish]
    request = pg._comm.Iallreduce(in_place, buffer, mpi_op)
    return Work([request], finishers, [tensor], (staged,))


def broadcast(tensor, src=None, group=None, async_op=False, group_src=None):
    """Copies ``tensor`` from the process of rank ``src`` (or ``group_src`` within ``group``)
    into ``tensor`` on every other process, in place.

    Example::

        >>> dist.broadcast(t, src=0)
    """
    _check_tensor(tensor, "tensor")
    pg = resolve(group)
    if pg is None:
        return None
    root = _root(pg, src, group_src, "broadcast")
    staged = _mpi.Staged(tensor, typed=False)
    buffer = staged.array
    return _run(
        async_op,
        lambda: pg._comm.Bcast(buffer, root),
        lambda: [pg._comm.Ibcast(buffer, root)],
        [staged.finish],
        [tensor],
        (staged,),
    )


def reduce(tensor, dst=None, op=ReduceOp.SUM, group=None, async_op=False, group_dst=None):
    """Reduces ``tensor`` across the processes of ``group`` into ``tensor`` on rank ``dst`` (or
    ``group_dst``); the other processes' tensors are left unchanged."""
    _check_tensor(tensor, "tensor")
    pg = resolve(group)
    if pg is None:
        return None
    root = _root(pg, dst, group_dst, "reduce")
    mpi_op, average = _reduce_op(op, tensor.dtype, "reduce")
    staged = _mpi.Staged(tensor, typed=True)
    MPI = _mpi.MPI()
    buffer = staged.array
    is_root = pg.rank() == root
    send, receive = (MPI.IN_PLACE, buffer) if is_root else (buffer, None)
    finishers = []
    if is_root:
        finishers = ([_divider(buffer, pg.size())] if average else []) + [staged.finish]
    return _run(
        async_op,
        lambda: pg._comm.Reduce(send, receive, mpi_op, root),
        lambda: [pg._comm.Ireduce(send, receive, mpi_op, root)],
        finishers,
        [tensor],
        (staged,),
    )


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """Gathers ``tensor`` from every process of ``group`` into ``tensor_list`` (one tensor per
    rank, in rank order) on every process.

    MPI gathers into one contiguous buffer, which is then copied into the list's tensors (as
    PyTorch's MPI backend does); :func:`all_gather_into_tensor` avoids that copy.
    """
    _check_tensor_list(tensor_list, "tensor_list")
    _check_tensor(tensor, "tensor")
    pg = resolve(group)
    if pg is None:
        return None
    if len(tensor_list) != pg.size():
        raise RuntimeError("All gather: number of output tensors should equal to the world size")
    _check_same_size_and_type(tensor, tensor_list)
    source = _mpi.Staged(tensor, typed=False)
    flat = _mpi.flat_like([tensor], pg.size())
    target = _mpi._raw_bytes(flat)

    def unpack():
        with engine.no_grad():
            for i, out in enumerate(tensor_list):
                out.detach().copy_(flat[i].reshape(out.shape))

    return _run(
        async_op,
        lambda: pg._comm.Allgather(source.array, target),
        lambda: [pg._comm.Iallgather(source.array, target)],
        [unpack],
        tensor_list,
        (source, flat),
    )


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """Gathers ``input_tensor`` from every process into ``output_tensor``, whose size is
    ``world_size`` times the input's (concatenated or stacked along dim 0), in place: MPI
    writes straight into a contiguous output."""
    _check_tensor(output_tensor, "output_tensor")
    _check_tensor(input_tensor, "input_tensor")
    pg = resolve(group)
    if pg is None:
        return None
    if output_tensor.dtype != input_tensor.dtype:
        raise RuntimeError(
            "all_gather_into_tensor: output tensor must have the same type as input tensor "
            f"(got {output_tensor.dtype} and {input_tensor.dtype})"
        )
    if output_tensor.numel() != input_tensor.numel() * pg.size():
        raise RuntimeError(
            "all_gather_into_tensor: output tensor size must be equal to world_size times input "
            f"tensor size (got {output_tensor.numel()} and {input_tensor.numel()} x {pg.size()})"
        )
    source = _mpi.Staged(input_tensor, typed=False)
    target = _mpi.Staged(output_tensor, typed=False)
    return _run(
        async_op,
        lambda: pg._comm.Allgather(source.array, target.array),
        lambda: [pg._comm.Iallgather(source.array, target.array)],
        [target.finish],
        [output_tensor],
        (source, target),
    )


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduces the ``i``-th tensor of ``input_list`` across all processes into ``output`` on the
    process of rank ``i``. The list is packed into one contiguous buffer first;
    :func:`reduce_scatter_tensor` works on one input tensor without that copy."""
    _check_tensor(output, "output")
    _check_tensor_list(input_list, "input_list")
    pg = resolve(group)
    if pg is None:
        return None
    if len(input_list) != pg.size():
        raise RuntimeError("Reduce scatter: number of input tensors should equal to the world size")
    _check_same_size_and_type(output, input_list)
    with engine.no_grad():
        packed = engine.stack([t.detach().reshape(output.shape) for t in input_list])
    return _reduce_scatter_flat(output, packed, op, pg, async_op, "reduce_scatter")


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduces ``input`` (``world_size`` times ``output``'s size, concatenated or stacked along
    dim 0) across all processes and scatters the result: rank ``i`` gets chunk ``i`` in
    ``output``. MPI reads and writes the tensors' own memory (``MPI_Reduce_scatter_block``)."""
    _check_tensor(output, "output")
    _check_tensor(input, "input")
    pg = resolve(group)
    if pg is None:
        return None
    if output.dtype != input.dtype:
        raise RuntimeError(
            "reduce_scatter_tensor: input tensor must have the same type as output tensor "
            f"(got {input.dtype} and {output.dtype})"
        )
    if input.numel() != output.numel() * pg.size():
        raise RuntimeError(
            "reduce_scatter_tensor: input tensor size must be equal to world_size times output "
            f"tensor size (got {input.numel()} and {output.numel()} x {pg.size()})"
        )
    return _reduce_scatter_flat(output, input, op, pg, async_op, "reduce_scatter_tensor")


def _reduce_scatter_flat(output, flat_input, op, pg, async_op, function):
    mpi_op, average = _reduce_op(op, output.dtype, function)
    source = _mpi.Staged(flat_input, typed=True)
    target = _mpi.Staged(output, typed=True)
    finishers = ([_divider(target.array, pg.size())] if average else []) + [target.finish]
    return _run(
        async_op,
        lambda: pg._comm.Reduce_scatter_block(source.array, target.array, mpi_op),
        lambda: [pg._comm.Ireduce_scatter_block(source.array, target.array, mpi_op)],
        finishers,
        [output],
        (source, target),
    )


def gather(tensor, gather_list=None, dst=None, group=None, async_op=False, group_dst=None):
    """Gathers ``tensor`` from every process into ``gather_list`` (one tensor per rank) on rank
    ``dst``; ``gather_list`` must be given on ``dst`` and only there."""
    _check_tensor(tensor, "tensor")
    if gather_list is not None:
        _check_tensor_list(gather_list, "gather_list")
    pg = resolve(group)
    if pg is None:
        return None
    if dst is None and group_dst is None:
        dst = 0
    root = _root(pg, dst, group_dst, "gather")
    is_root = pg.rank() == root
    if is_root:
        if not gather_list:
            raise ValueError("Argument ``gather_list`` must be specified on destination rank.")
        if len(gather_list) != pg.size():
            raise RuntimeError("Gather: number of output tensors should equal to the world size")
        _check_same_size_and_type(tensor, gather_list)
    elif gather_list:
        raise ValueError("Argument ``gather_list`` must NOT be specified on non-destination ranks.")
    source = _mpi.Staged(tensor, typed=False)
    flat = _mpi.flat_like([tensor], pg.size()) if is_root else None
    target = _mpi._raw_bytes(flat) if is_root else None
    finishers = []
    if is_root:

        def unpack():
            with engine.no_grad():
                for i, out in enumerate(gather_list):
                    out.detach().copy_(flat[i].reshape(out.shape))

        finishers.append(unpack)
    return _run(
        async_op,
        lambda: pg._comm.Gather(source.array, target, root),
        lambda: [pg._comm.Igather(source.array, target, root)],
        finishers,
        gather_list or [],
        (source, flat),
    )


def scatter(tensor, scatter_list=None, src=None, group=None, async_op=False, group_src=None):
    """Sends the ``i``-th tensor of ``scatter_list`` on rank ``src`` to the process of rank
    ``i``, into ``tensor``; ``scatter_list`` must be given on ``src`` and only there."""
    _check_tensor(tensor, "tensor")
    if scatter_list is not None:
        _check_tensor_list(scatter_list, "scatter_list")
    pg = resolve(group)
    if pg is None:
        return None
    if src is None and group_src is None:
        src = 0
    root = _root(pg, src, group_src, "scatter")
    is_root = pg.rank() == root
    packed = None
    if is_root:
        if not scatter_list:
            raise ValueError("Argument ``scatter_list`` must be specified on source rank.")
        if len(scatter_list) != pg.size():
            raise RuntimeError("Scatter: number of input tensors should equal to the world size")
        _check_same_size_and_type(tensor, scatter_list)
        with engine.no_grad():
            packed = engine.stack([t.detach().reshape(tensor.shape) for t in scatter_list])
    elif scatter_list:
        raise ValueError("Argument ``scatter_list`` must NOT be specified on non-source ranks.")
    source = _mpi._raw_bytes(packed) if is_root else None
    target = _mpi.Staged(tensor, typed=False)
    return _run(
        async_op,
        lambda: pg._comm.Scatter(source, target.array, root),
        lambda: [pg._comm.Iscatter(source, target.array, root)],
        [target.finish],
        [tensor],
        (packed, target),
    )


def barrier(group=None, async_op=False, device_ids=None, timeout=None):
    """Blocks until every process of ``group`` has reached this call."""
    pg = resolve(group)
    if pg is None:
        return None
    return _run(async_op, pg._comm.Barrier, lambda: [pg._comm.Ibarrier()], [], [], ())


# ---------------------------------------------------------------- point to point


def _peer(pg, global_rank, group_rank, kind, function):
    if global_rank is None and group_rank is None:
        raise ValueError("Must specify global_rank or group_rank")
    rank = _root(pg, global_rank, group_rank, function, kind)
    if rank == pg.rank():
        raise ValueError(
            f"Invalid {kind} rank: {kind} rank should not be the same as "
            "the rank of the current process."
        )
    return rank


def _check_tag(tag, function):
    if isinstance(tag, bool) or not isinstance(tag, int):
        raise TypeError(f"{function}: tag must be an int, got {type(tag).__name__}")
    upper = _mpi.MPI().COMM_WORLD.Get_attr(_mpi.MPI().TAG_UB)
    if not 0 <= tag <= upper:
        raise ValueError(f"{function}: tag must be in [0, {upper}] (MPI_TAG_UB), got {tag}")


def isend(tensor, dst=None, group=None, tag=0, group_dst=None):
    """Starts sending ``tensor`` to rank ``dst``; returns a :class:`Work` (``wait()`` before
    changing the tensor)."""
    _check_tensor(tensor, "tensor")
    _check_tag(tag, "send")
    pg = resolve(group)
    if pg is None:
        return None
    peer = _peer(pg, dst, group_dst, "destination", "send")
    staged = _mpi.Staged(tensor, typed=False)
    return Work([pg._comm.Isend(staged.array, peer, tag)], (), (), (staged,))


def send(tensor, dst=None, group=None, tag=0, group_dst=None):
    """Sends ``tensor`` to rank ``dst`` (blocking until MPI has taken the data)."""
    work = isend(tensor, dst, group, tag, group_dst)
    if work is not None:
        work.wait()


def irecv(tensor, src=None, group=None, tag=0, group_src=None):
    """Starts receiving into ``tensor`` from rank ``src`` (any rank when None); returns a
    :class:`Work`."""
    _check_tensor(tensor, "tensor")
    _check_tag(tag, "recv")
    pg = resolve(group)
    if pg is None:
        return None
    MPI = _mpi.MPI()
    peer = MPI.ANY_SOURCE
    if src is not None or group_src is not None:
        peer = _root(pg, src, group_src, "recv", "source")
    staged = _mpi.Staged(tensor, typed=False)
    return Work([pg._comm.Irecv(staged.array, peer, tag)], [staged.finish], [tensor], (staged,))


def recv(tensor, src=None, group=None, tag=0, group_src=None):
    """Receives into ``tensor`` from rank ``src`` (any rank when None); returns the sender's
    global rank (-1 outside ``group``)."""
    _check_tensor(tensor, "tensor")
    pg = resolve(group)
    if pg is None:
        return -1
    if src is not None or group_src is not None:
        _peer(pg, src, group_src, "source", "recv")
    work = irecv(tensor, src, group, tag, group_src)
    work.wait()
    if src is not None:
        return src
    sender = work.source_rank() if group_src is None else group_src
    return get_global_rank(pg, sender) if pg._global_ranks != list(range(pg.size())) else sender


# ---------------------------------------------------------------- Python objects


def all_gather_object(object_list, obj, group=None):
    """Gathers the picklable ``obj`` from every process into ``object_list`` (rank order)."""
    pg = resolve(group)
    if pg is None:
        return None
    if len(object_list) != pg.size():
        raise ValueError(
            f"all_gather_object: object_list must have world_size ({pg.size()}) entries, "
            f"got {len(object_list)}"
        )
    object_list[:] = pg._comm.allgather(obj)


def broadcast_object_list(object_list, src=None, group=None, device=None, group_src=None):
    """Replaces ``object_list``'s entries on every process with those of rank ``src``
    (picklable objects)."""
    pg = resolve(group)
    if pg is None:
        return None
    if src is None and group_src is None:
        src = 0
    root = _root(pg, src, group_src, "broadcast_object_list")
    object_list[:] = pg._comm.bcast(list(object_list) if pg.rank() == root else None, root)
