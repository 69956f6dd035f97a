"""engine.device, engine.cuda / engine.backends queries, isclose / allclose / equal,
engine.testing.assert_close, and the creation helpers over the factories. Expected values and
messages are PyTorch 2.13's, recorded from it."""

import math
import pickle

import engine
import pytest
from engine.testing import assert_close


def test_the_standard_device_selection_line_runs():
    device = engine.device("cuda" if engine.cuda.is_available() else "cpu")
    x = engine.ones(2).to(device)
    assert repr(device) == "device(type='cpu')" and str(device) == "cpu"
    assert x.device == engine.device("cpu") and x.device.type == "cpu" and x.device.index is None
    assert engine.zeros(2, device=device).tolist() == [0.0, 0.0]
    assert engine.zeros(2, device="cpu:0").device == device


def test_device_objects():
    assert repr(engine.device("cuda:1")) == "device(type='cuda', index=1)"
    assert engine.device("cuda", 1).index == 1 and str(engine.device("cpu", 0)) == "cpu:0"
    assert engine.device(engine.device("cpu")) == engine.device("cpu")
    assert engine.device("cpu") != "cpu"  # as PyTorch 2.13: a device never equals a string
    assert hash(engine.device("cpu")) == hash(engine.device("cpu"))
    assert pickle.loads(pickle.dumps(engine.device("cuda", 2))) == engine.device("cuda:2")
    with pytest.raises(
        RuntimeError,
        match="^Expected one of cpu, cuda, .* device type at start of device string: xyz$",
    ):
        engine.device("xyz")
    with pytest.raises(RuntimeError, match="^Device index must not be negative$"):
        engine.device("cpu", -1)


@pytest.mark.parametrize(
    "call",
    [
        lambda: engine.ones(2).cuda(),
        lambda: engine.ones(2).to("cuda"),
        lambda: engine.ones(2).to(engine.device("cuda", 0)),
        lambda: engine.zeros(2, device="cuda"),
        lambda: engine.cuda.current_device(),
        lambda: engine.cuda.synchronize(),
    ],
)
def test_cuda_needs_raise_pytorchs_error(call):
    with pytest.raises(AssertionError, match="^Torch not compiled with CUDA enabled$"):
        call()


def test_accelerator_queries_report_cpu_only():
    import engine.backends.cudnn as cudnn

    assert engine.cuda.is_available() is False and engine.cuda.device_count() == 0
    assert engine.cuda.is_initialized() is False
    engine.cuda.manual_seed(1)
    engine.cuda.manual_seed_all(1)
    engine.cuda.empty_cache()
    assert engine.backends.mps.is_available() is False and engine.backends.mps.is_built() is False
    cudnn.benchmark = True
    assert engine.backends.cudnn.benchmark is True
    cudnn.benchmark = False


def test_isclose_follows_pytorch():
    a = engine.tensor([math.inf, math.nan, 1.0, -math.inf, 2.0])
    b = engine.tensor([math.inf, math.nan, 1.0 + 1e-6, math.inf, 2.1])
    assert engine.isclose(a, b).tolist() == [True, False, True, False, False]
    assert engine.isclose(a, b, equal_nan=True).tolist() == [True, True, True, False, False]
    assert engine.isclose(engine.tensor([1, 2]), engine.tensor([1, 3])).tolist() == [True, False]
    assert engine.isclose(engine.ones(2), engine.ones(1)).tolist() == [True, True]
    assert engine.isclose(engine.tensor([True]), engine.tensor([True])).tolist() == [True]
    with pytest.raises(RuntimeError, match="^Long did not match Float$"):
        engine.isclose(engine.tensor([1, 2]), engine.tensor([1.0, 2.0]))
    with pytest.raises(
        TypeError, match=r"^isclose\(\): argument 'other' \(position 2\) must be Tensor, not float$"
    ):
        engine.isclose(engine.ones(2), 1.0)


def test_allclose_and_equal():
    assert engine.allclose(engine.ones(2), engine.ones(2) * (1 + 1e-6))
    assert not engine.allclose(engine.ones(2), engine.ones(2) * 1.00001)
    assert engine.equal(engine.tensor([1, 2]), engine.tensor([1.0, 2.0]))
    assert not engine.equal(engine.ones(2), engine.ones(3))
    assert not engine.equal(engine.tensor([math.nan]), engine.tensor([math.nan]))
    with pytest.raises(
        TypeError, match=r"^equal\(\): argument 'other' \(position 2\) must be Tensor, not float$"
    ):
        engine.equal(engine.tensor(1.0), 1.0)


