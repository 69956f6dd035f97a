"""The random draws the samplers and the loader make, from engine's generators.

Seeds are drawn exactly as PyTorch draws them (``empty((), dtype=int64).random_(generator)``: one
64-bit word of the Mersenne Twister, reduced modulo 2**63), so the streams stay in step with
PyTorch's after ``manual_seed``. Permutations come from ``engine.randperm`` when the engine has it;
otherwise from a stable argsort of float64 uniforms, which is reproducible under
``engine.manual_seed`` but is not PyTorch's permutation.
"""

import engine

_TWO_63 = 1 << 63


def random_seed(generator=None):
    """A seed in [0, 2**63): what ``torch.empty((), dtype=torch.int64).random_(generator)`` gives."""
    # randint over the whole int64 range returns the 64-bit draw w as w - 2**63 (mod 2**64).
    draw = engine.randint(-_TWO_63, _TWO_63 - 1, (), generator=generator).item()
    return (draw + _TWO_63) % _TWO_63


def randperm(n, generator=None):
    """A random permutation of ``range(n)`` as a list."""
    native = getattr(engine, "randperm", None)
    if native is not None:
        return native(n, generator=generator).tolist()
    if n == 0:
        return []
    keys = engine.rand(n, dtype=engine.float64, generator=generator)
    return keys.argsort(stable=True).tolist()


def randint_list(high, size, generator=None):
    """``size`` integers uniform in [0, high), as a list (``torch.randint(high, (size,))``)."""
    return engine.randint(0, high, (size,), dtype=engine.int64, generator=generator).tolist()


def new_generator(seed):
    """A fresh generator seeded with ``seed``."""
    g = engine.Generator()
    g.manual_seed(seed)
    return g
