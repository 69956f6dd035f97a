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


def _split_cases():
    """Products large enough to be split between threads (from 2^20 multiply-adds): by rows (M >= N)
    and by columns, with lengths that are not multiples of the 16-wide blocks, transposed and
    sliced operands."""
    engine.manual_seed(1)
    cases = []
    for m, k, n in [(301, 97, 45), (45, 97, 301), (17, 2000, 33), (530, 4, 530)]:
        for dtype in (engine.float32, engine.float64):
            a = engine.randn(m, k, dtype=dtype)
            b = engine.randn(k, n, dtype=dtype)
            cases.append((a, b))
            cases.append((a.t().contiguous().t(), b.t().contiguous().t()))  # both transposed
            wide_a = engine.randn(m, k + 5, dtype=dtype)
            cases.append((wide_a[:, 2 : 2 + k], b))  # a row stride larger than the row
    return cases


def test_split_products_match_numpy_for_every_thread_count():
    before = engine.get_num_threads()
    try:
        for threads in (1, 2, 3):
            engine.set_num_threads(threads)
            for a, b in _split_cases():
                got = (a @ b).numpy()
                want = a.numpy().astype(np.float64) @ b.numpy().astype(np.float64)
                tol = 1e-4 if a.dtype == engine.float32 else 1e-12
                np.testing.assert_allclose(got, want, rtol=tol, atol=tol * a.shape[1])
                assert engine.equal(a @ b, a @ b)  # the same blocks every call
    finally:
        engine.set_num_threads(before)


def test_linear_adds_the_product_onto_the_bias_rows():
    engine.manual_seed(2)
    before = engine.get_num_threads()
    try:
        for threads in (1, 2):
            engine.set_num_threads(threads)
            for dtype in (engine.float32, engine.float64):
                for m, k, n in [(64, 784, 256), (5, 0, 7), (300, 40, 3)]:
                    x = engine.randn(m, k, dtype=dtype)
                    w = engine.randn(n, k, dtype=dtype)
                    b = engine.randn(n, dtype=dtype)
                    got = engine.nn.functional.linear(x, w, b).numpy()
                    want = x.numpy().astype(np.float64) @ w.numpy().astype(np.float64).T + b.numpy()
                    tol = 1e-4 if dtype == engine.float32 else 1e-12
                    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(k, 1))
    finally:
        engine.set_num_threads(before)


def test_products_from_concurrent_python_threads_match_a_lone_call():
    import threading

    engine.manual_seed(3)
    before = engine.get_num_threads()
    try:
        engine.set_num_threads(2)
        a, b = engine.randn(300, 200), engine.randn(200, 310)
        want = a @ b
        mismatches = []

        def work():
            for _ in range(5):
                if not engine.equal(a @ b, want):
                    mismatches.append(1)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not mismatches
    finally:
        engine.set_num_threads(before)
