"""engine.distributed's collectives on two processes started by the launcher: every check of
workers/collectives.py must pass on every rank."""

import pytest
from mpi_launch import check_names, requires_mpi, run_worker

pytestmark = requires_mpi

CHECKS = check_names("collectives")


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    return run_worker("collectives", tmp_path_factory.mktemp("collectives"))


@pytest.mark.parametrize("check", CHECKS)
def test_collective(reports, check):
    for rank, report in enumerate(reports):
        assert report.get(check) == "ok", f"rank {rank}, {check}:\n{report.get(check)}"
