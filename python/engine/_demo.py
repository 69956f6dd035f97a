"""What ``python -m engine`` runs: a training demo, a report of the build, and a quick self-test.

``demo`` (the default) trains a small classifier whose activation is a custom autograd Function
on three interleaved spirals generated on the spot, with ``DataLoader`` and ``Adam``; it prints
the result and the time, the time PyTorch takes for the same model when PyTorch is installed,
and draws the loss curve with matplotlib when that is installed. The model is written once,
against a module passed in as ``torch``, and built from engine and from PyTorch alike: the same
source runs on both.
"""

import math
import sys
import time

import engine

CLASSES = 3
TURNS = 1.5  # how far each spiral arm winds: enough that a linear model cannot separate them


# ---- the model, written once for any library with PyTorch's API ----------------------------


def build_model(torch, hidden):
    """A 2 -> hidden -> hidden -> 3 classifier whose activation is the custom Function ``Swish``
    (``x * sigmoid(x)`` with a hand-written backward), built from ``torch`` (engine or PyTorch)."""

    class Swish(torch.autograd.Function):
        """``x * sigmoid(x)``; backward: ``s + x * s * (1 - s)`` with ``s = sigmoid(x)``."""

        @staticmethod
        def forward(ctx, x):
            s = torch.sigmoid(x)
            ctx.save_for_backward(x, s)
            return x * s

        @staticmethod
        def backward(ctx, grad):
            x, s = ctx.saved_tensors
            return grad * (s + x * s * (1 - s))

    class SpiralNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = torch.nn.Linear(2, hidden)
            self.fc2 = torch.nn.Linear(hidden, hidden)
            self.out = torch.nn.Linear(hidden, CLASSES)

        def forward(self, x):
            x = Swish.apply(self.fc1(x))
            x = Swish.apply(self.fc2(x))
            return self.out(x)

    return SpiralNet()


