"""Cross-entropy and NLL losses run under ``vmap`` (per-sample gradients as Opacus and the
functorch tutorial compute them): the target bounds check tests the whole batch of targets at
once instead of indexing by a batched boolean mask, and still raises.

Expectations from PyTorch 2.13's behaviour; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest


def test_cross_entropy_per_sample(lib):
    lib.manual_seed(0)
    logits = lib.randn(5, 1, 3)
    target = lib.tensor([0, 2, 1, 1, 0])
    out = lib.func.vmap(lambda x, t: lib.nn.functional.cross_entropy(x, t.unsqueeze(0)))(
        logits, target
    )
    expected = lib.nn.functional.cross_entropy(logits.squeeze(1), target, reduction="none")
    assert lib.allclose(out, expected)


def test_nll_loss_ignore_index_under_vmap(lib):
    logp = lib.log_softmax(lib.randn(4, 2, 3), -1)
    target = lib.tensor([[0, -100], [2, 1], [-100, -100], [1, 1]])
    out = lib.func.vmap(lambda x, t: lib.nn.functional.nll_loss(x, t, reduction="sum"))(
        logp, target
    )
    assert tuple(out.shape) == (4,)
    assert out[2].item() == 0.0


def test_out_of_bounds_target_still_raises(lib):
    logp = lib.log_softmax(lib.randn(2, 1, 3), -1)
    # PyTorch's batching rule gathers (RuntimeError "index 3 is out of bounds for dimension
    # ..."); engine keeps nll_loss's own IndexError, which names the target.
    with pytest.raises((IndexError, RuntimeError), match="out of bounds"):
        lib.func.vmap(lambda x, t: lib.nn.functional.nll_loss(x, t))(logp, lib.tensor([[1], [3]]))
    with pytest.raises(IndexError, match="^Target 5 is out of bounds.$"):
        lib.nn.functional.nll_loss(logp[0], lib.tensor([5]))


def test_per_sample_grads_of_a_classifier(lib):
    lib.manual_seed(1)
    model = lib.nn.Linear(3, 2)
    params = {k: v.detach() for k, v in model.named_parameters()}
    data, target = lib.randn(6, 3), lib.tensor([0, 1, 1, 0, 1, 0])

    def loss(p, x, t):
        out = lib.func.functional_call(model, p, (x.unsqueeze(0),))
        return lib.nn.functional.cross_entropy(out, t.unsqueeze(0))

    grads = lib.func.vmap(lib.func.grad(loss), in_dims=(None, 0, 0))(params, data, target)
    lib.nn.functional.cross_entropy(model(data), target, reduction="sum").backward()
    assert lib.allclose(grads["weight"].sum(0), model.weight.grad, atol=1e-6)
    assert lib.allclose(grads["bias"].sum(0), model.bias.grad, atol=1e-6)
