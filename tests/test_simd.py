"""The vectorised loops: exp/log/tanh/sigmoid within ~2 ulp of NumPy float64 over their whole
float32 range (specials included), every accelerated op on the edge sizes and layouts (0, 1, N-1,
N, N+1, 3N+1, offset, strided, broadcast), and the op suite again under each copy the machine can
run, forced with ENGINE_SIMD=scalar|avx2|avx512 in a subprocess."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import engine
import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parent


def arr(t):
    return np.array(t.tolist(), dtype=np.float64)


def max_ulp(got, ref):
    with np.errstate(over="ignore"):
        ref32 = ref.astype(np.float32)
    spacing = np.maximum(np.spacing(np.abs(ref32)).astype(np.float64), 2.0**-149)
    ok = np.isfinite(ref) & np.isfinite(ref32)
    return float(np.max(np.abs(got[ok] - ref[ok]) / spacing[ok]))


SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, 1e-45, 1e-40, 3.4e38, -3.4e38]


def _domain(name, rng):
    if name == "exp":
        xs = [rng.uniform(-104, 89, 100000), rng.uniform(-1, 1, 20000)]
    elif name == "log":
        xs = [np.exp(rng.uniform(-103, 88, 100000)), rng.uniform(0.5, 2, 20000), -rng.random(100)]
    elif name == "tanh":
        xs = [rng.uniform(-12, 12, 100000), rng.uniform(-0.7, 0.7, 20000)]
    else:
        xs = [rng.uniform(-110, 110, 100000), rng.uniform(-6, 6, 20000)]
    return np.concatenate(xs + [np.array(SPECIALS)]).astype(np.float32)


def _sigmoid(x):
    e = np.exp(-np.abs(x))
    return np.where(x < 0, e / (1 + e), 1 / (1 + e))


REFS = {"exp": np.exp, "log": np.log, "tanh": np.tanh, "sigmoid": _sigmoid}


@pytest.mark.parametrize("name", list(REFS))
def test_transcendental_within_two_ulp(name):
    x = _domain(name, np.random.default_rng(0))
    got = arr(getattr(engine.tensor(x), name)())
    with np.errstate(all="ignore"):
        ref = REFS[name](x.astype(np.float64))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    inf = np.isinf(ref)
    np.testing.assert_array_equal(got[inf], ref[inf])
    assert max_ulp(got, ref) <= 2.5


BINARY = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
    "maximum": np.maximum,
    "minimum": np.minimum,
}
UNARY = {
    "neg": np.negative,
    "relu": lambda x: np.maximum(x, 0),
    "abs": np.abs,
    "exp": np.exp,
    "log": np.log,
    "tanh": np.tanh,
    "sigmoid": REFS["sigmoid"],
}
SIZES = [0, 1, 3, 4, 7, 8, 9, 16, 25, 33]


def layouts(n, rng, dtype):
    base = rng.uniform(0.5, 2.0, size=(3, n + 1))
    full = engine.tensor(base, dtype=dtype)
    yield "contiguous", engine.tensor(base[1, :n], dtype=dtype), base[1, :n]
    yield "offset", full.select(0, 2), base[2]  # starts n + 1 elements into its storage
    t = engine.tensor(base.T.copy(), dtype=dtype).t()  # rows of a transposed matrix: strided
    yield "strided", t.select(0, 1), base[1]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", SIZES)
def test_accelerated_ops_on_edge_sizes_and_layouts(dtype, n):
    rng = np.random.default_rng(n)
    dt = getattr(engine, dtype)
    tol = 3e-7 if dtype == "float32" else 1e-15
    for label, t, v in layouts(n, rng, dt):
        v = v.astype(np.float32).astype(np.float64) if dtype == "float32" else v
        other = rng.uniform(0.5, 2.0, size=v.shape)
        o = other.astype(np.float32).astype(np.float64) if dtype == "float32" else other
        eo = engine.tensor(other, dtype=dt)
        for name, ref in BINARY.items():
            for lhs, rhs, rl, rr in [(t, eo, v, o), (t, 1.5, v, 1.5), (1.5, t, 1.5, v)]:
                fn = getattr(engine, name)
                if not hasattr(lhs, "dtype") and name in ("maximum", "minimum"):
                    continue
                if name in ("maximum", "minimum") and not hasattr(rhs, "dtype"):
                    continue
                got = (
                    arr(fn(lhs, rhs))
                    if hasattr(lhs, "dtype")
                    else arr(fn(engine.tensor(lhs, dtype=dt), rhs))
                )
                np.testing.assert_allclose(
                    got, ref(rl, rr), rtol=tol, atol=0, err_msg=f"{name} {label}"
                )
        for name, ref in UNARY.items():
            if dtype == "float64" and name in ("exp", "log", "tanh", "sigmoid"):
                tol_u = 1e-15
            else:
                tol_u = 4e-7 if dtype == "float32" else 1e-15
            got = arr(getattr(t, name)())
            np.testing.assert_allclose(
                got, ref(v), rtol=tol_u, atol=1e-300, err_msg=f"{name} {label}"
            )


# Outputs whose runs reach 4 MiB (on two threads too) are written with streaming stores after a
# head of plain ones up to vector alignment; an output that is also an input keeps plain stores.
LARGE = {"float32": 2**21 + 70_001, "float64": 2**20 + 35_001}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("threads", [1, 2])
def test_large_outputs_match_small_runs_and_numpy(dtype, threads):
    n = LARGE[dtype]
    rng = np.random.default_rng(threads)
    dt, npdt = getattr(engine, dtype), getattr(np, dtype)
    base_a = rng.uniform(0.5, 2.0, n + 3).astype(npdt)
    base_b = rng.uniform(0.5, 2.0, n + 3).astype(npdt)
    old = engine.get_num_threads()
    engine.set_num_threads(threads)
    try:
        # offset by 3 elements: the output's storage is fresh and aligned, the inputs are not
        a, b = engine.tensor(base_a)[3:], engine.tensor(base_b)[3:]
        va, vb = base_a[3:], base_b[3:]
        np.testing.assert_array_equal((a * b).numpy(), va * vb)
        np.testing.assert_array_equal((a * 1.5).numpy(), va * npdt(1.5))
        np.testing.assert_array_equal((1.5 - a).numpy(), npdt(1.5) - va)
        np.testing.assert_array_equal(engine.maximum(a, b).numpy(), np.maximum(va, vb))
        out = engine.empty(n + 5, dtype=dt)[5:]  # an output that starts off vector alignment
        engine.mul(a, b, out=out)
        np.testing.assert_array_equal(out.numpy(), va * vb)
        # The same bits as the plain stores of runs too short to stream.
        for name in ("exp", "tanh", "neg"):
            big = getattr(a, name)().numpy()
            pieces = [getattr(a[i : i + 4096], name)().numpy() for i in range(0, 40960, 4096)]
            np.testing.assert_array_equal(big[:40960], np.concatenate(pieces), err_msg=name)
            np.testing.assert_array_equal(big[-100:], getattr(a[-100:], name)().numpy())
        # In place: the output is an input.
        c = a.clone()
        c.mul_(b)
        np.testing.assert_array_equal(c.numpy(), va * vb)
        c.exp_()
        np.testing.assert_array_equal(c.numpy()[-100:], (a[-100:] * b[-100:]).exp().numpy())
    finally:
        engine.set_num_threads(old)


def test_max_min_propagate_nan_and_relu_keeps_nan():
    x = engine.tensor([np.nan, 1.0, 2.0, np.nan, 0.0, -1.0, 5.0, 6.0, np.nan])
    y = engine.tensor([0.0, np.nan, 3.0, np.nan, 1.0, -2.0, 4.0, 7.0, 1.0])
    for fn, ref in [(engine.maximum, np.maximum), (engine.minimum, np.minimum)]:
        np.testing.assert_array_equal(arr(fn(x, y)), ref(arr(x), arr(y)))
    np.testing.assert_array_equal(arr(x.relu()), np.where(arr(x) < 0, 0, arr(x)))


def _cpu_flags():
    try:
        text = pathlib.Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


CPU_FLAGS = _cpu_flags()
# What each forced level needs from the CPU (the OS must also save its registers: Linux lists a
# flag in /proc/cpuinfo only when it does).
NEEDS = {
    "baseline": set(),
    "avx2": {"avx2", "fma"},
    "avx512": {"avx512f", "avx512bw", "avx512dq", "avx512vl"},
}
LEVELS = {"scalar": "baseline", "avx2": "avx2", "avx512": "avx512"}


def _level_under(value):
    env = {**os.environ, "ENGINE_SIMD": value}
    code = "import engine; print(engine._C._simd_level())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def _runnable(level):
    if not NEEDS[level]:
        return
    if not CPU_FLAGS:
        pytest.skip("no /proc/cpuinfo to tell what this CPU runs")
    if not NEEDS[level] <= CPU_FLAGS:
        pytest.skip(f"this CPU lacks {level}")


def test_simd_level_is_reported():
    assert engine._C._simd_level() in ("avx512", "avx2", "baseline")


@pytest.mark.parametrize("value", ["scalar", "avx2", "avx512"])
def test_engine_simd_forces_each_level(value):
    _runnable(LEVELS[value])
    assert _level_under(value) == LEVELS[value]


def test_unrunnable_or_unknown_engine_simd_falls_back_to_a_runnable_copy():
    best = _level_under("avx512")  # a cap, never a promise: no illegal instruction on older CPUs
    assert best in ("avx512", "avx2", "baseline")
    assert NEEDS[best] <= CPU_FLAGS or not CPU_FLAGS
    assert _level_under("no-such-level") == best


def test_sums_are_bitwise_equal_across_copies():
    # Every copy assigns elements to accumulators in the same order, so the sums agree bit for bit.
    code = (
        "import engine, numpy as np\n"
        "x = np.random.default_rng(0).standard_normal(3 * 4096 + 77)\n"
        "print(engine.tensor(x, dtype=engine.float32).sum().item().hex(),"
        " engine.tensor(x).sum().item().hex())"
    )
    results = set()
    for value in ("scalar", "avx2", "avx512"):
        env = {**os.environ, "ENGINE_SIMD": value}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        results.add(out.stdout.strip())
    assert len(results) == 1, results


# The copies the machine runs, each forced in a subprocess that runs the op suite (forward values
# against NumPy) and this file's edge-size and accuracy tests.
SUITES = {
    "scalar": ("test_simd.py", "test_ops.py", "test_fast_paths.py"),
    "avx2": ("test_simd.py", "test_ops.py"),
    "avx512": ("test_simd.py", "test_ops.py"),
}


@pytest.mark.skipif("ENGINE_SIMD" in os.environ, reason="already under a forced copy")
@pytest.mark.parametrize("value", list(SUITES))
def test_op_suite_under_each_forced_copy(value):
    level = LEVELS[value]
    _runnable(level)
    env = {**os.environ, "ENGINE_SIMD": value}
    code = f"import engine, sys; sys.exit(engine._C._simd_level() != {level!r})"
    assert subprocess.run([sys.executable, "-c", code], env=env).returncode == 0
    files = [str(ROOT / f) for f in SUITES[value]]
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *files],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT.parent,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