@pytest.mark.parametrize(
    "actual, expected, message",
    [
        (
            engine.tensor([1.0, 2.0, 3.0]),
            engine.tensor([1.0, 2.5, 3.0]),
            "Tensor-likes are not close!\n\nMismatched elements: 1 / 3 (33.3%)\n"
            "Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\n"
            "Greatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)",
        ),
        (
            engine.ones(2),
            engine.ones(3),
            "The values for attribute 'shape' do not match: torch.Size([2]) != torch.Size([3]).",
        ),
        (
            engine.ones(2),
            engine.ones(2, dtype=engine.float64),
            "The values for attribute 'dtype' do not match: torch.float32 != torch.float64.",
        ),
        (
            engine.tensor([1, 2]),
            engine.tensor([1, 3]),
            "Tensor-likes are not equal!\n\nMismatched elements: 1 / 2 (50.0%)\n"
            "Greatest absolute difference: 1 at index (1,)\n"
            "Greatest relative difference: 0.3333333432674408 at index (1,)",
        ),
        (
            1.0,
            1.1,
            "Scalars are not close!\n\nExpected 1.1 but got 1.0.\n"
            "Absolute difference: 0.10000000000000009 (up to 1e-07 allowed)\n"
            "Relative difference: 0.09090909090909098 (up to 1e-07 allowed)",
        ),
        (
            [engine.ones(1)],
            [engine.zeros(1)],
            "Tensor-likes are not close!\n\nMismatched elements: 1 / 1 (100.0%)\n"
            "Greatest absolute difference: 1.0 at index (0,) (up to 1e-05 allowed)\n"
            "Greatest relative difference: inf at index (0,) (up to 1.3e-06 allowed)\n\n"
            "The failure occurred for item [0]",
        ),
        (
            engine.ones(2, 2),
            engine.tensor([[1.0, 1.0], [1.0, 0.0]]),
            "Tensor-likes are not close!\n\nMismatched elements: 1 / 4 (25.0%)\n"
            "Greatest absolute difference: 1.0 at index (1, 1) (up to 1e-05 allowed)\n"
            "Greatest relative difference: inf at index (1, 1) (up to 1.3e-06 allowed)",
        ),
    ],
)
def test_assert_close_messages_match_pytorch(actual, expected, message):
    with pytest.raises(AssertionError) as info:
        assert_close(actual, expected)
    assert str(info.value) == message


def test_assert_close_passes_and_options():
    assert_close(engine.ones(3), engine.ones(3) * (1 + 1e-7))
    assert_close({"a": engine.ones(2)}, {"a": engine.ones(2)})
    assert_close(engine.ones(2), engine.ones(2, dtype=engine.float64), check_dtype=False)
    assert_close(engine.tensor([math.nan]), engine.tensor([math.nan]), equal_nan=True)
    assert_close(engine.ones(1), engine.ones(1) * 1.1, rtol=0.2, atol=0.0)
    with pytest.raises(
        ValueError,
        match="^Both 'rtol' and 'atol' must be either specified or omitted, but got no atol.$",
    ):
        assert_close(engine.ones(1), engine.ones(1), rtol=0.1)
    with pytest.raises(AssertionError, match="^custom$"):
        assert_close(engine.ones(1), engine.zeros(1), msg="custom")


def test_creation_helpers():
    assert engine.eye(2, 3).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    assert engine.eye(2, dtype=engine.int64).tolist() == [[1, 0], [0, 1]]
    with pytest.raises(RuntimeError, match="^n must be greater or equal to 0, got -1$"):
        engine.eye(-1)
    base = engine.ones(2, dtype=engine.float64)
    assert base.new_zeros(2, 3).shape == (2, 3) and base.new_zeros((2, 3)).dtype == engine.float64
    assert base.new_ones(2, dtype=engine.int64).tolist() == [1, 1]
    assert base.new_full((2,), 3).tolist() == [3.0, 3.0]
    assert base.new_empty(4).shape == (4,)
    assert engine.ones(2, dtype=engine.int64).new_tensor([1.5]).tolist() == [1]
    assert base.new_ones(2, requires_grad=True).requires_grad
    r = engine.randint_like(engine.ones(1000), 3, 5)
    assert r.dtype == engine.float32 and set(r.tolist()) == {3.0, 4.0}
    assert engine.rand_like(base).dtype == engine.float64 and engine.randn_like(base).shape == (2,)
    t = engine.tensor([1.0, 2.0])
    assert engine.as_tensor(t) is t and engine.as_tensor([1, 2]).tolist() == [1, 2]
    assert (engine.pi, engine.e, engine.inf) == (math.pi, math.e, math.inf) and math.isnan(
        engine.nan
    )
