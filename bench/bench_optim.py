"""Optimizer step time: engine.optim vs torch.optim, in one process run.

    PYTHONPATH=<engine's site-packages> /tmp/tv/bin/python bench/bench_optim.py [--quick]

The workload is one ``step()`` over 1M float32 parameters in 10 tensors of 100k, with their
gradients already in place (what a training loop's step costs after backward). PyTorch is timed
with its CPU default (the per-parameter loop) and, for reference, with ``foreach=True`` and
``fused=True``. Ratios are time(PyTorch) / time(engine): > 1 means engine is ahead.
"""

import argparse
import importlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from run import fmt_time, timeit  # noqa: E402

N_TENSORS, NUMEL = 10, 100_000


def _params(lib):
    gen = lib.Generator().manual_seed(0)
    params = []
    for _ in range(N_TENSORS):
        p = lib.randn(NUMEL, generator=gen).requires_grad_()
        p.grad = lib.randn(NUMEL, generator=gen)
        params.append(p)
    return params


CASES = [
    ("Adam", {"lr": 1e-3}),
    ("AdamW", {"lr": 1e-3, "weight_decay": 1e-2}),
    ("SGD", {"lr": 1e-2, "momentum": 0.9}),
    ("RMSprop", {"lr": 1e-3}),
]
TORCH_VARIANTS = [("default", {}), ("foreach", {"foreach": True}), ("fused", {"fused": True})]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter timing budget")
    parser.add_argument("--threads", type=int, help="threads for both libraries (default: theirs)")
    args = parser.parse_args()
    min_time = 0.3 if args.quick else 1.0
    libs = {}
    for name in ("engine", "torch"):
        try:
            libs[name] = importlib.import_module(name)
        except ImportError:
            pass
    if args.threads:
        for lib in libs.values():
            lib.set_num_threads(args.threads)
    threads = {name: lib.get_num_threads() for name, lib in libs.items()}
    print(f"optimizer step over {N_TENSORS} x {NUMEL} float32 parameters; threads {threads}")
    print(f"{'workload':<34} {'engine':>10} {'PyTorch':>10} {'ratio':>8}")
    for name, options in CASES:
        engine_time = None
        if "engine" in libs:
            opt = getattr(libs["engine"].optim, name)(_params(libs["engine"]), **options)
            engine_time = timeit(opt.step, min_time=min_time)
        for variant, extra in TORCH_VARIANTS if "torch" in libs else [("-", None)]:
            torch_time = None
            if extra is not None:
                torch = libs["torch"]
                try:
                    opt = getattr(torch.optim, name)(_params(torch), **options, **extra)
                except (TypeError, RuntimeError, ValueError):
                    continue
                with torch.no_grad():
                    torch_time = timeit(opt.step, min_time=min_time)
            ratio = f"{torch_time / engine_time:.2f}x" if torch_time and engine_time else "-"
            label = f"{name} step (torch {variant})"
            print(f"{label:<34} {fmt_time(engine_time):>10} {fmt_time(torch_time):>10} {ratio:>8}")


if __name__ == "__main__":
    main()
