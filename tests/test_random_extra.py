"""bernoulli / multinomial / normal / random_ / exponential_ / geometric_ / log_normal_ /
cauchy_ / randperm follow PyTorch 2.13's CPU streams (values recorded from PyTorch after a seed);
poisson / binomial draw from NumPy generators seeded by the engine generator
(reproducible, distribution checked); argument errors with PyTorch's messages."""

# ruff: noqa: E501 - recorded values are kept one case per line

import engine
import numpy as np
import pytest

# (expression run right after manual_seed(0), PyTorch's values, dtype)
STREAMS = [
    ('(engine.manual_seed(0), engine.bernoulli(engine.rand(20)))[1]', [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0], 'float32'),
    ('(engine.manual_seed(0), engine.bernoulli(engine.rand(20, dtype=engine.float64)))[1]', [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0], 'float64'),
    ('(engine.manual_seed(0), engine.empty(8).bernoulli_(0.3))[1]', [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0], 'float32'),
    ('(engine.manual_seed(0), engine.empty(5).exponential_())[1]', [3.508326292037964, 1.2303847074508667, 0.615044116973877, 2.535118579864502, 1.0357054471969604], 'float32'),
    ('(engine.manual_seed(0), engine.empty(5, dtype=engine.float64).exponential_(2.5))[1]', [1.4033304746830568, 0.49215390567187073, 0.2460176375576046, 1.0140474576863527, 0.4142821743291232], 'float64'),
    ('(engine.manual_seed(0), engine.empty(4).random_(0, 10))[1]', [4.0, 9.0, 3.0, 0.0], 'float32'),
    ('(engine.manual_seed(0), engine.empty(4).random_())[1]', [8325664.0, 12888472.0, 1484222.0, 2214888.0], 'float32'),
    ('(engine.manual_seed(0), engine.empty(4, dtype=engine.float64).random_())[1]', [8737460674930124.0, 6375474555111176.0, 4137753702977065.0, 8293357854226700.0], 'float64'),
    ('(engine.manual_seed(0), engine.empty(4, dtype=engine.int32).random_(-5, 5))[1]', [-1, 4, -2, -5], 'int32'),
    ('(engine.manual_seed(0), engine.multinomial(engine.tensor([[0.1,0.2,0.3,0.4],[1,1,0,2.]]), 3))[1]', [[2, 1, 3], [3, 0, 1]], 'int64'),
    ('(engine.manual_seed(0), engine.multinomial(engine.tensor([[0.1,0.2,0.3,0.4],[1,1,0,2.]]), 5, True))[1]', [[3, 3, 2, 3, 3], [3, 0, 1, 3, 1]], 'int64'),
    ('(engine.manual_seed(0), engine.multinomial(engine.tensor([0.1,0.2,0.3,0.4]), 1))[1]', [2], 'int64'),
    ('(engine.manual_seed(0), engine.empty(6,dtype=engine.float64).log_normal_(1, 2))[1]', [59.26341788010752, 1.5115599370617072, 0.03481946309690494, 8.472812895730142, 0.31066358117688375, 0.16576390024098195], 'float64'),
    ('(engine.manual_seed(0), engine.empty(20).log_normal_())[1]', [59.2634162902832, 1.5115599632263184, 0.03481946140527725, 8.47281265258789, 0.3106635808944702, 0.16576389968395233, 6.090277671813965, 14.527634620666504, 0.6449934244155884, 1.2132624387741089, 0.8242588043212891, 3.912094831466675, 0.49000033736228943, 24.562191009521484, 0.31906044483184814, 3.474332809448242, 0.8757847547531128, 5.732944488525391, 0.45658034086227417, 0.1328924000263214], 'float32'),
    ('(engine.manual_seed(0), engine.empty(4).geometric_(0.3))[1]', [1.0, 1.0, 3.0, 1.0], 'float32'),
    ('(engine.manual_seed(0), engine.empty(3).cauchy_())[1]', [10.597729682922363, 0.7647672891616821, -0.12829934060573578], 'float32'),
    ('(engine.manual_seed(0), engine.normal(engine.zeros(3), engine.ones(3)*2))[1]', [3.0819921493530273, -0.586857795715332, -4.357578754425049], 'float32'),
    ('(engine.manual_seed(0), engine.normal(2., 3., (3,)))[1]', [6.622988224029541, 1.119713306427002, -4.536368370056152], 'float32'),
    ('(engine.manual_seed(0), engine.normal(engine.arange(20.), 2.))[1]', [-2.2516796588897705, -1.304720401763916, 1.4988428354263306, 2.132242441177368, 5.197679042816162, 1.8898098468780518, 5.31727933883667, 10.706012725830078, 8.936192512512207, 8.684575080871582, 12.887320518493652, 11.532098770141602, 14.778732299804688, 16.17266845703125, 15.892597198486328, 13.312646865844727, 17.8636531829834, 19.51801872253418, 22.009960174560547, 19.107473373413086], 'float32'),
    ('(engine.manual_seed(0), engine.normal(1., engine.arange(20.)))[1]', [1.0, -0.152360200881958, 0.49884283542633057, -0.3016364574432373, 3.395357847213745, -6.77547550201416, -1.0481624603271484, 13.97104263305664, 4.7447710037231445, -0.4194120168685913, 15.436601638793945, 3.9265434741973877, 17.672393798828125, 21.622344970703125, 14.248176574707031, -11.6551513671875, 15.909225463867188, 22.403156280517578, 37.08964920043945, 2.021001100540161], 'float32'),
]  # fmt: skip


