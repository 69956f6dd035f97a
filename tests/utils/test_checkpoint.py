"""engine.utils.checkpoint: both implementations give the gradients an unchecked run gives,
recompute when (and only as often as) backward needs, keep random draws consistent, work with
custom Functions and nn modules, and warn/raise as PyTorch does."""

import gc
import warnings
import weakref

import engine
import engine.nn as nn
import numpy as np
import pytest
from engine.utils.checkpoint import CheckpointError, checkpoint, checkpoint_sequential

f64 = engine.float64
MODES = [True, False]


def a(tensor):
    return np.asarray(tensor.detach().tolist(), dtype=np.float64)


def leaf(values):
    return engine.tensor(values, dtype=f64, requires_grad=True)


def region(x, w, scale=1.0):
    return ((x * w).sin() * x.exp()).tanh() * scale


@pytest.mark.parametrize("use_reentrant", MODES)
def test_gradients_equal_unchecked(use_reentrant):
    x, w = leaf([[0.1, -0.4], [0.8, 1.2]]), leaf([0.5, -1.5])
    out = checkpoint(region, x, w, 2.0, use_reentrant=use_reentrant)
    out.sum().backward()
    gx, gw = x.grad.clone(), w.grad.clone()
    x.grad = w.grad = None
    region(x, w, 2.0).sum().backward()
    np.testing.assert_allclose(a(out), a(region(x, w, 2.0)))
    np.testing.assert_allclose(a(gx), a(x.grad))
    np.testing.assert_allclose(a(gw), a(w.grad))


@pytest.mark.parametrize("use_reentrant", MODES)
def test_region_reruns_once_in_backward(use_reentrant):
    calls = []

    def f(x):
        calls.append(1)
        return x.sin().exp().cos().sum()

    x = leaf([0.1, 0.2, 0.3])
    out = checkpoint(f, x, use_reentrant=use_reentrant)
    assert len(calls) == 1
    out.backward()
    assert len(calls) == 2


def test_non_reentrant_frees_saved_tensors_until_backward():
    kept = []

    def f(x):
        y = x.exp()
        kept.append(weakref.ref(y))
        return (y * y).sum()

    x = leaf([1.0, 2.0])
    out = checkpoint(f, x, use_reentrant=False)
    gc.collect()
    # an unchecked graph would hold `y` (saved by the product); the checkpointed one does not
    assert kept[0]() is None
    out.backward()
    np.testing.assert_allclose(a(x.grad), 2 * np.exp(2 * np.array([1.0, 2.0])))


def test_non_reentrant_twice_with_retain_graph_and_autograd_grad():
    x = leaf([0.3, 0.6])
    out = checkpoint(lambda v: (v.sin() * v).sum(), x, use_reentrant=False)
    (g1,) = engine.autograd.grad(out, x, retain_graph=True)
    (g2,) = engine.autograd.grad(out, x)
    want = np.sin([0.3, 0.6]) + np.array([0.3, 0.6]) * np.cos([0.3, 0.6])
    np.testing.assert_allclose(a(g1), want)
    np.testing.assert_allclose(a(g2), want)


def test_non_reentrant_double_backward():
    x = leaf([0.3, 0.6])
    out = checkpoint(lambda v: (v**3).sum(), x, use_reentrant=False)
    (g,) = engine.autograd.grad(out, x, create_graph=True)
    (h,) = engine.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(a(h), 6 * np.array([0.3, 0.6]))


def test_non_reentrant_kwargs_and_tuple_outputs():
    x = leaf([1.0, 2.0])
    y, z = checkpoint(lambda v, *, k: (v * k, v.exp()), x, k=3.0, use_reentrant=False)
    (y.sum() + z.sum()).backward()
    np.testing.assert_allclose(a(x.grad), 3.0 + np.exp([1.0, 2.0]))


def test_nested_non_reentrant():
    x = leaf([0.2, 0.4])

    def inner(v):
        return v.sin() * v

    def outer(v):
        return checkpoint(inner, v.exp(), use_reentrant=False).cos().sum()

    checkpoint(outer, x, use_reentrant=False).backward()
    g = x.grad.clone()
    x.grad = None
    outer_plain = (inner(x.exp())).cos().sum()
    outer_plain.backward()
    np.testing.assert_allclose(a(g), a(x.grad))


@pytest.mark.parametrize("use_reentrant", MODES)
def test_dropout_mask_replayed(use_reentrant):
    engine.manual_seed(7)
    x = leaf(np.linspace(0.5, 2.0, 64).tolist())
    w = 3.0
    out = checkpoint(lambda v: nn.functional.dropout(v * w, 0.5), x, use_reentrant=use_reentrant)
    out.sum().backward()
    kept = a(out) != 0
    assert 0 < kept.sum() < 64
    # d out / d x = w / (1 - p) where the mask kept the element, else 0: the same mask
    np.testing.assert_allclose(a(x.grad), np.where(kept, w / 0.5, 0.0))


