"""Started by the launcher in test_distributed_launcher.py: writes what this process sees."""

import json
import os
import pathlib
import sys

import engine.distributed as dist

out_dir = pathlib.Path(sys.argv[1])
seen = {
    name: os.environ.get(name)
    for name in (
        "RANK",
        "LOCAL_RANK",
        "WORLD_SIZE",
        "LOCAL_WORLD_SIZE",
        "GROUP_RANK",
        "MASTER_ADDR",
        "MASTER_PORT",
        "OMP_NUM_THREADS",
    )
}
seen["argv"] = sys.argv[2:]
seen["main"] = __name__
seen["elastic"] = dist.is_torchelastic_launched()
dist.init_process_group(
    backend="gloo",
    init_method="env://",
    rank=int(os.environ["RANK"]),
    world_size=int(os.environ["WORLD_SIZE"]),
)
seen["mpi_rank"] = dist.get_rank()
seen["mpi_size"] = dist.get_world_size()
dist.destroy_process_group()
(out_dir / f"rank{seen['RANK']}.json").write_text(json.dumps(seen))
if "--fail-on-1" in sys.argv and seen["RANK"] == "1":
    sys.exit(3)
