"""The deterministic nn.functional entries of engine/nn/_activations_extra.py, _losses_extra.py,
_layers_extra.py, _embedding_bag.py, _ctc.py and _attention.py, and the torch.* forms of
nn.functional entries: values and gradients against PyTorch 2.13 (recorded by
tests/fixtures/record_nn_extra.py), gradients against finite differences, and PyTorch's errors."""

import json
import math
import pathlib
import warnings

import engine
import engine.nn.functional as F
import numpy as np
import pytest

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "nn_extra.json").read_text())
INT_KEYS = {"cls", "labels", "bag_idx", "bag_off", "bag_off_last", "bag_2d", "ctc_t", "ctc_flat",
            "ctc_in", "ctc_tl", "ctc_in_short", "ctc_tl_long"}  # fmt: skip
BOOL_KEYS = {"kpm", "causal", "ukpm"}


def _tensor(key):
    data = FIXTURE["data"][key]
    if key in INT_KEYS:
        return engine.tensor(data, dtype=engine.int64)
    if key in BOOL_KEYS:
        return engine.tensor(data, dtype=engine.bool)
    return engine.tensor(data, dtype=engine.float64)


def _resolve(arg, leaves):
    if isinstance(arg, dict) and "t" in arg:
        t = _tensor(arg["t"])
        if arg.get("grad"):
            t.requires_grad_(True)
            leaves.append(t)
        return t
    return arg


def _function(name):
    if name == "ctc_log_softmax":
        return lambda x, *rest, **kw: F.ctc_loss(F.log_softmax(x, 2), *rest, **kw)
    module, attr = name.split(".")
    return getattr(F if module == "F" else engine, attr)


def _call(case):
    leaves = []
    args = [_resolve(a, leaves) for a in case["args"]]
    kwargs = {k: _resolve(v, leaves) for k, v in case["kwargs"].items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = _function(case["fn"])(*args, **kwargs)
    outs = [o for o in (out if isinstance(out, tuple) else (out,)) if o is not None]
    return outs, leaves


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=lambda c: c["name"])
def test_values_and_gradients_match_pytorch(case):
    outs, leaves = _call(case)
    assert len(outs) == len(case["values"])
    for out, expected in zip(outs, case["values"]):
        np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-10, atol=1e-12)
    total = sum((o * (i + 1.5)).sum() for i, o in enumerate(outs) if o.is_floating_point())
    grads = engine.autograd.grad(total, leaves, allow_unused=True)
    for leaf, grad, expected in zip(leaves, grads, case["grads"]):
        got = np.zeros(tuple(leaf.shape)) if grad is None else grad.numpy()
        np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)


# Functions whose gradient finite differences can check: smooth at the recorded data, and not
# CTC on raw log-probabilities (whose recorded gradient is PyTorch's softmax-form one).
GRADCHECK = ["tanhshrink", "multilabel_soft_margin", "bilinear", "lrn_3d", "lrn_4d",
             "embedding_bag_mean", "embedding_bag_sum_psw", "embedding_bag_max", "ctc_log_softmax",
             "linear_cross_entropy", "mha", "mha_kpm_float_mask", "mha_bias_kv_zero", "mha_separate",
             "mha_unbatched", "multi_margin_p2_w"]  # fmt: skip


@pytest.mark.parametrize("name", GRADCHECK)
def test_gradcheck(name):
    case = next(c for c in FIXTURE["cases"] if c["name"] == name)
    leaves = []
    args = [_resolve(a, leaves) for a in case["args"]]
    kwargs = {k: _resolve(v, leaves) for k, v in case["kwargs"].items()}
    fn = _function(case["fn"])
    first = leaves[0]

    def f(x):
        a = [x if t is first else t for t in args]
        kw = {k: (x if v is first else v) for k, v in kwargs.items()}
        out = fn(*a, **kw)
        return out[0] if isinstance(out, tuple) else out

    assert engine.autograd.gradcheck(f, (first,))
    if name in ("bilinear", "lrn_3d", "mha", "multilabel_soft_margin"):
        assert engine.autograd.gradgradcheck(f, (first,))


def test_ctc_gradient_is_pytorchs_softmax_form():
    """PyTorch's CTC backward returns exp(log_probs) - posterior; per frame within the input
    length it sums to 0 over classes, and beyond the input length it is 0."""
    lp = _tensor("ctc_lp").requires_grad_(True)
    loss = F.ctc_loss(lp, _tensor("ctc_t"), [6, 4, 1], [3, 2, 1], reduction="sum")
    (grad,) = engine.autograd.grad(loss, lp)
    g = grad.numpy()
    np.testing.assert_allclose(g.sum(2), 0.0, atol=1e-12)
    assert np.all(g[4:, 1] == 0) and np.all(g[1:, 2] == 0)


