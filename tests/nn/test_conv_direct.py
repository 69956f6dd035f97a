"""float32 convolutions with unit strides in one and two dims, which run on the direct kernel
where the CPU has AVX-512 or AVX2 (no column matrix): output, input, weight and bias gradients
against the float64 im2col path and a NumPy reference, across odd shapes, channel counts that fill
no register block, groups, dilation, batch 1 and an empty batch; the same results on every run and
thread count; this file again under the AVX2 copy (ENGINE_SIMD=avx2), the same bits from both
copies, and the portable path (ENGINE_SIMD=scalar) in subprocesses; PyTorch when it imports."""

import json
import os
import subprocess
import sys

import engine
import engine.nn.functional as F
import numpy as np
import pytest
from test_conv_batched_threads import reference

FUNCS = {1: F.conv1d, 2: F.conv2d}

CASES = [
    # (input shape, out channels, kernel, padding, dilation, groups)
    ((8, 32, 28, 28), 64, 3, 1, 1, 1),  # the benchmark's layer
    ((2, 4, 16, 10), 9, 3, 1, 1, 1),  # one output channel past a register block
    ((1, 17, 9, 33), 19, (3, 5), (1, 2), 1, 1),  # batch 1, rectangular kernel, odd channels
    ((3, 32, 12, 12), 16, 3, 1, 1, 2),  # groups
    ((2, 5, 16, 15), 9, 3, 2, 2, 1),  # dilation
    ((2, 5, 20, 19), 9, 3, 0, 1, 1),  # no padding: the output narrower than the input
    ((2, 5, 40, 10), 33, (5, 3), (2, 1), 1, 1),  # output channels past a multiple of 16
    ((2, 24, 90), 16, 5, 2, 1, 2),  # conv1d with groups
    ((2, 20, 20, 20), 8, 7, 3, 1, 1),  # a large kernel
    ((4, 16, 14, 14), 32, 3, 1, 1, 1),  # the small CNN's second layer
    ((3, 40, 14, 14), 24, 2, 1, 1, 1),  # even kernel, output larger than the input
    # the im2col path: few products per output, 1x1, few output channels, a small plane
    ((2, 3, 5, 7), 5, 3, 1, 1, 1),
    ((2, 5, 12, 11), 33, 1, 0, 1, 1),
    ((1, 1, 28, 28), 16, 3, 1, 1, 1),
    ((2, 20, 8, 8), 3, 7, 3, 1, 1),
]


