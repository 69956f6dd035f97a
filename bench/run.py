"""Side-by-side benchmarks: engine vs PyTorch (CPU) vs NumPy, in one process run.

    python bench/run.py [--quick] [--only PREFIXES] [--no-process] [--json out.json]

Run it with a Python where PyTorch imports (here: PYTHONPATH=python /tmp/tv/bin/python bench/run.py)
to get the side-by-side columns. Every framework that imports is measured; each figure is the
median of several repeats, and ratios are computed within this run (these machines are noisy:
compare ratios, not absolutes). Nothing here asserts: the suite reports, the tests judge correctness.
Columns: each library's time (or rate), engine's lead (> 1: engine ahead), engine time / PyTorch
time (how the goals are stated), and engine's time in plain Python function calls (the floor row,
measured first: how far a per-call entry point is from what no binding can beat)."""

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import workloads  # noqa: E402


def load_frameworks():
    found = {}
    for name in ("engine", "torch", "numpy"):
        try:
            found[name] = importlib.import_module(name)
        except ImportError:
            pass
    return found


def timeit(fn, min_time=0.2, repeats=7):
    """Median seconds per call of fn(), calibrating the inner loop to about min_time/repeats."""
    fn()
    n, t = 1, 0.0
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        t = time.perf_counter() - start
        if t >= min_time / repeats or n >= 1 << 20:
            break
        n *= 2 if t == 0 else max(2, int(min_time / repeats / max(t, 1e-9)))
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - start) / n)
    return statistics.median(samples)


def fmt_time(s):
    if s is None:
        return "-"
    if s < 1e-3:
        return f"{s * 1e6:.2f} µs"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def subprocess_seconds(code, python=sys.executable, repeats=5):
    times = []
    for _ in range(repeats):
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer repeats, smaller budget")
    parser.add_argument("--json", help="write the results as JSON to this file")
    parser.add_argument("--only", help="comma-separated benchmark name prefixes")
    parser.add_argument(
        "--no-process",
        action="store_true",
        help="skip the fresh-interpreter rows (import time, size, RSS)",
    )
    args = parser.parse_args()
    fw = load_frameworks()
    if "torch" in fw:
        print(f"torch {fw['torch'].__version__}, {fw['torch'].get_num_threads()} threads")
    if "numpy" in fw:
        print(f"numpy {fw['numpy'].__version__}")
    budget = 0.05 if args.quick else 0.3
    results = []
    floor = None
    print(f"{'workload':<46} {'engine':>12} {'PyTorch':>12} {'NumPy':>12}  lead  e/t time  e/floor")
    for bench in workloads.BENCHMARKS:
        if args.only and not any(bench.name.startswith(p) for p in args.only.split(",")):
            continue
        row = {"name": bench.name, "unit": bench.unit}
        for name in ("engine", "torch", "numpy"):
            make = bench.impls.get(name)
            if make is None or name not in fw:
                row[name] = None
                continue
            fn = make(fw[name])
            seconds = timeit(fn, min_time=budget)
            flops = getattr(bench, "flops", None)
            row[name] = flops / seconds / 1e9 if flops else seconds
        if getattr(bench, "flops", None):
            row["unit"] = "GFLOP/s"
        if bench.name == workloads.FLOOR:
            floor = row.get("engine")
        elif floor and row["unit"] == "time" and row.get("engine"):
            row["floor_multiple"] = row["engine"] / floor
        results.append(row)
        print_row(row)
    for row in [] if args.no_process else workloads.process_metrics(fw, subprocess_seconds):
        results.append(row)
        print_row(row)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"date": time.strftime("%Y-%m-%d"), "results": results}, f, indent=1)


def print_row(row):
    e, t, n = row.get("engine"), row.get("torch"), row.get("numpy")
    unit = row["unit"]
    show = fmt_time if unit == "time" else (lambda v: "-" if v is None else f"{v:.1f} {unit}")
    ratio = time_ratio = floor = ""
    if e and t:
        # > 1 means engine is ahead: for times and sizes torch/engine, for rates engine/torch.
        r = t / e if unit in ("time", "MB") else e / t
        ratio = f"{r:6.2f}x"
        if unit == "time":
            time_ratio = f"{e / t:8.3f}"  # engine time / PyTorch time, as the goals are stated
        elif unit == "GFLOP/s":
            time_ratio = (
                f"{t / e:8.3f}"  # the same work: the inverse ratio of rates is the time ratio
            )
    if row.get("floor_multiple"):
        floor = f"{row['floor_multiple']:7.1f}x"  # engine time in plain Python calls
    print(
        f"{row['name']:<46} {show(e):>12} {show(t):>12} {show(n):>12}  {ratio} {time_ratio} {floor}",
        flush=True,
    )


if __name__ == "__main__":
    main()
