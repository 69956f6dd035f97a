"""``python -m engine.distributed.run``: the environment every process gets, the script's
arguments, exit statuses, and a clear error when the processes were not started by MPI."""

import json
import sys

from mpi_launch import WORKERS, launch, requires_mpi, run

pytestmark = requires_mpi


def test_processes_get_torchrun_environment(tmp_path):
    code, output = launch(WORKERS / "launched.py", tmp_path, "--lr", "0.5", nproc=2)
    assert code == 0, output
    for rank in range(2):
        seen = json.loads((tmp_path / f"rank{rank}.json").read_text())
        assert seen["RANK"] == str(rank) == seen["LOCAL_RANK"]
        assert seen["WORLD_SIZE"] == "2" == seen["LOCAL_WORLD_SIZE"]
        assert seen["GROUP_RANK"] == "0" and seen["MASTER_ADDR"] == "127.0.0.1"
        assert seen["argv"] == ["--lr", "0.5"] and seen["main"] == "__main__"
        assert seen["elastic"] is True
        assert seen["mpi_rank"] == rank and seen["mpi_size"] == 2


def test_failing_rank_fails_the_launch(tmp_path):
    code, output = launch(WORKERS / "launched.py", tmp_path, "--fail-on-1", nproc=2)
    assert code != 0, output


def test_world_size_without_mpi_processes_is_explained(tmp_path):
    # WORLD_SIZE=2 as torchrun would set it, but the process was not started by mpiexec.
    code, output = run(
        [sys.executable, str(WORKERS / "launched.py"), str(tmp_path)],
        extra_env={"WORLD_SIZE": "2", "RANK": "0", "LOCAL_RANK": "0"},
    )
    assert code != 0
    assert "WORLD_SIZE is 2 but MPI started 1 process(es)" in output
    assert "python -m engine.distributed.run --nproc 2" in output
