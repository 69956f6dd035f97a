"""masked_select / masked_scatter / index_put / index_fill / put / scatter_reduce / index_reduce /
take_along_dim / *_scatter / nonzero / fill_diagonal_: values against NumPy (ufunc.at for the
reductions), gradients against finite differences and PyTorch 2.13's recorded tie-sharing rule,
errors with PyTorch's messages."""

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck

IDX = [1, 1, 0, 3, 1]


def arr(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def T(a, grad=False):
    return engine.tensor(np.asarray(a, dtype=np.float64), requires_grad=grad)


def close(t, a):
    assert tuple(t.shape) == np.shape(a)
    np.testing.assert_allclose(t.detach().numpy(), a, rtol=1e-12, atol=1e-12)


def reference_scatter_reduce(x, idx, src, reduce, include_self):
    out = x.copy()
    touched = np.zeros(x.shape, bool)
    touched[idx] = True
    if not include_self:
        out[touched] = {"sum": 0, "mean": 0, "prod": 1, "amax": -np.inf, "amin": np.inf}[reduce]
    ufunc = {
        "sum": np.add,
        "mean": np.add,
        "prod": np.multiply,
        "amax": np.maximum,
        "amin": np.minimum,
    }
    ufunc[reduce].at(out, idx, src)
    if reduce == "mean":
        n = np.zeros(x.shape)
        np.add.at(n, idx, 1)
        n += include_self
        out = np.where(touched, out / np.maximum(n, 1), x)
    return out


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_matches_ufunc_at_and_gradcheck(reduce, include_self):
    x, src = arr(5), arr(5, seed=1)
    got = engine.scatter_reduce(
        T(x), 0, engine.tensor(IDX), T(src), reduce, include_self=include_self
    )
    close(got, reference_scatter_reduce(x, np.array(IDX), src, reduce, include_self))

    def f(a, b):
        return a.scatter_reduce(0, engine.tensor(IDX), b, reduce, include_self=include_self)

    assert gradcheck(f, (T(x, True), T(src, True)))


def test_scatter_reduce_two_dims_and_larger_src():
    x, src = arr(3, 4), arr(4, 5, seed=2)
    idx = np.array([[2, 0, 1, 1], [0, 0, 2, 1]])
    got = T(x).scatter_reduce(1, engine.tensor(idx.tolist()), T(src), "amax", include_self=False)
    want = x.copy()
    for i in range(2):
        for j in range(4):
            want[i, idx[i, j]] = -np.inf
    for i in range(2):
        for j in range(4):
            want[i, idx[i, j]] = max(want[i, idx[i, j]], src[i, j])
    close(got, want)


def test_amax_ties_share_the_gradient_as_pytorch():
    # Recorded from PyTorch 2.13.
    x = engine.tensor([1.0, 5.0, 2.0], requires_grad=True)
    s = engine.tensor([5.0, 5.0, 1.0], requires_grad=True)
    x.scatter_reduce(0, engine.tensor([1, 1, 0]), s, "amax").backward(
        engine.tensor([1.0, 2.0, 3.0])
    )
    np.testing.assert_allclose(x.grad.numpy(), [0.5, 2 / 3, 3.0], rtol=1e-6)
    np.testing.assert_allclose(s.grad.numpy(), [2 / 3, 2 / 3, 0.5], rtol=1e-6)


def test_prod_gradient_with_zeros_as_pytorch():
    x = engine.tensor([1.0, 0.0, 2.0], requires_grad=True)
    s = engine.tensor([5.0, 3.0, 1.0], requires_grad=True)
    y = x.scatter_reduce(0, engine.tensor([1, 1, 0]), s, "prod")
    y.backward(engine.tensor([1.0, 2.0, 3.0]))
    assert y.tolist() == [1.0, 0.0, 2.0]
    assert x.grad.tolist() == [1.0, 30.0, 3.0] and s.grad.tolist() == [0.0, 0.0, 1.0]


def test_integer_mean_rounds_down_and_errors():
    assert engine.tensor([-7, 0]).scatter_reduce(
        0, engine.tensor([0]), engine.tensor([0]), "mean"
    ).tolist() == [-4, 0]
    with pytest.raises(
        RuntimeError, match="reduce argument must be either sum, prod, mean, amax or amin, got max"
    ):
        engine.zeros(3).scatter_reduce(0, engine.tensor([0]), engine.ones(1), "max")
    with pytest.raises(RuntimeError, match="Expected self.dtype to be equal to src.dtype"):
        engine.zeros(3).scatter_reduce(0, engine.tensor([0]), T([1.0]), "sum")
    with pytest.raises(RuntimeError, match="index 3 is out of bounds for dimension 0 with size 3"):
        engine.zeros(3).scatter_reduce(0, engine.tensor([0, 3]), engine.ones(2), "sum")


def test_index_reduce():
    x = engine.tensor([[1.0, 2.0], [3.0, 4.0]])
    src = engine.tensor([[4.0, 5.0], [6.0, 1.0], [7.0, 7.0]])
    assert x.index_reduce(0, engine.tensor([1, 1, 0]), src, "amin").tolist() == [
        [1.0, 2.0],
        [3.0, 1.0],
    ]
    got = engine.tensor([1.0, 2, 3]).index_reduce(
        0, engine.tensor([0, 0]), engine.tensor([4.0, 5]), "prod", include_self=False
    )
    assert got.tolist() == [20.0, 2.0, 3.0]
    with pytest.raises(
        RuntimeError, match="Expected reduce to be one of prod, mean, amax or amin but got sum."
    ):
        x.index_reduce(0, engine.tensor([0]), src[:1], "sum")
    with pytest.raises(
        RuntimeError,
        match=r"Number of indices \(2\) should be equal to source.size\(dim\): \(1\), for dim: 0",
    ):
        x.index_reduce(0, engine.tensor([1, 1]), src[:1], "amin")
    with pytest.raises(IndexError, match="index out of range in self"):
        x.index_reduce(0, engine.tensor([5]), src[:1], "amin")
    y = x.clone()
    y.index_reduce_(1, engine.tensor([0, 0]), engine.tensor([[2.0, 3.0], [1.0, 1.0]]), "mean")
    np.testing.assert_allclose(y.numpy(), [[2.0, 2.0], [5 / 3, 4.0]], rtol=1e-6)


def test_masked_select_and_scatter():
    x = arr(2, 3)
    mask = np.array([True, False, True])
    close(engine.masked_select(T(x), engine.tensor(mask.tolist())), x[:, mask].ravel())
    got = engine.zeros(2, 3, dtype=engine.float64).masked_scatter(
        engine.tensor(mask.tolist()), T(arr(6))
    )
    want = np.zeros((2, 3))
    want[np.broadcast_to(mask, (2, 3))] = arr(6)[:4]
    close(got, want)
    with pytest.raises(RuntimeError, match="masked_select: expected BoolTensor for mask"):
        engine.masked_select(T(x), engine.tensor([1, 0, 1]))
    with pytest.raises(RuntimeError, match="Number of elements of source < number of ones in mask"):
        engine.zeros(3).masked_scatter(engine.tensor([True, False, True]), engine.ones(1))
    with pytest.raises(RuntimeError, match="same dtypes but gotFloat and Double"):
        engine.zeros(3).masked_scatter(engine.tensor([True, False, True]), T([1.0, 2.0]))
    m = engine.tensor(mask.tolist())
    assert gradcheck(lambda a: engine.masked_select(a, m), (T(x, True),))
    assert gradcheck(lambda a, b: a.masked_scatter(m, b), (T(x, True), T(arr(6), True)))


def test_index_put_and_put():
    x = arr(4, 3)
    i, j = [0, 2, 0], [1, 1, 1]
    got = engine.index_put(T(x), (engine.tensor(i), engine.tensor(j)), T(1.0), accumulate=True)
    want = x.copy()
    np.add.at(want, (i, j), 1.0)
    close(got, want)
    got = T(x).index_put((engine.tensor([True, False, True, False]),), T(arr(3)))
    want = x.copy()
    want[[0, 2]] = arr(3)
    close(got, want)
    with pytest.raises(IndexError, match="index 4 is out of bounds for dimension 0 with size 4"):
        T(x).index_put((engine.tensor([4]),), T(1.0))
    with pytest.raises(
        RuntimeError,
        match=r"value tensor of shape \[2\] cannot be broadcast to indexing result of shape \[1, 3\]",
    ):
        T(x).index_put((engine.tensor([0]),), T([1.0, 2.0]))
    with pytest.raises(
        RuntimeError, match="got Double for the destination and Long for the source"
    ):
        T(x).index_put((engine.tensor([0]),), engine.tensor(1))
    y = T(x)
    engine.index_put_(y, (engine.tensor([1]),), T(0.0))
    assert y[1].tolist() == [0.0, 0.0, 0.0]
    assert gradcheck(
        lambda a, v: a.index_put((engine.tensor(i), engine.tensor(j)), v, True),
        (T(x, True), T(arr(3), True)),
    )

    got = engine.zeros(2, 3).put(engine.tensor([0, -1]), engine.tensor([1.0, 2.0]))
    assert got.tolist() == [[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]]
    got = engine.zeros(2, 3).put(engine.tensor([1, 1]), engine.tensor([1.0, 2.0]), accumulate=True)
    assert got.tolist() == [[0.0, 3.0, 0.0], [0.0, 0.0, 0.0]]
    with pytest.raises(
        IndexError, match="out of range: tried to access index 6 on a tensor of 6 elements."
    ):
        engine.zeros(2, 3).put(engine.tensor([6]), engine.tensor([1.0]))
    with pytest.raises(IndexError, match=r"source.numel\(\) = 2, index.numel\(\) = 1"):
        engine.zeros(2, 3).put(engine.tensor([0]), engine.tensor([1.0, 2.0]))
    with pytest.raises(RuntimeError, match="Expected a long tensor for index, but got Float"):
        engine.zeros(2, 3).put(engine.tensor([0.0]), engine.tensor([1.0]))
    z = engine.zeros(3)
    z.put_(engine.tensor([2]), engine.tensor([7.0]))
    assert z.tolist() == [0.0, 0.0, 7.0]


def test_index_fill():
    assert (
        engine.zeros(2, 3).index_fill(1, engine.tensor([0, 2]), 5).tolist() == [[5.0, 0.0, 5.0]] * 2
    )
    assert engine.zeros(3, dtype=engine.int64).index_fill(0, engine.tensor([0]), 2.5).tolist() == [
        2,
        0,
        0,
    ]
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 0 with size 3"):
        engine.zeros(3).index_fill(0, engine.tensor([3]), 5)
    with pytest.raises(IndexError, match=r"index_fill_\(\): Expected dtype int64 for index."):
        engine.zeros(3).index_fill(0, engine.tensor([0.0]), 5)
    with pytest.raises(RuntimeError, match="only supports a 0-dimensional value tensor"):
        engine.zeros(3).index_fill(0, engine.tensor([0]), engine.tensor([5.0]))
    assert gradcheck(
        lambda a, v: a.index_fill(0, engine.tensor([1]), v), (T(arr(3, 2), True), T(2.0, True))
    )


def test_take_along_dim():
    x = arr(2, 3)
    idx = np.array([[0, 2], [1, 1]])
    close(
        engine.take_along_dim(T(x), engine.tensor(idx.tolist()), 1), np.take_along_axis(x, idx, 1)
    )
    close(engine.take_along_dim(T(x), engine.tensor([[0, 5]])), x.ravel()[[0, 5]])
    close(T(x).take_along_dim(engine.tensor([[1]]), 0), x[1:2])
    with pytest.raises(RuntimeError, match="dtype of indices should be Long but got Float"):
        engine.take_along_dim(T(x), engine.tensor([[0.0]]), 0)
    with pytest.raises(
        RuntimeError, match="but got 2 dimensions for input, and 3 dimensions for indices"
    ):
        engine.take_along_dim(T(x), engine.tensor([[[0]]]), 1)
    assert gradcheck(
        lambda a: engine.take_along_dim(a, engine.tensor(idx.tolist()), 1), (T(x, True),)
    )


def test_select_slice_diagonal_scatter():
    x = arr(4, 3)
    want = x.copy()
    want[1] = 1.0
    close(engine.select_scatter(T(x), T(np.ones(3)), 0, 1), want)
    want = x.copy()
    want[::2] = arr(2, 3, seed=3)
    close(engine.slice_scatter(T(x), T(arr(2, 3, seed=3)), 0, 0, None, 2), want)
    want = x.copy()
    want[[0, 1], [1, 2]] = [7.0, 8.0]
    close(engine.diagonal_scatter(T(x), T([7.0, 8.0]), 1), want)
    with pytest.raises(RuntimeError, match=r"src size = \[2\], slice size = \[3\]"):
        engine.select_scatter(T(x), T(np.ones(2)), 0, 1)
    with pytest.raises(IndexError):
        engine.select_scatter(T(x), T(np.ones(3)), 0, 4)
    assert gradcheck(
        lambda a, b: engine.slice_scatter(a, b, 1, 1, 3), (T(x, True), T(arr(4, 2), True))
    )
    assert gradcheck(lambda a, b: engine.diagonal_scatter(a, b, -1), (T(x, True), T(arr(3), True)))


def test_nonzero_forms():
    x = engine.tensor([[1, 0], [0, 2]])
    assert engine.nonzero(x).tolist() == [[0, 0], [1, 1]]
    assert [t.tolist() for t in x.nonzero(as_tuple=True)] == [[0, 1], [0, 1]]
    assert engine.nonzero(engine.tensor(5)).shape == (1, 0)
    assert [t.tolist() for t in engine.nonzero(engine.tensor(5), as_tuple=True)] == [[0]]
    assert engine.argwhere(engine.tensor([1, 0, 2])).tolist() == [[0], [2]]
    assert engine.nonzero_static(engine.tensor([1, 0, 2]), size=4).tolist() == [
        [0],
        [2],
        [-1],
        [-1],
    ]
    assert engine.tensor([1, 0, 2]).nonzero_static(size=1, fill_value=7).tolist() == [[0]]
    with pytest.raises(RuntimeError, match="'size' must be an non-negative integer"):
        engine.nonzero_static(engine.tensor([1]), size=-1)


def test_fill_diagonal_():
    assert engine.zeros(2, 3).fill_diagonal_(2).tolist() == [[2.0, 0, 0], [0, 2.0, 0]]
    got = engine.zeros(7, 3).fill_diagonal_(2, wrap=True)
    want = np.zeros((7, 3))
    want.flat[::4] = 2
    close(got.double(), want)
    got = engine.zeros(3, 3, 3).fill_diagonal_(1)
    assert got.sum().item() == 3 and got[2, 2, 2].item() == 1
    with pytest.raises(RuntimeError, match="all dimensions of input must be of equal length"):
        engine.zeros(3, 4, 3).fill_diagonal_(2)
    with pytest.raises(RuntimeError, match="dimensions must larger than 1"):
        engine.zeros(3).fill_diagonal_(2)


def test_unravel_index_wraps_as_pytorch():
    rows, cols = engine.unravel_index(engine.tensor([4, 1, 6, -7]), (2, 3))
    assert rows.tolist() == [1, 0, 0, 1] and cols.tolist() == [1, 1, 0, 2]
    (flat,) = engine.unravel_index(engine.tensor([1]), 6)
    assert flat.tolist() == [1]
    with pytest.raises(
        TypeError, match="expected 'indices' to be integer dtype, but got torch.float32"
    ):
        engine.unravel_index(engine.tensor([1.0]), (2, 3))
    with pytest.raises(
        ValueError, match="'shape' cannot have negative values, but got \\(2, -3\\)"
    ):
        engine.unravel_index(engine.tensor([1]), (2, -3))
    assert engine.put(engine.zeros(3), engine.tensor([1]), engine.tensor([5.0])).tolist() == [
        0.0,
        5.0,
        0.0,
    ]
