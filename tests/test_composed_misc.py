"""fliplr / isposinf / isneginf / isreal / fill / rsub / constant_pad_nd / norm_except_dim and the
Tensor forms of allclose / isclose / equal: PyTorch 2.13's values, dtypes and messages; gradients
through gradcheck."""

# ruff: noqa: E501 - PyTorch's messages are kept whole on one line

import math

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck

inf = math.inf


def T(a, grad=False):
    return engine.tensor(np.asarray(a, dtype=np.float64), requires_grad=grad)


def test_flags_and_fliplr():
    x = engine.tensor([1.0, inf, -inf, math.nan])
    assert engine.isposinf(x).tolist() == [False, True, False, False]
    assert x.isneginf().tolist() == [False, False, True, False]
    assert engine.isneginf(engine.tensor([1, 2])).tolist() == [False, False]
    assert engine.isreal(engine.tensor([1, 2])).tolist() == [True, True]
    assert engine.fliplr(engine.arange(6).reshape(2, 3)).tolist() == [[2, 1, 0], [5, 4, 3]]
    with pytest.raises(RuntimeError, match="Input must be >= 2-d."):
        engine.arange(3).fliplr()


def test_fill_and_rsub():
    assert engine.fill(engine.zeros(2, dtype=engine.int64), 2.7).tolist() == [2, 2]
    assert engine.fill(engine.zeros(2), engine.tensor(3.0)).tolist() == [3.0, 3.0]
    with pytest.raises(
        RuntimeError,
        match="fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.",
    ):
        engine.fill(engine.zeros(2), engine.tensor([3.0]))
    assert gradcheck(lambda v: engine.fill(T(np.zeros(3)), v), (T(2.0, True),))
    assert engine.rsub(engine.tensor([1.0, 2]), engine.tensor([5.0, 5]), alpha=2).tolist() == [
        3.0,
        1.0,
    ]
    assert engine.rsub(engine.tensor([1.0, 2]), 5).tolist() == [4.0, 3.0]
    with pytest.raises(RuntimeError, match="with two bool tensors is not supported"):
        engine.rsub(engine.tensor([True]), engine.tensor([True]))
    assert gradcheck(
        lambda a, b: engine.rsub(a, b, alpha=0.5), (T([1.0, 2.0], True), T([3.0, 4.0], True))
    )


def test_constant_pad_nd_and_norm_except_dim():
    got = engine.constant_pad_nd(engine.ones(2, 2), (1, 0, 0, 1))
    assert got.tolist() == [[0.0, 1.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, 0.0]]
    assert engine.constant_pad_nd(engine.ones(2, 2), (1, 0), 5.0).tolist() == [[5.0, 1.0, 1.0]] * 2
    v = np.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(
        engine.norm_except_dim(T(v), 2, 0).numpy(), np.linalg.norm(v, axis=1, keepdims=True)
    )
    np.testing.assert_allclose(
        engine.norm_except_dim(T(v), 2, 1).numpy(), np.linalg.norm(v, axis=0, keepdims=True)
    )
    np.testing.assert_allclose(engine.norm_except_dim(T(v), 1, 0).numpy(), [[3.0], [12.0]])
    assert engine.norm_except_dim(T(v), 2, -1).item() == pytest.approx(np.linalg.norm(v))
    assert gradcheck(lambda t: engine.norm_except_dim(t, 3, 1), (T(v + 1, True),))


def test_comparison_methods():
    a = engine.tensor([1.0, 2.0])
    assert a.allclose(engine.tensor([1.0, 2.0000001]))
    assert a.isclose(engine.tensor([1.0, 3.0])).tolist() == [True, False]
    assert a.equal(engine.tensor([1.0, 2.0]))