def test_ctc_edge_cases():
    lp = F.log_softmax(engine.zeros(4, 2, 3, dtype=engine.float64), 2)
    t = engine.tensor([[1, 2], [1, 1]])
    # An empty target with no frames has probability 1; a target longer than the input is
    # impossible (inf), and zero_infinity makes it 0.
    none = F.ctc_loss(lp, t, [0, 4], [0, 2], reduction="none")
    assert none[0].item() == 0.0 and math.isfinite(none[1].item())
    assert math.isinf(F.ctc_loss(lp, t, [1, 4], [2, 2], reduction="none")[0].item())
    lp.requires_grad_(True)
    loss = F.ctc_loss(lp, t, [1, 4], [2, 2], reduction="sum", zero_infinity=True)
    (grad,) = engine.autograd.grad(loss, lp)
    assert np.all(np.isfinite(grad.numpy())) and np.all(grad.numpy()[:, 0] == 0)
    with pytest.raises(RuntimeError, match="blank must be in label range"):
        F.ctc_loss(lp, t, [4, 4], [2, 2], blank=3)
    with pytest.raises(RuntimeError, match="Expected input_lengths to have value at most 4"):
        F.ctc_loss(lp, t, [5, 4], [2, 2])
    with pytest.raises(RuntimeError, match="input_lengths must be of size batch_size"):
        F.ctc_loss(lp, t, [4], [2, 2])
    with pytest.raises(RuntimeError, match="Expected target_lengths to have value at least 0"):
        F.ctc_loss(lp, t, [4, 4], [-1, 2])
    with pytest.raises(
        RuntimeError, match="Expected tensor to have size at least 3 at dimension 1"
    ):
        F.ctc_loss(lp, t, [4, 4], [3, 2])
    with pytest.raises(RuntimeError, match="target values must lie in"):
        F.ctc_loss(lp, engine.tensor([[1, 5], [1, 1]]), [4, 4], [2, 2])


def test_margin_loss_errors_match_pytorch():
    x = _tensor("x")
    with pytest.raises(ValueError, match="only p == 1 and p == 2 supported"):
        F.multi_margin_loss(x, _tensor("cls"), p=3)
    with pytest.raises(RuntimeError, match="target out of range"):
        F.multi_margin_loss(x, engine.tensor([0, 5, 1]))
    with pytest.raises(RuntimeError, match=r"Expected target size \[3\], but got \[2\]"):
        F.multi_margin_loss(x, engine.tensor([0, 1]))
    with pytest.raises(RuntimeError, match="expected scalar type Long but found Float"):
        F.multi_margin_loss(x, engine.tensor([0.0, 1.0, 2.0]))
    with pytest.raises(RuntimeError, match=r"inconsistent weight size, expected 5 but got \[3\]"):
        F.multi_margin_loss(x, _tensor("cls"), weight=engine.ones(3, dtype=engine.float64))
    with pytest.raises(RuntimeError, match="Expected non-empty vector or matrix"):
        F.multi_margin_loss(engine.zeros(2, 3, 4), _tensor("cls"))
    with pytest.raises(RuntimeError, match="argument #2 'target' is out of range"):
        F.multilabel_margin_loss(x, _tensor("labels") * 2)
    with pytest.raises(RuntimeError, match=r"inconsistent target size: \[1, 2\]"):
        F.multilabel_margin_loss(x, engine.tensor([[0, 1]]))
    with pytest.raises(ValueError, match="margin must be greater than 0, got 0"):
        F.triplet_margin_with_distance_loss(x, x, x, margin=0)
    with pytest.raises(RuntimeError, match="anchor 2D, positive 2D, and negative 1D inputs"):
        F.triplet_margin_with_distance_loss(x, x, x[0])
    with pytest.raises(ValueError, match="bad is not valid"):
        F.multilabel_soft_margin_loss(x, x, reduction="bad")
    one = F.multi_margin_loss(x[0], engine.tensor(2), reduction="none")
    assert one.shape == ()


def test_custom_distance_function():
    a, b, c = _tensor("a"), _tensor("b"), _tensor("c")
    out = F.triplet_margin_with_distance_loss(
        a, b, c, distance_function=lambda u, v: 1.0 - F.cosine_similarity(u, v), reduction="none"
    )
    d_pos = 1.0 - F.cosine_similarity(a, b)
    d_neg = 1.0 - F.cosine_similarity(a, c)
    expected = np.maximum(1.0 + d_pos.numpy() - d_neg.numpy(), 0.0)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)


