"""Elementwise and reduction kernels under each instruction-set copy, side by side with PyTorch.

    python bench/bench_elementwise.py [--quick] [--cpu-time] [--levels scalar,avx2,avx512] [--only exp,sum]

Each copy of the vectorised loops is forced with ENGINE_SIMD in its own subprocess (the choice is
made once per process); PyTorch runs in the same subprocess, so every ratio (PyTorch time / engine
time, > 1: engine ahead) is taken within one run. Levels the CPU cannot run report the copy they
fell back to. Each figure is the fastest of several repeats (on a shared machine other processes
only ever add time); on a busy machine, --cpu-time runs both libraries on one thread and times
process CPU time, which waiting for the CPU does not inflate. Run it with a Python that has
PyTorch; engine is imported from `python/` of this checkout (or ENGINE_BENCH_PYTHONPATH). The rows
also cover the generic loops: dtypes and ops without a vectorised copy, strided operands, and short
rows (the per-run cost of the strided walk)."""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def rows(T, n):
    """(name, zero-argument callable) for framework T on n-element operands."""
    g = T.Generator().manual_seed(0) if hasattr(T, "Generator") else None
    a = T.rand(n, generator=g) + 0.5
    b = T.rand(n, generator=g) + 0.5
    out = T.empty(n)
    a64, b64 = a.double(), b.double()
    ai, bi = (a * 100).int(), (b * 100).int()
    ah, bh = a.half(), b.half()
    side = int(n**0.5)
    m = a[: side * side].reshape(side, side)
    narrow = a[: (n // 4) * 4].reshape(-1, 4)[:, :3]  # rows of 3: one run per row
    return [
        ("a + b f32", lambda: a + b),
        ("a * b f32 (out=)", lambda: T.mul(a, b, out=out)),
        ("a * 2 f32", lambda: a * 2),
        ("maximum(a, b) f32", lambda: T.maximum(a, b)),
        ("a + b f64", lambda: a64 + b64),
        ("exp f32", lambda: a.exp()),
        ("log f32", lambda: a.log()),
        ("tanh f32", lambda: a.tanh()),
        ("sigmoid f32", lambda: a.sigmoid()),
        ("relu f32", lambda: a.relu()),
        ("sum f32", lambda: a.sum()),
        ("sum f64", lambda: a64.sum()),
        ("sin f32 (generic)", lambda: a.sin()),
        ("pow(a, b) f32 (generic)", lambda: T.pow(a, b)),
        ("a + b int32 (generic)", lambda: ai + bi),
        ("a * b float16 (generic)", lambda: ah * bh),
        ("m.t() + m f32 (strided)", lambda: m.t() + m),
        ("rows of 3: x * 2 f32", lambda: narrow * 2),
    ]


def best_time(fn, min_time, repeats=9, clock=None):
    """The fastest of `repeats` timings of an inner loop calibrated to about min_time / repeats."""
    import time

    clock = clock or time.perf_counter
    fn()
    n = 1
    while True:
        start = clock()
        for _ in range(n):
            fn()
        t = clock() - start
        if t >= min_time / repeats or n >= 1 << 20:
            break
        n *= 2
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        for _ in range(n):
            fn()
        best = min(best, (clock() - start) / n)
    return best


def measure(level, n, quick, only, cpu_time):
    """Runs in the subprocess forced to `level`: prints one JSON object of rows."""
    import time

    sys.path.insert(
        0, os.environ.get("ENGINE_BENCH_PYTHONPATH", os.path.join(HERE, "..", "python"))
    )
    import engine

    try:
        import torch
    except ImportError:
        torch = None
    budget = 0.05 if quick else 0.25
    clock = None
    if cpu_time:
        clock = time.process_time
        engine.set_num_threads(1)
        if torch:
            torch.set_num_threads(1)
    result = {"level": engine._C._simd_level(), "rows": []}
    mine = rows(engine, n)
    theirs = rows(torch, n) if torch else [(name, None) for name, _ in mine]
    for (name, fe), (_, ft) in zip(mine, theirs):
        if only and not any(p in name for p in only):
            continue
        te = best_time(fe, budget, clock=clock)
        tt = best_time(ft, budget, clock=clock) if ft else None
        result["rows"].append([name, te, tt])
    print(json.dumps(result))


def fmt(s):
    if s is None:
        return "-"
    return f"{s * 1e6:.1f} µs" if s < 1e-3 else f"{s * 1e3:.2f} ms"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--levels", default="scalar,avx2,avx512")
    parser.add_argument("--sizes", default="1000000,10000000")
    parser.add_argument("--only", default="")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="one thread each, timed by process CPU time: waiting for a busy CPU is not counted",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    only = [p for p in args.only.split(",") if p]
    if args.child:
        level, n = args.child.split(":")
        return measure(level, int(n), args.quick, only, args.cpu_time)
    levels = args.levels.split(",")
    for n in (int(s) for s in args.sizes.split(",")):
        table = {}
        for level in levels:
            cmd = [sys.executable, __file__, "--child", f"{level}:{n}", "--only", args.only]
            cmd += ["--quick"] * args.quick + ["--cpu-time"] * args.cpu_time
            env = {**os.environ, "ENGINE_SIMD": level}
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            table[level] = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"\nn = {n:,} (engine time, PyTorch/engine ratio per forced copy; > 1: engine ahead)")
        header = "".join(f"{lv + ' (' + table[lv]['level'] + ')':>28}" for lv in levels)
        print(f"{'workload':<28}{header}{'PyTorch':>12}")
        names = [r[0] for r in table[levels[0]]["rows"]]
        for i, name in enumerate(names):
            cells, torch_t = "", None
            for lv in levels:
                _, te, tt = table[lv]["rows"][i]
                torch_t = tt if torch_t is None else min(torch_t, tt or torch_t)
                ratio = f"{tt / te:5.2f}x" if tt else ""
                cells += f"{fmt(te):>20} {ratio:>7}"
            print(f"{name:<28}{cells}{fmt(torch_t):>12}", flush=True)


if __name__ == "__main__":
    main()