@pytest.mark.parametrize("use_reentrant", MODES)
def test_without_preserve_rng_state_backward_still_runs(use_reentrant):
    x = leaf([1.0, 2.0, 3.0])
    out = checkpoint(lambda v: v * 2, x, use_reentrant=use_reentrant, preserve_rng_state=False)
    out.sum().backward()
    np.testing.assert_allclose(a(x.grad), [2.0, 2.0, 2.0])


@pytest.mark.parametrize("use_reentrant", MODES)
def test_random_stream_as_without_checkpoint(use_reentrant):
    def f(v):
        return nn.functional.dropout(v, 0.5)

    x = leaf([1.0] * 32)
    engine.manual_seed(3)
    plain = f(x)
    after_plain = engine.rand(4)
    engine.manual_seed(3)
    checked = checkpoint(f, x, use_reentrant=use_reentrant)
    after_checked = engine.rand(4)
    checked.sum().backward()
    np.testing.assert_allclose(a(plain), a(checked))
    np.testing.assert_allclose(a(after_plain), a(after_checked))


def _custom_functions():
    class Old(engine.autograd.Function):
        @staticmethod
        def forward(ctx, v, k):
            ctx.save_for_backward(v)
            ctx.k = k
            return v**k

        @staticmethod
        def backward(ctx, g):
            (v,) = ctx.saved_tensors
            return g * ctx.k * v ** (ctx.k - 1), None

    class New(engine.autograd.Function):
        @staticmethod
        def forward(v, k):
            return v**k

        @staticmethod
        def setup_context(ctx, inputs, output):
            v, k = inputs
            ctx.save_for_backward(v)
            ctx.k = k

        @staticmethod
        def backward(ctx, g):
            (v,) = ctx.saved_tensors
            return g * ctx.k * v ** (ctx.k - 1), None

    class Tutorial(engine.autograd.Function):
        @staticmethod
        def forward(ctx, v, k):
            return v**k

        @staticmethod
        def setup_context(ctx, inputs, output):
            v, k = inputs
            ctx.save_for_backward(v)
            ctx.k = k

        @staticmethod
        def backward(ctx, g):
            (v,) = ctx.saved_tensors
            return g * ctx.k * v ** (ctx.k - 1), None

    return [Old, New, Tutorial]


@pytest.mark.parametrize("use_reentrant", MODES)
@pytest.mark.parametrize("style", range(3))
def test_custom_functions_inside(use_reentrant, style):
    fn = _custom_functions()[style]
    x = leaf([2.0, 3.0, 4.0])
    out = checkpoint(lambda v: fn.apply(v.exp(), 3), x, use_reentrant=use_reentrant)
    out.sum().backward()
    np.testing.assert_allclose(a(x.grad), 3 * np.exp(3 * np.array([2.0, 3.0, 4.0])), rtol=1e-12)


@pytest.mark.parametrize("use_reentrant", MODES)
def test_modules_and_checkpoint_sequential(use_reentrant):
    engine.manual_seed(0)
    model = nn.Sequential(*[m for _ in range(4) for m in (nn.Linear(5, 5), nn.Tanh())]).double()
    x = leaf(np.linspace(-1, 1, 15).reshape(3, 5).tolist())
    out = checkpoint_sequential(model, 3, x, use_reentrant=use_reentrant)
    out.pow(2).sum().backward()
    grads = [p.grad.clone() for p in model.parameters()]
    gx = x.grad.clone()
    model.zero_grad()
    x.grad = None
    model(x).pow(2).sum().backward()
    np.testing.assert_allclose(a(gx), a(x.grad), rtol=1e-12)
    for g, p in zip(grads, model.parameters()):
        np.testing.assert_allclose(a(g), a(p.grad), rtol=1e-12)


def test_module_parameters_get_gradients_in_reentrant_mode():
    lin = nn.Linear(3, 1).double()
    x = leaf([[1.0, 2.0, 3.0]])
    checkpoint(lin, x, use_reentrant=True).sum().backward()
    np.testing.assert_allclose(a(lin.weight.grad), [[1.0, 2.0, 3.0]])


def test_under_no_grad_just_runs():
    x = leaf([1.0, 2.0])
    with engine.no_grad():
        for mode in MODES:
            out = checkpoint(lambda v: v * 2, x, use_reentrant=mode)
            assert not out.requires_grad


def test_warnings_when_use_reentrant_not_given():
    x = leaf([1.0])
    with pytest.warns(UserWarning, match="the use_reentrant parameter should be passed explicitly"):
        checkpoint(lambda v: v * 2, x)
    with pytest.warns(UserWarning, match="checkpoint_sequential: the use_reentrant parameter"):
        checkpoint_sequential([engine.sin, engine.cos], 2, x)


def test_reentrant_warns_when_no_input_requires_grad():
    with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
        checkpoint(lambda v: v * 2, engine.ones(2), use_reentrant=True)