def test_bilinear_and_lrn_errors_match_pytorch():
    w = engine.zeros(5, 3, 4)
    with pytest.raises(
        RuntimeError, match="input batch dimensions do not match at dim 0: got 2 and 3"
    ):
        F.bilinear(engine.zeros(2, 3), engine.zeros(3, 4), w)
    with pytest.raises(RuntimeError, match="input1 size does not match weight size: got 2"):
        F.bilinear(engine.zeros(2, 2), engine.zeros(2, 4), w)
    with pytest.raises(RuntimeError, match="input2 size does not match weight size: got 5"):
        F.bilinear(engine.zeros(2, 3), engine.zeros(2, 5), w)
    with pytest.raises(RuntimeError, match="bias size does not match weight size: got 4"):
        F.bilinear(engine.zeros(2, 3), engine.zeros(2, 4), w, engine.zeros(4))
    with pytest.raises(RuntimeError, match="input dimensions do not match: got 2 and 3"):
        F.bilinear(engine.zeros(2, 3), engine.zeros(2, 7, 4), w)
    assert F.bilinear(engine.zeros(2, 7, 3), engine.zeros(2, 7, 4), w).shape == (2, 7, 5)
    with pytest.raises(ValueError, match="Expected 3D or higher dimensionality"):
        F.local_response_norm(engine.zeros(2, 3), 2)
    with pytest.raises(RuntimeError, match="kernel size should be greater than zero"):
        F.local_response_norm(engine.zeros(2, 3, 4), 0)
    assert F.local_response_norm(engine.zeros(2, 0, 3), 2).shape == (2, 0, 3)


def test_embedding_bag_errors_and_aux_outputs():
    w = _tensor("emb")
    i, o = _tensor("bag_idx"), _tensor("bag_off")
    with pytest.raises(ValueError, match="offsets has to be a 1D Tensor but got None"):
        F.embedding_bag(i, w)
    with pytest.raises(ValueError, match="if input is 2D, then offsets has to be None"):
        F.embedding_bag(_tensor("bag_2d"), w, o)
    with pytest.raises(NotImplementedError, match="only supported for mode='sum'"):
        F.embedding_bag(i, w, o, per_sample_weights=engine.ones(9, dtype=engine.float64))
    with pytest.raises(RuntimeError, match="offsets\\[0\\] has to be 0"):
        F.embedding_bag(i, w, engine.tensor([1, 2]))
    with pytest.raises(ValueError, match="mode has to be one of sum, mean or max"):
        F.embedding_bag(i, w, o, mode="bad")
    with pytest.raises(
        RuntimeError, match=r"Index 1 of input takes value 9 which is not in the valid"
    ):
        F.embedding_bag(engine.tensor([1, 9]), w, engine.tensor([0]))
    with pytest.raises(RuntimeError, match="Expected tensor for argument #1 'indices'"):
        F.embedding_bag(i.double(), w, o)
    with pytest.raises(ValueError, match="must have the same shape as the input"):
        F.embedding_bag(
            i, w, o, mode="sum", per_sample_weights=engine.ones(7, dtype=engine.float64)
        )
    with pytest.raises(RuntimeError, match="padding_idx must be within the number of embeddings"):
        F.embedding_bag(i, w, o, padding_idx=9)
    with pytest.raises(
        RuntimeError, match="offsets\\[-1\\] can not be greater than input's length"
    ):
        F.embedding_bag(i, w, engine.tensor([0, 2, 19]))
    with pytest.raises(ValueError, match="weight has to be a 2D Tensor"):
        F.embedding_bag(i, w[0], o)
    out, offset2bag, bag_size, max_indices = engine.embedding_bag(w, i, o, False, 2)
    assert offset2bag.tolist() == [0, 0, 2, 2, 2, 3, 3, 3, 3]
    assert bag_size.tolist() == [2, 0, 3, 4]
    rows = w.numpy()[i.numpy()]
    assert np.all(
        np.take_along_axis(w.numpy(), max_indices.numpy()[[0, 2, 3]], 0) == out.numpy()[[0, 2, 3]]
    )
    assert np.all(out.numpy()[1] == 0) and rows.shape == (9, 3)


