"""Normalisation, embedding, padding and attention in nn.functional: outputs and gradients
against PyTorch 2.13 (recorded by tests/fixtures/record_layers_functional.py), plus the running
statistics and errors."""

import json
import pathlib

import engine
import engine.nn.functional as F
import numpy as np
import pytest

FIXTURE = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "layers_functional.json").read_text()
)


def _data():
    d = {
        k: engine.tensor(v, dtype=engine.float64)
        for k, v in FIXTURE["data"].items()
        if k != "bmask"
    }
    d["bmask"] = engine.tensor(FIXTURE["data"]["bmask"])
    return d


def _calls(d, state):
    ids = engine.tensor(FIXTURE["ids"])
    return {
        "layer_norm": lambda x, w, b: F.layer_norm(x, (5,), w, b),
        "layer_norm_2d": lambda x: F.layer_norm(x, (3, 3)),
        "rms_norm": lambda x, w: F.rms_norm(x, (5,), w, eps=1e-6),
        "group_norm": lambda x, w, b: F.group_norm(x, 2, w, b),
        "batch_norm_eval": lambda x, w, b: F.batch_norm(x, d["rm"], d["rv"], w, b, False),
        "batch_norm_train": lambda x, w, b: F.batch_norm(
            x, state["rm"], state["rv"], w, b, True, 0.3
        ),
        "instance_norm": lambda x, w, b: F.instance_norm(x, weight=w, bias=b),
        "embedding_pad": lambda w: F.embedding(ids, w, padding_idx=2),
        "pad_constant": lambda x: F.pad(x, (1, 2, 0, 1), value=0.5),
        "pad_crop": lambda x: F.pad(x, (-1, 2)),
        "pad_reflect": lambda x: F.pad(x, (2, 1, 1, 2), mode="reflect"),
        "pad_replicate": lambda x: F.pad(x, (3, 1), mode="replicate"),
        "pad_circular": lambda x: F.pad(x, (2, 3), mode="circular"),
        "sdpa": F.scaled_dot_product_attention,
        "sdpa_float_mask": lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, m, scale=0.3),
        "sdpa_bool_mask": lambda q, k, v: F.scaled_dot_product_attention(q, k, v, d["bmask"]),
        "sdpa_causal": lambda q, k, v: F.scaled_dot_product_attention(
            q, k[:, :, :4], v[:, :, :4], is_causal=True
        ),
        "gaussian_nll": lambda x, t: F.gaussian_nll_loss(
            x, t, d["rv"].reshape(1, 4, 1, 1).expand(2, 4, 3, 3)
        ),
    }


@pytest.mark.parametrize("name", sorted(FIXTURE["cases"]))
def test_outputs_and_gradients_match_pytorch(name):
    case = FIXTURE["cases"][name]
    d = _data()
    state = {"rm": d["rm"].clone(), "rv": d["rv"].clone()}
    inputs = [d[k].detach().requires_grad_(d[k].is_floating_point()) for k in case["keys"]]
    out = _calls(d, state)[name](*inputs)
    np.testing.assert_allclose(out.detach().numpy(), case["value"], rtol=1e-10, atol=1e-12)
    weights = engine.linspace(-1, 1, out.numel(), dtype=out.dtype).reshape(*out.shape)
    grads = engine.autograd.grad((out * weights).sum(), [t for t in inputs if t.requires_grad])
    for got, want in zip(grads, case["grads"]):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-9, atol=1e-12)
    if "running" in case:
        np.testing.assert_allclose(state["rm"].numpy(), case["running"][0], rtol=1e-12)
        np.testing.assert_allclose(state["rv"].numpy(), case["running"][1], rtol=1e-12)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: F.layer_norm(engine.ones(2, 3), (4,)), RuntimeError, "^Given normalized_shape=\\[4\\]"),
        (lambda: F.group_norm(engine.ones(2, 3, 4), 2), RuntimeError, "divisible by num_groups"),
        (lambda: F.batch_norm(engine.ones(1, 3), None, None, training=True), ValueError,
         "Expected more than 1 value per channel when training"),
        (lambda: F.pad(engine.ones(2, 3), (1,)), RuntimeError, "^Padding length must be divisible by 2$"),
        (lambda: F.pad(engine.ones(2, 3), (3, 0), mode="reflect"), RuntimeError, "Padding size should be less than"),
        (lambda: F.embedding(engine.ones(2), engine.ones(3, 2)), RuntimeError,
         "'indices' to have one of the following scalar types"),
    ],
)  # fmt: skip
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_embedding_max_norm_renormalises_rows_in_place():
    weight = engine.tensor([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]])
    out = F.embedding(engine.tensor([0, 1]), weight, max_norm=1.0)
    np.testing.assert_allclose(out.numpy(), [[0.6, 0.8], [0.3, 0.4]], rtol=1e-6)
    np.testing.assert_allclose(weight.numpy()[0], [0.6, 0.8], rtol=1e-6)
    assert weight.tolist()[2] == [6.0, 8.0]  # not selected: untouched
