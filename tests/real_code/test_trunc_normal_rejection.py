"""``nn.init.trunc_normal_`` samples as PyTorch 2.13 does: normal draws redrawn outside [a, b]
when the interval holds more than 30% of the mass, otherwise uniform candidates accepted with
probability pdf / pdf(mode). Seeded models (ViT heads, ``std=0.02``) start from PyTorch's exact
weights, and the generator is left in the same state for what follows.

Golden values recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest

CASES = [
    # (mean, std, a, b), first three values, sum of 40 draws, next torch.rand() afterwards
    ((0.0, 1.0, -2.0, 2.0), [-1.5255959, -0.7502318, -0.6539809], -5.3326554, 0.9741073),
    ((0.0, 1.0, 1.0, 3.0), [1.2968768, 1.5586218, 2.0064330], 60.9046021, 0.1097888),
    ((0.5, 0.2, 0.0, 0.1), [0.0148438, 0.0279311, 0.0503217], 2.3871050, 0.7026704),
    ((0.0, 0.02, -0.04, 0.04), [-0.0305119, -0.0150046, -0.0130796], -0.1066531, 0.9741073),
]


@pytest.mark.parametrize("args, head, total, after", CASES)
def test_seeded_draws_match(lib, args, head, total, after):
    lib.manual_seed(1)
    t = lib.empty(40)
    out = lib.nn.init.trunc_normal_(t, *args)
    assert out is t
    assert t[:3].tolist() == pytest.approx(head, abs=1e-6)
    assert t.sum().item() == pytest.approx(total, abs=1e-4)
    assert lib.rand(1).item() == pytest.approx(after, abs=1e-6)
    assert bool(((t >= args[2]) & (t <= args[3])).all())


def test_generator_argument_and_float64(lib):
    g = lib.Generator().manual_seed(2)
    t = lib.empty(4, dtype=lib.float64)
    lib.nn.init.trunc_normal_(t, a=-0.1, b=0.1, generator=g)
    assert t.tolist() == pytest.approx([0.0835, -0.0806, 0.0418, 0.0081], abs=1e-4)
