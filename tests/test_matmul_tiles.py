"""Float32 products cut into tiles of C for OpenBLAS's small-matrix kernels (kernels/matmul.cpp,
direct_tiles): values against NumPy in float64 on both sides of each size rule and of each way the
threads share the tiles (whole rows, whole columns, the inner dimension in two halves), with transposed,
sliced, misaligned, batched and broadcast operands, out=, the bias accumulation of F.linear and the
gradients of an MLP layer; the same bits for every thread count. Each check runs with the tiles as
the machine chooses them, forced on (ENGINE_GEMM_TILES=1, so machines without the SkylakeX kernels
run the tiled path too) and turned off."""

import os
import subprocess
import sys

import engine
import numpy as np

# (M, K, N) on both sides of the rules: flat (M <= 128, N <= 256, K <= 800), shallow (K <= 64,
# M * N <= 2^19), small cube (all <= 256), transposed B (M * N <= 2^17, 32 <= K <= 976), tiles that
# do not divide C, OpenBLAS's own choice (at most 10^6 multiply-adds), and each largest operand:
# C (rows), A (rows, or the inner halves when A is transposed), B (the inner halves, or columns when
# B is transposed).
SHAPES = [
    (64, 784, 256),
    (128, 800, 256),
    (129, 800, 256),
    (64, 801, 256),
    (77, 700, 250),
    (784, 64, 256),
    (1000, 64, 600),
    (530, 5, 530),
    (256, 256, 256),
    (257, 256, 256),
    (100, 100, 100),
    (128, 800, 64),
    (200, 256, 32),
    (64, 976, 512),
    (64, 977, 512),
    (512, 512, 256),
    (513, 512, 256),
    (40, 31, 1000),
]
# Split by column blocks outside the tile rules: the kernel OpenBLAS takes for a block's edge
# columns depends on where the blocks end, so only each thread count gives the same bits every call.
SPLIT_SHAPES = [(3, 700, 1000)]


def _reference(a, b):
    return a.numpy().astype(np.float64) @ b.numpy().astype(np.float64)


def _close(got, want, k):
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4 * max(k, 1))


def _operand_cases(shapes):
    """Pairs (a, b) of float32 operands in the layouts the products meet."""
    engine.manual_seed(5)
    for m, k, n in shapes:
        a, b = engine.randn(m, k), engine.randn(k, n)
        yield a, b
        yield a.t().contiguous().t(), b  # a transposed A
        yield a, b.t().contiguous().t()  # a transposed B
        wide = engine.randn(m, k + 3)
        yield wide[:, 1 : 1 + k], b  # a row stride larger than the row
        b_wide = engine.randn(k, n + 17)
        yield a, b_wide[:, 1 : 1 + n]  # B off its 64-byte line
        yield a, b_wide[:, 16 : 16 + n]  # B on a line, a row stride that is not


def check_products(thread_counts=(1, 3)):
    before = engine.get_num_threads()
    try:
        first = None
        for threads in thread_counts:
            engine.set_num_threads(threads)
            got = []
            for a, b in _operand_cases(SHAPES):
                c = a @ b
                if first is None:  # later counts are compared bit for bit with this one
                    _close(c.numpy(), _reference(a, b), a.shape[1])
                got.append(c)
            for a, b in _operand_cases(SPLIT_SHAPES):
                c = a @ b
                _close(c.numpy(), _reference(a, b), a.shape[1])
                assert engine.equal(c, a @ b)
            if first is None:
                first = got
            else:  # tiles and blocks are fixed by the shape: the same bits on any thread count
                for c0, c in zip(first, got):
                    assert engine.equal(c0, c)
    finally:
        engine.set_num_threads(before)


def check_out_batched_and_broadcast():
    engine.manual_seed(6)
    a, b = engine.randn(64, 784), engine.randn(784, 256)
    out = engine.empty(64, 256)
    engine.matmul(a, b, out=out)
    _close(out.numpy(), _reference(a, b), 784)
    batch_a, batch_b = engine.randn(3, 64, 300), engine.randn(3, 300, 256)
    want = batch_a.numpy().astype(np.float64) @ batch_b.numpy().astype(np.float64)
    _close(engine.bmm(batch_a, batch_b).numpy(), want, 300)
    _close(
        (batch_a @ b[:300]).numpy(),
        batch_a.numpy().astype(np.float64) @ b[:300].numpy().astype(np.float64),
        300,
    )


def check_linear_and_gradients():
    """F.linear adds the tiled product onto the bias rows; an MLP layer's gradients (x.t() @ g for
    the weight, g @ w.t() for the input) against the same formulas in float64."""
    engine.manual_seed(7)
    x = engine.randn(64, 784, requires_grad=True)
    w = (engine.randn(784, 256) * 0.05).requires_grad_()
    b = engine.randn(256, requires_grad=True)
    g = engine.randn(64, 256)
    y = x @ w + b
    y.backward(g)
    x64, w64, g64 = (t.detach().numpy().astype(np.float64) for t in (x, w, g))
    _close(y.detach().numpy(), x64 @ w64 + b.detach().numpy(), 784)
    _close(w.grad.numpy(), x64.T @ g64, 64)
    _close(x.grad.numpy(), g64 @ w64.T, 256)
    _close(b.grad.numpy(), g64.sum(0), 64)
    wt = engine.randn(256, 784)
    lin = engine.nn.functional.linear(x.detach(), wt, b.detach())
    _close(lin.numpy(), x64 @ wt.numpy().astype(np.float64).T + b.detach().numpy(), 784)


def test_tiled_products_with_the_default_choice():
    check_products()
    check_out_batched_and_broadcast()
    check_linear_and_gradients()


def _run_with(setting):
    here = os.path.dirname(os.path.abspath(__file__))
    code = (
        f"import sys; sys.path.insert(0, {here!r}); import test_matmul_tiles as t; "
        "t.check_products((1, 2)); t.check_out_batched_and_broadcast(); t.check_linear_and_gradients()"
    )
    env = dict(os.environ, ENGINE_GEMM_TILES=setting)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]


def test_tiled_products_forced_on():
    _run_with("1")


def test_products_with_tiles_turned_off():
    _run_with("0")
