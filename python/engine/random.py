"""The random-number state: seeding, saving and restoring the global generator (in PyTorch's
5056-byte layout, so a state moves between engine and PyTorch either way), and ``fork_rng``."""

import contextlib
import os

from engine import _C

__all__ = [
    "default_generator",
    "fork_rng",
    "get_rng_state",
    "initial_seed",
    "manual_seed",
    "seed",
    "set_rng_state",
]

default_generator = _C.default_generator


def manual_seed(seed):
    """Seeds the global generator (:data:`engine.default_generator`) and returns it; for the same
    seed, :func:`rand`, :func:`randn`, :func:`randint`, dropout and the ``nn.init`` functions
    then draw PyTorch's numbers.

    Args:
        seed (int): the seed.

    Example::

        >>> _ = engine.manual_seed(0)
        >>> engine.rand(2)
        tensor([0.4963, 0.7682])
    """
    return default_generator.manual_seed(seed)


def initial_seed():
    """The seed the global generator was last seeded with."""
    return default_generator.initial_seed()


def seed():
    """Seeds the global generator from the operating system's entropy and returns the seed."""
    return default_generator.seed()


def get_rng_state():
    """The global generator's state as a uint8 tensor (what :func:`set_rng_state` restores)."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """Restores the global generator to ``new_state`` (from :func:`get_rng_state`)."""
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(
    devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type=None
):
    """Runs a block with the global generator's state restored afterwards, so the random draws
    inside do not change the stream outside. ``devices`` is accepted for PyTorch's signature
    (engine has only the CPU generator)."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


def _generator_seed(self):
    """Seeds this generator from the operating system's entropy and returns the seed."""
    value = int.from_bytes(os.urandom(8), "little")
    self.manual_seed(value)
    return value


def _generator_clone_state(self):
    """A new generator in the same state."""
    other = _C.Generator()
    other.set_state(self.get_state())
    return other


def _install():
    from engine._device import CPU

    _C.Generator.seed = _generator_seed
    _C.Generator.clone_state = _generator_clone_state
    _C.Generator.device = property(lambda self: CPU, doc="The generator's device: always the CPU.")
    _C.Generator.__module__ = "engine"


_install()
