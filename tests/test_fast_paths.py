"""The performance machinery checked for correctness: the caching allocator never hands out memory
a live tensor uses, threaded kernels give the single-threaded answer, in-place kernels that write
straight into their operand agree with the out-of-place ones (also when operands share memory),
and large kernels that run without the interpreter lock work from several Python threads."""

from __future__ import annotations

import threading

import engine
import numpy as np
import pytest

BIG = 1 << 18  # above the thresholds for caching, threading and releasing the lock


def arr(t):
    return np.array(t.tolist())


@pytest.fixture
def threads():
    before = engine.get_num_threads()
    yield
    engine.set_num_threads(before)


def test_allocator_reuses_freed_blocks_without_aliasing_live_tensors():
    live = []
    for i in range(12):
        t = engine.full((BIG,), float(i))
        live.append(t)
        if i % 3 == 0:
            live.pop(0)  # frees a block that later allocations may reuse
    ptrs = [t.data_ptr() for t in live]
    assert len(set(ptrs)) == len(ptrs)
    for t in live:
        v = t.tolist()[0]
        assert (arr(t) == v).all()


def test_allocator_cache_is_used_and_can_be_released():
    engine._C._release_cached_buffers()
    a = engine.empty(BIG)
    p = a.data_ptr()
    del a
    assert engine._C._cached_bytes() >= BIG * 4
    b = engine.empty(BIG)
    assert b.data_ptr() == p  # the same block, now owned by b alone
    c = engine.empty(BIG)
    assert c.data_ptr() != b.data_ptr()
    del b, c
    engine._C._release_cached_buffers()
    assert engine._C._cached_bytes() == 0


def test_fresh_output_from_cache_never_aliases_an_input():
    x = engine.rand(BIG)
    for _ in range(3):
        y = x * 2
        z = y + x
        assert len({x.data_ptr(), y.data_ptr(), z.data_ptr()}) == 3
        np.testing.assert_allclose(arr(z), arr(x) * 3, rtol=1e-6)


LAYOUTS = ["contiguous", "transposed", "broadcast", "odd"]


def operands(layout, rng):
    if layout == "contiguous":
        a, b = rng.random(BIG + 3), rng.random(BIG + 3)
        return engine.tensor(a, dtype=engine.float32), engine.tensor(b, dtype=engine.float32), a, b
    if layout == "transposed":
        a, b = rng.random((515, 509)), rng.random((509, 515))
        ea = engine.tensor(a, dtype=engine.float32)
        eb = engine.tensor(b, dtype=engine.float32).t()
        return ea, eb, a, b.T
    if layout == "broadcast":
        a, b = rng.random((600, 1)), rng.random((1, 701))
        return engine.tensor(a, dtype=engine.float32), engine.tensor(b, dtype=engine.float32), a, b
    a, b = rng.random((3, 257, 341)), rng.random((341,))
    ea = engine.tensor(a, dtype=engine.float32).permute((2, 0, 1)).permute((1, 2, 0))
    return ea, engine.tensor(b, dtype=engine.float32), a, b


@pytest.mark.parametrize("layout", LAYOUTS)
def test_threaded_elementwise_equals_single_thread_and_numpy(layout, threads):
    rng = np.random.default_rng(7)
    ea, eb, a, b = operands(layout, rng)
    results = {}
    for n in (1, 2, 3):
        engine.set_num_threads(n)
        results[n] = [
            arr(ea * eb),
            arr(ea + eb),
            arr((ea * eb + 1).log()),
            arr((ea * eb).exp()),
            arr((ea - eb).tanh()),
        ]
    for n in (2, 3):
        for r1, rn in zip(results[1], results[n]):
            np.testing.assert_array_equal(r1, rn)
    a32, b32 = a.astype(np.float32).astype(np.float64), b.astype(np.float32).astype(np.float64)
    np.testing.assert_allclose(results[1][0], a32 * b32, rtol=1e-6)
    np.testing.assert_allclose(results[1][2], np.log(a32 * b32 + 1), rtol=2e-6, atol=2e-7)
    np.testing.assert_allclose(results[1][3], np.exp(a32 * b32), rtol=2e-6)
    np.testing.assert_allclose(results[1][4], np.tanh(a32 - b32), rtol=2e-6, atol=1e-7)


def test_threaded_sum_is_deterministic(threads):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(BIG * 4 + 17)
    t = engine.tensor(a, dtype=engine.float32)
    sums = []
    for n in (1, 2, 4):
        engine.set_num_threads(n)
        sums.append(t.sum().item())
    assert sums[0] == sums[1] == sums[2]
    np.testing.assert_allclose(sums[0], a.astype(np.float32).astype(np.float64).sum(), rtol=1e-6)


