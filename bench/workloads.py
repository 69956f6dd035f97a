"""The benchmark workloads, written once against the torch-shaped API (engine and torch share it),
with a NumPy counterpart where one is meaningful."""

import os
from dataclasses import dataclass, field


@dataclass
class Benchmark:
    name: str
    unit: str  # "time" (seconds per call, lower is better) or a rate like "GFLOP/s"
    impls: dict = field(default_factory=dict)


BENCHMARKS = []


def bench(name, unit="time"):
    b = Benchmark(name, unit)
    BENCHMARKS.append(b)

    def register(framework):
        def deco(make):
            b.impls[framework] = make
            return make

        return deco

    return register


def bound(fn, *args):
    """fn with its arguments made now (outside the timed region): a zero-argument callable."""
    return lambda: fn(*args)


def both(register, make):
    register("engine")(make)
    register("torch")(make)


# ---------------------------------------------------------------- the floor


def python_call(T):
    """A plain Python function call on a tensor: what no per-call entry point can go below."""

    def identity(x):
        return x

    return bound(identity, small_input(T))


FLOOR = "Python function call f(x) (the floor)"
both(bench(FLOOR), python_call)

# ---------------------------------------------------------------- custom Functions


def mul_by_two_classes(T):
    class NewStyle(T.autograd.Function):
        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class OldStyle(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class TutorialStyle(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            (x,) = inputs
            ctx.save_for_backward(x)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    return {"new": NewStyle, "old": OldStyle, "tutorial": TutorialStyle}


def small_input(T):
    return T.tensor([1.0, 2.0, 3.0], requires_grad=True)


for style in ("new", "old", "tutorial"):
    if style == "tutorial":
        # PyTorch rejects forward(ctx, x) together with setup_context: engine only.
        reg = bench(f"MulByTwo.apply(x) [{style} style]")
        reg("engine")(lambda T, s=style: bound(mul_by_two_classes(T)[s].apply, small_input(T)))
        continue
    both(
        bench(f"MulByTwo.apply(x) [{style} style]"),
        lambda T, s=style: bound(mul_by_two_classes(T)[s].apply, small_input(T)),
    )

both(
    bench("MulByTwo.apply(x).sum().backward() [new]"),
    lambda T: bound(
        lambda f, x: f(x).sum().backward(), mul_by_two_classes(T)["new"].apply, small_input(T)
    ),
)


def chain_100(T):
    f = mul_by_two_classes(T)["old"].apply
    x = small_input(T)

    def run():
        y = x
        for _ in range(100):
            y = f(y)
        y.sum().backward()

    return run


both(bench("100 chained applies + backward"), chain_100)

# ---------------------------------------------------------------- small built-in ops

r = bench("x * 2 (3 elements, requires grad)")
both(r, lambda T: bound(lambda x: x * 2, small_input(T)))
r("numpy")(lambda np: bound(lambda x: x * 2, np.array([1.0, 2.0, 3.0], dtype=np.float32)))
# The other number forms on the same path (the number applied as a value, not a 0-d tensor).
for text, fn in (("x + 1", lambda x: x + 1), ("x ** 2", lambda x: x**2)):
    r = bench(f"{text} (3 elements, requires grad)")
    both(r, lambda T, fn=fn: bound(fn, small_input(T)))
    r("numpy")(lambda np, fn=fn: bound(fn, np.array([1.0, 2.0, 3.0], dtype=np.float32)))
both(
    bench("(x * 2).sum().backward()"),
    lambda T: bound(lambda x: (x * 2).sum().backward(), small_input(T)),
)

# ---------------------------------------------------------------- 10M-element float32

N = 10_000_000


def big_pair(T):
    if T.__name__ == "numpy":
        rng = T.random.default_rng(0)
        return rng.random(N, dtype=T.float32), rng.random(N, dtype=T.float32)
    return T.rand(N), T.rand(N)


def reg_all(name, make_t, make_np=None, unit="time"):
    r = bench(name, unit)
    both(r, make_t)
    if make_np:
        r("numpy")(make_np)


reg_all(
    "a * b, 10M float32 (fresh output)",
    lambda T: bound(lambda a, b: a * b, *big_pair(T)),
    lambda np: bound(lambda a, b: a * b, *big_pair(np)),
)


def mul_inplace(T):
    # b is all ones so repeated products stay normal numbers (denormals would distort timings).
    a = big_pair(T)[0]
    b = T.ones(N, dtype=T.float32)
    if T.__name__ == "numpy":
        return lambda: T.multiply(a, b, out=a)
    return lambda: a.mul_(b)


reg_all("a.mul_(b), 10M float32 (existing memory)", mul_inplace, mul_inplace)


def mul_into_out(T):
    # out= names a third buffer: the product is written straight into it (no fresh result to copy).
    a, b = big_pair(T)
    out = T.empty(N, dtype=T.float32)
    return lambda: T.multiply(a, b, out=out) if T.__name__ == "numpy" else T.mul(a, b, out=out)


reg_all("a * b into out=, 10M float32", mul_into_out, mul_into_out)
reg_all(
    "a.sum(), 10M float32",
    lambda T: bound(lambda a: a.sum(), big_pair(T)[0]),
    lambda np: bound(lambda a: a.sum(), big_pair(np)[0]),
)
reg_all(
    "a.exp(), 10M float32",
    lambda T: bound(lambda a: a.exp(), big_pair(T)[0]),
    lambda np: bound(np.exp, big_pair(np)[0]),
)
reg_all(
    "a.sigmoid(), 10M float32",
    lambda T: bound(lambda a: a.sigmoid(), big_pair(T)[0]),
    lambda np: bound(lambda a: 1 / (1 + np.exp(-a)), big_pair(np)[0]),
)
reg_all(
    "a.tanh(), 10M float32",
    lambda T: bound(lambda a: a.tanh(), big_pair(T)[0]),
    lambda np: bound(np.tanh, big_pair(np)[0]),
)


def mul_sum_backward(T):
    a, b = big_pair(T)
    a.requires_grad_()
    b.requires_grad_()

    def run():
        a.grad = None
        b.grad = None
        (a * b).sum().backward()

    return run


both(bench("(a * b).sum().backward(), 10M float32"), mul_sum_backward)


def copy_bandwidth(np):
    a = np.ones(N, dtype=np.float32)
    b = np.empty_like(a)
    return lambda: np.copyto(b, a)


bench("memcpy 10M float32 (bandwidth reference)")("numpy")(copy_bandwidth)

# ---------------------------------------------------------------- matmul


def matmul_rate(n):
    def make(T):
        if T.__name__ == "numpy":
            rng = T.random.default_rng(0)
            a, b = rng.random((n, n), dtype=T.float32), rng.random((n, n), dtype=T.float32)
        else:
            a, b = T.rand(n, n), T.rand(n, n)
        return lambda: a @ b

    return make


for n in (64, 256, 512, 1024):
    r = bench(f"matmul {n}x{n} float32")
    for fwname in ("engine", "torch", "numpy"):
        r(fwname)(matmul_rate(n))
    BENCHMARKS[-1].flops = 2 * n**3


def matmul_backward(T, n=256):
    a = T.rand(n, n, requires_grad=True)
    b = T.rand(n, n, requires_grad=True)

    def run():
        a.grad = None
        b.grad = None
        (a @ b).sum().backward()

    return run


both(bench("(a @ b).sum().backward() 256x256"), matmul_backward)


def conv2d_step(T):
    """conv2d 8x32x28x28 -> 64 channels, 3x3, padding 1: forward and backward."""
    T.manual_seed(0)
    x = T.randn(8, 32, 28, 28, requires_grad=True)
    w = T.randn(64, 32, 3, 3, requires_grad=True)
    b = T.randn(64, requires_grad=True)

    def run():
        x.grad = w.grad = b.grad = None
        T.nn.functional.conv2d(x, w, b, padding=1).sum().backward()

    return run


both(bench("conv2d 8x32x28x28 -> 64, 3x3, forward + backward"), conv2d_step)

# ---------------------------------------------------------------- MLP training step


def mlp_step(T, custom=False):
    T.manual_seed(0)
    w1 = (T.randn(784, 256) * 0.05).requires_grad_()
    b1 = T.zeros(256, requires_grad=True)
    w2 = (T.randn(256, 10) * 0.05).requires_grad_()
    b2 = T.zeros(10, requires_grad=True)
    x = T.randn(64, 784)
    labels = T.randint(0, 10, (64,))
    onehot = (labels.reshape(64, 1) == T.arange(10).reshape(1, 10)).float()
    params = [w1, b1, w2, b2]

    class Linear(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, w, b):
            ctx.save_for_backward(x, w)
            return x @ w + b

        @staticmethod
        def backward(ctx, g):
            x, w = ctx.saved_tensors
            return g @ w.t(), x.t() @ g, g.sum(0)

    linear = Linear.apply if custom else (lambda x, w, b: x @ w + b)

    def step():
        h = linear(x, w1, b1).relu()
        logits = linear(h, w2, b2)
        # cross-entropy through log-sum-exp with ops both frameworks share
        lse = logits.exp().sum(1, keepdim=True).log()
        loss = ((lse - logits) * onehot).sum() / 64
        for p in params:
            p.grad = None
        loss.backward()
        with T.no_grad():
            for p in params:
                p.sub_(p.grad * 0.1)

    return step


both(bench("MLP 784-256-10 step (built-in ops)"), mlp_step)
both(bench("MLP 784-256-10 step (custom Function linears)"), lambda T: mlp_step(T, custom=True))


def numpy_mlp(np):
    rng = np.random.default_rng(0)
    w1 = (rng.standard_normal((784, 256)) * 0.05).astype(np.float32)
    b1 = np.zeros(256, np.float32)
    w2 = (rng.standard_normal((256, 10)) * 0.05).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    x = rng.standard_normal((64, 784)).astype(np.float32)
    onehot = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 64)]

    def step():
        nonlocal w1, b1, w2, b2
        hp = x @ w1 + b1
        h = np.maximum(hp, 0)
        logits = h @ w2 + b2
        e = np.exp(logits)
        p = e / e.sum(1, keepdims=True)
        g = (p - onehot) / 64
        gw2, gb2 = h.T @ g, g.sum(0)
        gh = (g @ w2.T) * (hp > 0)
        gw1, gb1 = x.T @ gh, gh.sum(0)
        w1 -= 0.1 * gw1
        b1 -= 0.1 * gb1
        w2 -= 0.1 * gw2
        b2 -= 0.1 * gb2

    return step


