"""Weight averaging (engine.optim.swa_utils) and convolution gradients (engine.nn.grad): the
same runs as PyTorch 2.13 (fixture), plus the API's rules."""

import importlib.util
import json
import pathlib

import engine
import pytest
from engine.optim import swa_utils

FIXTURES = pathlib.Path(__file__).parent.parent / "fixtures"


def _scenario():
    path = FIXTURES / "record_swa_and_conv_grads.py"
    spec = importlib.util.spec_from_file_location("record_swa_and_conv_grads", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.scenario


def _close(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return abs(a - b) <= 2e-4 * max(1.0, abs(b))


def test_matches_pytorch():
    expected = json.loads((FIXTURES / "swa_and_conv_grads.json").read_text())
    got = _scenario()(engine)
    for key in expected:
        assert _close(got[key], expected[key]), key


def test_errors():
    with pytest.raises(
        ValueError,
        match=r"Invalid decay value 1.5 provided. Please provide a value in \[0,1\] range.",
    ):
        swa_utils.get_ema_avg_fn(1.5)
    model = engine.nn.Linear(2, 2)
    with pytest.raises(
        AssertionError, match="Only one of avg_fn and multi_avg_fn should be provided"
    ):
        swa_utils.AveragedModel(
            model, avg_fn=swa_utils.get_swa_avg_fn(), multi_avg_fn=swa_utils.get_swa_multi_avg_fn()
        )
    opt = engine.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(
        ValueError, match="anneal_strategy must be one of 'cos' or 'linear', instead got x"
    ):
        swa_utils.SWALR(opt, 0.01, anneal_strategy="x")


def test_swa_is_the_running_mean():
    model = engine.nn.Linear(2, 1)
    avg = swa_utils.AveragedModel(model)
    seen = []
    for step in range(4):
        with engine.no_grad():
            model.weight.fill_(float(step))
        seen.append(float(step))
        avg.update_parameters(model)
    assert engine.allclose(avg.module.weight, engine.full((1, 2), sum(seen) / len(seen)))


def test_conv_grads_agree_with_autograd_and_differentiate():
    x = engine.randn(2, 4, 6, 5, dtype=engine.float64, requires_grad=True)
    w = engine.randn(6, 2, 3, 2, dtype=engine.float64, requires_grad=True)
    y = engine.nn.functional.conv2d(x, w, stride=2, padding=1, groups=2, dilation=1)
    g = engine.randn(y.shape, dtype=engine.float64)
    gx, gw = engine.autograd.grad(y, (x, w), g)
    assert engine.allclose(
        engine.nn.grad.conv2d_input(x.shape, w, g, stride=2, padding=1, groups=2), gx
    )
    assert engine.allclose(
        engine.nn.grad.conv2d_weight(x, w.shape, g, stride=2, padding=1, groups=2), gw
    )
    g.requires_grad_()
    assert engine.autograd.gradcheck(
        lambda g: engine.nn.grad.conv2d_weight(
            x.detach(), w.shape, g, stride=2, padding=1, groups=2
        ),
        (g,),
    )