def test_set_num_threads_rejects_zero():
    with pytest.raises(ValueError):
        engine.set_num_threads(0)


@pytest.mark.parametrize("op", ["add_", "sub_", "mul_", "div_"])
def test_inplace_direct_path_matches_out_of_place(op):
    rng = np.random.default_rng(11)
    a, b = rng.random((512, 513)) + 0.5, rng.random((513,)) + 0.5
    ea = engine.tensor(a, dtype=engine.float32)
    eb = engine.tensor(b, dtype=engine.float32)
    ref = arr(getattr(ea, op[:-1])(eb))
    v = ea._version
    out = getattr(ea, op)(eb)
    assert out is ea and ea._version > v
    np.testing.assert_array_equal(arr(ea), ref)


def test_inplace_with_partially_overlapping_operand_is_refused_as_pytorch():
    # The same memory in another order: PyTorch refuses rather than read half-written elements.
    rng = np.random.default_rng(5)
    a = rng.random((600, 600))
    x = engine.tensor(a, dtype=engine.float32)
    with pytest.raises(
        RuntimeError, match="^unsupported operation: some elements of the input tensor"
    ):
        x.mul_(x.t())
    np.testing.assert_array_equal(arr(x), a.astype(np.float32))  # untouched
    y = engine.tensor(a, dtype=engine.float32)
    y.add_(y)  # exactly the same elements: allowed
    a32 = a.astype(np.float32)
    np.testing.assert_allclose(arr(y), 2 * a32.astype(np.float64), rtol=1e-6)


def test_inplace_integer_self_with_float_operand_still_errors():
    x = engine.zeros(BIG, dtype=engine.int64)
    with pytest.raises(RuntimeError):
        x.mul_(1.5)


def test_large_kernels_from_several_python_threads():
    rng = np.random.default_rng(9)
    a = rng.random(BIG * 2)
    t = engine.tensor(a, dtype=engine.float32)
    expected = arr(t * t + t)
    errors = []

    def worker():
        try:
            for _ in range(5):
                np.testing.assert_array_equal(arr(t * t + t), expected)
                assert abs(t.sum().item() - a.sum()) < 1e-3 * a.size
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=worker) for _ in range(4)]
    for th in ts:
        th.start()
    for th in ts:
        th.join()
    assert not errors


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize(
    "shape", [(1, 1, 1), (3, 0, 2), (0, 4, 5), (2, 3, 0), (7, 5, 9), (64, 33, 70), (130, 257, 65)]
)
def test_matmul_layouts_match_numpy(dtype, shape):
    """Row-major, transposed, sliced-with-stride and expanded operands, through BLAS or the kernel."""
    m, k, n = shape
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    dt = getattr(engine, dtype)
    a = rng.integers(-3, 4, (m, k)).astype(np.float64)
    b = rng.integers(-3, 4, (k, n)).astype(np.float64)
    ref = a @ b
    ea, eb = engine.tensor(a, dtype=dt), engine.tensor(b, dtype=dt)
    eat, ebt = engine.tensor(a.T.copy(), dtype=dt).t(), engine.tensor(b.T.copy(), dtype=dt).t()
    for x, y in [(ea, eb), (eat, eb), (ea, ebt), (eat, ebt)]:
        np.testing.assert_array_equal(arr(x @ y).reshape(m, n), ref)
    wide = engine.tensor(np.concatenate([a, a], axis=1), dtype=dt)  # rows with a longer stride
    if k:
        sub = wide.t().reshape(2, k, m).select(0, 0).t() if m else None
        if sub is not None:
            np.testing.assert_array_equal(arr(sub @ eb).reshape(m, n), ref)
    if k and n:
        col = engine.tensor(b[:, :1], dtype=dt).expand(k, n)
        np.testing.assert_array_equal(
            arr(ea @ col).reshape(m, n), a @ np.repeat(b[:, :1], n, axis=1)
        )


def test_small_buffers_are_recycled_without_aliasing():
    live = [engine.full((k % 7 + 1,), float(k)) for k in range(600)]  # more than a class keeps
    del live[::2]
    live += [engine.full((k % 7 + 1,), -float(k)) for k in range(300)]
    assert len({t.data_ptr() for t in live}) == len(live)
    for t in live:
        vals = t.tolist()
        assert vals == [vals[0]] * len(vals)
