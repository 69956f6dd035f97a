"""Process groups over MPI: ``init_process_group``, ranks and sizes, ``new_group``.

Every process group wraps an MPI communicator of its own (a duplicate of ``MPI_COMM_WORLD`` for
the default group, a split of it for ``new_group``), so engine's messages never mix with those of
other MPI code in the same program.
"""

import os
import warnings

from engine.distributed import _mpi

__all__ = [
    "Backend",
    "GroupMember",
    "ProcessGroup",
    "destroy_process_group",
    "get_backend",
    "get_global_rank",
    "get_group_rank",
    "get_process_group_ranks",
    "get_rank",
    "get_world_size",
    "group",
    "init_process_group",
    "is_initialized",
    "new_group",
]

_NOT_INITIALIZED = (
    "Default process group has not been initialized, please make sure to call init_process_group."
)

_default_group = None
_sub_groups = []


class Backend(str):
    """An enum-like class of backend names (lower-case strings), as ``torch.distributed.Backend``.

    engine runs every collective over MPI: ``"mpi"`` is the backend, and ``"gloo"`` (PyTorch's
    CPU backend, named by most CPU scripts) is accepted as a synonym of it.
    """

    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    UCC = "ucc"
    MPI = "mpi"
    XCCL = "xccl"
    FAKE = "fake"

    def __new__(cls, name):
        if not isinstance(name, str):
            raise ValueError(f"Backend constructor parameter must be string-ish, but got: {name}")
        value = getattr(Backend, name.upper(), Backend.UNDEFINED)
        if value == Backend.UNDEFINED:
            value = name.lower()
        return str.__new__(cls, value)


class ProcessGroup:
    """A set of processes that run collectives together, over one MPI communicator.

    ``rank()`` is this process's rank inside the group, ``size()`` the number of processes in it.
    """

    def __init__(self, comm, global_ranks):
        self._comm = comm
        self._global_ranks = list(global_ranks)
        self._rank = comm.Get_rank()
        self._size = comm.Get_size()

    def rank(self):
        """This process's rank in the group."""
        return self._rank

    def size(self):
        """The number of processes in the group."""
        return self._size

    def name(self):
        """The backend's name: ``"mpi"``."""
        return Backend.MPI

    def __repr__(self):
        return f"ProcessGroup(backend='mpi', rank={self._rank}, size={self._size})"


class _WorldAccessor(type):
    # ``group.WORLD`` / ``GroupMember.WORLD`` read the current default group (None before
    # init_process_group), as PyTorch's do.
    @property
    def WORLD(cls):
        return _default_group


class GroupMember(metaclass=_WorldAccessor):
    """``GroupMember.WORLD`` is the default group; ``NON_GROUP_MEMBER`` is what ``new_group``
    returns on processes outside the new group."""

    NON_GROUP_MEMBER = -100


class group(metaclass=_WorldAccessor):  # noqa: N801  (PyTorch's name)
    """``group.WORLD``: the default process group (None before :func:`init_process_group`)."""


def default_group():
    """The default group; ValueError (PyTorch's message) before init_process_group."""
    if _default_group is None:
        raise ValueError(_NOT_INITIALIZED)
    return _default_group


def resolve(pg):
    """The ProcessGroup a collective's ``group`` argument names (None: the default group); None
    for a process outside the group, which then takes no part (as in PyTorch)."""
    if pg is None or pg is _default_group:
        return default_group()
    default_group()
    if isinstance(pg, int) and pg == GroupMember.NON_GROUP_MEMBER:
        return None
    if not isinstance(pg, ProcessGroup):
        raise TypeError(f"group must be a ProcessGroup (from new_group), got {type(pg).__name__}")
    if pg._comm is None:
        raise ValueError("The process group has been destroyed")
    return pg


def _resolve_backend(backend):
    if backend is None:
        return Backend.MPI
    if not isinstance(backend, str):
        raise TypeError(
            f"init_process_group(): backend must be a string, got {type(backend).__name__}"
        )
    name = backend.lower()
    if ":" in name:
        # "cpu:gloo,cuda:nccl": engine computes on the CPU, so the CPU entry decides.
        entries = dict(part.split(":", 1) for part in name.split(",") if ":" in part)
        name = entries.get("cpu", name)
    if name in ("mpi", "gloo"):
        return Backend.MPI
    raise RuntimeError(
        f"init_process_group(): backend '{backend}' is not available in engine; engine runs "
        "collectives over MPI: use backend='mpi' (or 'gloo', which engine maps to MPI)"
    )


def _environment_int(name):
    value = os.environ.get(name)
    try:
        return None if value is None else int(value)
    except ValueError:
        return None