def test_mha_errors_match_pytorch():
    d = {k: _tensor(k) for k in ("q", "kv", "in_w", "in_b", "out_w", "out_b", "kv6")}
    base = [d["q"], d["kv"], d["kv"], 4, 2, d["in_w"], d["in_b"], None, None, False, 0.0,
            d["out_w"], d["out_b"]]  # fmt: skip
    with pytest.raises(AssertionError, match="was expecting embedding dimension of 6, but got 4"):
        F.multi_head_attention_forward(*base[:3], 6, *base[4:])
    with pytest.raises(AssertionError, match="embed_dim 4 not divisible by num_heads 3"):
        F.multi_head_attention_forward(*base[:4], 3, *base[5:])
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
        F.multi_head_attention_forward(*base, is_causal=True)
    with pytest.raises(RuntimeError, match="The shape of the 2D attn_mask is"):
        F.multi_head_attention_forward(*base, attn_mask=engine.zeros(3, 4, dtype=engine.float64))
    with pytest.raises(AssertionError, match="only bool and floating types of attn_mask"):
        F.multi_head_attention_forward(*base, attn_mask=engine.zeros(3, 5, dtype=engine.int64))
    with pytest.raises(AssertionError, match="key shape"):
        F.multi_head_attention_forward(d["q"], d["kv"], d["kv6"], *base[3:])
    with pytest.raises(AssertionError, match="For batched \\(3-D\\) `query`, expected `key`"):
        F.multi_head_attention_forward(d["q"], d["kv"][0], d["kv"][0], *base[3:])
    with pytest.raises(AssertionError, match="Expected key_padded_mask.shape\\[1\\] to be 5"):
        F.multi_head_attention_forward(
            *base, key_padding_mask=engine.zeros(2, 4, dtype=engine.bool)
        )
    with pytest.raises(AssertionError, match="bias_k is set but bias_v is None"):
        F.multi_head_attention_forward(
            *base[:7], engine.zeros(1, 1, 4, dtype=engine.float64), *base[8:]
        )
    with pytest.warns(UserWarning, match="Support for mismatched key_padding_mask and attn_mask"):
        F.multi_head_attention_forward(
            *base, key_padding_mask=engine.zeros(2, 5, dtype=engine.bool),
            attn_mask=engine.zeros(3, 5, dtype=engine.float64),
        )  # fmt: skip
    out, weights = F.multi_head_attention_forward(*base, need_weights=False)
    assert weights is None and out.shape == (3, 2, 4)


def test_activation_errors_and_in_place_forms():
    x = _tensor("x")
    with pytest.raises(RuntimeError, match="lambda must be in range"):
        F.softshrink(x, -1.0)
    with pytest.raises(RuntimeError, match="Lower bound should be less than or equal to the upper"):
        F.rrelu(x, 0.5, 0.2)
    for name, args in [("relu_", ()), ("elu_", (0.5,)), ("celu_", (2.0,)), ("selu_", ()),
                       ("leaky_relu_", (0.2,)), ("hardtanh_", (-0.5, 0.5)), ("threshold_", (0.1, 9.0)),
                       ("rrelu_", ())]:  # fmt: skip
        base = getattr(F, name[:-1])
        y = x.clone()
        out = getattr(F, name)(y, *args)
        assert out is y
        np.testing.assert_array_equal(y.numpy(), base(x, *args).numpy())
    for name in ("relu_", "celu_", "selu_", "threshold_", "rrelu_"):
        y = x.clone()
        args = (0.1, 9.0) if name == "threshold_" else ()
        assert getattr(engine, name)(y, *args) is y
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        F.relu_(x.clone().requires_grad_(True))
    assert F.hardshrink(x).tolist() == x.hardshrink().tolist()
    np.testing.assert_allclose(x.softmax(1).numpy(), F.softmax(x, 1).numpy())
    np.testing.assert_allclose(x.log_softmax(0).numpy(), F.log_softmax(x, 0).numpy())


def test_torch_level_reductions_are_integers():
    a, b = _tensor("a"), _tensor("b")
    with pytest.raises(ValueError, match="3 is not a valid value for reduction"):
        engine.kl_div(a, b, 3)
    assert engine.kl_div(a, b, 0).shape == (3, 4)
    np.testing.assert_allclose(
        engine.kl_div(a, b, 1).item(), F.kl_div(a, b, reduction="none").mean().item()
    )


