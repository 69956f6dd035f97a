"""engine.distributed over MPI: all-reduce bandwidth against mpi4py on NumPy arrays, and the
time of a data-parallel training step on 1 and 2 processes.

    python bench/bench_distributed.py [--quick] [--nproc 2]

All-reduce: each size is a float32 tensor from engine's allocator and one over NumPy's memory
(``engine.from_numpy``), both reduced with ``dist.all_reduce`` in place, and a NumPy array of the
same size (``comm.Allreduce(MPI.IN_PLACE, array)``), timed alternately on ``--nproc`` processes.
The middle column isolates the binding's own cost; the first adds the allocator's (NumPy asks
Linux for transparent huge pages for blocks of 4 MiB and more, engine's allocator does not, and
MPI's single-copy transfers pin and map memory page by page). Each figure is the
best time per call over the trials (the machine's other load only ever adds to it); the bus
bandwidth is 2(n-1)/n x bytes / time (the usual all-reduce figure); the last column is mpi4py's
time over engine's on the same kind of memory (1.0: the same).

Training: an MLP (784-1024-1024-10, 1.9 M parameters) trained with SGD under
DistributedDataParallel on a global batch of 256, split over the processes; the figure is the
median time of a step (forward, backward with the bucketed all-reduce, optimizer step) and the
speed-up of N processes over one. On a machine with fewer cores than processes the processes
share cores, so read the speed-up with the core count in mind. Nothing here asserts.
"""

import argparse
import json
import os
import subprocess
import sys
import time

SIZES = [1 << 10, 1 << 14, 1 << 17, 1 << 20, 1 << 22]


def _median(values):
    values = sorted(values)
    return values[len(values) // 2]


def child_allreduce(quick):
    import engine
    import engine.distributed as dist
    import numpy as np
    from mpi4py import MPI

    dist.init_process_group("mpi")
    comm = MPI.COMM_WORLD.Dup()
    rows = []
    for n in SIZES[:-1] if quick else SIZES:
        reps = max(3, min(200, (1 << 24) // (n * 4)))
        tensor = engine.ones(n)  # engine's allocator
        shared = engine.from_numpy(np.ones(n, np.float32))  # a tensor over NumPy's memory
        a = np.ones(n, np.float32)
        calls = {
            "engine_s": lambda t=tensor: dist.all_reduce(t),
            "engine_numpy_memory_s": lambda t=shared: dist.all_reduce(t),
            "mpi4py_s": lambda a=a: comm.Allreduce(MPI.IN_PLACE, a, MPI.SUM),
        }
        times = {name: [] for name in calls}
        for call in calls.values():  # warm-up
            call()
            call()
        for _ in range(5 if quick else 9):
            for name, call in calls.items():
                comm.Barrier()
                start = time.perf_counter()
                for _ in range(reps):
                    call()
                times[name].append((time.perf_counter() - start) / reps)
        # the best trial of the slowest rank
        row = {name: comm.allreduce(min(ts), MPI.MAX) for name, ts in times.items()}
        row["elements"] = n
        rows.append(row)
    if dist.get_rank() == 0:
        print("RESULT " + json.dumps({"size": dist.get_world_size(), "rows": rows}))
    comm.Free()
    dist.destroy_process_group()


def child_train(quick):
    import engine
    import engine.distributed as dist
    import engine.nn as nn
    from engine.nn.parallel import DistributedDataParallel as DDP

    dist.init_process_group("mpi")
    world, rank = dist.get_world_size(), dist.get_rank()
    engine.manual_seed(0)
    model = DDP(
        nn.Sequential(
            nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10)
        )
    )
    opt = engine.optim.SGD(model.parameters(), lr=0.01)
    global_batch = 256
    x = engine.randn(global_batch // world, 784)
    y = engine.randint(0, 10, (global_batch // world,))
    loss_fn = nn.CrossEntropyLoss()

    def step():
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()

    for _ in range(2):
        step()
    times = []
    for _ in range(5 if quick else 15):
        dist.barrier()
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    slowest = engine.tensor([_median(times)], dtype=engine.float64)
    dist.all_reduce(slowest, op=dist.ReduceOp.MAX)
    if rank == 0:
        threads = engine.get_num_threads()
        print("RESULT " + json.dumps({"size": world, "step_s": float(slowest), "threads": threads}))
    dist.destroy_process_group()


def _launch(nproc, mode, quick, extra_env=None):
    command = [
        sys.executable,
        "-m",
        "engine.distributed.run",
        "--nproc",
        str(nproc),
        __file__,
        "--child",
        mode,
    ] + (["--quick"] if quick else [])
    env = dict(os.environ, **(extra_env or {}))
    out = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1800)
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT ") :])
    raise SystemExit(f"{mode} on {nproc} processes failed:\n{out.stdout}\n{out.stderr}")


def _format_time(seconds):
    return f"{seconds * 1e6:.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:.2f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--nproc", type=int, default=2)
    parser.add_argument("--child", choices=["allreduce", "train"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "allreduce":
        return child_allreduce(args.quick)
    if args.child == "train":
        return child_train(args.quick)

    result = _launch(args.nproc, "allreduce", args.quick)
    n = result["size"]
    print(f"all-reduce (SUM, float32, in place) on {n} processes")
    print(
        "| elements | bytes | engine tensor | engine tensor over NumPy memory | mpi4py on NumPy | "
        "bus GB/s (engine / over NumPy / mpi4py) | mpi4py time / engine-over-NumPy time |"
    )
    print("|---|---|---|---|---|---|---|")
    for row in result["rows"]:
        nbytes = row["elements"] * 4
        factor = 2 * (n - 1) / n * nbytes / 1e9
        e, en, m = row["engine_s"], row["engine_numpy_memory_s"], row["mpi4py_s"]
        print(
            f"| {row['elements']} | {nbytes} | {_format_time(e)} | {_format_time(en)} | "
            f"{_format_time(m)} | {factor / e:.2f} / {factor / en:.2f} / {factor / m:.2f} | "
            f"{m / en:.2f} |"
        )

    print()
    print("DDP training step, MLP 784-1024-1024-10, global batch 256, SGD")
    print("| processes | threads per process | step | speed-up vs 1 process |")
    print("|---|---|---|---|")
    one = _launch(1, "train", args.quick)
    one_thread = _launch(1, "train", args.quick, {"ENGINE_NUM_THREADS": "1"})
    many = _launch(args.nproc, "train", args.quick)
    for r in (one, one_thread, many):
        print(
            f"| {r['size']} | {r['threads']} | {_format_time(r['step_s'])} | "
            f"{one['step_s'] / r['step_s']:.2f}x |"
        )


if __name__ == "__main__":
    main()