BENCHMARKS[-2].impls["numpy"] = numpy_mlp

# ---------------------------------------------------------------- nn-level workloads


def linear_call(T):
    T.manual_seed(0)
    layer = T.nn.Linear(16, 16)
    x = T.randn(4, 16)
    return bound(layer, x)


both(bench("nn.Linear(16, 16) call, batch 4"), linear_call)


def activation_step(name):
    """A per-layer activation call, forward and backward, on a 64x256 float32 batch."""

    def make(T):
        T.manual_seed(0)
        x = T.randn(64, 256, requires_grad=True)
        g = T.ones(64, 256)
        fn = getattr(T.nn.functional, name)

        def run():
            fn(x).backward(g)

        return run

    return make


for _activation in ("gelu", "silu"):
    both(bench(f"F.{_activation} 64x256 fwd+bwd"), activation_step(_activation))


def cnn_step(T):
    T.manual_seed(0)
    nn = T.nn
    model = nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * 7 * 7, 10),
    )  # fmt: skip
    optimizer = T.optim.Adam(model.parameters(), lr=1e-3)
    x = T.randn(32, 1, 28, 28)
    y = T.randint(0, 10, (32,))

    def step():
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()

    return step


both(bench("small CNN training step (batch 32, Adam)"), cnn_step)


