"""The losses' forward + backward (`loss(x, t).backward()`), engine against PyTorch in one process,
calls interleaved round by round. engine's losses record one native node each; the "composed"
column runs the same call through the composition of primitives they replaced (the path function
transforms still take), to show what the single node saves.

    python bench/bench_losses.py [--rounds 15] [--threads N]

Prints per row the median seconds per call and engine's time as a fraction of PyTorch's (< 1:
engine is faster)."""

import argparse
import statistics
import time

SHAPES = ((64, 10), (1024, 100))


def cases(lib, n, c):
    F = lib.nn.functional
    gen = lib.Generator().manual_seed(0)
    x = lib.randn(n, c, generator=gen).requires_grad_()
    t = lib.randn(n, c, generator=gen)
    p = lib.rand(n, c, generator=gen)
    cls = lib.randint(0, c, (n,), generator=gen)
    return {
        "mse_loss": lambda: F.mse_loss(x, t).backward(),
        "smooth_l1_loss": lambda: F.smooth_l1_loss(x, t).backward(),
        "binary_cross_entropy_with_logits": lambda: F.binary_cross_entropy_with_logits(
            x, p
        ).backward(),
        "cross_entropy": lambda: F.cross_entropy(x, cls).backward(),
    }


def measure(fn, calls):
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def composed(functional):
    """A context in which engine's losses take their composed form."""

    class Composed:
        def __enter__(self):
            self.saved = functional._records
            functional._records = lambda *tensors: False

        def __exit__(self, *exc):
            functional._records = self.saved

    return Composed()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--threads", type=int, help="threads for both libraries")
    args = parser.parse_args()
    import engine
    import torch
    from engine.nn import functional

    if args.threads:  # on a shared machine one thread each keeps spinning workers out of the way
        engine.set_num_threads(args.threads)
        torch.set_num_threads(args.threads)
    print(
        f"torch {torch.__version__}: {torch.get_num_threads()} threads, engine "
        f"{engine.get_num_threads()} threads"
    )
    for n, c in SHAPES:
        mine, theirs = cases(engine, n, c), cases(torch, n, c)
        for name in mine:
            fe, ft = mine[name], theirs[name]
            fe(), ft()
            calls = max(1, int(0.02 / max(measure(ft, 1), 1e-7)))
            te, tc, tt = [], [], []
            for _ in range(args.rounds):
                te.append(measure(fe, calls))
                with composed(functional):
                    tc.append(measure(fe, calls))
                tt.append(measure(ft, calls))
            me, mc, mt = (statistics.median(v) for v in (te, tc, tt))
            print(
                f"{name:<34} {n}x{c:<5} engine {me * 1e6:8.1f} us  composed {mc * 1e6:8.1f} us  "
                f"torch {mt * 1e6:8.1f} us  engine/torch {me / mt:5.2f}  composed/torch "
                f"{mc / mt:5.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
