"""The nn-level rows of workloads.py (conv2d, the small CNN step, the MLP step, nn.Linear, Adam), engine against
PyTorch in one process, the two libraries' calls interleaved round by round so that a change in
machine load hits both alike.

    python bench/bench_nn.py [--rounds 15] [--threads N] [--cpu] [--only conv2d,small CNN]

Prints per row the median (and minimum) seconds per call of each library and engine's time as a
fraction of PyTorch's (< 1: engine is faster). --threads sets both libraries' thread counts
(engine.set_num_threads also governs its BLAS); --cpu measures process CPU time instead of wall
time, which on a loaded machine tells the work done (spinning threads included) better than the
wall clock does."""

import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import workloads  # noqa: E402

ROWS = (
    "conv2d 8x32x28x28",
    "small CNN training step",
    "MLP 784-256-10 step (built-in ops)",
    "nn.Linear(16, 16) call",
    "Adam step, 1M parameters",
    "F.gelu 64x256",
    "F.silu 64x256",
)


def measure(fn, clock, calls):
    start = clock()
    for _ in range(calls):
        fn()
    return (clock() - start) / calls


def calls_per_round(fn, target=0.02):
    """Calls per timed round: about `target` seconds of work, at least one call."""
    once = measure(fn, time.perf_counter, 1)
    return max(1, min(10_000, int(target / max(once, 1e-7))))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--threads", type=int, help="threads for both libraries")
    parser.add_argument("--cpu", action="store_true", help="process CPU time instead of wall time")
    parser.add_argument("--only", help="comma-separated row name prefixes")
    args = parser.parse_args()
    import engine
    import torch

    if args.threads:
        engine.set_num_threads(args.threads)
        torch.set_num_threads(args.threads)
    clock = time.process_time if args.cpu else time.perf_counter
    print(
        f"torch {torch.__version__}: {torch.get_num_threads()} threads, engine "
        f"{engine.get_num_threads()} threads, {'CPU' if args.cpu else 'wall'} time, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    rows = args.only.split(",") if args.only else ROWS
    for bench in workloads.BENCHMARKS:
        if not any(bench.name.startswith(r) for r in rows):
            continue
        fe, ft = bench.impls["engine"](engine), bench.impls["torch"](torch)
        for f in (fe, ft):
            f()
        ne, nt = calls_per_round(fe), calls_per_round(ft)
        te, tt = [], []
        for _ in range(args.rounds):
            te.append(measure(fe, clock, ne))
            tt.append(measure(ft, clock, nt))
        me, mt = statistics.median(te), statistics.median(tt)
        print(
            f"{bench.name:<50} engine {fmt(me):>10} (min {fmt(min(te))})  torch {fmt(mt):>10} "
            f"(min {fmt(min(tt))})  engine/torch {me / mt:5.2f}",
            flush=True,
        )


def fmt(s):
    return f"{s * 1e6:.1f} us" if s < 1e-3 else f"{s * 1e3:.2f} ms"


if __name__ == "__main__":
    main()
