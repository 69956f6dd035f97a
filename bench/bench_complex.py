"""Complex tensors and engine.fft side by side with PyTorch (CPU) in one process: the median time
of each workload in both libraries and engine's ratio (time(torch) / time(engine); > 1 means
engine is ahead). Run with a Python that has both (PYTHONPATH=python for the development build):

    python3 bench/bench_complex.py [--repeats 7]
"""

import argparse
import statistics
import time


def workloads(lib):
    """name -> (setup() -> args, fn(*args)) for library `lib` (engine or torch)."""
    n = 1 << 20

    def pair():
        lib.manual_seed(0)
        return lib.randn(n, dtype=lib.complex64), lib.randn(n, dtype=lib.complex64)

    def grad_input():
        lib.manual_seed(0)
        return (lib.randn(4096, dtype=lib.complex64, requires_grad=True),)

    def backward(z):
        z.grad = None
        (z * z.conj()).real.sum().backward()
        z.abs().sum().backward()

    def transcendental_backward(z):
        z.grad = None
        (z.log() * z.sin()).real.sum().backward()

    def square():
        lib.manual_seed(0)
        a = lib.randn(256, 256, dtype=lib.complex64)
        return a, a

    def signal():
        lib.manual_seed(0)
        return (lib.randn(64, 4096),)

    return {
        "mul 1M complex64": (pair, lambda a, b: a * b),
        "abs 1M complex64": (pair, lambda a, b: a.abs()),
        "sum 1M complex64": (pair, lambda a, b: a.sum()),
        "exp 1M complex64": (pair, lambda a, b: a.exp()),
        "log 1M complex64": (pair, lambda a, b: a.log()),
        "sqrt 1M complex64": (pair, lambda a, b: a.sqrt()),
        "tanh 1M complex64": (pair, lambda a, b: a.tanh()),
        "pow 2.5 1M complex64": (pair, lambda a, b: a**2.5),
        "prod (1024, 1024) dim 1": (pair, lambda a, b: a.view(1024, 1024).prod(1)),
        "cumsum 1M complex64": (pair, lambda a, b: a.cumsum(0)),
        "matmul 256 complex64": (square, lambda a, b: a @ b),
        "rfft 64x4096": (signal, lambda x: lib.fft.rfft(x)),
        "fft2 64x4096": (signal, lambda x: lib.fft.fft2(x)),
        "|z|^2 + |z| backward (4096)": (grad_input, backward),
        "log + sin backward (4096)": (grad_input, transcendental_backward),
    }


def median_time(fn, args, repeats):
    fn(*args)  # warm up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    opts = parser.parse_args()
    import engine
    import torch

    mine, theirs = workloads(engine), workloads(torch)
    print(f"{'workload':32s} {'engine':>10s} {'torch':>10s} {'ratio':>7s}")
    for name in mine:
        t_engine = median_time(mine[name][1], mine[name][0](), opts.repeats)
        t_torch = median_time(theirs[name][1], theirs[name][0](), opts.repeats)
        print(
            f"{name:32s} {t_engine * 1e3:8.3f}ms {t_torch * 1e3:8.3f}ms {t_torch / t_engine:7.2f}"
        )


if __name__ == "__main__":
    main()
