"""engine.distributed without MPI processes: the API's shape (names, ReduceOp, Backend), errors
before init_process_group, import cost, and the launcher's command line and environment."""

import os
import subprocess
import sys

import engine
import engine.distributed as dist
import pytest
from engine.distributed import _worker, run


def test_import_engine_does_not_import_mpi4py():
    code = (
        "import sys, engine, engine.distributed, engine.nn.parallel, engine.utils.data\n"
        "assert 'mpi4py' not in sys.modules\n"
        "import engine.distributed as d\n"
        "d.is_available()\n"
        "assert 'mpi4py' not in sys.modules\n"
        "import engine as e\n"
        "print(e.distributed.__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "engine.distributed"


def test_plain_import_engine_leaves_distributed_unloaded():
    code = "import sys, engine\nassert 'engine.distributed' not in sys.modules\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize(
    "call",
    [
        lambda: dist.get_rank(),
        lambda: dist.get_world_size(),
        lambda: dist.all_reduce(engine.ones(2)),
        lambda: dist.broadcast(engine.ones(2), src=0),
        lambda: dist.barrier(),
        lambda: dist.new_group([0]),
        lambda: dist.get_backend(),
    ],
)
def test_calls_before_init_process_group(call):
    assert not dist.is_initialized()
    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        call()


def test_destroy_without_group():
    with pytest.raises(AssertionError, match="Process group cannot be None"):
        dist.destroy_process_group()


def test_unknown_backend_is_refused_before_mpi_starts():
    with pytest.raises(RuntimeError, match="backend 'nccl' is not available in engine"):
        dist.init_process_group("nccl")
    with pytest.raises(TypeError, match="backend must be a string"):
        dist.init_process_group(3)
    assert not dist.is_initialized()


def test_reduce_op():
    op = dist.ReduceOp
    assert [m.value for m in (op.SUM, op.AVG, op.PRODUCT, op.MIN, op.MAX)] == [0, 1, 2, 3, 4]
    assert repr(op.SUM) == "<RedOpType.SUM: 0>" and str(op.MAX) == "RedOpType.MAX"
    assert op.SUM is op.RedOpType.SUM
    assert op(op.MAX) == op.MAX and op(op.MAX) != op.MIN and op(op.MAX).op is op.MAX
    with pytest.raises(TypeError, match="ReduceOp"):
        op("sum")


def test_backend_and_availability():
    assert dist.Backend("MPI") == "mpi" == dist.Backend.MPI
    assert dist.Backend("Gloo") == dist.Backend.GLOO == "gloo"
    assert isinstance(dist.Backend("mpi"), str)
    assert dist.is_nccl_available() is False
    assert dist.is_available() == dist.is_mpi_available() == dist.is_gloo_available()
    assert dist.group.WORLD is None and dist.GroupMember.NON_GROUP_MEMBER == -100


def test_public_names_are_documented():
    for name in dist.__all__:
        assert getattr(dist, name).__doc__, name


def test_worker_maps_mpi_ranks_to_torchrun_variables():
    env = {"OMPI_COMM_WORLD_RANK": "3", "OMPI_COMM_WORLD_SIZE": "4", "LOCAL_WORLD_SIZE": "2"}
    saved = {k: os.environ.pop(k, None) for k in ("OMPI_COMM_WORLD_LOCAL_RANK",) + tuple(env)}
    os.environ.update(env)
    try:
        target = {"LOCAL_WORLD_SIZE": "2"}
        assert _worker.set_rank_environment(target) == 3
        assert target["RANK"] == "3" and target["WORLD_SIZE"] == "4"
        assert target["LOCAL_RANK"] == "1" and target["GROUP_RANK"] == "1"
    finally:
        for k in env:
            os.environ.pop(k, None)
        for k, v in saved.items():
            if v is not None:
                os.environ[k] = v


def _command(argv, flavour="openmpi"):
    args = run._parser().parse_args(argv)
    env = {}
    return run.build_command(args, "/opt/mpi/bin/mpiexec", flavour, env), env


def test_launcher_command_one_machine():
    command, env = _command(
        ["--nproc", "2", "--mpi-args", "--bind-to none", "train.py", "--lr", "0.1"]
    )
    assert command[:3] == ["/opt/mpi/bin/mpiexec", "-n", "2"]
    assert command[-5:] == ["-m", "engine.distributed._worker", "train.py", "--lr", "0.1"]
    assert command[-3:] == ["train.py", "--lr", "0.1"]
    assert env["WORLD_SIZE"] == "2" and env["LOCAL_WORLD_SIZE"] == "2"
    assert env["MASTER_ADDR"] == "127.0.0.1" and env["MASTER_PORT"] == "29500"
    assert env["OMP_NUM_THREADS"] == "1" and env["TORCHELASTIC_RUN_ID"] == "none"
    assert "-x" in command  # Open MPI forwards the variables by name
    assert command[command.index("--bind-to") + 1] == "none"


def test_launcher_command_several_machines(tmp_path):
    hosts = tmp_path / "hosts"
    hosts.write_text("# cluster\nnode07 slots=4\nnode08 slots=4\n")
    argv = ["--nnodes", "2", "--nproc-per-node", "4", "--hostfile", str(hosts), "-m", "pkg.train"]
    command, env = _command(argv)
    assert command[1:3] == ["-n", "8"]
    assert ["--hostfile", str(hosts), "--map-by", "ppr:4:node"] == command[3:7]
    assert env["MASTER_ADDR"] == "node07" and env["WORLD_SIZE"] == "8"
    assert command[-2:] == ["--module", "pkg.train"]
    command, _ = _command(argv, flavour="mpich")
    assert ["-f", str(hosts), "-ppn", "4"] == command[3:7]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--nproc", "0", "x.py"], "at least 1"),
        (["--nnodes", "2", "x.py"], "needs --hostfile"),
    ],
)
def test_launcher_argument_errors(argv, message):
    with pytest.raises(SystemExit, match=message):
        _command(argv)


def test_launcher_without_mpiexec(monkeypatch):
    monkeypatch.setattr(run, "find_mpiexec", lambda explicit=None: None)
    with pytest.raises(SystemExit, match="mpiexec not found"):
        run.main(["--nproc", "2", "x.py"])


def test_without_mpi4py_the_error_says_what_to_install(monkeypatch):
    from engine.distributed import _mpi

    monkeypatch.setitem(sys.modules, "mpi4py", None)
    monkeypatch.setattr(_mpi, "_MPI", None)
    assert dist.is_available() is False
    with pytest.raises(RuntimeError, match=r"pip install 'engine\[distributed\]'"):
        dist.init_process_group("mpi")
    assert not dist.is_initialized()


def test_get_node_local_rank(monkeypatch):
    monkeypatch.setenv("LOCAL_RANK", "3")
    assert dist.get_node_local_rank() == 3
    monkeypatch.delenv("LOCAL_RANK")
    assert dist.get_node_local_rank(fallback_rank=1) == 1
    with pytest.raises(RuntimeError, match="LOCAL_RANK is not in the environment"):
        dist.get_node_local_rank()


def test_launcher_accepts_torchrun_rendezvous_options():
    argv = ["--nproc_per_node=2", "--rdzv-backend=c10d", "--rdzv_endpoint=host:29400"]
    command, env = _command(argv + ["--rdzv-id", "job7", "--max_restarts", "0", "train.py"])
    assert command[1:3] == ["-n", "2"] and command[-1] == "train.py"
    assert env["TORCHELASTIC_RUN_ID"] == "job7"
