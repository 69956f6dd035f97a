"""Lazy modules and uninitialized parameters: PyTorch 2.13's behaviour (fixture) and rules."""

import copy
import importlib.util
import json
import pathlib
import pickle

import engine
import pytest
from engine import nn
from engine.nn.parameter import UninitializedBuffer, UninitializedParameter, is_lazy

FIXTURES = pathlib.Path(__file__).parent.parent / "fixtures"


def test_matches_pytorch():
    spec = importlib.util.spec_from_file_location(
        "record_lazy", FIXTURES / "record_lazy_modules.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    expected = json.loads((FIXTURES / "nn_lazy.json").read_text())
    got = json.loads(json.dumps(module.scenario(engine)))
    assert got.keys() == expected.keys()
    for key in expected:
        assert got[key] == expected[key], key


def test_uninitialized_parameter_rules():
    p = UninitializedParameter()
    assert is_lazy(p) and isinstance(p, nn.Parameter) and repr(p) == "<UninitializedParameter>"
    with pytest.raises(
        RuntimeError, match="Can't access the shape of an uninitialized parameter or buffer"
    ):
        _ = p.shape
    p.materialize((2, 3))
    assert type(p) is nn.Parameter and p.shape == (2, 3) and not is_lazy(p)
    b = UninitializedBuffer()
    b.materialize((4,), dtype=engine.float64)
    assert b.shape == (4,) and b.dtype == engine.float64 and isinstance(b, engine.Tensor)


def test_lazy_module_becomes_its_class_and_trains():
    engine.manual_seed(0)
    model = nn.Sequential(
        nn.LazyConv2d(4, 3), nn.LazyBatchNorm2d(), nn.ReLU(), nn.Flatten(), nn.LazyLinear(2)
    )
    x = engine.randn(3, 2, 6, 6)
    model(x)
    assert [type(m).__name__ for m in model] == [
        "Conv2d",
        "BatchNorm2d",
        "ReLU",
        "Flatten",
        "Linear",
    ]
    assert type(model[1].running_mean) is engine.Tensor
    opt = engine.optim.Adam(model.parameters(), lr=0.01)
    loss = model(x).pow(2).sum()
    loss.backward()
    opt.step()
    copy.deepcopy(model)
    pickle.loads(pickle.dumps(model))


def test_lazy_errors():
    m = nn.LazyConv2d(4, 3, groups=2)
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        m(engine.randn(1, 3, 5, 5))
    with pytest.raises(
        RuntimeError, match=r"Expected 3D \(unbatched\) or 4D \(batched\) input to LazyConv2d"
    ):
        nn.LazyConv2d(4, 3)(engine.randn(5, 5))
