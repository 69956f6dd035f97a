"""Activation checkpointing: peak memory of one training step of a deep MLP, with and without it.

    python bench/bench_checkpoint.py [--quick] [--torch]

Each configuration runs in a fresh subprocess: build the model and batch, take one warm-up step,
reset the peak resident size (Linux's clear_refs), run forward + backward + an SGD step, and
report how far the peak resident size rose above the size before the step. Rows: no checkpointing, and
``checkpoint_sequential`` over the layers in both modes (reentrant, non-reentrant). ``--torch``
adds the same rows for PyTorch when it imports. The ratio is peak(plain) / peak(checkpointed):
above 1, checkpointing saved memory. Nothing here asserts.
"""

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
lib, mode, depth, width, batch, segments = sys.argv[1:7]
depth, width, batch, segments = int(depth), int(width), int(batch), int(segments)
torch = __import__(lib)
from importlib import import_module
ckpt = import_module(lib + ".utils.checkpoint")
nn = torch.nn

def peak_mb():
    # VmHWM, the peak resident size since the last reset (or since start: ru_maxrss)
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0

def reset_peak():
    # Linux: writing 5 to clear_refs resets VmHWM to the current resident size, so imports
    # and model construction do not set the peak this step is measured against.
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass

def current_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20

torch.manual_seed(0)
layers = []
for _ in range(depth):
    layers += [nn.Linear(width, width), nn.Tanh()]
model = nn.Sequential(*layers)
opt = torch.optim.SGD(model.parameters(), lr=1e-3)
x = torch.randn(batch, width, requires_grad=True)  # reentrant mode needs an input that does
# one warm-up step allocates gradients and optimizer state, which both modes keep alike
model(x[:2]).sum().backward()
opt.step()
opt.zero_grad()
reset_peak()
base = current_mb()
start = time.perf_counter()
if mode == "plain":
    loss = model(x).pow(2).mean()
else:
    loss = ckpt.checkpoint_sequential(
        model, segments, x, use_reentrant=(mode == "reentrant")
    ).pow(2).mean()
loss.backward()
opt.step()
seconds = time.perf_counter() - start
print(json.dumps({"peak_above_base_mb": peak_mb() - base, "seconds": seconds}))
"""


def run(lib, mode, depth, width, batch, segments):
    out = subprocess.run(
        [sys.executable, "-c", CHILD, lib, mode, str(depth), str(width), str(batch), str(segments)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller model")
    parser.add_argument("--torch", action="store_true", help="also measure PyTorch")
    args = parser.parse_args()
    # A large batch over narrow layers: activations (batch x width per layer) dominate the
    # step's memory, not the parameters and their gradients (width x width per layer).
    depth, width, batch = (16, 128, 2048) if args.quick else (32, 256, 4096)
    segments = 4 if args.quick else 6
    libs = ["engine"]
    if args.torch:
        try:
            import torch  # noqa: F401

            libs.append("torch")
        except ImportError:
            pass
    print(
        f"MLP {depth} x Linear({width}, {width}) + Tanh, batch {batch}, "
        f"checkpoint_sequential segments={segments}"
    )
    print(f"{'library':8} {'mode':14} {'peak MB':>9} {'step s':>8} {'plain/this':>10}")
    for lib in libs:
        plain = run(lib, "plain", depth, width, batch, segments)
        for mode in ("plain", "reentrant", "non-reentrant"):
            row = plain if mode == "plain" else run(lib, mode, depth, width, batch, segments)
            ratio = plain["peak_above_base_mb"] / max(row["peak_above_base_mb"], 1e-9)
            print(
                f"{lib:8} {mode:14} {row['peak_above_base_mb']:9.1f} {row['seconds']:8.3f} "
                f"{ratio:10.2f}"
            )


if __name__ == "__main__":
    main()