@pytest.mark.parametrize("expr, want, dtype", STREAMS, ids=[s[0][27:70] for s in STREAMS])
def test_streams_match_pytorch(expr, want, dtype):
    got = eval(expr)
    assert str(got.dtype) == "torch." + dtype
    if got.is_floating_point():
        # libm's log/exp/tan may differ in the last bits from the recording machine's.
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    else:
        assert got.tolist() == want


def test_numpy_stream_samplers_are_reproducible_and_distributed():
    engine.manual_seed(3)
    a = engine.poisson(engine.full((20000,), 4.0))
    engine.manual_seed(3)
    assert engine.poisson(engine.full((20000,), 4.0)).tolist() == a.tolist()
    assert a.dtype == engine.float32 and abs(a.mean().item() - 4.0) < 0.1
    b = engine.binomial(engine.full((20000,), 10.0), engine.full((20000,), 0.3))
    assert abs(b.mean().item() - 3.0) < 0.1 and b.dtype == engine.float32
    p = engine.randperm(50)
    assert sorted(p.tolist()) == list(range(50)) and p.dtype == engine.int64
    assert engine.randperm(4, dtype=engine.float32).sort().values.tolist() == [0.0, 1.0, 2.0, 3.0]
    g = engine.Generator().manual_seed(5)
    assert (
        engine.randperm(10, generator=g).tolist()
        == engine.randperm(10, generator=engine.Generator().manual_seed(5)).tolist()
    )


def test_samplers_fill_in_place_without_gradient():
    x = engine.zeros(1000, dtype=engine.float64)
    assert x.exponential_(2.0) is x and abs(x.mean().item() - 0.5) < 0.06
    assert (x.geometric_(0.5) >= 1).all().item()
    assert x.cauchy_().isfinite().all().item()
    assert (x.log_normal_() > 0).all().item()
    x.random_(3)
    assert set(x.tolist()) <= {0.0, 1.0, 2.0}
    x.bernoulli_(engine.full((1000,), 1.0, dtype=engine.float64))
    assert x.sum().item() == 1000
    m = engine.tensor([1.0, 2.0], requires_grad=True)
    assert not engine.normal(m, 1.0).requires_grad


