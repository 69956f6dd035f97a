"""torch.div's rounding modes (values recorded from PyTorch 2.13): as a function, a method, in
place and with out=; integer results for integer operands, a zero gradient on DivBackward2."""

import engine
import numpy as np
import pytest


def test_trunc_and_floor_on_integers_and_floats():
    a, b = engine.tensor([7, -7, 5]), engine.tensor([2, 2, -3])
    assert engine.div(a, b, rounding_mode="trunc").tolist() == [3, -3, -1]
    assert engine.div(a, b, rounding_mode="floor").tolist() == [3, -4, -2]
    assert engine.div(a, b, rounding_mode="floor").dtype == engine.int64
    assert engine.div(a.float(), b, rounding_mode="trunc").tolist() == [3.0, -3.0, -1.0]
    assert a.div(2, rounding_mode="floor").tolist() == [3, -4, 2]
    assert engine.divide(a, 2, rounding_mode="trunc").tolist() == [3, -3, 2]
    assert engine.div(engine.tensor([1.0]), 0.1, rounding_mode="floor").tolist() == [9.0]
    q = engine.div(a.float(), 0.0, rounding_mode="floor")
    np.testing.assert_array_equal(q.numpy(), [np.inf, -np.inf, np.inf])
    assert engine.div(a, 2).tolist() == [3.5, -3.5, 2.5]  # no rounding mode: true division


def test_in_place_out_and_errors():
    a, b = engine.tensor([7, -7, 5]), engine.tensor([2, 2, -3])
    c = a.clone()
    c.div_(2, rounding_mode="floor")
    assert c.tolist() == [3, -4, 2]
    out = engine.empty(3, dtype=engine.int64)
    engine.div(a, b, rounding_mode="floor", out=out)
    assert out.tolist() == [3, -4, -2]
    with pytest.raises(RuntimeError, match="one of None, 'trunc', or 'floor' but found 'bad'"):
        engine.div(a, b, rounding_mode="bad")
    with pytest.raises(ZeroDivisionError):
        engine.div(a, engine.tensor([0, 1, 1]), rounding_mode="trunc")


@pytest.mark.parametrize("mode", ["trunc", "floor"])
def test_rounded_quotient_has_a_zero_gradient(mode):
    x = engine.tensor([7.0, -7.0], requires_grad=True)
    y = engine.div(x, 2, rounding_mode=mode)
    assert type(y.grad_fn).__name__ == "DivBackward2"
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]
