"""The random draws the samplers and the loader make, from engine's generators, in PyTorch's order.

Seeds are drawn as PyTorch draws them (``empty((), dtype=int64).random_(generator)``: one 64-bit
word of the Mersenne Twister modulo 2**63), and permutations follow PyTorch's CPU ``randperm``
(a Fisher-Yates pass taking ``random() % (n - i)`` for each position), so after the same
``manual_seed`` the shuffled orders are PyTorch's.

engine exposes the generator's raw words through ``randint`` over the whole int64 range: that
returns the 64-bit word w (two 32-bit draws, the first in the high half) as ``w - 2**63``. (PyTorch
reduces w modulo 2**64 - 1 there, so the one word 2**64 - 1 reads as 0: a 2**-64 event.)
"""

import numpy as np

import engine

_TWO_63 = 1 << 63


def _words64(count, generator):
    """``count`` raw 64-bit generator words (``random64()``), as uint64."""
    if count == 0:
        return np.zeros(0, np.uint64)
    draws = engine.randint(-_TWO_63, _TWO_63 - 1, (count,), generator=generator).numpy()
    return draws.view(np.uint64) ^ np.uint64(_TWO_63)


def random_seed(generator=None):
    """A seed in [0, 2**63): what ``torch.empty((), dtype=torch.int64).random_(generator)`` gives."""
    return int(_words64(1, generator)[0] % np.uint64(_TWO_63))


def randperm(n, generator=None):
    """A random permutation of ``range(n)`` as a list: PyTorch's CPU ``randperm`` stream."""
    return engine._C._randperm_stream(n, generator).tolist()


def randint_list(high, size, generator=None):
    """``size`` integers uniform in [0, high), as a list (``torch.randint(high, (size,))``)."""
    return engine.randint(0, high, (size,), dtype=engine.int64, generator=generator).tolist()


def new_generator(seed):
    """A fresh generator seeded with ``seed``."""
    g = engine.Generator()
    g.manual_seed(seed)
    return g
