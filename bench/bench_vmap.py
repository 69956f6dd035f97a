"""vmap of a small function over a batch of 1000: engine's vmap against a Python loop over the
batch, and against PyTorch's vmap.

    python bench/bench_vmap.py [--quick] [--torch PYTHON]

For each workload the table gives the median time of one call over the whole batch: the Python
loop (``stack([f(x[i]) for i in range(B)])``), ``vmap(f)``, and the loop/vmap ratio, for engine
and (with ``--torch``, a Python that imports PyTorch, run in a subprocess) for PyTorch; the last
column is PyTorch's vmap time over engine's (> 1: engine ahead). Nothing here asserts.
"""

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, sys, time, importlib
lib, quick = sys.argv[1], sys.argv[2] == "1"
torch = __import__(lib)
func = importlib.import_module(lib + ".func")

def median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2]

B = 1000
torch.manual_seed(0)
x = torch.randn(B, 16)
w = torch.randn(16, 8)
b = torch.randn(8)
y = torch.randn(B, 8)

def mlp(a):
    return (a @ w + b).tanh().sum()

def elementwise(a):
    return (a.sin() * a + 1).exp().mean()

def per_sample_loss(a, t):
    return ((a @ w + b).relu() - t).pow(2).mean()

def grad_loss(weight, a, t):
    return ((a @ weight).tanh() - t).pow(2).mean()

def order_stats(a):
    return torch.sort(a).values[:4].sum() + torch.median(a) + torch.quantile(a, 0.25)

def noisy(a):
    return (a + torch.randn_like(a)).tanh().sum()

workloads = {
    "mlp row (matmul, tanh, sum)": (mlp, (x,), 0),
    "elementwise chain + mean": (elementwise, (x,), 0),
    "two inputs (linear, relu, mse)": (per_sample_loss, (x, y), 0),
    "per-sample grad (grad of mse)": (func.grad(grad_loss), (w, x, y), (None, 0, 0)),
    "sort, median, quantile": (order_stats, (x,), 0),
    "randn_like noise (randomness='different')": (noisy, (x,), 0),
}
repeat = 3 if quick else 7
results = {}
for name, (f, args, in_dims) in workloads.items():
    dims = in_dims if isinstance(in_dims, tuple) else (in_dims,) * len(args)
    def loop():
        outs = []
        for i in range(B):
            outs.append(f(*[a if d is None else a[i] for a, d in zip(args, dims)]))
        return torch.stack(outs)
    random = "randomness" in name
    vf = func.vmap(f, in_dims=in_dims, randomness="different" if random else "error")
    expected = loop()
    got = vf(*args)
    assert got.shape == expected.shape and (random or torch.allclose(got, expected, atol=1e-5)), name
    results[name] = {"loop": median_time(loop, repeat), "vmap": median_time(lambda: vf(*args), repeat)}
# jacfwd: one vmap of jvp over the 64 basis tangents (engine's generic-rule ops go column by column)
v = torch.randn(64)
m = torch.randn(32, 64)
jac = {"jacfwd of tanh(m @ v) (64 -> 32)": lambda a: (m @ a).tanh()}
for name, f in jac.items():
    jf = func.jacfwd(f)
    results[name] = {"loop": median_time(lambda: [func.jvp(f, (v,), (e,)) for e in torch.eye(64)], repeat),
                     "vmap": median_time(lambda: jf(v), repeat)}
print(json.dumps(results))
"""


def _run(python, lib, quick):
    out = subprocess.run(
        [python, "-c", CHILD, lib, "1" if quick else "0"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _ms(seconds):
    return f"{seconds * 1e3:8.2f} ms"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--torch", help="a Python interpreter that imports PyTorch")
    opts = parser.parse_args()
    engine = _run(sys.executable, "engine", opts.quick)
    torch = _run(opts.torch, "torch", opts.quick) if opts.torch else None
    header = "| workload (B=1000) | engine loop | engine vmap | loop/vmap |"
    if torch:
        header += " torch loop | torch vmap | loop/vmap | torch vmap / engine vmap |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for name, e in engine.items():
        row = f"| {name} | {_ms(e['loop'])} | {_ms(e['vmap'])} | {e['loop'] / e['vmap']:6.1f}x |"
        if torch:
            t = torch[name]
            row += (
                f" {_ms(t['loop'])} | {_ms(t['vmap'])} | {t['loop'] / t['vmap']:6.1f}x |"
                f" {t['vmap'] / e['vmap']:5.2f}x |"
            )
        print(row)


if __name__ == "__main__":
    main()
