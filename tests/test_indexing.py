"""__getitem__ / __setitem__ against NumPy on many index forms, views and version counters,
gradients through reads and writes (including writes into views of tensors that require grad),
from_numpy, __contains__, and PyTorch's error types and messages."""

from __future__ import annotations

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck

A = np.arange(60.0).reshape(3, 4, 5)

KEYS = [
    1,
    -1,
    (1, 2),
    (slice(None), 2),
    slice(1, None),
    (slice(None, None, 2), slice(-3, -1)),
    (Ellipsis, 1),
    (None, 1, Ellipsis, None),
    (slice(None), 1, [0, 4, -1]),
    [2, 0, 2],
    ([0, 2], [1, 3]),
    ([0, 2], slice(None), [1, 3]),
    (slice(None), [[0, 1], [3, 2]]),
    (slice(1, 3), [0, 1], [4, 2]),
    (Ellipsis, [0, 0]),
    (slice(None), slice(None), slice(10, 20)),
]


def _key(lib_key):
    return lib_key


@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_getitem_matches_numpy(key):
    x = engine.tensor(A.tolist(), dtype=engine.float64)
    got = x[key]
    want = A[key]
    assert tuple(got.shape) == want.shape
    np.testing.assert_array_equal(np.asarray(got.tolist()), want)


@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_setitem_matches_numpy(key):
    x = engine.tensor(A.tolist(), dtype=engine.float64)
    ref = A.copy()
    shape = ref[key].shape
    value = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) + 100
    ref[key] = value
    v0 = x._version
    x[key] = engine.tensor(value.tolist(), dtype=engine.float64)
    np.testing.assert_array_equal(np.asarray(x.tolist()), ref)
    assert x._version > v0
    x[key] = 7
    ref[key] = 7
    np.testing.assert_array_equal(np.asarray(x.tolist()), ref)


def test_mask_get_and_set():
    x = engine.tensor(A.tolist(), dtype=engine.float64)
    m = x > 30
    np.testing.assert_array_equal(np.asarray(x[m].tolist()), A[A > 30])
    np.testing.assert_array_equal(np.asarray(x[0][m[0]].tolist()), A[0][A[0] > 30])
    x[m] = -1.0
    ref = A.copy()
    ref[ref > 30] = -1.0
    np.testing.assert_array_equal(np.asarray(x.tolist()), ref)
    row = engine.tensor([True, False, True])
    np.testing.assert_array_equal(
        np.asarray(engine.tensor(A.tolist())[row, 1].tolist()), A[[0, 2], 1]
    )


def test_basic_indexing_gives_views_sharing_the_version_counter():
    x = engine.zeros(3, 4)
    v = x[1:, ::2]
    assert v._is_view() and v._base is x
    v.fill_(1.0)
    assert x._version == v._version == 1
    assert x.tolist()[1] == [1.0, 0.0, 1.0, 0.0]
    assert x[1].stride() == (1,)


def test_gradients_of_reads():
    x = engine.tensor(A[:2, :3, :4].tolist(), dtype=engine.float64, requires_grad=True)
    assert gradcheck(lambda t: t[1, ::2, [0, 0, 3]] * t[0, 1:, None, 2:3].sum() / 100, [x])
    assert gradcheck(lambda t: t[t > 20.5] ** 2, [x])


def test_gradients_of_writes_into_non_leaves_and_views():
    x = engine.tensor(
        np.linspace(-1, 1, 12).reshape(3, 4).tolist(), dtype=engine.float64, requires_grad=True
    )
    y = engine.tensor([0.5, -0.25], dtype=engine.float64, requires_grad=True)

    def f(a, b):
        c = a * 2
        c[0, 1:3] = b * 3  # basic write
        c[[1, 2], [0, 3]] = b.exp()  # advanced write
        row = c[2]
        row.mul_(b.sum())  # in-place through a view: the base's history is rewritten
        return c

    assert gradcheck(f, [x, y])
    c = x.clone()
    v = c[1]
    v += y.sum()
    assert type(c.grad_fn).__name__ == "CopySlices" or c.grad_fn.name() == "CopySlices"


def test_writing_into_a_view_of_a_leaf_requiring_grad_is_refused():
    x = engine.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        x[0] = 1.0
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        x[[0]] = 1.0


@pytest.mark.parametrize(
    "key,exc,msg",
    [
        (5, IndexError, "index 5 is out of bounds for dimension 0 with size 3"),
        ((slice(None), 5), IndexError, "index 5 is out of bounds for dimension 1 with size 4"),
        ((0, 0, 0, 0), IndexError, "too many indices for tensor of dimension 3"),
        ([7], IndexError, "index 7 is out of bounds for dimension 0 with size 3"),
        ((slice(None), [0, 9]), IndexError, "index 9 is out of bounds for dimension 1 with size 4"),
        (slice(None, None, -1), ValueError, "step must be greater than zero"),
        (1.5, IndexError, "only integers, slices"),
    ],
)
def test_index_errors(key, exc, msg):
    x = engine.tensor(A.tolist())
    with pytest.raises(exc, match=msg.replace("[", r"\[").replace("(", r"\(")):
        x[key]


