"""The generator state: PyTorch's 5056-byte layout (digests recorded from PyTorch 2.13 after the
same draws), save/restore, fork_rng, Generator methods and errors."""

import hashlib

import engine
import pytest

# sha256 of torch.get_rng_state() bytes in PyTorch 2.13 after: manual_seed(5); then randn(3);
# then rand(1000) and randn(20).
TORCH_DIGESTS = {
    "seeded": "f4ef6f460154679cfe881f5d260e16f8ed904898fabc025c755a71e2692eb75c",
    "after_randn3": "b4d410285f91ff274a51ee6e3aa48d4890aeb2cf2bd7da29b71a4cbbd79f53f3",
    "after_more": "f7b76e6266f4e8e6664d88537aab15dfcfe913c174da028134028295b1d3f910",
}


def _digest():
    state = engine.get_rng_state()
    assert state.dtype == engine.uint8 and state.shape == (5056,)
    return hashlib.sha256(bytes(state.tolist())).hexdigest()


def test_state_bytes_are_pytorchs():
    engine.manual_seed(5)
    assert _digest() == TORCH_DIGESTS["seeded"]
    engine.randn(3)
    assert _digest() == TORCH_DIGESTS["after_randn3"]
    engine.rand(1000)
    engine.randn(20)
    assert _digest() == TORCH_DIGESTS["after_more"]


@pytest.mark.parametrize(
    "draw", [lambda: engine.rand(7), lambda: engine.randn(3), lambda: engine.randn(100)]
)
def test_restore_replays_the_stream(draw):
    engine.manual_seed(0)
    engine.randn(1)  # leaves a cached normal value, which is part of the state
    state = engine.get_rng_state()
    first = draw()
    engine.set_rng_state(state)
    assert engine.equal(first, draw())


def test_fork_rng_restores():
    engine.manual_seed(1)
    with engine.random.fork_rng():
        inside = engine.rand(4)
    assert engine.equal(engine.rand(4), inside)


def test_generator_methods():
    g = engine.Generator().manual_seed(3)
    state = g.get_state()
    a = engine.rand(5, generator=g)
    g.set_state(state)
    assert engine.equal(a, engine.rand(5, generator=g))
    twin = g.clone_state()
    assert engine.equal(engine.rand(2, generator=g), engine.rand(2, generator=twin))
    assert str(g.device) == "cpu"
    assert isinstance(g.seed(), int)


def test_bad_states():
    with pytest.raises(TypeError, match="RNG state must be a torch.ByteTensor"):
        engine.set_rng_state(engine.zeros(5056))
    with pytest.raises(
        RuntimeError,
        match="Expected a CPUGeneratorImplState of size 5056 but found the input RNG state size to be 10",
    ):
        engine.set_rng_state(engine.zeros(10, dtype=engine.uint8))
