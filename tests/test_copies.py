"""The *_copy functions: fresh contiguous tensors equal to their views, never sharing memory,
differentiable; unfold_copy / as_strided_copy / as_strided_scatter against NumPy's strided views."""

# ruff: noqa: E501 - PyTorch's messages are kept whole on one line

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck
from numpy.lib.stride_tricks import as_strided, sliding_window_view


def arr(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def T(a, grad=False):
    return engine.tensor(np.asarray(a, dtype=np.float64), requires_grad=grad)


CASES = [
    ("alias_copy", (), lambda a: a),
    ("detach_copy", (), lambda a: a),
    ("diagonal_copy", (1, 0, 2), lambda a: np.diagonal(a, 1, 0, 2)),
    ("expand_copy", ((2, 3, 4, 5),), lambda a: np.broadcast_to(a, (2, 3, 4, 5))),
    ("permute_copy", ((2, 0, 1),), lambda a: a.transpose(2, 0, 1)),
    ("select_copy", (1, 2), lambda a: a[:, 2]),
    ("slice_copy", (2, 1, None, 2), lambda a: a[:, :, 1::2]),
    ("squeeze_copy", (), lambda a: a),
    ("transpose_copy", (0, 2), lambda a: a.swapaxes(0, 2)),
    ("unsqueeze_copy", (1,), lambda a: a[:, None]),
    ("view_copy", ((4, 15),), lambda a: a.reshape(4, 15)),
    ("narrow_copy", (2, 1, 3), lambda a: a[:, :, 1:4]),
    ("unfold_copy", (2, 3, 2), lambda a: sliding_window_view(a, 3, axis=2)[:, :, ::2]),
]


@pytest.mark.parametrize("name, args, ref", CASES, ids=[c[0] for c in CASES])
def test_copies_equal_their_views_and_are_fresh(name, args, ref):
    a = arr(3, 4, 5)
    x = T(a)
    got = getattr(engine, name)(x, *args)
    np.testing.assert_array_equal(got.numpy(), ref(a))
    assert got.is_contiguous()
    if got.numel():
        assert got.data_ptr() != x.data_ptr()
    if name != "detach_copy":  # detach has no gradient, in PyTorch either
        assert gradcheck(lambda t: getattr(engine, name)(t, *args), (T(a, True),))


def test_list_copies_and_t_copy():
    x = engine.arange(5)
    assert [t.tolist() for t in engine.split_copy(x, 2)] == [[0, 1], [2, 3], [4]]
    assert [t.tolist() for t in engine.split_with_sizes_copy(x, [2, 3])] == [[0, 1], [2, 3, 4]]
    assert [t.tolist() for t in engine.unbind_copy(engine.zeros(2, 3), 1)] == [[0.0, 0.0]] * 3
    assert engine.t_copy(engine.zeros(2, 3)).stride() == (2, 1)
    assert engine.view_copy(engine.ones(2), engine.int32).tolist() == [1065353216, 1065353216]
    assert engine.arange(6).narrow_copy(0, 2, 3).tolist() == [2, 3, 4]


def test_as_strided_copy_and_scatter():
    a = np.arange(12.0)
    got = engine.as_strided_copy(T(a), (3, 2), (1, 3), 2)
    want = as_strided(a[2:], (3, 2), (8, 24))
    np.testing.assert_array_equal(got.numpy(), want)
    out = engine.as_strided_scatter(T(np.zeros(6)), T(np.ones((2, 2))), (2, 2), (1, 2), 1)
    assert out.tolist() == [0.0, 1.0, 1.0, 1.0, 1.0, 0.0]
    with pytest.raises(RuntimeError, match="out of bounds for storage of size"):
        engine.as_strided_copy(T(a), (2, 2), (6, 6), 1)
    view = T(a)[2:]
    assert engine.as_strided_copy(view, (2,), (1,)).tolist() == [2.0, 3.0]
    assert engine.as_strided_copy(view, (2,), (1,), 0).tolist() == [0.0, 1.0]
    assert engine.as_strided_scatter(view, T([-1.0, -1.0]), (2,), (1,)).tolist()[:3] == [
        -1.0,
        -1.0,
        4.0,
    ]
    assert (
        engine.as_strided_scatter(view, T([-1.0, -1.0]), (2,), (1,), 0).tolist() == a[2:].tolist()
    )
    assert gradcheck(
        lambda s, v: engine.as_strided_scatter(s, v, (2, 2), (1, 2), 1),
        (T(arr(6), True), T(arr(2, 2), True)),
    )


def test_unfold_copy_errors():
    with pytest.raises(
        RuntimeError, match="maximum size for tensor at dimension 0 is 7 but size is 8"
    ):
        engine.unfold_copy(engine.arange(7.0), 0, 8, 2)
    with pytest.raises(RuntimeError, match="step is 0 but must be > 0"):
        engine.unfold_copy(engine.arange(7.0), 0, 2, 0)