def run_case(case, dtype, threads=None, seed=0):
    shape, o, k, p, d, groups = case
    nd = len(shape) - 2
    k, p, d = ((v,) * nd if isinstance(v, int) else v for v in (k, p, d))
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    w = rng.standard_normal((o, shape[1] // groups) + k)
    b = rng.standard_normal(o)
    old = engine.get_num_threads()
    if threads:
        engine.set_num_threads(threads)
    try:
        xt, wt, bt = (engine.tensor(a, dtype=dtype, requires_grad=True) for a in (x, w, b))
        yt = FUNCS[nd](xt, wt, bt, 1, p, d, groups)
        g = rng.standard_normal(tuple(yt.shape))
        yt.backward(engine.tensor(g, dtype=dtype))
    finally:
        engine.set_num_threads(old)
    got = [t.numpy() for t in (yt.detach(), xt.grad, wt.grad, bt.grad)]
    return got, (x, w, b, g, (1,) * nd, p, d, groups)


def assert_close32(got, want):
    for a, r in zip(got, want):
        scale = max(1.0, float(np.abs(r).max(initial=0.0)))
        np.testing.assert_allclose(a, r, rtol=0, atol=2e-5 * scale)


@pytest.mark.parametrize("case", CASES)
def test_float32_matches_float64_and_reference(case):
    got32, args = run_case(case, engine.float32)
    got64, _ = run_case(case, engine.float64)
    assert all(a.dtype == np.float32 for a in got32)
    assert_close32(got32, got64)
    if np.prod(case[0]) <= 20_000:
        assert_close32(got32, reference(*args))


@pytest.mark.parametrize("out_channels", [7, 8, 9, 15, 16, 17, 23, 24, 25, 65])
@pytest.mark.parametrize("width", [10, 11, 22, 23, 46, 47])
@pytest.mark.parametrize("in_channels", [12, 13])
def test_register_block_edges(out_channels, width, in_channels):
    # Blocks of 8 output channels and 48 flat positions (2 rows of width + 2) in the AVX-512
    # forward pass, of 6 kernel rows (3 per input channel) and 64 channels in its weight
    # gradient's; the AVX2 copy's blocks of 4 channels and 24 positions, of 4 kernel rows and 24
    # channels: counts just below, at and above each edge.
    case = ((2, in_channels, 2, width), out_channels, (1, 3), (0, 1), 1, 1)
    got32, args = run_case(case, engine.float32, seed=out_channels * 100 + width)
    assert_close32(got32, reference(*args))


def test_empty_batch():
    x = engine.zeros(0, 4, 6, 6, requires_grad=True)
    w = engine.randn(8, 4, 3, 3, requires_grad=True)
    y = F.conv2d(x, w, padding=1)
    assert tuple(y.shape) == (0, 8, 6, 6)
    y.sum().backward()
    assert tuple(x.grad.shape) == (0, 4, 6, 6)
    assert np.array_equal(w.grad.numpy(), np.zeros((8, 4, 3, 3), np.float32))


@pytest.mark.parametrize("case", [CASES[0], CASES[2], CASES[3], CASES[7]])
def test_same_bits_on_every_run_and_thread_count(case):
    runs = {
        threads: [run_case(case, engine.float32, threads)[0][:3] for _ in range(2)]
        for threads in (1, 2)
    }
    # The im2col path sums per-thread partial weight gradients: the same bits for a thread count.
    pairs = [(runs[1][0], runs[1][1]), (runs[2][0], runs[2][1])]
    if engine._C._simd_level() in (
        "avx512",
        "avx2",
    ):  # the direct kernel: one order whatever the threads
        pairs.append((runs[1][0], runs[2][0]))
    for one, other in pairs:
        for a, b in zip(one, other):
            assert np.array_equal(a, b)


def test_non_contiguous_inputs():
    rng = np.random.default_rng(3)
    x = engine.tensor(rng.standard_normal((6, 28, 26, 12)), dtype=engine.float32).permute(
        0, 3, 1, 2
    )
    w = engine.tensor(rng.standard_normal((3, 3, 12, 20)), dtype=engine.float32).permute(3, 2, 0, 1)
    y = F.conv2d(x, w, padding=1)
    want = F.conv2d(x.double().contiguous(), w.double().contiguous(), padding=1)
    assert_close32([y.numpy()], [want.numpy()])


# The same convolutions under a forced copy of the kernels (ENGINE_SIMD caps the instruction set):
# avx2 runs the direct kernel's AVX2 copy, scalar turns the direct kernel off (im2col + GEMM).
_SUBPROCESS = """
import json, sys
import numpy as np
sys.path.insert(0, {here!r})
import engine
from test_conv_direct import CASES, run_case
print(engine._C._simd_level())
print(json.dumps([[a.tolist() for a in run_case(c, engine.float32)[0]] for c in CASES]))
"""

HERE = os.path.dirname(os.path.abspath(__file__))


def _run_forced(value):
    done = subprocess.run(
        [sys.executable, "-c", _SUBPROCESS.format(here=HERE)],
        env=dict(os.environ, ENGINE_SIMD=value),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    level, results = done.stdout.splitlines()
    return level, [[np.array(a, dtype=np.float32) for a in case] for case in json.loads(results)]


@pytest.mark.parametrize("value", ["avx2", "scalar"])
def test_forced_copies_agree(value):
    _, forced = _run_forced(value)
    for case, other in zip(CASES, forced):
        got, _ = run_case(case, engine.float32)
        assert_close32(got, other)


def test_avx2_and_avx512_copies_give_the_same_bits():
    # Each output and weight-gradient element is one chain of multiply-adds over the same terms
    # in the same order in both copies: only the register blocking differs.
    if engine._C._simd_level() != "avx512":
        pytest.skip("the CPU runs no AVX-512 copy")
    level, forced = _run_forced("avx2")
    assert level == "avx2"
    for case, other in zip(CASES, forced):
        got, _ = run_case(case, engine.float32)
        for a, b in zip(got, other):
            assert np.array_equal(a, b)


@pytest.mark.skipif("ENGINE_SIMD" in os.environ, reason="already under a forced copy")
def test_this_file_under_the_avx2_copy():
    # Every test above (values against NumPy float64, register-block edges, thread counts) with
    # the AVX2 copy forced, where the CPU runs it.
    env = dict(os.environ, ENGINE_SIMD="avx2")
    level = subprocess.run(
        [sys.executable, "-c", "import engine; print(engine._C._simd_level())"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if level != "avx2":
        pytest.skip("the CPU runs no AVX2 copy")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
            os.path.abspath(__file__),
        ],
        env=env,
        capture_output=True,
        text=True,
        cwd=os.path.dirname(os.path.dirname(HERE)),
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


@pytest.mark.parametrize("case", [CASES[0], CASES[2], CASES[3], CASES[8]])
def test_matches_pytorch(case):
    torch = pytest.importorskip("torch")
    got, (x, w, b, g, s, p, d, groups) = run_case(case, engine.float32)
    xt, wt, bt = (torch.tensor(a, dtype=torch.float32, requires_grad=True) for a in (x, w, b))
    conv = torch.nn.functional.conv1d if x.ndim == 3 else torch.nn.functional.conv2d
    y = conv(xt, wt, bt, s, p, d, groups)
    y.backward(torch.tensor(g, dtype=torch.float32))
    assert_close32(got, [t.detach().numpy() for t in (y, xt.grad, wt.grad, bt.grad)])


@pytest.mark.parametrize("groups", [1, 2])
def test_transposed_convolution_gradients(groups):
    # With unit strides the transposed convolution's input gradient is a plain convolution and its
    # weight gradient the plain one's with the roles swapped: both reach the direct kernel.
    rng = np.random.default_rng(groups)
    x64, w64 = rng.standard_normal((3, 32, 12, 13)), rng.standard_normal((32, 16 // groups, 3, 3))
    results = []
    for dtype in (engine.float32, engine.float64):
        x = engine.tensor(x64, dtype=dtype, requires_grad=True)
        w = engine.tensor(w64, dtype=dtype, requires_grad=True)
        y = F.conv_transpose2d(x, w, padding=1, groups=groups)
        y.backward(engine.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)), dtype=dtype))
        results.append([t.numpy() for t in (y.detach(), x.grad, w.grad)])
    assert_close32(*results)
