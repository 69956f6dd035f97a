"""float32 sums of a contiguous tensor below PyTorch's parallel grain add in PyTorch's order
(aten's cascade sum: over every dim, over trailing dims row by row, over leading dims column by
column), so a printed ``loss.item()`` or a bias gradient shows PyTorch's digits.

Golden values recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest

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


@pytest.mark.parametrize("n", sorted(GOLDEN))
def test_sum_and_mean_bits(lib, n):
    x = _data(lib, n)
    total, mean, squares = GOLDEN[n]
    assert x.sum().item() == total
    assert x.mean().item() == mean
    assert (x * x).sum().item() == squares
    assert x.reshape(-1, 1).sum().item() == total  # every dim reduced: the same run


def test_edge_sizes(lib):
    assert lib.zeros(0).sum().item() == 0.0
    assert lib.tensor([-0.0]).sum().item() == 0.0
    assert lib.tensor([float("inf"), 1.0]).sum().item() == float("inf")
    assert lib.tensor([3.5]).mean().item() == 3.5


# (shape, dim): (first sums, last means), recorded from PyTorch 2.13.
DIM_GOLDEN = [
    (
        (37, 53),
        0,
        [-91.14286804199219, 52.142860412597656, 52.571434020996094, 53.00000762939453],
        [1.9884177446365356, 2.0],
    ),
    (
        (37, 53),
        1,
        [-16.85715675354004, 50.42857360839844, -168.0, 42.142845153808594],
        [0.9892182350158691, -0.43665817379951477],
    ),
    ((10, 1), 0, [50.71428680419922], [5.0714287757873535]),
    (
        (64, 3),
        0,
        [-126.85707092285156, -10.2857666015625, 106.28567504882812],
        [-0.16071510314941406, 1.6607136726379395],
    ),
    (
        (9, 40),
        0,
        [-162.85714721679688, 161.57142639160156, 57.42856979370117, -46.714290618896484],
        [2.5079362392425537, 6.80952262878418],
    ),
    (
        (3, 4, 5),
        (1, 2),
        [87.14286041259766, -112.85714721679688, -27.142868041992188],
        [-5.642857551574707, -1.3571434020996094],
    ),
]


@pytest.mark.parametrize("case", DIM_GOLDEN, ids=lambda c: f"{c[0]}-{c[1]}")
def test_dim_sums_bits(lib, case):
    shape, dim, sums, means = case
    n = 1
    for d in shape:
        n *= d
    x = _data(lib, n).reshape(shape)
    assert x.sum(dim).flatten()[:4].tolist() == sums
    assert x.mean(dim).flatten()[-2:].tolist() == means