@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda: engine.multinomial(engine.tensor([-1.0, 2]), 1),
            RuntimeError,
            "probability tensor contains either `inf`, `nan` or element < 0",
        ),
        (
            lambda: engine.multinomial(engine.tensor([0.0, 0]), 1),
            RuntimeError,
            "invalid multinomial distribution \\(sum of probabilities <= 0\\)",
        ),
        (
            lambda: engine.multinomial(engine.tensor([1.0, 2]), 3),
            RuntimeError,
            "cannot sample n_sample > prob_dist.size\\(-1\\) samples without replacement",
        ),
        (
            lambda: engine.multinomial(engine.zeros(2, 2, 2), 1),
            RuntimeError,
            "prob_dist must be 1 or 2 dim",
        ),
        (
            lambda: engine.multinomial(engine.tensor([1.0, 2]), 0),
            RuntimeError,
            "cannot sample n_sample <= 0 samples",
        ),
        (
            lambda: engine.multinomial(engine.tensor([1, 2]), 1),
            RuntimeError,
            "multinomial only supports floating-point dtypes for input, got: Long",
        ),
        (
            lambda: engine.poisson(engine.tensor([-1.0])),
            RuntimeError,
            "invalid Poisson rate, expected rate to be non-negative",
        ),
        (
            lambda: engine.bernoulli(engine.tensor([1.5])),
            RuntimeError,
            "Expected p_in >= 0 && p_in <= 1 to be true",
        ),
        (
            lambda: engine.empty(2).geometric_(0),
            RuntimeError,
            "geometric_ expects p to be in \\(0, 1\\), but got p=0",
        ),
        (
            lambda: engine.empty(2).exponential_(-1),
            RuntimeError,
            "exponential_ expects lambda > 0.0, but found lambda=-1",
        ),
        (
            lambda: engine.empty(2).random_(5, 2),
            RuntimeError,
            "random_ expects 'from' to be less than 'to', but got from=5 >= to=2",
        ),
        (
            lambda: engine.randperm(-1),
            RuntimeError,
            "Trying to create tensor with negative dimension -1: \\[-1\\]",
        ),
        (
            lambda: engine.empty(2).log_normal_(1, -1),
            RuntimeError,
            "log_normal_ expects std > 0.0, but found std=-1",
        ),
        (
            lambda: engine.empty(2).cauchy_(0, -1),
            RuntimeError,
            "cauchy_ expects sigma > 0.0, but found sigma=-1",
        ),
        (
            lambda: engine.normal(engine.zeros(2), engine.tensor([-1.0, 1])),
            RuntimeError,
            "normal expects all elements of std >= 0.0",
        ),
    ],
)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_multinomial_single_draw_with_replacement_follows_pytorchs_stream():
    # PyTorch 2.13: manual_seed(0); multinomial(p, 1, replacement=True) -> [[2], [2]] and
    # multinomial(p, 3, replacement=True) -> [[2, 2, 1], [2, 2, 2]] (the single draw takes the
    # exponential-keys path, as without replacement).
    p = engine.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
    engine.manual_seed(0)
    assert engine.multinomial(p, 1, replacement=True).tolist() == [[2], [2]]
    engine.manual_seed(0)
    assert engine.multinomial(p, 3, replacement=True).tolist() == [[2, 2, 1], [2, 2, 2]]


def test_randperm_is_pytorchs_stream():
    # Recorded from PyTorch 2.13: the same seed gives the same permutations (a Fisher-Yates pass
    # with one 32-bit draw per position) and leaves the generator where PyTorch leaves it.
    import hashlib

    engine.manual_seed(3)
    assert engine.randperm(10).tolist() == [6, 0, 3, 7, 8, 5, 1, 9, 2, 4]
    digest = hashlib.sha256(engine.randperm(1000).numpy().tobytes()).hexdigest()
    assert digest == "67acb9796b92b0da16cf371dc251aeea4d7af9b1116a8d20d1f55609b30ffd5b"
    assert engine.rand(2, dtype=engine.float64).tolist() == [0.841673506011156, 0.14001519804367646]
    g = engine.Generator().manual_seed(5)
    assert engine.randperm(7, generator=g).tolist() == [1, 0, 4, 2, 6, 5, 3]
