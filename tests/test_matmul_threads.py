"""Matrix products give the same bits whatever the thread count: small products run on one BLAS
thread, large ones on engine.get_num_threads() threads, and the choice must not show in results."""

import engine


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
    x = engine.randn(4, 8, 30, 30)
    w = engine.randn(16, 8, 3, 3)
    out.append(engine.nn.functional.conv2d(x, w, padding=1))
    return out


def test_products_do_not_depend_on_the_thread_count():
    before = engine.get_num_threads()
    try:
        results = []
        for n in (1, 2, 1):
            engine.set_num_threads(n)
            results.append(_products())
    finally:
        engine.set_num_threads(before)
    for other in results[1:]:
        for r0, r in zip(results[0], other):
            assert engine.equal(r0, r)
