"""The linalg rows of bench/run.py timed in CPU time, engine and PyTorch on one thread each.

    python bench/bench_linalg_cpu.py [--rounds 5]

On a machine shared with other work, wall-clock times of two-thread runs mostly measure who got
the cores (PyTorch's OpenMP threads wait for each other at every step). The CPU time a process
spends on one thread is far steadier: it is the work each library does, and what a second thread
could at best halve. Each figure is the best of `rounds` rounds of a calibrated loop; the
workloads are bench/workloads_linalg.py's, on the same operands.
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def per_call(fn, rounds):
    """Best CPU seconds per call of fn() over `rounds` rounds of about 50 ms each."""
    fn()
    n = 1
    while True:
        start = time.process_time()
        for _ in range(n):
            fn()
        if time.process_time() - start >= 0.05:
            break
        n *= 2
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, (time.process_time() - start) / n)
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    import engine
    import torch
    import workloads

    engine.set_num_threads(1)
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, one thread each, CPU time per call (best of {args.rounds})")
    print(f"{'workload':40s} {'engine':>11s} {'PyTorch':>11s}  e/t")
    for b in workloads.BENCHMARKS:
        if not b.name.startswith("linalg"):
            continue
        e = per_call(b.impls["engine"](engine), args.rounds)
        t = per_call(b.impls["torch"](torch), args.rounds)
        print(f"{b.name:40s} {e * 1e6:9.1f}µs {t * 1e6:9.1f}µs  {e / t:.2f}", flush=True)


if __name__ == "__main__":
    main()
