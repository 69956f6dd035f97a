"""float32 sums of a contiguous tensor below PyTorch's parallel grain add in PyTorch's order
(aten's cascade sum), so a printed ``loss.item()`` shows PyTorch's digits.

Golden values recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import engine
import pytest

LIBS = [engine]
try:  # live comparison where PyTorch is installed
    import torch

    LIBS.append(torch)
except ImportError:
    pass

# n: (x.sum(), x.mean(), (x * x).sum()), recorded from PyTorch 2.13.
GOLDEN = {
    5: (98.57142639160156, 19.714284896850586, 12996.5302734375),
    8: (104.57142639160156, 13.071428298950195, 13276.326171875),
    13: (-116.85714721679688, -8.989011764526367, 24421.427734375),
    64: (-42.285743713378906, -0.6607147455215454, 114285.3828125),
    200: (-128.57144165039062, -0.6428571939468384, 345606.125),
    1000: (-71.4285888671875, -0.07142858952283859, 1700683.75),
    4099: (-490.1427917480469, -0.11957618594169617, 6971938.5),
    30000: (-2142.85693359375, -0.0714285671710968, 51020512.0),
}


def _data(lib, n):
    return lib.tensor([((k * 7919) % 1000 - 500) / 7.0 for k in range(n)], dtype=lib.float32)


@pytest.mark.parametrize("lib", LIBS, ids=lambda m: m.__name__)
@pytest.mark.parametrize("n", sorted(GOLDEN))
def test_sum_and_mean_bits(lib, n):
    x = _data(lib, n)
    total, mean, squares = GOLDEN[n]
    assert x.sum().item() == total
    assert x.mean().item() == mean
    assert (x * x).sum().item() == squares
    assert x.reshape(-1, 1).sum().item() == total  # every dim reduced: the same run


@pytest.mark.parametrize("lib", LIBS, ids=lambda m: m.__name__)
def test_edge_sizes(lib):
    assert lib.zeros(0).sum().item() == 0.0
    assert lib.tensor([-0.0]).sum().item() == 0.0
    assert lib.tensor([float("inf"), 1.0]).sum().item() == float("inf")
    assert lib.tensor([3.5]).mean().item() == 3.5