def test_other_errors_match_pytorch():
    x = engine.zeros(2, 3)
    cases = [
        (
            lambda: x[engine.tensor([True, False, True])],
            IndexError,
            "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 3] at index 0",
        ),
        (
            lambda: x[engine.tensor([1.0])],
            IndexError,
            "tensors used as indices must be long, int, byte or bool tensors",
        ),
        (lambda: x.index_select(0, engine.tensor([5])), IndexError, "index out of range in self"),
        (
            lambda: x.index_select(0, engine.tensor([[0]])),
            IndexError,
            "index_select(): Index is supposed to be a vector",
        ),
        (
            lambda: x.gather(0, engine.tensor([[5]])),
            RuntimeError,
            "index 5 is out of bounds for dimension 0 with size 2",
        ),
        (
            lambda: x.narrow(0, 5, 1),
            IndexError,
            "start out of range (expected to be in range of [-2, 2], but got 5)",
        ),
        (
            lambda: x.narrow(0, 1, 5),
            RuntimeError,
            "start (1) + length (5) exceeds dimension size (2).",
        ),
        (lambda: engine.cat([]), ValueError, "torch.cat(): expected a non-empty list of Tensors"),
        (
            lambda: engine.cat([x, engine.zeros(3, 3)], 1),
            RuntimeError,
            "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 "
            "for tensor number 1 in the list.",
        ),
        (
            lambda: engine.stack([x, engine.zeros(3)]),
            RuntimeError,
            "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [3] at entry 1",
        ),
        (lambda: x.diagonal(0, 0, 0), RuntimeError, "diagonal dimensions cannot be identical 0, 0"),
        (
            lambda: x.take(engine.tensor([9])),
            IndexError,
            "out of range: tried to access index 9 on a tensor of 6 elements.",
        ),
        (
            lambda: x.split(0),
            RuntimeError,
            "split_size can only be 0 if dimension size is 0, but got dimension size of 2",
        ),
        (lambda: x.chunk(0), RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0"),
        (
            lambda: x.flatten(1, 0),
            RuntimeError,
            "flatten() has invalid args: start_dim cannot come after end_dim",
        ),
        (
            lambda: x.unflatten(1, (2, 2)),
            RuntimeError,
            "unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 (3) in the input tensor",
        ),
        (
            lambda: x.repeat(2),
            RuntimeError,
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor",
        ),
        (
            lambda: engine.zeros(3).mT,
            RuntimeError,
            "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.",
        ),
        (
            lambda: x.masked_fill(x > 0, engine.tensor([1.0, 2.0])),
            RuntimeError,
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).",
        ),
    ]
    for fn, exc, msg in cases:
        with pytest.raises(exc) as info:
            fn()
        assert str(info.value) == msg


def test_from_numpy_shares_memory_and_protocol():
    a = np.arange(6.0).reshape(2, 3)
    t = engine.from_numpy(a)
    a[0, 0] = 42.0
    assert t[0, 0].item() == 42.0
    t[1, 2] = -1.0
    assert a[1, 2] == -1.0
    tt = engine.from_numpy(a.T)
    assert tt.shape == (3, 2) and tt.tolist() == a.T.tolist()
    assert 42.0 in t and 5 not in t and engine.tensor(-1.0) in t
    assert len(t) == 2 and [r.tolist() for r in t] == a.tolist()
    assert repr(t[0]).startswith("tensor([42.")
    with pytest.raises(TypeError):
        engine.from_numpy(np.zeros(2, dtype=np.uint32))


def test_split_chunk_unbind_share_storage():
    x = engine.arange(10.0)
    parts = x.split(3)
    assert [p.tolist() for p in parts] == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert [len(c) for c in x.chunk(4)] == [3, 3, 3, 1]
    parts[1].fill_(0)
    assert x[4].item() == 0 and x._version == 1
    assert [u.item() for u in engine.arange(3).unbind()] == [0, 1, 2]


@pytest.mark.parametrize(
    "value, name",
    [
        ([1.0, 2.0], "list"),
        ((1, 2), "tuple"),
        (np.array([1.0, 2.0]), "numpy.ndarray"),
        (np.float32(2.5), "numpy.float32"),
        (None, "NoneType"),
        ("a", "str"),
    ],
)
def test_setitem_takes_tensors_and_numbers_only(value, name):
    # PyTorch 2.13 refuses sequences, arrays and NumPy floats other than float64 in __setitem__.
    x = engine.zeros(2, 2)
    with pytest.raises(TypeError) as info:
        x[0] = value
    assert str(info.value) == f"can't assign a {name} to a torch.FloatTensor"


def test_setitem_numbers_and_numpy_integers():
    x = engine.zeros(2, 2, dtype=engine.int64)
    x[0] = np.int64(3)
    x[1] = np.float64(2.5)
    x[0, 0] = True
    assert x.tolist() == [[1, 3], [2, 2]]
