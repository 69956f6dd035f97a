"""Random operations inside ``engine.func.vmap``: ``randomness='error' | 'same' | 'different'``
with PyTorch's messages, for creation functions that take no batched tensor (``randn(3)``), the
``*_like`` and sampler functions built on them, in-place fills, and nested vmaps. Also PyTorch's
rule that an old-style ``autograd.Function`` (no ``setup_context``) is refused under every
``engine.func`` transform."""

from __future__ import annotations

import engine
import numpy as np
import pytest
from engine.func import grad, jacfwd, jacrev, jvp, vjp, vmap

ERROR_MODE = (
    "vmap: called random operation while in randomness error mode. Please either use the 'same' "
    "or 'different' randomness flags on vmap or perform the randomness operation out of vmap"
)
DIFFERENT_INPLACE = (
    "vmap: Cannot ask for different inplace randomness on an unbatched tensor. This will appear "
    "like same randomness. If this is necessary for your usage, please file an issue with "
    "functorch."
)
SETUP_CONTEXT = "In order to use an autograd.Function with functorch transforms"

B = 4

# name -> a function of one sample (a 3-vector) that draws random numbers
RANDOM_CALLS = {
    "randn": lambda t: engine.randn(3),
    "rand": lambda t: engine.rand(3),
    "rand_tuple": lambda t: engine.rand((3,)),
    "randint": lambda t: engine.randint(0, 1000, (3,)).to(engine.float32),
    "randint_high": lambda t: engine.randint(1000, (3,)).to(engine.float32),
    "randn_plus_input": lambda t: engine.randn(3) + t,
    "rand_like": lambda t: engine.rand_like(t),
    "randn_like": lambda t: engine.randn_like(t),
    "randint_like": lambda t: engine.randint_like(t, 1000),
    "dropout": lambda t: engine.nn.functional.dropout(t, 0.5),
    "normal_size": lambda t: engine.normal(0.0, 1.0, (3,)),
    "bernoulli_scalar_p": lambda t: engine.bernoulli(t * 0.5),
    "normal_tensor_mean": lambda t: engine.normal(t, 1.0),
    "normal_on_batched": lambda t: t.clone().normal_(),
    "poisson": lambda t: engine.poisson(t * 3),
    "multinomial": lambda t: engine.multinomial(t, 3, replacement=True).to(engine.float32),
    "uniform_on_batched": lambda t: t.clone().uniform_(),
}


def _x():
    return engine.ones(B, 3)


@pytest.mark.parametrize("name", sorted(RANDOM_CALLS))
def test_error_mode_raises_pytorch_message(name):
    with pytest.raises(RuntimeError) as info:
        vmap(RANDOM_CALLS[name])(_x())
    assert str(info.value) == ERROR_MODE


SAME_SHARED = [
    "randn",
    "rand",
    "rand_tuple",
    "randint",
    "randint_high",
    "randn_plus_input",
    "rand_like",
    "randn_like",
    "randint_like",
    "dropout",
    "normal_size",
    "normal_on_batched",
    "uniform_on_batched",
]


@pytest.mark.parametrize("name", SAME_SHARED)
def test_same_mode_draws_once_for_every_sample(name):
    engine.manual_seed(0)
    out = vmap(RANDOM_CALLS[name], randomness="same")(_x())
    assert tuple(out.shape) == (B, 3)
    rows = out.numpy()
    for b in range(1, B):
        np.testing.assert_array_equal(rows[b], rows[0])


@pytest.mark.parametrize("name", sorted(RANDOM_CALLS))
def test_different_mode_draws_per_sample(name):
    engine.manual_seed(0)
    fn = RANDOM_CALLS[name]
    assert tuple(vmap(fn, randomness="different")(_x()).shape) == (B, 3)
    big = vmap(lambda t: engine.stack([fn(t) for _ in range(20)]), randomness="different")(_x())
    rows = big.reshape(B, -1).numpy()
    assert not all(np.array_equal(rows[b], rows[0]) for b in range(1, B))


SAME_WITH_BATCHED_INPUT = (
    "Vmap does not currently support same randomness with a batched tensor input. Please file an "
    "issue with functorch"
)


@pytest.mark.parametrize(
    "name", ["bernoulli_scalar_p", "normal_tensor_mean", "poisson", "multinomial"]
)
def test_same_mode_refuses_samplers_of_batched_tensors(name):
    with pytest.raises(RuntimeError) as info:
        vmap(RANDOM_CALLS[name], randomness="same")(_x())
    assert str(info.value) == SAME_WITH_BATCHED_INPUT


def test_same_mode_value_matches_one_plain_draw():
    engine.manual_seed(7)
    out = vmap(lambda t: engine.randn(5), randomness="same")(engine.ones(3, 2))
    engine.manual_seed(7)
    expected = engine.randn(5)
    np.testing.assert_array_equal(out[1].numpy(), expected.numpy())