def test_argument_errors():
    x = leaf([1.0])
    with pytest.raises(ValueError, match="Unexpected keyword arguments: k"):
        checkpoint(lambda v, k: v, x, k=1, use_reentrant=True)
    with pytest.raises(ValueError, match="Passing `context_fn` or `debug` is only supported"):
        checkpoint(lambda v: v, x, use_reentrant=True, debug=True)
    with pytest.raises(ValueError, match="determinism_check should be one of"):
        checkpoint(lambda v: v, x, use_reentrant=False, determinism_check="strict")
    with pytest.raises(ValueError, match="Unexpected keyword arguments: extra"):
        checkpoint_sequential([engine.sin], 1, x, use_reentrant=False, extra=1)


def test_context_fn_wraps_forward_and_recompute():
    seen = []

    class Note:
        def __init__(self, tag):
            self.tag = tag

        def __enter__(self):
            seen.append(self.tag)

        def __exit__(self, *exc):
            return False

    x = leaf([1.0, 2.0])
    out = checkpoint(
        lambda v: v.sin().sum(),
        x,
        use_reentrant=False,
        context_fn=lambda: (Note("forward"), Note("recompute")),
    )
    assert seen == ["forward"]
    out.backward()
    assert seen == ["forward", "recompute"]


def test_recomputation_that_differs_is_an_error():
    calls = []

    def f(v):
        calls.append(1)
        if len(calls) == 1:
            return (v.exp() * v).sum()
        return v.exp().sum()  # saves fewer tensors the second time

    x = leaf([1.0, 2.0])
    out = checkpoint(f, x, use_reentrant=False)
    with pytest.raises(CheckpointError, match="A different number of tensors was saved"):
        out.backward()


def test_recomputed_metadata_checked():
    calls = []

    def f(v):
        calls.append(1)
        u = v if len(calls) == 1 else v.float()
        return (u.exp() * 2).sum()

    x = leaf([1.0, 2.0])
    out = checkpoint(f, x, use_reentrant=False)
    with pytest.raises(CheckpointError, match="have different metadata"):
        out.backward()
    calls.clear()
    out = checkpoint(f, x, use_reentrant=False, determinism_check="none")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out.backward()


def test_early_stop_override_and_debug_flags():
    from engine.utils.checkpoint import set_checkpoint_debug_enabled, set_checkpoint_early_stop

    x = leaf([0.5, 1.5])
    with set_checkpoint_early_stop(False):
        out = checkpoint(lambda v: (v.exp() * v.sin()).sum(), x, use_reentrant=False)
    out.backward()
    np.testing.assert_allclose(
        a(x.grad), np.exp([0.5, 1.5]) * (np.sin([0.5, 1.5]) + np.cos([0.5, 1.5]))
    )
    with pytest.raises(ValueError, match="debug=True is incompatible with non-default context_fn"):
        checkpoint(lambda v: v, x, use_reentrant=False, debug=True, context_fn=lambda: (1, 2))
    with set_checkpoint_debug_enabled(True):
        with pytest.raises(ValueError, match="debug=True is incompatible"):
            checkpoint(lambda v: v, x, use_reentrant=False, context_fn=lambda: (1, 2))
    assert checkpoint(lambda v: v * 2, x, use_reentrant=False, debug=True).requires_grad


@pytest.mark.parametrize("use_reentrant", MODES)
def test_random_stream_reproducible_through_backward(use_reentrant):
    def run():
        engine.manual_seed(11)
        x = leaf([1.0] * 16)
        out = checkpoint(lambda v: nn.functional.dropout(v, 0.5), x, use_reentrant=use_reentrant)
        between = engine.rand(3)
        out.sum().backward()
        return a(out), a(between), a(engine.rand(3)), a(x.grad)

    first, second = run(), run()
    for f, s in zip(first, second):
        np.testing.assert_array_equal(f, s)
    np.testing.assert_array_equal(first[3], first[0] * 1.0)  # grad = mask / (1 - p) = out / x


def test_saved_tensor_read_twice_in_one_backward_raises():
    # Each backward pass recomputes the region once and hands each recomputed tensor out once
    # (it is freed as soon as it is read): a second ctx.saved_tensors raises PyTorch's error.
    calls = []
    second_read = []

    class ReadsTwice(engine.autograd.Function):
        @staticmethod
        def forward(ctx, v):
            ctx.save_for_backward(v)
            return v.exp()

        @staticmethod
        def backward(ctx, g):
            (first,) = ctx.saved_tensors
            with pytest.raises(RuntimeError, match="already unpacked once") as info:
                _ = ctx.saved_tensors
            second_read.append(info.type)
            return g * first.exp()

    def f(v):
        calls.append(1)
        return ReadsTwice.apply(v.sin())

    x = leaf([0.1, 0.2])
    checkpoint(f, x, use_reentrant=False).sum().backward()
    assert len(calls) == 2
    assert second_read == [CheckpointError]
    np.testing.assert_allclose(a(x.grad), np.exp(np.sin([0.1, 0.2])) * np.cos([0.1, 0.2]))


def test_recomputed_tensors_released_with_the_graph():
    kept = []

    def f(v):
        y = v.exp()
        kept.append(weakref.ref(y))
        return (y * y).sum()

    x = leaf([1.0, 2.0])
    out = checkpoint(f, x, use_reentrant=False)
    out.backward()
    del out
    gc.collect()
    assert all(r() is None for r in kept)
