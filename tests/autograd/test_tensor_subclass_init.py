"""Subclasses of ``engine.Tensor`` built by calling them, as in PyTorch: ``Sub(t)`` is a view of
all of ``t`` that stays in its graph (``AliasBackward0``), ``Sub(data)`` a new tensor, and the
subclass's own ``__init__`` (and ``__new__``) run with the call's arguments."""

import engine as torch
import pytest


class Plain(torch.Tensor):
    pass


class Diag(torch.Tensor):
    def __init__(self, diag):
        self._diag = diag


def test_from_a_tensor_is_an_alias_in_its_graph():
    d = torch.ones(2, requires_grad=True)
    e = Plain(d)
    assert type(e) is Plain
    assert e.requires_grad and not e.is_leaf and type(e.grad_fn).__name__ == "AliasBackward0"
    assert e._is_view() and e._base is d
    (e * 3).sum().backward()
    assert d.grad.tolist() == [3.0, 3.0]
    with torch.no_grad():
        d.add_(1)
    assert e.tolist() == [2.0, 2.0] and e._version == 1


def test_own_init_runs_with_the_arguments():
    d = torch.tensor([0.25, 0.5])
    a = Diag(d)
    assert type(a) is Diag and a._diag is d
    assert a.data_ptr() == d.data_ptr() and a.shape == (2,)


def test_init_of_a_subclass_of_a_subclass():
    class Tagged(Plain):
        def __init__(self, *args, **kwargs):
            self.tag = args

    t = Tagged(torch.ones(2))
    assert type(t) is Tagged and len(t.tag) == 1


def test_own_new_and_init():
    class WithNew(torch.Tensor):
        def __new__(cls, data, scale=1.0):
            return torch.Tensor._make_subclass(cls, data * scale, True)

        def __init__(self, data, scale=1.0):
            self.scale = scale

    w = WithNew(torch.ones(2), scale=3.0)
    assert type(w) is WithNew and w.scale == 3.0 and w.requires_grad and w.is_leaf
    assert w.tolist() == [3.0, 3.0]


def test_from_data_or_sizes():
    assert Plain([1.0, 2.0]).tolist() == [1.0, 2.0] and type(Plain([1.0])) is Plain
    assert Plain([1, 2]).dtype == torch.float32  # the legacy constructor's default dtype
    assert Plain(torch.tensor([1, 2])).dtype == torch.int64  # an alias keeps the dtype
    assert Plain(2, 3).shape == (2, 3)


def test_as_subclass_stays_in_the_graph():
    d = torch.ones(2, requires_grad=True)
    y = (d * 2).as_subclass(Plain)
    assert type(y) is Plain and type(y.grad_fn).__name__ == "AliasBackward0"
    y.sum().backward()
    assert d.grad.tolist() == [2.0, 2.0]
    with pytest.raises(TypeError, match="as_subclass"):
        d.as_subclass(int)


def test_matches_torch():
    real = pytest.importorskip("torch")

    def story(lib):
        class Sub(lib.Tensor):
            def __init__(self, base):
                self.base = base

        d = lib.ones(2, requires_grad=True)
        e = Sub(d)
        f = (d * 2).as_subclass(Sub)
        return [
            type(e).__name__,
            e.base is d,
            type(e.grad_fn).__name__,
            e.is_leaf,
            e._base is d,
            type(f.grad_fn).__name__,
            str(Sub([1, 2]).dtype).replace("engine", "torch"),
        ]

    assert story(torch) == story(real)
