"""DataLoader epochs: engine.utils.data vs torch.utils.data, in one process run.

    python bench/bench_dataloader.py [--quick]

Each row times whole epochs (median of several) of the same loader recipe on both libraries:
shuffled TensorDataset batches (indexing and stacking in the main process), a Python dataset of
dict samples through default_collate, an unbatched pass, and the same shuffled epoch with two
worker processes. The ratio is time(torch) / time(engine): above 1, engine is ahead. Frameworks
that do not import are left out; nothing here asserts.
"""

import argparse
import importlib
import statistics
import time


def load_frameworks():
    found = {}
    for name in ("engine", "torch"):
        try:
            module = importlib.import_module(name)
            data = importlib.import_module(f"{name}.utils.data")
        except ImportError:
            continue
        found[name] = (module, data)
    return found


class DictSamples:
    """A map-style dataset building each sample in Python: {"x": tensor, "y": int, "w": float}."""

    def __init__(self, torch, features):
        self.features = features
        self.length = features.shape[0]

    def __len__(self):
        return self.length

    def __getitem__(self, i):
        return {"x": self.features[i], "y": i % 10, "w": 0.5}


def recipes(n, features, workers_n):
    """name -> function(torch, data) returning a fresh DataLoader."""

    def tensor_dataset(torch, data):
        x = torch.randn(n, features)
        y = torch.randint(0, 10, (n,))
        return data.DataLoader(data.TensorDataset(x, y), batch_size=64, shuffle=True)

    def dict_samples(torch, data):
        ds = DictSamples(torch, torch.randn(n, features))
        return data.DataLoader(ds, batch_size=64, shuffle=True)

    def unbatched(torch, data):
        x = torch.randn(n, features)
        return data.DataLoader(data.TensorDataset(x), batch_size=None)

    def two_workers(torch, data):
        x = torch.randn(workers_n, features)
        y = torch.randint(0, 10, (workers_n,))
        ds = data.TensorDataset(x, y)
        return data.DataLoader(
            ds, batch_size=64, shuffle=True, num_workers=2, persistent_workers=True
        )

    return {
        f"TensorDataset {n}x{features}, batch 64, shuffle": tensor_dataset,
        f"dict samples {n}x{features}, default_collate, batch 64": dict_samples,
        f"TensorDataset {n}x{features}, batch_size=None": unbatched,
        f"TensorDataset {workers_n}x{features}, batch 64, 2 persistent workers": two_workers,
    }


def epoch_seconds(loader, repeats):
    for _ in loader:  # warm up (starts persistent workers)
        pass
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in loader:
            pass
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def fmt(seconds):
    return "-" if seconds is None else f"{seconds * 1e3:.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller datasets and fewer repeats")
    args = parser.parse_args()
    n, workers_n, repeats = (4000, 2000, 3) if args.quick else (20000, 10000, 5)
    frameworks = load_frameworks()
    print("| workload (one epoch) | engine | PyTorch | ratio vs PyTorch |")
    print("|---|---|---|---|")
    for name, recipe in recipes(n, 32, workers_n).items():
        times = {}
        for fw, (torch, data) in frameworks.items():
            torch.manual_seed(0)
            loader = recipe(torch, data)
            times[fw] = epoch_seconds(loader, repeats)
            del loader
        e, t = times.get("engine"), times.get("torch")
        ratio = f"{t / e:.2f}x" if e and t else ""
        print(f"| {name} | {fmt(e)} | {fmt(t)} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