def init_process_group(
    backend=None,
    init_method=None,
    timeout=None,
    world_size=-1,
    rank=-1,
    store=None,
    group_name="",
    pg_options=None,
    device_id=None,
):
    """Initialises the default process group over MPI.

    Processes are started by ``mpiexec`` (or ``python -m engine.distributed.run``, which calls
    it), and MPI assigns the ranks: ``init_method`` (``env://``, ``tcp://``, ``file://``) and
    ``store`` are accepted for PyTorch compatibility but MPI does the rendezvous. ``backend`` is
    ``"mpi"`` (the default); ``"gloo"`` is accepted and runs over MPI too; others raise.
    ``world_size`` and ``rank``, when given, must agree with MPI's (with ``"mpi"``, PyTorch's
    warning that they are ignored is given instead).

    Example::

        >>> import engine.distributed as dist
        >>> dist.init_process_group("mpi")
        >>> dist.get_rank(), dist.get_world_size()
    """
    global _default_group
    if _default_group is not None:
        raise ValueError("trying to initialize the default process group twice!")
    requested = "mpi" if backend is None else str(backend).lower()
    _resolve_backend(backend)
    MPI = _mpi.MPI()
    comm = MPI.COMM_WORLD.Dup()
    size, my_rank = comm.Get_size(), comm.Get_rank()
    expected = _environment_int("WORLD_SIZE")
    if expected is not None and expected != size:
        comm.Free()
        raise RuntimeError(
            f"init_process_group(): WORLD_SIZE is {expected} but MPI started {size} process(es): "
            f"launch with `python -m engine.distributed.run --nproc {expected} script.py` "
            f"(or mpiexec -n {expected})"
        )
    if requested == "mpi":
        if world_size != -1 or rank != -1:
            warnings.warn(
                f"For MPI backend, world_size ({world_size}) and rank ({rank}) are ignored since "
                "they are assigned by the MPI runtime.",
                stacklevel=2,
            )
    else:
        for name, given, actual in (("world_size", world_size, size), ("rank", rank, my_rank)):
            if given not in (-1, None) and given != actual:
                comm.Free()
                raise ValueError(
                    f"init_process_group(): {name}={given} but MPI started this process as "
                    f"{name} {actual}; start the processes with mpiexec or "
                    "python -m engine.distributed.run"
                )
    _default_group = ProcessGroup(comm, range(size))


def is_initialized():
    """True once :func:`init_process_group` has run (and until destroy_process_group)."""
    return _default_group is not None


def destroy_process_group(group=None):
    """Destroys ``group`` (by default the default group, and with it every group made by
    :func:`new_group`). MPI itself stays up until the program exits, so a later
    :func:`init_process_group` works."""
    global _default_group
    if group is None or group is _default_group:
        if _default_group is None:
            raise AssertionError("Process group cannot be None")
        for pg in _sub_groups:
            _free(pg)
        _sub_groups.clear()
        _free(_default_group)
        _default_group = None
        return
    if isinstance(group, ProcessGroup):
        _free(group)
        if group in _sub_groups:
            _sub_groups.remove(group)


def _free(pg):
    if pg._comm is not None:
        pg._comm.Free()
        pg._comm = None


def get_rank(group=None):
    """This process's rank in ``group`` (default: the default group); -1 outside the group."""
    pg = resolve(group)
    return -1 if pg is None else pg.rank()


def get_world_size(group=None):
    """The number of processes in ``group`` (default: the default group); -1 outside it."""
    pg = resolve(group)
    return -1 if pg is None else pg.size()


def get_backend(group=None):
    """The backend of ``group``: ``"mpi"``."""
    resolve(group)
    return Backend(Backend.MPI)


def get_process_group_ranks(group):
    """The global ranks of the processes in ``group``."""
    pg = resolve(group)
    if pg is None:
        raise ValueError("get_process_group_ranks: this process is not a member of the group")
    return list(pg._global_ranks)


def get_global_rank(group, group_rank):
    """The global rank of the process that has rank ``group_rank`` in ``group``."""
    ranks = get_process_group_ranks(group)
    if not isinstance(group_rank, int) or not 0 <= group_rank < len(ranks):
        raise ValueError(f"Group rank {group_rank} is not part of group {group}")
    return ranks[group_rank]


def get_group_rank(group, global_rank):
    """The rank in ``group`` of the process whose global rank is ``global_rank``."""
    ranks = get_process_group_ranks(group)
    if global_rank not in ranks:
        raise ValueError(f"Global rank {global_rank} is not part of group {group}")
    return ranks.index(global_rank)


def new_group(
    ranks=None,
    timeout=None,
    backend=None,
    pg_options=None,
    use_local_synchronization=False,
    group_desc=None,
    device_id=None,
    sort_ranks=True,
):
    """Creates a process group of the processes whose global ranks are in ``ranks`` (default:
    all). Every process of the default group must call it, members or not, as in PyTorch;
    processes outside ``ranks`` get ``GroupMember.NON_GROUP_MEMBER``."""
    world = default_group()
    if backend is not None:
        _resolve_backend(backend)
    if ranks is None:
        ranks = list(range(world.size()))
    else:
        ranks = [int(r) for r in ranks]
        if sort_ranks:
            ranks = sorted(ranks)
        if len(ranks) > world.size():
            raise ValueError(
                "the new group's world size should be less or equal to the world size set by "
                "init_process_group"
            )
        for r in ranks:
            if r < 0 or r >= world.size():
                raise ValueError(
                    "The new group's rank should be within the world_size set by init_process_group"
                )
        if len(set(ranks)) != len(ranks):
            raise ValueError(f"new_group: ranks must be distinct, got {ranks}")
    MPI = _mpi.MPI()
    me = world.rank()
    color = 0 if me in ranks else MPI.UNDEFINED
    key = ranks.index(me) if me in ranks else 0
    comm = world._comm.Split(color, key)
    if comm == MPI.COMM_NULL:
        return GroupMember.NON_GROUP_MEMBER
    pg = ProcessGroup(comm, ranks)
    _sub_groups.append(pg)
    return pg
