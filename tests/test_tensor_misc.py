"""typename / layout / dim_order / H / mH / adjoint / is_same_size / is_nonzero / is_signed / new /
as_subclass / resize_ / apply_ / map_ / map2_ / warn-always: PyTorch 2.13's results and messages."""

# ruff: noqa: E501 - PyTorch's messages are kept whole on one line

import pickle
import warnings

import engine
import pytest


def test_typename_layout_and_queries():
    assert engine.typename(engine.zeros(2)) == "torch.FloatTensor"
    assert engine.typename(engine.zeros(2, dtype=engine.int64)) == "torch.LongTensor"
    assert engine.typename(3) == "int"
    x = engine.zeros(2, 3)
    assert str(x.layout) == "torch.strided" and x.layout is engine.strided
    assert pickle.loads(pickle.dumps(engine.strided)) is engine.strided
    assert x.is_cpu and not x.is_inference() and not engine.is_inference(x)
    assert x.t().dim_order() == (1, 0) and engine.zeros(2, 1, 3).dim_order() == (0, 1, 2)
    assert x.const_data_ptr() == x.data_ptr()
    assert x.is_same_size(engine.zeros(2, 3)) and not engine.is_same_size(x, engine.zeros(3, 2))
    assert x.is_signed() and not engine.zeros(1, dtype=engine.bool).is_signed()
    assert isinstance(engine.is_anomaly_check_nan_enabled(), bool)
    assert not engine.is_warn_always_enabled()
    engine.set_warn_always(True)
    assert engine.is_warn_always_enabled()
    engine.set_warn_always(False)


def test_conjugate_transposes():
    x = engine.arange(6.0).reshape(3, 2)
    assert x.H.tolist() == x.t().tolist()
    assert engine.zeros(4, 3, 2).mH.shape == (4, 2, 3)
    assert engine.adjoint(x).shape == (2, 3) and x.adjoint().shape == (2, 3)
    with pytest.raises(
        RuntimeError,
        match=r"tensor.H is only supported on matrices \(2-D tensors\). Got 1-D tensor.",
    ):
        _ = engine.zeros(3).H
    with pytest.raises(
        RuntimeError,
        match="tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor.",
    ):
        _ = engine.zeros(3).mH


def test_is_nonzero():
    assert engine.tensor([2.0]).is_nonzero() and not engine.is_nonzero(engine.tensor(0))
    with pytest.raises(
        RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"
    ):
        engine.zeros(3).is_nonzero()
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with no values is ambiguous"):
        engine.zeros(0).is_nonzero()


def test_new_legacy_constructor():
    x = engine.zeros(2, 3, dtype=engine.float64)
    assert x.new(2, 3).shape == (2, 3) and x.new(2, 3).dtype == engine.float64
    assert x.new([1, 2]).tolist() == [1.0, 2.0]
    assert x.new((2, 3)).tolist() == [2.0, 3.0]  # a tuple is data, as in PyTorch
    assert x.new(engine.Size([2])).shape == (2,)
    assert x.new().shape == (0,)


def test_as_subclass_shares_data():
    class Tagged(engine.Tensor):
        pass

    x = engine.zeros(3)
    y = x.as_subclass(Tagged)
    assert type(y) is Tagged
    y.add_(1)
    assert x.tolist() == [1.0, 1.0, 1.0]


def test_resize():
    y = engine.arange(6.0)
    assert y.resize_(2, 2).tolist() == [[0.0, 1.0], [2.0, 3.0]]
    assert y.resize_(3, 3).shape == (3, 3) and y.view(-1)[:4].tolist() == [0.0, 1.0, 2.0, 3.0]
    assert engine.zeros(1).resize_as_(engine.zeros(2, 2)).shape == (2, 2)
    with pytest.raises(RuntimeError, match="cannot resize variables that require grad"):
        engine.zeros(2, requires_grad=True).resize_(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert engine.arange(6.0).resize(2, 3).shape == (2, 3)
    assert "non-inplace resize is deprecated" in str(caught[0].message)


def test_apply_map_map2():
    a = engine.tensor([1.0, 2.0])
    assert a.apply_(lambda v: v * 10) is a and a.tolist() == [10.0, 20.0]
    assert a.map_(engine.tensor([1.0]), lambda u, v: u + v).tolist() == [11.0, 21.0]
    assert a.map2_(
        engine.tensor([1.0, 1]), engine.tensor([2.0]), lambda u, v, w: u + v * w
    ).tolist() == [13.0, 23.0]
    with pytest.raises(
        RuntimeError, match="Can't call apply_\\(\\) on Variable that requires grad"
    ):
        engine.zeros(2, requires_grad=True).apply_(lambda v: v)
