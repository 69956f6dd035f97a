"""Matrix products and convolutions are deterministic for a given thread count (the same call gives
the same bits every time), and agree closely across thread counts: small products run on one BLAS
thread, large ones on engine.get_num_threads() threads (OpenBLAS may then order some sums
differently), convolutions split the batch among threads."""

import engine
import numpy as np


def _products():
    engine.manual_seed(0)
    shapes = [
        (64, 64, 64),
        (32, 1764, 144),
        (300, 300, 300),
    ]  # below and above the one-thread limit
    out = []
    for m, k, n in shapes:
        a, b = engine.randn(m, k), engine.randn(k, n)
        out.append(a @ b)
        out.append(a.t().contiguous().t() @ b)  # a transposed operand
    x = engine.randn(8, 8, 30, 30, requires_grad=True)
    w = engine.randn(16, 8, 3, 3, requires_grad=True)
    y = engine.nn.functional.conv2d(x, w, padding=1)
    gx, gw = engine.autograd.grad(y.square().sum(), [x, w])
    out += [y.detach(), gx, gw]
    return out


def test_products_are_deterministic_per_thread_count_and_close_across():
    before = engine.get_num_threads()
    try:
        results = {}
        for n in (1, 2, 1, 2):
            engine.set_num_threads(n)
            got = _products()
            if n in results:
                for r0, r in zip(results[n], got):
                    assert engine.equal(r0, r)
            results[n] = got
    finally:
        engine.set_num_threads(before)
    for r1, r2 in zip(results[1], results[2]):
        np.testing.assert_allclose(r1.numpy(), r2.numpy(), rtol=1e-4, atol=1e-3)