def test_embedding_bag_scale_grad_by_freq_divides_by_the_count():
    """Each row's gradient is divided by how often its index occurs in the batch (PyTorch 2.13's
    CPU kernel pairs the counts with the wrong rows for offset bags; this is the documented rule)."""
    w = _tensor("emb").requires_grad_(True)
    i = _tensor("bag_idx")
    out = F.embedding_bag(i, w, _tensor("bag_off"), mode="sum", scale_grad_by_freq=True)
    (grad,) = engine.autograd.grad(out.sum(), w)
    counts = np.bincount(i.numpy(), minlength=7)
    expected = np.where(counts > 0, 1.0, 0.0)[:, None] * np.ones((7, 3))
    np.testing.assert_allclose(grad.numpy(), expected)


def test_huge_window_and_empty_bags_stay_cheap():
    """A local_response_norm window far wider than the channels costs no more than one as wide
    as them (and gives the same result); empty bags are zeros."""
    x = _tensor("feat")
    wide = F.local_response_norm(x, 2**40, alpha=1.0)
    assert np.all(np.isfinite(wide.numpy()))
    same = F.local_response_norm(x, 13, alpha=13 / 2**40)
    np.testing.assert_allclose(wide.numpy(), same.numpy(), rtol=1e-12)
    w = _tensor("emb")
    for mode in ("sum", "mean", "max"):
        out = F.embedding_bag(
            engine.tensor([], dtype=engine.int64), w, engine.tensor([0, 0]), mode=mode
        )
        assert out.shape == (2, 3) and not out.numpy().any()


def test_hostile_sizes_raise_before_allocating():
    lp = F.log_softmax(engine.zeros(5, 2, 4, dtype=engine.float64), 2)
    t = engine.tensor([[1, 2], [3, 1]])
    with pytest.raises(RuntimeError, match="Expected tensor to have size at least 1099511627776"):
        F.ctc_loss(lp, t, [5, 5], [2**40, 2])
    with pytest.raises(RuntimeError, match="Expected input_lengths to have value at most 5"):
        F.ctc_loss(lp, t, [2**62, 5], [2, 2])
    with pytest.raises(RuntimeError, match="input_lengths must be integral"):
        F.ctc_loss(lp, t, engine.tensor([5.0, 5.0]), engine.tensor([2, 2]))
    with pytest.raises(TypeError, match="input_lengths must be a tuple of ints or a Tensor"):
        F.ctc_loss(lp, t, "ab", [2, 2])
    w = _tensor("emb")
    with pytest.raises(RuntimeError, match="offsets\\[-1\\] can not be greater"):
        F.embedding_bag(engine.tensor([1, 2]), w, engine.tensor([0, 2**62]))
    with pytest.raises(RuntimeError, match="argument #2 'offsets' to have one of the following"):
        F.embedding_bag(engine.tensor([1, 2]), w, engine.tensor([0.0]))
    empty = F.embedding_bag(engine.tensor([1, 2]), w, engine.tensor([0]), include_last_offset=True)
    assert empty.shape == (0, 3)
    with pytest.raises(RuntimeError, match="kernel size should be greater than zero"):
        F.local_response_norm(engine.zeros(2, 3, 4), -(2**62))


def test_embedding_bag_max_memory_does_not_grow_with_the_longest_bag():
    """One bag of 60000 positions among 3000 short ones: a dense (bags, longest, dim) block
    would need 1.4 GB; the segment reduction needs a few MB."""
    w = engine.randn(50, 2, dtype=engine.float64)
    idx = engine.randint(0, 50, (63000,))
    offsets = engine.cat([engine.zeros(1, dtype=engine.int64), engine.arange(60000, 62999)])
    out = F.embedding_bag(idx, w, offsets, mode="max")
    rows = w.numpy()[idx.numpy()]
    np.testing.assert_array_equal(out.numpy()[0], rows[:60000].max(0))
    np.testing.assert_array_equal(out.numpy()[-1], rows[62998:].max(0))


def test_legacy_reduction_flags_warn_as_pytorch():
    x = _tensor("x")
    with pytest.warns(UserWarning, match="please use reduction='sum' instead"):
        total = F.multi_margin_loss(x, _tensor("cls"), size_average=False)
    np.testing.assert_allclose(
        total.item(), F.multi_margin_loss(x, _tensor("cls"), reduction="sum").item()
    )
    with pytest.warns(UserWarning, match="please use reduction='none' instead"):
        assert F.multilabel_soft_margin_loss(x, _tensor("p"), reduce=False).shape == (3,)
    with pytest.warns(UserWarning, match="please use reduction='none' instead"):
        assert F.multilabel_margin_loss(x, _tensor("labels"), reduce=False).shape == (3,)
    with pytest.raises(
        RuntimeError,
        match=r"lambda must be in range \[0, 1.79769e\+308\] for input dtype Double, but found -1.5",
    ):
        F.softshrink(x, -1.5)
