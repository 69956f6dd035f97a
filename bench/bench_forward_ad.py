"""Forward-mode AD overhead: an op on dual tensors against the same op on plain tensors, in engine
and in PyTorch.

    python bench/bench_forward_ad.py [--quick] [--torch PYTHON]

For each workload the table gives the median time per call of the op on plain tensors, inside a
``dual_level`` on dual tensors (the op and its tangent), and their ratio, for engine and (with
``--torch``, a Python that imports PyTorch, run in a subprocess) for PyTorch; the last column
is engine's dual time over PyTorch's. Small tensors show the per-call overhead (engine carries
tangents in Python, at the transform dispatch), large ones the arithmetic. ``jvp`` rows time
``engine.func.jvp`` of a small MLP. Nothing here asserts.
"""

import argparse
import json
import subprocess
import sys
import time

CHILD = r"""
import json, sys, time
lib, quick = sys.argv[1], sys.argv[2] == "1"
torch = __import__(lib)
fwAD = torch.autograd.forward_ad
import importlib
func = importlib.import_module(lib + ".func")

def median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2]

def per_call(fn, n):
    def run():
        for _ in range(n):
            fn()
    return median_time(run, 5) / n

results = {}
sizes = [("small", (16, 16)), ("large", (512, 512))]
torch.manual_seed(0)
for label, shape in sizes:
    x = torch.randn(*shape, dtype=torch.float32)
    t = torch.randn(*shape, dtype=torch.float32)
    w = torch.randn(shape[1], shape[1], dtype=torch.float32)
    n = (50 if quick else 300) if label == "small" else (3 if quick else 10)
    ops = {
        "mul": lambda a: a * a,
        "exp": lambda a: a.exp(),
        "matmul": lambda a: a @ w,
        "sum": lambda a: a.sum(1),
        "view": lambda a: a.t()[0],
        "softmax": lambda a: torch.softmax(a, 1),
        "logsumexp (generic rule)": lambda a: torch.logsumexp(a, 1),
    }
    for name, op in ops.items():
        plain = per_call(lambda: op(x), n)
        with fwAD.dual_level():
            d = fwAD.make_dual(x, t)
            dual = per_call(lambda: op(d), n)
        results[f"{name} {label}"] = (plain, dual)

def mlp(a):
    h = a
    for k in range(3):
        h = torch.tanh(h @ w)
    return h.sum()

for label, shape in sizes:
    x = torch.randn(*shape)
    t = torch.randn(*shape)
    w = torch.randn(shape[1], shape[1])
    n = (20 if quick else 100) if label == "small" else (2 if quick else 5)
    plain = per_call(lambda: mlp(x), n)
    dual = per_call(lambda: func.jvp(mlp, (x,), (t,)), n)
    results[f"jvp mlp {label}"] = (plain, dual)
print(json.dumps(results))
"""


def run(python, lib, quick):
    out = subprocess.run(
        [python, "-c", CHILD, lib, "1" if quick else "0"],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        print(f"[{lib}] failed:\n{out.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--torch", metavar="PYTHON", help="a Python that imports torch")
    args = parser.parse_args()
    start = time.perf_counter()
    engine = run(sys.executable, "engine", args.quick)
    torch = run(args.torch, "torch", args.quick) if args.torch else None
    if engine is None:
        sys.exit(1)
    head = f"{'workload':<28}{'engine plain':>14}{'engine dual':>14}{'ratio':>8}"
    if torch:
        head += f"{'torch plain':>14}{'torch dual':>14}{'ratio':>8}{'dual e/t':>10}"
    print(head)
    for name, (plain, dual) in engine.items():
        row = f"{name:<28}{plain * 1e6:>12.1f}us{dual * 1e6:>12.1f}us{dual / plain:>8.1f}"
        if torch and name in torch:
            tp, td = torch[name]
            row += f"{tp * 1e6:>12.1f}us{td * 1e6:>12.1f}us{td / tp:>8.1f}{dual / td:>10.1f}"
        print(row)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
