"""Memory formats: channels-last layouts with PyTorch's strides, and memory_format= arguments."""

import copy
import pickle

import engine
import pytest


def test_names_and_repr():
    assert repr(engine.channels_last) == "torch.channels_last"
    assert repr(engine.contiguous_format) == "torch.contiguous_format"
    assert isinstance(engine.preserve_format, engine.memory_format)
    assert pickle.loads(pickle.dumps(engine.channels_last_3d)) is engine.channels_last_3d
    assert copy.deepcopy(engine.channels_last) is engine.channels_last


def test_channels_last_strides_and_values():
    x = engine.randn(2, 3, 4, 5)
    y = x.contiguous(memory_format=engine.channels_last)
    assert y.stride() == (60, 1, 15, 3)
    assert y.is_contiguous(memory_format=engine.channels_last) and not y.is_contiguous()
    assert engine.equal(x, y)
    assert y.contiguous(memory_format=engine.channels_last) is y
    assert y.contiguous().stride() == (60, 20, 5, 1)
    z = engine.randn(2, 3, 4, 5, 6).contiguous(memory_format=engine.channels_last_3d)
    assert z.stride() == (360, 1, 90, 18, 3)


def test_clone_preserves_or_sets_layout():
    y = engine.randn(2, 3, 4, 5).contiguous(memory_format=engine.channels_last)
    assert y.clone().stride() == (60, 1, 15, 3)
    assert engine.clone(y, memory_format=engine.contiguous_format).stride() == (60, 20, 5, 1)
    assert engine.randn(2, 3, 4, 5).clone(memory_format=engine.channels_last).stride() == (
        60,
        1,
        15,
        3,
    )


def test_to_with_memory_format():
    x = engine.randn(2, 3, 4, 5)
    assert x.to(memory_format=engine.channels_last).stride() == (60, 1, 15, 3)
    d = x.to(engine.float64, memory_format=engine.channels_last)
    assert d.dtype == engine.float64 and d.stride() == (60, 1, 15, 3)


def test_errors_match_pytorch():
    with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last format"):
        engine.randn(3, 4).contiguous(memory_format=engine.channels_last)
    with pytest.raises(
        RuntimeError, match="preserve memory format is unsupported by the contiguous operator"
    ):
        engine.randn(3, 4).contiguous(memory_format=engine.preserve_format)
    with pytest.raises(TypeError, match="argument 'memory_format' must be torch.memory_format"):
        engine.randn(3, 4).contiguous(memory_format="channels_last")


def test_module_to_channels_last_trains_the_same():
    engine.manual_seed(0)
    a = engine.nn.Conv2d(3, 4, 3)
    b = copy.deepcopy(a).to(memory_format=engine.channels_last)
    assert b.weight.stride() == (27, 1, 9, 3) and isinstance(b.weight, engine.nn.Parameter)
    x = engine.randn(2, 3, 8, 8)
    ya, yb = a(x), b(x.contiguous(memory_format=engine.channels_last))
    assert engine.allclose(ya, yb, atol=1e-6)
    ya.sum().backward()
    yb.sum().backward()
    assert engine.allclose(a.weight.grad, b.weight.grad, atol=1e-5)
