"""DistributedDataParallel on two processes started by the launcher: every check of
workers/ddp.py must pass on every rank (the parameters after each step equal those of one
process on the whole batch; buckets overlap backward; no_sync; unused parameters; buffers)."""

import engine
import pytest
from mpi_launch import check_names, requires_mpi, run_worker

CHECKS = check_names("ddp")


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    return run_worker("ddp", tmp_path_factory.mktemp("ddp"))


@requires_mpi
@pytest.mark.parametrize("check", CHECKS)
def test_ddp(reports, check):
    for rank, report in enumerate(reports):
        assert report.get(check) == "ok", f"rank {rank}, {check}:\n{report.get(check)}"


def test_ddp_needs_an_initialized_process_group():
    from engine.nn.parallel import DistributedDataParallel

    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        DistributedDataParallel(engine.nn.Linear(2, 2))


def test_parallel_is_reachable_from_engine_nn():
    import engine.nn.parallel

    assert engine.nn.parallel.DistributedDataParallel.__name__ == "DistributedDataParallel"
    assert "DistributedDataParallel" in engine.nn.parallel.__all__


def test_bucket_assignment_follows_pytorch_rules():
    from engine.nn.parallel._reducer import _bucket_assignment

    params = [
        engine.zeros(100),  # 400 bytes
        engine.zeros(100),
        engine.zeros(10, dtype=engine.float64),
        engine.zeros(300),  # 1200 bytes: larger than the cap, a bucket of its own
        engine.zeros(50),
    ]
    # reverse order; a dtype never shares a bucket; the first bucket has its own cap
    assert _bucket_assignment(params, 200, 1000) == [[4], [3], [2], [1, 0]]
    assert _bucket_assignment(params, 10**6, 10**6) == [[4, 3, 1, 0], [2]]
