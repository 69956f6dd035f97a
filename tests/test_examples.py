"""The scripts under examples/ run with `import engine as torch` and reach the results PyTorch's
tutorials report."""

from __future__ import annotations

import importlib.util
import math
import pathlib

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_polynomial_custom_function_fits_sine(capsys):
    loss = _load("polynomial_custom_function").main()
    out = capsys.readouterr().out
    # PyTorch's tutorial reports y = -6.7e-09 + -2.2085 * P3(-3.6e-09 + 0.25549 x), loss ~8.94.
    assert "Result: y = " in out and "* P3(" in out
    assert loss == pytest.approx(8.94, abs=0.05)
    b = float(out.split("Result: y = ")[1].split(" + ")[1].split(" *")[0])
    assert b == pytest.approx(-2.2085, abs=1e-3)


def test_custom_relu_mask_gradient_trains(capsys):
    first, last = _load("custom_relu").main()
    assert last < first / 20
    assert "loss" in capsys.readouterr().out


def test_custom_relu_backward_masks_negative_inputs():
    import engine as torch

    relu = _load("custom_relu").MyReLU
    x = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
    relu.apply(x).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0, 1.0]


def test_custom_linear_recovers_weights(capsys):
    weight, bias, loss = _load("custom_linear").main()
    assert weight[0].tolist() == pytest.approx([2.0, -3.0, 0.5], abs=1e-3)
    assert bias.item() == pytest.approx(0.7, abs=1e-3)
    assert loss < 1e-6
    assert "weight [2.0, -3.0, 0.5] bias 0.7" in capsys.readouterr().out


def test_custom_exp_double_backward(capsys):
    y, dy, d2y, ok = _load("custom_exp_double_backward").main()
    expected = [math.exp(v) for v in (0.5, -1.0, 2.0)]
    for got in (y, dy, d2y):
        assert got.tolist() == pytest.approx(expected, rel=1e-12)
    assert ok
    assert "gradcheck and gradgradcheck: True" in capsys.readouterr().out
