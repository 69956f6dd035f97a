"""``engine.distributed``: data-parallel training over MPI, with ``torch.distributed``'s API.

Processes are started by MPI (``python -m engine.distributed.run --nproc N script.py``, or
``mpiexec -n N python script.py``); each calls :func:`init_process_group` and then runs
collectives (:func:`all_reduce`, :func:`broadcast`, :func:`all_gather`, ...) on engine tensors,
in place, through mpi4py buffers over the tensors' own memory.

``mpi4py`` and an MPI library are an optional extra (``pip install "engine[distributed]"``); they
are imported by :func:`init_process_group`, never by ``import engine``.

Example::

    import engine
    import engine.distributed as dist

    dist.init_process_group("mpi")
    t = engine.ones(3) * dist.get_rank()
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    dist.destroy_process_group()
"""

from engine.distributed._all_to_all import all_to_all, all_to_all_single
from engine.distributed._mpi import mpi_available as _mpi_available
from engine.distributed._process_group import (
    Backend,
    GroupMember,
    ProcessGroup,
    destroy_process_group,
    get_backend,
    get_global_rank,
    get_group_rank,
    get_process_group_ranks,
    get_rank,
    get_world_size,
    group,
    init_process_group,
    is_initialized,
    new_group,
)
from engine.distributed._reduce_op import ReduceOp
from engine.distributed._work import Work
from engine.distributed.collectives import (
    all_gather,
    all_gather_into_tensor,
    all_gather_object,
    all_reduce,
    barrier,
    broadcast,
    broadcast_object_list,
    gather,
    irecv,
    isend,
    recv,
    reduce,
    reduce_scatter,
    reduce_scatter_tensor,
    scatter,
    send,
)

__all__ = [
    "Backend",
    "GroupMember",
    "ProcessGroup",
    "ReduceOp",
    "Work",
    "all_gather",
    "all_gather_into_tensor",
    "all_gather_object",
    "all_reduce",
    "all_to_all",
    "all_to_all_single",
    "barrier",
    "broadcast",
    "broadcast_object_list",
    "destroy_process_group",
    "gather",
    "get_backend",
    "get_global_rank",
    "get_group_rank",
    "get_node_local_rank",
    "get_process_group_ranks",
    "get_rank",
    "get_world_size",
    "group",
    "init_process_group",
    "irecv",
    "is_available",
    "is_gloo_available",
    "is_initialized",
    "is_mpi_available",
    "is_nccl_available",
    "is_torchelastic_launched",
    "isend",
    "monitored_barrier",
    "new_group",
    "recv",
    "reduce",
    "reduce_scatter",
    "reduce_scatter_tensor",
    "scatter",
    "send",
]


def is_available():
    """True when distributed training can run: mpi4py (and so an MPI library) is installed."""
    return _mpi_available()


def is_mpi_available():
    """True when the MPI backend is available (mpi4py is installed)."""
    return _mpi_available()


def is_gloo_available():
    """True when ``backend="gloo"`` works: engine maps it to MPI, so when MPI is available."""
    return _mpi_available()


def is_nccl_available():
    """False: engine has no NCCL backend."""
    return False


def is_torchelastic_launched():
    """True when this process was started by ``python -m engine.distributed.run`` (or
    ``torchrun``), which set ``TORCHELASTIC_RUN_ID``."""
    import os

    return os.getenv("TORCHELASTIC_RUN_ID") is not None


def get_node_local_rank(fallback_rank=None):
    """This process's rank among the processes of its machine: ``LOCAL_RANK`` as the launcher
    (``python -m engine.distributed.run``, torchrun) sets it, else ``fallback_rank``."""
    import os

    if "LOCAL_RANK" in os.environ:
        return int(os.environ["LOCAL_RANK"])
    if fallback_rank is not None:
        return int(fallback_rank)
    raise RuntimeError(
        "LOCAL_RANK is not in the environment. Consider passing fallback_rank to allow "
        "`get_node_local_rank` to work, assuming you are not running in a multi-device context "
        "and want the code to run locally instead."
    )


def monitored_barrier(group=None, timeout=None, wait_all_ranks=False):
    """A :func:`barrier` (MPI reports a process that fails; ``timeout`` and ``wait_all_ranks``
    are accepted for PyTorch compatibility)."""
    barrier(group)
