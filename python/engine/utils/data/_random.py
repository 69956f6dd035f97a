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
# PyTorch's CPU randperm switches to an inside-out shuffle with 64-bit draws from this size on.
_LARGE_PERMUTATION = (2**32 - 1) // 20


def _words64(count, generator):
    """``count`` raw 64-bit generator words (``random64()``), as uint64."""
    if count == 0:
        return np.zeros(0, np.uint64)
    draws = engine.randint(-_TWO_63, _TWO_63 - 1, (count,), generator=generator).numpy()
    return draws.view(np.uint64) ^ np.uint64(_TWO_63)


def _words32(count, generator):
    """``count`` raw 32-bit generator draws (``random()``), as uint64."""
    words = _words64(count // 2, generator)
    pairs = np.empty((words.shape[0], 2), np.uint64)
    pairs[:, 0] = words >> np.uint64(32)
    pairs[:, 1] = words & np.uint64(0xFFFFFFFF)
    draws = pairs.reshape(-1)
    if count % 2:
        # One more single draw. Only its value modulo 2 is ever needed (the last Fisher-Yates
        # step), and randint(0, 2) takes exactly one draw and returns that.
        last = engine.randint(0, 2, (1,), generator=generator).numpy().astype(np.uint64)
        draws = np.concatenate([draws, last])
    return draws


def random_seed(generator=None):
    """A seed in [0, 2**63): what ``torch.empty((), dtype=torch.int64).random_(generator)`` gives."""
    return int(_words64(1, generator)[0] % np.uint64(_TWO_63))


def randperm(n, generator=None):
    """A random permutation of ``range(n)`` as a list: PyTorch's CPU ``randperm`` stream."""
    perm = list(range(n))
    if n < _LARGE_PERMUTATION:
        steps = np.arange(n - 1, dtype=np.uint64)
        offsets = (_words32(max(n - 1, 0), generator) % (np.uint64(n) - steps)).tolist()
        # The swaps depend on one another, so this pass is sequential (as PyTorch's C loop is);
        # the draws and the modulo arithmetic above are vectorised.
        for i, z in enumerate(offsets):
            j = i + z
            perm[i], perm[j] = perm[j], perm[i]
        return perm
    targets = (_words64(n, generator) % np.arange(1, n + 1, dtype=np.uint64)).tolist()
    for i, z in enumerate(targets):  # inside-out shuffle
        perm[i] = perm[z]
        perm[z] = i
    return perm


def randint_list(high, size, generator=None):
    """``size`` integers uniform in [0, high), as a list (``torch.randint(high, (size,))``)."""
    return engine.randint(0, high, (size,), dtype=engine.int64, generator=generator).tolist()


def new_generator(seed):
    """A fresh generator seeded with ``seed``."""
    g = engine.Generator()
    g.manual_seed(seed)
    return g
