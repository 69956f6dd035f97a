"""Convolutions, transposed convolutions and unfold / fold: values against direct NumPy loops,
PyTorch's recorded values for the trickier configurations, gradients of first and second order,
layouts, dtypes and PyTorch's error messages."""

import itertools

import engine
import engine.nn.functional as F
import numpy as np
import pytest
from conv_cases import check_recorded
from engine.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(0)


def arr(t):
    return np.array(t.tolist())


def conv_ref(x, w, b, stride, padding, dilation, groups):
    """Direct N-d convolution (cross-correlation) in float64."""
    n, c = x.shape[:2]
    o, cg = w.shape[:2]
    k = w.shape[2:]
    nd = len(k)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    out_sp = [
        (x.shape[2 + d] + 2 * padding[d] - dilation[d] * (k[d] - 1) - 1) // stride[d] + 1
        for d in range(nd)
    ]
    out = np.zeros([n, o] + out_sp)
    og = o // groups
    for oc in range(o):
        grp = oc // og
        for pos in itertools.product(*[range(s) for s in out_sp]):
            acc = np.zeros(n)
            for kk in itertools.product(*[range(s) for s in k]):
                idx = tuple(pos[d] * stride[d] + kk[d] * dilation[d] for d in range(nd))
                patch = xp[(slice(None), slice(grp * cg, (grp + 1) * cg)) + idx]
                acc += patch @ w[(oc, slice(None)) + kk]
            out[(slice(None), oc) + pos] = acc + (b[oc] if b is not None else 0.0)
    return out


def conv_transpose_ref(x, w, b, stride, padding, output_padding, dilation, groups):
    """Scatters every input element times the kernel into the output (the adjoint of conv)."""
    n, c = x.shape[:2]
    cg, og = c // groups, w.shape[1]
    k = w.shape[2:]
    nd = len(k)
    full = [
        (x.shape[2 + d] - 1) * stride[d] + dilation[d] * (k[d] - 1) + 1 + output_padding[d]
        for d in range(nd)
    ]
    out = np.zeros([n, og * groups] + [f for f in full])
    for ic in range(c):
        grp = ic // cg
        for pos in itertools.product(*[range(s) for s in x.shape[2:]]):
            for kk in itertools.product(*[range(s) for s in k]):
                idx = tuple(pos[d] * stride[d] + kk[d] * dilation[d] for d in range(nd))
                val = x[(slice(None), ic) + pos][:, None] * w[(ic, slice(None)) + kk][None, :]
                out[(slice(None), slice(grp * og, (grp + 1) * og)) + idx] += val
    crop = tuple(slice(padding[d], full[d] - padding[d]) for d in range(nd))
    out = out[(slice(None), slice(None)) + crop]
    if b is not None:
        out = out + b.reshape([1, -1] + [1] * nd)
    return out


CONV_CASES = [
    # (spatial input, out channels, in channels, kernel, stride, padding, dilation, groups)
    ((9,), 4, 3, (3,), (2,), (1,), (1,), 1),
    ((7, 6), 6, 4, (3, 2), (2, 1), (1, 2), (1, 2), 2),
    ((5, 5), 3, 3, (1, 1), (1, 1), (0, 0), (1, 1), 1),
    ((6, 5), 4, 4, (3, 3), (1, 2), (2, 0), (2, 1), 4),
    ((4, 5, 3), 2, 2, (2, 3, 2), (1, 2, 1), (1, 0, 1), (1, 1, 1), 1),
]


