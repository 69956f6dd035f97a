"""Convolutions large enough that the batch is split among threads (each thread im2col's and
multiplies its own samples; the weight gradient sums per-thread partials), and the "same"
geometries whose columns are copied a plane at a time: forward, input, weight and bias gradients
against a float64 NumPy reference, under one thread and two."""

import itertools

import engine
import engine.nn.functional as F
import numpy as np
import pytest

FUNCS = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}


def reference(x, w, b, g, stride, padding, dilation, groups):
    """Output, input, weight and bias gradients of a convolution, one kernel offset at a time."""
    nd = x.ndim - 2
    k = w.shape[2:]
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    out_sp = [(xp.shape[2 + i] - dilation[i] * (k[i] - 1) - 1) // stride[i] + 1 for i in range(nd)]
    cg, og = x.shape[1] // groups, w.shape[0] // groups
    y = np.zeros((x.shape[0], w.shape[0], *out_sp))
    gxp, gw = np.zeros_like(xp), np.zeros_like(w)
    for kk in itertools.product(*[range(s) for s in k]):
        window = tuple(
            slice(
                kk[i] * dilation[i],
                kk[i] * dilation[i] + stride[i] * (out_sp[i] - 1) + 1,
                stride[i],
            )
            for i in range(nd)
        )
        for grp in range(groups):
            cin, cout = slice(grp * cg, (grp + 1) * cg), slice(grp * og, (grp + 1) * og)
            patch = xp[(slice(None), cin) + window]
            wk = w[(cout, slice(None)) + kk]
            y[:, cout] += np.einsum("nc...,oc->no...", patch, wk)
            summed = [0] + list(range(2, 2 + nd))
            gw[(cout, slice(None)) + kk] += np.tensordot(g[:, cout], patch, axes=(summed, summed))
            gxp[(slice(None), cin) + window] += np.einsum("no...,oc->nc...", g[:, cout], wk)
    y += b.reshape([1, -1] + [1] * nd)
    crop = tuple(slice(p, s - p) for p, s in zip(padding, xp.shape[2:]))
    return (
        y,
        gxp[(slice(None), slice(None)) + crop],
        gw,
        g.sum(axis=tuple(i for i in range(g.ndim) if i != 1)),
    )


CASES = [
    # (input shape, out channels, kernel, stride, padding, dilation, groups)
    ((8, 16, 20, 20), 32, 3, 1, 1, 1, 1),  # widening: transposed input gradient
    ((4, 32, 16, 16), 16, 3, 1, 1, 1, 1),  # narrowing: flipped-kernel input gradient
    ((5, 16, 21, 21), 32, 3, 2, 1, 1, 1),  # stride 2, odd batch
    ((6, 8, 18, 18), 24, 5, 1, 4, 2, 2),  # dilation and groups, same size out
    ((3, 12, 300), 40, 3, 1, 1, 1, 2),  # conv1d
    ((4, 8, 6, 8, 8), 8, 3, 1, 1, 1, 1),  # conv3d
    ((7, 64, 10, 10), 64, 1, 1, 0, 1, 1),  # 1x1
    ((3, 4, 9, 11), 6, (3, 5), 1, (1, 2), 1, 1),  # rectangular kernel, rows of 11
]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", CASES)
def test_conv_and_gradients_match_reference(case, threads):
    shape, o, k, s, p, d, groups = case
    nd = len(shape) - 2
    k, s, p, d = ((v,) * nd if isinstance(v, int) else v for v in (k, s, p, d))
    rng = np.random.default_rng(len(shape) * 100 + o)
    x = rng.standard_normal(shape)
    w = rng.standard_normal((o, shape[1] // groups) + k)
    b = rng.standard_normal(o)
    old = engine.get_num_threads()
    engine.set_num_threads(threads)
    try:
        xt, wt, bt = (engine.tensor(a, requires_grad=True) for a in (x, w, b))
        yt = FUNCS[nd](xt, wt, bt, s, p, d, groups)
        g = rng.standard_normal(tuple(yt.shape))
        yt.backward(engine.tensor(g))
    finally:
        engine.set_num_threads(old)
    want = reference(x, w, b, g, s, p, d, groups)
    for got, ref in zip((yt.detach(), xt.grad, wt.grad, bt.grad), want):
        np.testing.assert_allclose(got.numpy(), ref, rtol=1e-10, atol=1e-10)


def test_float32_results_agree_across_thread_counts():
    engine.manual_seed(0)
    x = engine.randn(8, 32, 28, 28, requires_grad=True)
    w = engine.randn(64, 32, 3, 3, requires_grad=True)
    results = []
    old = engine.get_num_threads()
    try:
        for threads in (1, 2):
            engine.set_num_threads(threads)
            x.grad = w.grad = None
            y = F.conv2d(x, w, padding=1)
            y.sum().backward()
            results.append((y.detach().numpy(), x.grad.numpy(), w.grad.numpy()))
    finally:
        engine.set_num_threads(old)
    for one, two in zip(*results):
        np.testing.assert_allclose(one, two, rtol=1e-4, atol=1e-3)
