"""The native max-pool path: one pass for values and argmax, a MaxPool*WithIndicesBackward0 node whose
backward adds the gradient at the argmax, and its own backward (gather at the same indices) for
higher orders. Checked against direct NumPy loops in 1-3 dims, PyTorch's recorded values, indices,
gradients and node names, gradcheck / gradgradcheck, and thread-count invariance."""

import itertools
import json
import math
import pathlib

import engine
import engine.nn.functional as F
import numpy as np
import pytest
from engine.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(7)
FIXTURE = pathlib.Path(__file__).parents[1] / "fixtures" / "max_pool_torch.json"


def out_size(n, k, s, p, d, ceil_mode):
    num = n + 2 * p - d * (k - 1) - 1
    o = (-(-num // s) if ceil_mode else num // s) + 1
    if ceil_mode and (o - 1) * s >= n + p:
        o -= 1
    return o


def max_pool_ref(x, k, s, p, d, ceil_mode):
    """Values and flat indices of max pooling over the trailing len(k) dims of x, window by window
    in PyTorch's order (first maximum wins); an empty window gives -inf at its clipped start."""
    nsp = len(k)
    lead, spatial = x.shape[:-nsp], x.shape[-nsp:]
    outs = [out_size(spatial[i], k[i], s[i], p[i], d[i], ceil_mode) for i in range(nsp)]
    vals = np.full(lead + tuple(outs), -np.inf)
    idxs = np.zeros(lead + tuple(outs), dtype=np.int64)
    flat = x.reshape(lead + (-1,))
    strides = [int(np.prod(spatial[i + 1 :])) for i in range(nsp)]
    for pos in itertools.product(*[range(o) for o in outs]):
        axes = []
        for i in range(nsp):
            start = pos[i] * s[i] - p[i]
            axes.append(
                [start + j * d[i] for j in range(k[i]) if 0 <= start + j * d[i] < spatial[i]]
            )
        points = [sum(c * st for c, st in zip(q, strides)) for q in itertools.product(*axes)]
        if not points:
            # PyTorch reports the window's first position at or after the padding, per axis.
            starts = [pos[i] * s[i] - p[i] for i in range(nsp)]
            first = [
                st if st >= 0 else st + (-st + d[i] - 1) // d[i] * d[i]
                for i, st in enumerate(starts)
            ]
            idxs[(...,) + pos] = sum(f * st for f, st in zip(first, strides))
            continue
        window = flat[..., points]
        arg = window.argmax(-1)
        vals[(...,) + pos] = window.max(-1)
        idxs[(...,) + pos] = np.array(points)[arg]
    return vals, idxs


def scatter_ref(grad, idx, input_shape, nsp):
    """The adjoint of the maximum: grad added at each window's index within its plane."""
    lead = input_shape[:-nsp]
    plane = int(np.prod(input_shape[-nsp:]))
    out = np.zeros(lead + (plane,))
    g = grad.reshape(lead + (-1,))
    i = idx.reshape(lead + (-1,))
    for pos in itertools.product(*[range(n) for n in lead]):
        np.add.at(out[pos], i[pos], g[pos])
    return out.reshape(input_shape)


POOL = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}

CASES = [
    # kernel, stride, padding, dilation, ceil_mode, input shape
    ((2,), (2,), (0,), (1,), False, (2, 3, 9)),
    ((3,), (2,), (1,), (2,), True, (2, 2, 10)),
    ((2,), (3,), (1,), (3,), True, (1, 2, 9)),  # a window wholly in the padding
    ((2, 2), (2, 2), (0, 0), (1, 1), False, (2, 3, 8, 8)),
    ((3, 3), (2, 2), (1, 1), (1, 1), True, (2, 2, 7, 9)),
    ((3, 2), (1, 2), (1, 1), (2, 1), False, (1, 2, 6, 7)),
    ((2, 3), (2, 1), (1, 0), (1, 2), True, (3, 5, 8)),  # unbatched
    ((1, 1), (1, 1), (0, 0), (1, 1), False, (1, 1, 3, 4)),
    ((4, 4), (3, 3), (2, 2), (1, 1), True, (1, 2, 5, 5)),
    ((2, 2, 2), (2, 1, 2), (1, 0, 1), (1, 2, 1), True, (1, 2, 5, 6, 5)),
    ((3, 1, 2), (1, 1, 1), (0, 0, 1), (1, 1, 1), False, (2, 1, 4, 3, 4)),
]


@pytest.mark.parametrize("k, s, p, d, ceil_mode, shape", CASES)
def test_values_indices_and_gradient_match_numpy(k, s, p, d, ceil_mode, shape):
    x = RNG.standard_normal(shape)
    t = engine.tensor(x, requires_grad=True)
    v, i = POOL[len(k)](t, k, s, p, d, ceil_mode, return_indices=True)
    ref_v, ref_i = max_pool_ref(x, k, s, p, d, ceil_mode)
    assert tuple(v.shape) == ref_v.shape and v.dtype == engine.float64
    np.testing.assert_array_equal(np.array(v.tolist()), ref_v)
    np.testing.assert_array_equal(np.array(i.tolist()), ref_i)
    w = RNG.standard_normal(ref_v.shape)
    (g,) = engine.autograd.grad((v * engine.tensor(w)).sum(), [t])
    empty = np.isneginf(ref_v)  # windows with no element pass no gradient
    ref_g = scatter_ref(np.where(empty, 0.0, w), np.where(empty, 0, ref_i), x.shape, len(k))
    np.testing.assert_allclose(np.array(g.tolist()), ref_g, rtol=1e-12, atol=1e-12)


def test_ties_keep_the_first_position_and_overlapping_windows_add():
    x = engine.ones(1, 1, 4, 4, dtype=engine.float64, requires_grad=True)
    v, i = F.max_pool2d(x, 3, 1, return_indices=True)
    assert i.tolist() == [[[[0, 1], [4, 5]]]]
    v.sum().backward()
    assert x.grad.flatten().tolist() == [1.0, 1.0, 0, 0, 1.0, 1.0] + [0.0] * 10


@pytest.mark.parametrize(
    "fn, shape",
    [
        (lambda x: F.max_pool1d(x, 3, 2, 1, 2, True), (2, 2, 9)),
        (lambda x: F.max_pool2d(x, 3, 1, 1), (1, 2, 5, 5)),  # overlapping windows
        (lambda x: F.max_pool2d(x, 2), (2, 3, 6, 6)),
        (lambda x: F.max_pool2d(x, (2, 3), (2, 1), (1, 1), (2, 1), True), (2, 6, 7)),
        (
            lambda x: F.max_pool3d(x, (2, 2, 3), (1, 2, 2), (1, 0, 1), (1, 2, 1), True),
            (1, 2, 4, 5, 6),
        ),
        (lambda x: F.adaptive_max_pool2d(x, (2, 3)), (2, 2, 5, 7)),
        (lambda x: F.adaptive_max_pool3d(x, 2), (1, 2, 3, 4, 5)),
    ],
)
def test_gradcheck_and_gradgradcheck(fn, shape):
    x = engine.tensor(RNG.standard_normal(shape), requires_grad=True)
    assert gradcheck(fn, [x])
    assert gradgradcheck(fn, [x])


def test_node_names_follow_pytorch():
    x = engine.randn(1, 2, 6, 6, requires_grad=True)
    y = F.max_pool2d(x, 2)
    assert y.grad_fn.name() == "MaxPool2DWithIndicesBackward0"
    assert F.max_pool2d(x[0], 2).grad_fn.name() == "MaxPool2DWithIndicesBackward0"
    assert F.adaptive_max_pool2d(x, 3).grad_fn.name() == "AdaptiveMaxPool2DBackward0"
    assert F.max_pool3d(x.unsqueeze(0), 2).grad_fn.name() == "MaxPool3DWithIndicesBackward0"
    (g,) = engine.autograd.grad(y.sum(), [x], create_graph=True)
    assert g.grad_fn.name() == "MaxPool2DWithIndicesBackwardBackward0"
    # As in PyTorch, the gradient's node also leads back to the input, with a zero derivative.
    assert g.grad_fn.next_functions[0][0] is None
    g.sum().backward()
    assert engine.equal(x.grad, engine.zeros_like(x))
    assert engine.nn.MaxPool2d(2)(x).grad_fn.name() == "MaxPool2DWithIndicesBackward0"


def test_saved_indices_are_exposed_and_version_checked():
    x = engine.randn(1, 1, 4, 4, requires_grad=True)
    v, i = F.max_pool2d(x, 2, return_indices=True)
    assert engine.equal(v.grad_fn._saved_result1, i)
    i.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        v.sum().backward()


def test_no_history_without_grad_and_float32_dtype():
    x = engine.randn(2, 3, 8, 8)
    v, i = F.max_pool2d(x, 2, return_indices=True)
    assert v.grad_fn is None and not v.requires_grad and i.dtype == engine.int64
    with engine.no_grad():
        assert F.max_pool2d(x.requires_grad_(), 2).grad_fn is None
    x16 = engine.randn(1, 2, 4, 4, dtype=engine.float16, requires_grad=True)
    y = F.max_pool2d(x16, 2)
    assert y.dtype == engine.float16
    y.sum().backward()
    assert x16.grad.dtype == engine.float16 and x16.grad.sum().item() == 8.0


def test_non_contiguous_input_and_gradient():
    x = engine.tensor(RNG.standard_normal((2, 7, 8, 3)), requires_grad=True)
    xt = x.permute(0, 3, 1, 2)  # (2, 3, 7, 8), channels last in memory
    v, i = F.max_pool2d(xt, 2, return_indices=True)
    ref_v, ref_i = max_pool_ref(np.array(xt.tolist()), (2, 2), (2, 2), (0, 0), (1, 1), False)
    np.testing.assert_array_equal(np.array(v.tolist()), ref_v)
    # a non-contiguous output gradient
    w = (
        engine.tensor(RNG.standard_normal((2, 3, 3, 4)))
        .transpose(2, 3)
        .contiguous()
        .transpose(2, 3)
    )
    (g,) = engine.autograd.grad(v, [x], w)
    ref_g = scatter_ref(np.array(w.tolist()), ref_i, (2, 3, 7, 8), 2).transpose(0, 2, 3, 1)
    np.testing.assert_allclose(np.array(g.tolist()), ref_g, rtol=1e-12)


def test_large_inputs_give_the_same_result_on_any_thread_count():
    # Enough planes that the kernels split them between threads.
    x = engine.randn(16, 64, 30, 30, requires_grad=True)
    w = engine.randn(16, 64, 15, 15)
    results = []
    before = engine.get_num_threads()
    try:
        for n in (1, 2, 3):
            engine.set_num_threads(n)
            x.grad = None
            v, i = F.max_pool2d(x, 3, 2, 1, return_indices=True)
            (v * w).sum().backward()
            results.append((v, i, x.grad))
    finally:
        engine.set_num_threads(before)
    for v, i, g in results[1:]:
        assert engine.equal(v, results[0][0]) and engine.equal(i, results[0][1])
        assert engine.equal(g, results[0][2])


def _torch_cases():
    return json.loads(FIXTURE.read_text())["cases"]


@pytest.mark.parametrize("case", _torch_cases(), ids=lambda c: c["fn"])
def test_matches_recorded_pytorch(case):
    shape = case["shape"]
    n = math.prod(shape)
    data = [math.sin(0.37 * i + 0.1) * 3 + 0.01 * i for i in range(n)]
    x = engine.tensor(data, dtype=engine.float64).reshape(shape).requires_grad_()
    v, i = getattr(F, case["fn"])(x, **case["kwargs"], return_indices=True)
    assert list(v.shape) == case["out_shape"]
    assert v.flatten().tolist() == case["values"]
    assert i.flatten().tolist() == case["indices"]
    m = math.prod(case["out_shape"])
    w = engine.tensor(
        [math.sin(0.37 * j + 1.3) * 3 + 0.01 * j for j in range(m)], dtype=engine.float64
    )
    (g,) = engine.autograd.grad((v * w.reshape(v.shape)).sum(), [x])
    np.testing.assert_allclose(g.flatten().tolist(), case["grad"], rtol=1e-15, atol=0)
    if case["grad_fn"] != "SqueezeBackward1":  # PyTorch's 1-d pooling runs the 2-d one on a view
        assert v.grad_fn.name() == case["grad_fn"]
