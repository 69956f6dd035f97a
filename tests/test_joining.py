"""tensor_split / hsplit / atleast_*d / *stack / broadcast_* / block_diag / cartesian_prod /
combinations / diag_embed / repeat_interleave / meshgrid / inner / vdot / addr: values against
NumPy, errors with PyTorch 2.13's messages, gradients through gradcheck."""

import itertools
import warnings

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck


def arr(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def T(a, grad=False):
    return engine.tensor(np.asarray(a, dtype=np.float64), requires_grad=grad)


def close(t, a):
    assert tuple(t.shape) == np.shape(a)
    np.testing.assert_allclose(t.detach().numpy(), a, rtol=1e-12, atol=1e-12)


def sizes(ts, dim):
    return [t.shape[dim] for t in ts]


def test_tensor_split_sections_and_indices():
    x = T(arr(7, 2))
    assert sizes(engine.tensor_split(x, 3), 0) == [3, 2, 2]
    assert sizes(engine.tensor_split(x, [5, 2]), 0) == [5, 0, 5]
    assert sizes(engine.tensor_split(x, [-2]), 0) == [5, 2]
    assert sizes(x.tensor_split(engine.tensor([1, 3]), 0), 0) == [1, 2, 4]
    assert sizes(x.tensor_split(engine.tensor(2), 1), 1) == [1, 1]
    close(engine.tensor_split(x, 3)[1], x.numpy()[3:5])
    with pytest.raises(RuntimeError, match="number of sections must be larger than 0, got 0"):
        engine.tensor_split(x, 0)
    with pytest.raises(RuntimeError, match="to have dtype of long, but got Float"):
        engine.tensor_split(x, engine.tensor([1.0]))
    with pytest.raises(RuntimeError, match="at least a 1-dimensional tensor"):
        engine.tensor_split(engine.tensor(1.0), 2)


def test_directional_splits_and_their_errors():
    x = T(arr(4, 6, 2))
    assert sizes(engine.hsplit(x, 3), 1) == [2, 2, 2]
    assert sizes(engine.vsplit(x, [1]), 0) == [1, 3]
    assert sizes(engine.dsplit(x, 2), 2) == [1, 1]
    assert sizes(engine.hsplit(T(arr(4)), 2), 0) == [2, 2]
    with pytest.raises(
        RuntimeError,
        match=r"torch.hsplit attempted to split along dimension 1, but the size of the dimension 6 "
        r"is not divisible by the split_size 4!",
    ):
        engine.hsplit(x, 4)
    with pytest.raises(
        RuntimeError,
        match="torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!",
    ):
        engine.vsplit(T(arr(4)), 2)
    with pytest.raises(RuntimeError, match="torch.dsplit requires a tensor with at least 3"):
        engine.dsplit(T(arr(4, 2)), 2)


def test_split_with_sizes_and_unsafe_variants():
    x = T(arr(7))
    assert sizes(engine.split_with_sizes(x, [3, 4]), 0) == [3, 4]
    assert sizes(x.unsafe_split(3), 0) == [3, 3, 1]
    assert sizes(engine.unsafe_split_with_sizes(x, [2, 5]), 0) == [2, 5]
    assert sizes(engine.unsafe_chunk(x, 2), 0) == [4, 3]
    with pytest.raises(
        RuntimeError,
        match=r"sum exactly to 7 \(input tensor's size at dimension 0\), but got split_sizes=\[3, 3\]",
    ):
        engine.split_with_sizes(x, [3, 3])
    with pytest.raises(RuntimeError, match="only non-negative entries"):
        engine.split_with_sizes(x, [8, -1])


def test_atleast_nd_shapes():
    s, v, m = engine.tensor(1.0), engine.zeros(3), engine.zeros(2, 3)
    assert engine.atleast_1d(s).shape == (1,)
    assert [t.shape for t in engine.atleast_2d(s, v)] == [(1, 1), (1, 3)]
    assert [t.shape for t in engine.atleast_3d([s, v, m])] == [(1, 1, 1), (1, 3, 1), (2, 3, 1)]
    with pytest.raises(TypeError, match="atleast_3d"):
        engine.atleast_3d(1)


def test_stacks_match_numpy():
    a, b = arr(2, 3), arr(2, 3, seed=1)
    close(engine.hstack([T(a), T(b)]), np.hstack([a, b]))
    close(engine.vstack((T(a), T(b))), np.vstack([a, b]))
    close(engine.row_stack((T(a), T(b))), np.vstack([a, b]))
    close(engine.dstack([T(a), T(b)]), np.dstack([a, b]))
    close(engine.hstack([T(a[0]), T(b[1])]), np.hstack([a[0], b[1]]))
    close(engine.column_stack([T(a[0][:2]), T(a[:, :2])]), np.column_stack([a[0][:2], a[:, :2]]))
    with pytest.raises(RuntimeError, match="hstack expects a non-empty TensorList"):
        engine.hstack([])


def test_broadcast_shapes_and_tensors():
    assert engine.broadcast_shapes((2, 1), (3,)) == (2, 3)
    assert engine.broadcast_shapes(2, (1,)) == (2,)
    assert engine.broadcast_shapes() == ()
    assert repr(engine.broadcast_shapes((1, 4), (3, 1))) == "torch.Size([3, 4])"
    with pytest.raises(
        RuntimeError,
        match=r"Attempting to broadcast a dimension of length 3 at -2! Mismatching argument at index 1 "
        r"had \(3, 2\); but expected shape should be broadcastable to \[2, 2\]",
    ):
        engine.broadcast_shapes((2, 1), (3, 2))
    with pytest.raises(ValueError, match="negative length"):
        engine.broadcast_shapes((-1,), (1,))
    a, b = engine.broadcast_tensors(engine.zeros(2, 1), engine.zeros(3))
    assert a.shape == b.shape == (2, 3)
    with pytest.raises(
        RuntimeError,
        match=r"The size of tensor a \(2\) must match the size of tensor b \(3\) at non-singleton dimension 0",
    ):
        engine.broadcast_tensors(engine.zeros(2, 1), engine.zeros(3, 3))


def test_block_diag_matches_scipy_layout():
    a, c = arr(2, 2), arr(3)
    got = engine.block_diag(T(a), engine.tensor(3.0, dtype=engine.float64), T(c))
    want = np.zeros((4, 6))
    want[:2, :2], want[2, 2], want[3, 3:] = a, 3.0, c
    close(got, want)
    assert engine.block_diag().shape == (1, 0)
    assert (
        engine.block_diag(engine.ones(1, dtype=engine.int64), engine.ones(1)).dtype
        == engine.float32
    )
    with pytest.raises(RuntimeError, match="Input 0 has 3 dimensions"):
        engine.block_diag(engine.ones(2, 2, 2))
    assert gradcheck(lambda x, y: engine.block_diag(x, y), (T(a, True), T(c, True)))


def test_cartesian_prod_and_combinations_follow_itertools():
    a, b = engine.tensor([1, 2]), engine.tensor([3, 4, 5])
    assert engine.cartesian_prod(a, b).tolist() == [
        list(p) for p in itertools.product([1, 2], [3, 4, 5])
    ]
    assert engine.cartesian_prod(a).tolist() == [1, 2]
    v = engine.tensor([1, 2, 3, 4])
    for r in range(4):
        want = [list(p) for p in itertools.combinations([1, 2, 3, 4], r)]
        assert engine.combinations(v, r).tolist() == (want if r else [])
    want = [list(p) for p in itertools.combinations_with_replacement([1, 2, 3, 4], 3)]
    assert engine.combinations(v, 3, with_replacement=True).tolist() == want
    assert engine.combinations(v, 5).shape == (0, 5)
    with pytest.raises(RuntimeError, match="Expect a non-negative number, but got -1"):
        engine.combinations(v, -1)
    with pytest.raises(RuntimeError, match=r"Expect a 1D vector, but got shape \[2, 2\]"):
        engine.combinations(engine.zeros(2, 2))
    assert gradcheck(lambda x: engine.combinations(x, 2), (T(arr(4), True),))


@pytest.mark.parametrize(
    "offset, dim1, dim2", [(0, -2, -1), (1, -2, -1), (-2, -2, -1), (1, 0, 2), (-1, 2, 0)]
)
def test_diag_embed_places_the_diagonal(offset, dim1, dim2):
    a = arr(2, 3)
    n = 3 + abs(offset)
    want = np.zeros((2, n, n))
    for b in range(2):
        want[b] = np.diag(a[b], offset)
    want = np.moveaxis(want, (1, 2), (dim1 % 3, dim2 % 3))
    close(engine.diag_embed(T(a), offset, dim1, dim2), want)
    assert gradcheck(lambda x: engine.diag_embed(x, offset, dim1, dim2), (T(a, True),))


def test_diagflat_ravel_sum_to_size():
    a = arr(2, 2)
    close(engine.diagflat(T(a), -1), np.diagflat(a, -1))
    close(T(a).t().ravel(), a.T.ravel())
    x = T(arr(2, 3))
    close(x.sum_to_size(1, 3), x.numpy().sum(0, keepdims=True))
    close(x.sum_to_size(3), x.numpy().sum(0))
    close(x.sum_to_size((2, 1)), x.numpy().sum(1, keepdims=True))
    with pytest.raises(
        RuntimeError, match=r"size \{\[4, 3\]\} is not expandable to size \{\[2, 3\]\}."
    ):
        x.sum_to_size(4, 3)


def test_repeat_interleave_forms():
    x = engine.tensor([[1, 2], [3, 4]])
    assert engine.repeat_interleave(x, 2).tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
    assert x.repeat_interleave(engine.tensor([1, 2]), dim=0).tolist() == [[1, 2], [3, 4], [3, 4]]
    assert x.repeat_interleave(engine.tensor([3]), dim=1).tolist() == [
        [1, 1, 1, 2, 2, 2],
        [3, 3, 3, 4, 4, 4],
    ]
    assert engine.repeat_interleave(engine.tensor([2, 3])).tolist() == [0, 0, 1, 1, 1]
    assert x.repeat_interleave(2, dim=0, output_size=4).shape == (4, 2)
    with pytest.raises(RuntimeError, match="Invalid output_size, expected 4 but got 5"):
        x.repeat_interleave(2, dim=0, output_size=5)
    with pytest.raises(RuntimeError, match="repeats can not be negative"):
        x.repeat_interleave(engine.tensor([1, -2]), dim=0)
    with pytest.raises(RuntimeError, match=r"repeats.size\(0\) = 3 and input.size\(0\) = 2"):
        x.repeat_interleave(engine.tensor([1, 2, 3]), dim=0)
    with pytest.raises(RuntimeError, match="Repeats must be non-negative"):
        x.repeat_interleave(-1)
    assert gradcheck(
        lambda t: t.repeat_interleave(engine.tensor([2, 0, 1]), dim=1), (T(arr(2, 3), True),)
    )


def test_meshgrid_indexing():
    a, b = arr(2), arr(3)
    for indexing in ("ij", "xy"):
        got = engine.meshgrid(T(a), T(b), indexing=indexing)
        for g, w in zip(got, np.meshgrid(a, b, indexing=indexing)):
            close(g, w)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        engine.meshgrid(T(a), T(b))
    assert "required to pass the indexing argument" in str(caught[0].message)
    with pytest.raises(
        RuntimeError, match='indexing must be one of "xy" or "ij", but received: ab'
    ):
        engine.meshgrid([T(a)], indexing="ab")


def test_inner_vdot_addr():
    a, b = arr(2, 3), arr(4, 3, seed=1)
    close(engine.inner(T(a), T(b)), np.inner(a, b))
    close(engine.inner(T(2.0), T(b)), 2 * b)
    close(engine.vdot(T(a[0]), T(b[0])), np.vdot(a[0], b[0]))
    m, u, v = arr(2, 3), arr(2), arr(3)
    close(engine.addr(T(m), T(u), T(v), beta=0.5, alpha=2), 0.5 * m + 2 * np.outer(u, v))
    with pytest.raises(RuntimeError, match=r"inner\(\) the last dimension must match"):
        engine.inner(T(a), T(arr(4, 2)))
    with pytest.raises(RuntimeError, match="1D tensors expected, but got 2D and 2D tensors"):
        engine.vdot(T(a), T(a))
    with pytest.raises(
        RuntimeError, match="expected both vectors to have same dtype, but found Float and Double"
    ):
        engine.vdot(engine.zeros(2), T(arr(2)))
    with pytest.raises(RuntimeError, match="addr: Expected 1-D argument vec1, but got 2-D"):
        engine.addr(T(m), T(m), T(v))
    assert gradcheck(engine.inner, (T(a, True), T(b, True)))
    assert gradcheck(
        lambda *t: engine.addr(*t, beta=0.5, alpha=2), (T(m, True), T(u, True), T(v, True))
    )


def test_split_into_more_sections_than_memory_raises_instead_of_hanging():
    x = engine.rand(3, 4)
    with pytest.raises(engine.OutOfMemoryError, match="cannot make 1099511627776 sections"):
        engine.tensor_split(x, 2**40)
    # A 0-d tensor is a number of sections for vsplit / hsplit / dsplit too, as in PyTorch.
    with pytest.raises(RuntimeError, match="not divisible by the split_size 4611686018427387904"):
        x.vsplit(engine.tensor(2**62))
    assert len(x.vsplit(engine.tensor(3))) == 3


def test_combinations_checks_its_arguments_and_sizes_before_building():
    # Found by the fuzz slice: a huge r used to loop for ever building index rows.
    x = engine.randn(3)
    with pytest.raises(
        TypeError, match="argument 'with_replacement' \\(position 3\\) must be bool"
    ):
        engine.combinations(x, 2, -3.0)
    with pytest.raises(TypeError, match="argument 'r' \\(position 2\\) must be int, not float"):
        engine.combinations(x, 2.0)
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        engine.combinations(x, 2**64)
    with pytest.raises(engine.OutOfMemoryError):
        engine.combinations(engine.randn(1), 2**40, True)
    assert engine.combinations(x, 2**40).shape == (0, 2**40)
    assert engine.combinations(x, 5).shape == (0, 5)


def test_repeat_interleave_with_huge_counts_raises_instead_of_crashing():
    # PyTorch 2.13 segfaults on the first: its int64 total wraps to 0.
    x = engine.randint(-3, 5, (4,))
    with pytest.raises(RuntimeError, match="more than an int64 holds"):
        engine.repeat_interleave(x, engine.tensor(2**62))
    for count in (2**40, 2**60):
        with pytest.raises(engine.OutOfMemoryError, match="not enough memory"):
            engine.repeat_interleave(x, engine.tensor(count))
    assert engine.repeat_interleave(x, engine.tensor(2)).tolist() == [
        v for v in x.tolist() for _ in range(2)
    ]