def test_different_mode_distribution():
    engine.manual_seed(1)
    out = vmap(lambda t: engine.randn(4000), randomness="different")(engine.ones(3, 1))
    a = out.numpy().astype(np.float64)
    assert np.all(np.abs(a.mean(1)) < 0.1)
    assert np.all(np.abs(a.std(1) - 1) < 0.1)
    u = vmap(lambda t: engine.rand(4000), randomness="different")(engine.ones(3, 1)).numpy()
    assert u.min() >= 0 and u.max() < 1 and np.all(np.abs(u.mean(1) - 0.5) < 0.05)


def test_different_inplace_fill_of_unbatched_tensor_is_refused():
    with pytest.raises(RuntimeError) as info:
        vmap(lambda t: engine.zeros(3).normal_(), randomness="different")(_x())
    assert str(info.value) == DIFFERENT_INPLACE
    # 'same' fills it once, as PyTorch does
    out = vmap(lambda t: engine.zeros(3).normal_() + t, randomness="same")(_x())
    assert np.array_equal(out[0].numpy(), out[3].numpy())


def test_nested_vmaps_each_add_their_dimension():
    x = engine.ones(3, 4)
    inner_diff = vmap(vmap(lambda t: engine.rand(2), randomness="different"), randomness="same")(x)
    assert tuple(inner_diff.shape) == (3, 4, 2)
    assert np.array_equal(inner_diff[0].numpy(), inner_diff[2].numpy())
    assert not np.array_equal(inner_diff[:, 0].numpy(), inner_diff[:, 1].numpy())
    outer_diff = vmap(vmap(lambda t: engine.rand(2), randomness="same"), randomness="different")(x)
    assert np.array_equal(outer_diff[:, 0].numpy(), outer_diff[:, 3].numpy())
    assert not np.array_equal(outer_diff[0].numpy(), outer_diff[1].numpy())
    both = vmap(vmap(lambda t: engine.rand(2), randomness="different"), randomness="different")(x)
    flat = both.reshape(12, 2).numpy()
    assert len({tuple(r) for r in flat}) == 12
    with pytest.raises(RuntimeError, match="randomness error mode"):
        vmap(vmap(lambda t: engine.rand(2), randomness="different"))(x)


def test_random_calls_outside_vmap_are_untouched():
    engine.manual_seed(3)
    a = engine.randn(4)
    vmap(lambda t: t * 2)(engine.ones(2, 2))
    engine.manual_seed(3)
    np.testing.assert_array_equal(engine.randn(4).numpy(), a.numpy())
    # inside another transform that is not vmap, creation is plain
    g = grad(lambda t: (t * engine.rand(3)).sum())(engine.ones(3))
    assert tuple(g.shape) == (3,)


def test_chunked_vmap_same_randomness_spans_the_chunks():
    out = vmap(lambda t: engine.randn(3) + t, randomness="same", chunk_size=2)(engine.zeros(5, 3))
    rows = out.numpy()
    assert all(np.array_equal(rows[b], rows[0]) for b in range(5))


def test_chunked_vmap_with_randomness():
    out = vmap(lambda t: engine.randn(3) + t, randomness="different", chunk_size=3)(
        engine.zeros(7, 3)
    )
    assert tuple(out.shape) == (7, 3)
    assert len({tuple(r) for r in out.numpy()}) == 7


# ---- old-style Functions under engine.func transforms --------------------------------------------


class _Old(engine.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


class _Tutorial(engine.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return g * 2

    @staticmethod
    def jvp(ctx, t):
        return t * 2


TRANSFORMS = {
    "grad": lambda f, x: grad(lambda a: f(a).sum())(x),
    "vjp": lambda f, x: vjp(f, x)[1](engine.ones(3))[0],
    "jacrev": lambda f, x: jacrev(f)(x),
    "jacfwd": lambda f, x: jacfwd(f)(x),
    "jvp": lambda f, x: jvp(f, (x,), (engine.ones(3),))[1],
    "vmap": lambda f, x: vmap(f)(engine.ones(2, 3)),
    "vmap_unbatched_input": lambda f, x: vmap(lambda t: f(x) + t)(engine.ones(2, 3)),
    "grad_of_captured": lambda f, x: grad(lambda a: (f(x) * a).sum())(x),
}


@pytest.mark.parametrize("transform", sorted(TRANSFORMS))
def test_old_style_function_is_refused_under_transforms(transform):
    with pytest.raises(RuntimeError, match=SETUP_CONTEXT):
        TRANSFORMS[transform](_Old.apply, engine.randn(3))


@pytest.mark.parametrize("transform", sorted(TRANSFORMS))
def test_tutorial_style_function_works_under_transforms(transform):
    out = TRANSFORMS[transform](_Tutorial.apply, engine.randn(3))
    assert isinstance(out, engine.Tensor)


def test_old_style_function_outside_transforms_still_works():
    x = engine.randn(3, requires_grad=True)
    _Old.apply(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full(3, 2.0, dtype=np.float32))