def adam_1m(T):
    T.manual_seed(0)
    params = [T.randn(100_000, requires_grad=True) for _ in range(10)]
    for p in params:
        p.grad = T.randn(100_000)
    optimizer = T.optim.Adam(params, lr=1e-3)
    return optimizer.step


both(bench("Adam step, 1M parameters in 10 tensors"), adam_1m)


# ---------------------------------------------------------------- whole-process metrics


def package_size_mb(mod):
    root = os.path.dirname(mod.__file__)
    total = 0
    for d, _, files in os.walk(root):
        for f in files:
            total += os.path.getsize(os.path.join(d, f))
    return total / 1e6


# Peak RSS from VmHWM: ru_maxrss would carry over the (large) benchmark parent's peak through
# fork+exec on Linux, while VmHWM belongs to the new process image alone.
RSS_CODE = """
import {name} as T
import workloads
step = workloads.mlp_step(T)
for _ in range(1000):
    step()
with open("/proc/self/status") as f:
    hwm = next(line for line in f if line.startswith("VmHWM:"))
print(int(hwm.split()[1]) / 1024)
"""


def process_metrics(fw, subprocess_seconds):
    import sys

    imp = {"name": "import time (fresh interpreter)", "unit": "time"}
    size = {"name": "installed package size", "unit": "MB"}
    rss = {"name": "peak RSS, 1000 MLP training steps", "unit": "MB"}
    here = os.path.dirname(os.path.abspath(__file__))
    env_path = os.pathsep.join(p for p in sys.path if p)
    for name in ("engine", "torch", "numpy"):
        if name not in fw:
            continue
        code = f"import time; t=time.perf_counter(); import {name}; print(time.perf_counter()-t)"
        imp[name] = subprocess_seconds(code)
        size[name] = package_size_mb(fw[name])
        if name != "numpy":
            import subprocess

            out = subprocess.run(
                [sys.executable, "-c", RSS_CODE.format(name=name)],
                capture_output=True,
                text=True,
                check=True,
                cwd=here,
                env={**os.environ, "PYTHONPATH": env_path},
            )
            rss[name] = float(out.stdout.strip().splitlines()[-1])
    return [imp, size, rss]


import workloads_linalg  # noqa: E402,F401 - registers the linear-algebra workloads