def train(torch, model, data, epochs, batch_size, lr, seed, progress=None, deadline=None):
    """Trains ``model`` with Adam on ``data`` = (x_train, y_train, x_test, y_test); returns
    (mean loss per epoch, epochs done, seconds). Stops early (epochs done < epochs) past
    ``deadline`` (a ``time.perf_counter()`` value)."""
    from_library = torch.utils.data
    x_train, y_train, _, _ = data
    generator = torch.Generator().manual_seed(seed)
    loader = from_library.DataLoader(
        from_library.TensorDataset(x_train, y_train),
        batch_size=batch_size,
        shuffle=True,
        generator=generator,
    )
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    losses = []
    start = time.perf_counter()
    for _ in range(epochs):
        total, count = 0.0, 0
        for xb, yb in loader:
            loss = torch.nn.functional.cross_entropy(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(yb)
            count += len(yb)
            if progress is not None:
                progress.update(1)
                progress.set_postfix(loss=f"{loss.item():.3f}")
        losses.append(total / count)
        if deadline is not None and time.perf_counter() > deadline:
            break
    return losses, len(losses), time.perf_counter() - start


def evaluate(torch, model, x, y):
    """(mean cross-entropy, accuracy) of ``model`` on ``x``, ``y``."""
    with torch.no_grad():
        logits = model(x)
        loss = torch.nn.functional.cross_entropy(logits, y).item()
        accuracy = (logits.argmax(1) == y).float().mean().item()
    return loss, accuracy


# ---- the data set -----------------------------------------------------------------------------


def make_spirals(samples, noise, seed):
    """Three interleaved spiral arms in the plane, ``samples`` points in all, shuffled and split
    80/20: (x_train, y_train, x_test, y_test) as engine tensors."""
    gen = engine.Generator().manual_seed(seed)
    per_class = max(samples // CLASSES, 2)
    t = engine.rand(CLASSES, per_class, generator=gen)
    arm = engine.arange(CLASSES).reshape(CLASSES, 1).float()
    angle = (
        2 * math.pi * arm / CLASSES
        + TURNS * 2 * math.pi * t
        + noise * engine.randn(t.shape, generator=gen)
    )
    radius = 0.1 + t
    x = engine.stack((radius * angle.cos(), radius * angle.sin()), dim=-1).reshape(-1, 2)
    y = arm.long().expand(CLASSES, per_class).reshape(-1)
    order = engine.randperm(x.shape[0], generator=gen)
    x, y = x[order], y[order]
    split = max(int(0.8 * x.shape[0]), 1)
    return x[:split], y[:split], x[split:], y[split:]


def saved_memory_line(model, x, y):
    """One line on what a batch's graph keeps for backward (``autograd.graph.saved_memory``)."""
    from engine.autograd._saved_memory import format_bytes
    from engine.autograd.graph import saved_memory

    report = saved_memory(engine.nn.functional.cross_entropy(model(x), y))
    return (
        f"the custom Function Swish keeps {format_bytes(report.per_class.get('Swish', 0))} per "
        f"batch for backward in {report.counts.get('Swish', 0)} nodes "
        "(engine.autograd.graph.saved_memory)"
    )


def to_torch(torch, data):
    """The engine tensors of ``data`` as PyTorch tensors (through lists: NumPy may be absent)."""
    x_train, y_train, x_test, y_test = data
    return (
        torch.tensor(x_train.tolist(), dtype=torch.float32),
        torch.tensor(y_train.tolist(), dtype=torch.int64),
        torch.tensor(x_test.tolist(), dtype=torch.float32),
        torch.tensor(y_test.tolist(), dtype=torch.int64),
    )


# ---- progress bar -----------------------------------------------------------------------------


class PlainProgress:
    """A progress bar without tqdm: redrawn in place on a terminal, a line per quarter otherwise."""

    def __init__(self, total, desc, stream=None):
        self.total, self.desc, self.n = max(total, 1), desc, 0
        self.stream = stream if stream is not None else sys.stderr
        self.tty = getattr(self.stream, "isatty", lambda: False)()
        self.postfix = ""
        self.last_quarter = -1

    def update(self, n=1):
        self.n += n
        quarter = self.n * 4 // self.total
        if self.tty:
            filled = self.n * 30 // self.total
            bar = "#" * filled + "." * (30 - filled)
            self.stream.write(f"\r{self.desc} [{bar}] {self.n}/{self.total} {self.postfix}")
            self.stream.flush()
        elif quarter != self.last_quarter:
            self.last_quarter = quarter
            self.stream.write(f"{self.desc}: {quarter * 25}% {self.postfix}\n")

    def set_postfix(self, **values):
        self.postfix = " ".join(f"{k}={v}" for k, v in values.items())

    def close(self):
        if self.tty:
            self.stream.write("\n")
        self.stream.flush()


def progress_bar(total, desc, enabled):
    """tqdm when installed, else ``PlainProgress``; ``None`` when ``enabled`` is false."""
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return PlainProgress(total, desc)
    return tqdm(total=total, desc=desc, unit="batch", leave=False)


# ---- subcommands ------------------------------------------------------------------------------


def run_demo(args):
    """The ``demo`` subcommand: trains with engine (and PyTorch), prints and plots."""
    engine.manual_seed(args.seed)
    data = make_spirals(args.samples, args.noise, args.seed)
    batches = math.ceil(data[0].shape[0] / args.batch_size)
    print(
        f"engine {engine.__version__}: {CLASSES} spiral arms, {data[0].shape[0]} training and "
        f"{data[2].shape[0]} test points; a 2-{args.hidden}-{args.hidden}-{CLASSES} network whose "
        f"activation is a custom autograd.Function (Swish); Adam, lr {args.lr}, "
        f"{args.epochs} epochs of {batches} batches of {args.batch_size}"
    )

    model = build_model(engine, args.hidden)
    initial = {k: v.detach().clone() for k, v in model.state_dict().items()}
    print(saved_memory_line(model, data[0][: args.batch_size], data[1][: args.batch_size]))
    bar = progress_bar(args.epochs * batches, "engine", args.progress)
    losses, _, seconds = train(
        engine, model, data, args.epochs, args.batch_size, args.lr, args.seed, bar
    )
    if bar is not None:
        bar.close()
    loss, accuracy = evaluate(engine, model, data[2], data[3])
    print(
        f"engine : test loss {loss:.4f}, test accuracy {accuracy:.1%}, "
        f"training {seconds:.2f} s ({seconds / args.epochs * 1000:.0f} ms/epoch, "
        f"{threads(engine.get_num_threads())})"
    )

    curves = {"engine": losses}
    if args.torch:
        reference = run_torch(args, data, initial, seconds)
        if reference is not None:
            curves["PyTorch"] = reference
    if args.plot:
        plot_losses(curves, args.plot)
    return 0


def run_torch(args, data, initial, engine_seconds):
    """Trains the same model, from the same initial weights, with PyTorch; prints its time.
    Returns its loss curve, or None when PyTorch is absent or did not finish in its budget."""
    try:
        import torch
    except ImportError:
        print("PyTorch: not installed (pip install torch to compare)")
        return None
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    model = build_model(torch, args.hidden)
    model.load_state_dict({k: torch.tensor(v.tolist()) for k, v in initial.items()})
    tdata = to_torch(torch, data)
    batches = math.ceil(data[0].shape[0] / args.batch_size)
    bar = progress_bar(args.epochs * batches, "PyTorch", args.progress)
    # PyTorch gets a time budget, so a loaded machine cannot stall the demo; past it, its time
    # per epoch is still a fair comparison.
    deadline = time.perf_counter() + max(args.torch_budget, 2 * engine_seconds)
    losses, done, seconds = train(
        torch, model, tdata, args.epochs, args.batch_size, args.lr, args.seed, bar, deadline
    )
    if bar is not None:
        bar.close()
    per_epoch = seconds / done
    ratio = per_epoch / (engine_seconds / args.epochs)
    if done == args.epochs:
        loss, accuracy = evaluate(torch, model, tdata[2], tdata[3])
        print(
            f"PyTorch: test loss {loss:.4f}, test accuracy {accuracy:.1%}, training "
            f"{seconds:.2f} s ({per_epoch * 1000:.0f} ms/epoch, {threads(torch.get_num_threads())}, "
            f"torch {torch.__version__}): {compare(ratio)}"
        )
        return losses
    print(
        f"PyTorch: stopped after {done} of {args.epochs} epochs ({args.torch_budget:.0f} s "
        f"budget): {per_epoch * 1000:.0f} ms/epoch on {threads(torch.get_num_threads())}, "
        f"torch {torch.__version__}: {compare(ratio)}"
    )
    return None


def threads(n):
    return "1 thread" if n == 1 else f"{n} threads"


def compare(ratio):
    """PyTorch's time over engine's, in words."""
    if ratio >= 1:
        return f"engine is {ratio:.2f}x faster"
    return f"engine is {1 / ratio:.2f}x slower"


def plot_losses(curves, path):
    """Writes the loss curves (``{label: per-epoch losses}``) to the PNG ``path`` with
    matplotlib; says so and skips when matplotlib is absent."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        from matplotlib import pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        print("loss curve: skipped (pip install matplotlib to draw it)")
        return None
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    for (label, losses), style in zip(curves.items(), ("-", "--")):
        ax.plot(range(1, len(losses) + 1), losses, style, marker="o", markersize=3, label=label)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("epoch")
    ax.set_ylabel("training loss (cross-entropy)")
    ax.set_yscale("log")
    ax.set_title("engine demo: spirals, custom Function activation")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    print(f"loss curve: {path}")
    return path
