"""What each process started by ``python -m engine.distributed.run`` runs first: it turns the
rank MPI gave the process into torchrun's environment variables (RANK, LOCAL_RANK, ...) and then
runs the user's script (or module, or program) in this process."""

import os
import runpy
import sys

# Where MPI implementations put the rank, the size and the node-local rank of a process.
_RANK_VARIABLES = ("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK")
_SIZE_VARIABLES = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE")
_LOCAL_RANK_VARIABLES = (
    "OMPI_COMM_WORLD_LOCAL_RANK",
    "MPI_LOCALRANKID",
    "MV2_COMM_WORLD_LOCAL_RANK",
    "PALS_LOCAL_RANKID",
)


def _first(names, default):
    for name in names:
        value = os.environ.get(name)
        if value is not None and value.strip().lstrip("-").isdigit():
            return int(value)
    return default


def set_rank_environment(environ=None):
    """Sets RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, GROUP_RANK and ROLE_RANK in
    ``environ`` (default ``os.environ``) from the MPI launcher's variables, as torchrun sets
    them; returns the rank."""
    env = os.environ if environ is None else environ
    rank = _first(_RANK_VARIABLES, 0)
    world_size = _first(_SIZE_VARIABLES, int(env.get("WORLD_SIZE", "1")))
    local_world_size = int(env.get("LOCAL_WORLD_SIZE", world_size))
    local_rank = _first(_LOCAL_RANK_VARIABLES, rank % max(local_world_size, 1))
    env["RANK"] = str(rank)
    env["WORLD_SIZE"] = str(world_size)
    env["LOCAL_RANK"] = str(local_rank)
    env["LOCAL_WORLD_SIZE"] = str(local_world_size)
    env["GROUP_RANK"] = str(rank // max(local_world_size, 1))
    env["ROLE_RANK"] = str(rank)
    env["ROLE_WORLD_SIZE"] = str(world_size)
    return rank


def main(argv):
    """``_worker [--module | --no-python] target args...``"""
    mode = "script"
    if argv and argv[0] in ("--module", "--no-python"):
        mode, argv = argv[0], argv[1:]
    if not argv:
        sys.exit("engine.distributed.run: no script given")
    set_rank_environment()
    target, args = argv[0], argv[1:]
    if mode == "--no-python":
        os.execvp(target, [target, *args])
    sys.argv = [target, *args]
    if mode == "--module":
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    else:
        sys.path[0] = os.path.dirname(os.path.abspath(target))
        runpy.run_path(target, run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