@pytest.mark.parametrize("case", CONV_CASES)
@pytest.mark.parametrize("with_bias", [False, True])
def test_conv_matches_direct_loops(case, with_bias):
    sp, o, c, k, s, p, d, g = case
    x = RNG.standard_normal((2, c) + sp)
    w = RNG.standard_normal((o, c // g) + k)
    b = RNG.standard_normal(o) if with_bias else None
    fn = (F.conv1d, F.conv2d, F.conv3d)[len(sp) - 1]
    got = fn(
        engine.tensor(x), engine.tensor(w), None if b is None else engine.tensor(b), s, p, d, g
    )
    want = conv_ref(x, w, b, s, p, d, g)
    assert tuple(got.shape) == want.shape
    assert got.dtype == engine.float64
    np.testing.assert_allclose(arr(got), want, atol=1e-10)


@pytest.mark.parametrize(
    "sp, k, s, p, op, d, g",
    [
        ((5,), (3,), (3,), (1,), (1,), (1,), 1),
        ((4, 3), (3, 2), (2, 3), (1, 0), (1, 2), (1, 2), 2),
        ((3, 4), (2, 2), (1, 1), (0, 1), (0, 0), (2, 1), 1),
        ((2, 3, 2), (2, 2, 3), (2, 1, 2), (0, 0, 1), (1, 0, 0), (1, 1, 1), 1),
    ],
)
def test_conv_transpose_matches_scatter_loops(sp, k, s, p, op, d, g):
    c, og = 4, 3
    x = RNG.standard_normal((2, c) + sp)
    w = RNG.standard_normal((c, og) + k)
    b = RNG.standard_normal(og * g)
    fn = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[len(sp) - 1]
    got = fn(engine.tensor(x), engine.tensor(w), engine.tensor(b), s, p, op, g, d)
    want = conv_transpose_ref(x, w, b, s, p, op, d, g)
    assert tuple(got.shape) == want.shape
    np.testing.assert_allclose(arr(got), want, atol=1e-10)


@pytest.mark.parametrize(
    "name", ["conv2d_groups", "conv_transpose2d", "conv_transpose1d", "conv3d", "conv2d_same"]
)
def test_conv_matches_recorded_pytorch(name):
    check_recorded(name)


def test_float32_unbatched_and_non_contiguous_inputs():
    x = RNG.standard_normal((3, 6, 5))
    w = RNG.standard_normal((2, 3, 2, 2))
    xt = engine.tensor(x.transpose(0, 2, 1).copy(), dtype=engine.float32).transpose(1, 2)
    assert not xt.is_contiguous()
    got = F.conv2d(xt, engine.tensor(w, dtype=engine.float32), padding=1)
    assert got.dtype == engine.float32 and tuple(got.shape) == (2, 7, 6)
    want = conv_ref(x[None], w, None, (1, 1), (1, 1), (1, 1), 1)[0]
    np.testing.assert_allclose(arr(got), want, atol=1e-4)
    # A sliced (strided) weight and a batch of size 0.
    wide = engine.tensor(np.repeat(w, 2, axis=3))[..., ::2]
    np.testing.assert_allclose(arr(F.conv2d(engine.tensor(x), wide)), conv_ref(
        x[None], w, None, (1, 1), (0, 0), (1, 1), 1)[0], atol=1e-10)  # fmt: skip
    empty = F.conv2d(engine.zeros(0, 3, 6, 5), engine.zeros(2, 3, 2, 2))
    assert tuple(empty.shape) == (0, 2, 5, 4)


def test_padding_strings():
    x = engine.randn(1, 2, 7, 6, dtype=engine.float64)
    w = engine.randn(3, 2, 3, 3, dtype=engine.float64)
    assert tuple(F.conv2d(x, w, padding="same").shape) == (1, 3, 7, 6)
    assert tuple(F.conv2d(x, w, padding="valid").shape) == (1, 3, 5, 4)
    with pytest.warns(UserWarning, match="even kernel lengths"):
        out = F.conv2d(x, engine.randn(3, 2, 2, 2, dtype=engine.float64), padding="same")
    assert tuple(out.shape) == (1, 3, 7, 6)


def _params(*shapes):
    return [engine.randn(*s, dtype=engine.float64, requires_grad=True) for s in shapes]


@pytest.mark.parametrize(
    "fn, shapes",
    [
        (lambda x, w, b: F.conv1d(x, w, b, 2, 1, 2), [(2, 3, 7), (4, 3, 2), (4,)]),
        (
            lambda x, w, b: F.conv2d(x, w, b, (2, 1), 1, (1, 2), 2),
            [(2, 4, 5, 5), (4, 2, 2, 2), (4,)],
        ),
        (lambda x, w, b: F.conv3d(x, w, b, 1, (1, 0, 1)), [(1, 2, 3, 3, 2), (2, 2, 2, 2, 2), (2,)]),
        (lambda x, w, b: F.conv_transpose1d(x, w, b, 2, 1, 1), [(2, 3, 4), (3, 2, 3), (2,)]),
        (
            lambda x, w, b: F.conv_transpose2d(x, w, b, 2, 1, 1, 2, 1),
            [(2, 4, 3, 3), (4, 1, 3, 2), (2,)],
        ),
        (lambda x, w, b: F.conv_transpose3d(x, w, b, 2), [(1, 2, 2, 2, 2), (2, 2, 2, 1, 2), (2,)]),
    ],
)
def test_conv_gradients_first_and_second_order(fn, shapes):
    inputs = _params(*shapes)
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_grad_fn_names_and_bias_free_gradients():
    x, w = _params((1, 2, 4, 4), (3, 2, 2, 2))
    y = F.conv2d(x, w)
    assert y.grad_fn.name() == "ConvolutionBackward0"
    y.sum().backward()
    assert tuple(x.grad.shape) == (1, 2, 4, 4) and tuple(w.grad.shape) == (3, 2, 2, 2)


def test_torch_level_names():
    x, w = engine.randn(1, 2, 5, 5), engine.randn(3, 2, 3, 3)
    ref = F.conv2d(x, w, None, 1, 1)
    assert engine.equal(engine.conv2d(x, w, None, 1, 1), ref)
    assert engine.equal(
        engine.convolution(x, w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), ref
    )
    assert engine.conv_transpose2d is F.conv_transpose2d


# ---- unfold / fold and Tensor.unfold ----


def unfold_ref(x, k, d, p, s):
    n, c = x.shape[:2]
    xp = np.pad(x, [(0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])])
    oh = (x.shape[2] + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (x.shape[3] + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    out = np.zeros((n, c, k[0], k[1], oh, ow))
    for i, j in itertools.product(range(k[0]), range(k[1])):
        out[:, :, i, j] = xp[
            :, :, i * d[0] : i * d[0] + s[0] * (oh - 1) + 1 : s[0],
            j * d[1] : j * d[1] + s[1] * (ow - 1) + 1 : s[1],
        ]  # fmt: skip
    return out.reshape(n, c * k[0] * k[1], oh * ow)


def test_unfold_and_fold_match_reference_and_are_adjoint():
    x = RNG.standard_normal((2, 3, 7, 6))
    got = F.unfold(engine.tensor(x), (2, 3), dilation=(1, 2), padding=1, stride=(2, 1))
    want = unfold_ref(x, (2, 3), (1, 2), (1, 1), (2, 1))
    np.testing.assert_allclose(arr(got), want, atol=1e-12)
    # <unfold(x), c> == <x, fold(c)>
    c = RNG.standard_normal(want.shape)
    folded = F.fold(engine.tensor(c), (7, 6), (2, 3), dilation=(1, 2), padding=1, stride=(2, 1))
    np.testing.assert_allclose((want * c).sum(), (x * arr(folded)).sum(), rtol=1e-10)
    assert tuple(F.unfold(engine.tensor(x[0]), 2).shape) == (12, 30)
    xs, cs = _params((1, 2, 4, 5), (1, 8, 12))
    assert gradgradcheck(lambda t: F.unfold(t, 2, padding=1, stride=2), [xs])
    assert gradgradcheck(lambda t: F.fold(t, (4, 5), 2, stride=1), [cs])


def test_tensor_unfold_is_a_strided_view():
    base = engine.arange(24.0).reshape(2, 12)
    v = base.unfold(1, 4, 3)
    assert tuple(v.shape) == (2, 3, 4)
    np.testing.assert_array_equal(arr(v)[1, 2], [18.0, 19.0, 20.0, 21.0])
    base[1, 6] = -1.0
    assert v[1, 2, 0].item() == -1.0
    x = engine.randn(3, 7, dtype=engine.float64, requires_grad=True)
    assert gradcheck(lambda t: t.unfold(1, 3, 2) * 2.0, [x])
    assert gradgradcheck(lambda t: t.unfold(0, 2, 1) * t.unfold(0, 2, 1), [x])
    assert x.unfold(1, 3, 2).grad_fn.name() == "UnfoldBackward0"
    assert tuple(engine.tensor(5.0).unfold(0, 1, 1).shape) == (1,)
    with pytest.raises(
        RuntimeError, match="maximum size for tensor at dimension 1 is 7 but size is 8"
    ):
        x.unfold(1, 8, 1)
    with pytest.raises(RuntimeError, match="step is 0 but must be > 0"):
        x.unfold(1, 2, 0)


# ---- errors ----


@pytest.mark.parametrize(
    "call, exc, message",
    [
        (lambda: F.conv2d(engine.randn(2, 4, 5, 5), engine.randn(6, 3, 3, 3)), RuntimeError,
         "Given groups=1, weight of size [6, 3, 3, 3], expected input[2, 4, 5, 5] to have 3 channels, "
         "but got 4 channels instead"),
        (lambda: F.conv2d(engine.randn(5, 5), engine.randn(6, 3, 3, 3)), RuntimeError,
         "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [5, 5]"),
        (lambda: F.conv2d(engine.randn(1, 3, 2, 2), engine.randn(6, 3, 3, 3)), RuntimeError,
         "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't be "
         "greater than actual input size"),
        (lambda: F.conv2d(engine.randn(1, 4, 5, 5), engine.randn(6, 2, 3, 3), groups=4), RuntimeError,
         "Given groups=4, expected weight to be divisible by 4 at dimension 0, but got weight of size "
         "[[6, 2, 3, 3]] instead"),
        (lambda: F.conv2d(engine.randn(1, 3, 5, 5), engine.randn(6, 3, 3, 3), engine.randn(5)),
         RuntimeError, "Given weight of size [6, 3, 3, 3], expected bias to be 1-dimensional with 6 "
         "elements, but got bias of size [5] instead"),
        (lambda: F.conv2d(engine.randn(1, 3, 5, 5), engine.randn(6, 3, 3, 3), stride=0), RuntimeError,
         "non-positive stride is not supported"),
        (lambda: F.conv2d(engine.randn(1, 3, 5, 5), engine.randn(6, 3, 3, 3), padding=-1),
         RuntimeError, "negative padding is not supported"),
        (lambda: F.conv2d(engine.randn(1, 3, 5, 5), engine.randn(6, 3, 3, 3), groups=0),
         RuntimeError, "non-positive groups is not supported"),
        (lambda: F.conv2d(engine.randn(1, 3, 5, 5), engine.randn(6, 3, 3, 3), stride=(1, 1, 1)),
         RuntimeError, "expected stride to be a single integer value or a list of 2 values to match "
         "the convolution dimensions, but got stride=[1, 1, 1]"),
        (lambda: F.conv2d(engine.randn(1, 3, 5, 5), engine.randn(6, 3, 3, 3), stride=2,
                          padding="same"),
         RuntimeError, "padding='same' is not supported for strided convolutions"),
        (lambda: F.conv2d(engine.randn(1, 3, 5, 5), engine.randn(6, 3, 3, 3), padding="foo"),
         RuntimeError, "Invalid padding string: 'foo'"),
        (lambda: F.conv2d(engine.randn(1, 3, 5, 5, dtype=engine.float64), engine.randn(6, 3, 3, 3)),
         RuntimeError, "expected scalar type Double but found Float"),
        (lambda: F.conv2d(engine.randn(1, 3, 5, 5), engine.randn(6, 3, 3, 3),
                          engine.randn(6, dtype=engine.float64)),
         RuntimeError, "Input type (float) and bias type (double) should be the same"),
        (lambda: F.conv_transpose2d(engine.randn(1, 5, 5, 5), engine.randn(6, 3, 3, 3)), RuntimeError,
         "Given transposed=1, weight of size [6, 3, 3, 3], expected input[1, 5, 5, 5] to have 6 "
         "channels, but got 5 channels instead"),
        (lambda: F.conv_transpose2d(engine.randn(1, 6, 1, 1), engine.randn(6, 3, 3, 3), padding=3),
         RuntimeError, "Given input size per channel: (1 x 1). Calculated output size per channel: "
         "(-3 x -3). Output size is too small"),
        (lambda: F.conv_transpose2d(engine.randn(1, 6, 5, 5), engine.randn(6, 3, 3, 3),
                                    output_padding=1),
         RuntimeError, "output padding must be smaller than either stride or dilation"),
        (lambda: F.unfold(engine.randn(1, 3, 2, 2), 3), RuntimeError,
         "Given input with spatial size (2, 2), kernel_size=(3, 3), dilation=(1, 1), padding=(0, 0), "
         "calculated shape of the array of sliding blocks as (0, 0), but its components must be at "
         "least one."),
        (lambda: F.unfold(engine.randn(1, 3, 5, 5, 5), 2), RuntimeError,
         "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size"),
        (lambda: F.fold(engine.randn(1, 12, 5), (3, 3), 2), RuntimeError,
         "Given output_size=(3, 3), kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), "
         "stride=(1, 1), expected size of input's dimension 2 to match the calculated number of "
         "sliding blocks 2 * 2 = 4, but got input.size(2)=5."),
        (lambda: F.fold(engine.randn(1, 13, 4), (3, 3), 2), RuntimeError,
         "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
         "got input.size(1)=13 and kernel_size=(2, 2)."),
    ],
)  # fmt: skip
def test_errors_match_pytorch(call, exc, message):
    with pytest.raises(exc) as info:
        call()
    assert message in str(info.value)


def test_integer_inputs_are_refused_clearly():
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        F.conv2d(
            engine.ones(1, 1, 3, 3, dtype=engine.int64), engine.ones(1, 1, 2, 2, dtype=engine.int64)
        )


def test_argument_types_and_extreme_sizes():
    x, w = engine.randn(1, 1, 4, 4), engine.randn(1, 1, 2, 2)
    with pytest.raises(
        TypeError, match=r"conv2d\(\): argument 'stride' must be tuple of ints, not float"
    ):
        F.conv2d(x, w, stride=1.5)
    with pytest.raises(TypeError, match="im2col.*'kernel_size'.*element of type float at pos 0"):
        F.unfold(x, (2.0, 2))
    with pytest.raises(
        TypeError, match=r"max_pool2d\(\): argument 'kernel_size' must be tuple of ints"
    ):
        F.max_pool2d(x, 2.5)
    # An empty batch with an absurd padding: the sizes are checked, nothing is allocated for them.
    with pytest.raises(RuntimeError, match="overflow"):
        F.conv2d(engine.zeros(0, 1, 1, 1), w, padding=2**40)
    with pytest.raises(RuntimeError, match="overflow"):
        F.conv2d(x, w, padding=2**62)
    assert tuple(F.conv2d(engine.zeros(0, 1, 1, 1), w, padding=3).shape) == (0, 1, 6, 6)


def test_conv_tbc_is_a_time_batch_channel_conv1d():
    x = RNG.standard_normal((7, 2, 3))
    w = RNG.standard_normal((3, 3, 4))
    b = RNG.standard_normal(4)
    got = engine.conv_tbc(engine.tensor(x), engine.tensor(w), engine.tensor(b), 1)
    want = conv_ref(x.transpose(1, 2, 0), w.transpose(2, 1, 0), b, (1,), (1,), (1,), 1)
    np.testing.assert_allclose(arr(got), want.transpose(2, 0, 1), atol=1e-12)


def test_convolution_node_shows_pytorchs_saved_attributes():
    # Recorded from PyTorch 2.13.
    a = engine.ones(1, 1, 3, 3, requires_grad=True)
    f = engine.nn.Conv2d(1, 2, 3, padding=1, stride=(2, 1))(a).grad_fn
    assert f._saved_bias_sym_sizes_opt == (2,) and f._saved_groups == 1
    assert (f._saved_stride, f._saved_padding, f._saved_dilation) == ((2, 1), (1, 1), (1, 1))
    assert f._saved_output_padding == (0, 0) and f._saved_transposed is False
    assert f._saved_input is a and tuple(f._saved_weight.shape) == (2, 1, 3, 3)
    assert engine.nn.Conv2d(1, 1, 3, bias=False)(a).grad_fn._saved_bias_sym_sizes_opt == (0,)
    x = engine.ones(1, 2, 3, 3, requires_grad=True)
    g = engine.nn.ConvTranspose2d(2, 4, 3, stride=2, output_padding=1, groups=2)(x).grad_fn
    assert (g._saved_transposed, g._saved_groups, g._saved_output_padding) == (True, 2, (1, 1))
    assert g._saved_bias_sym_sizes_opt == (4,) and g._saved_stride == (2, 2)
