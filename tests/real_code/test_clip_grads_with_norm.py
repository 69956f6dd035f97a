"""``nn.utils.clip_grads_with_norm_`` scales gradients by a total norm computed beforehand (the
second half of ``clip_grad_norm_``, which FSDP-style code calls after reducing the norm itself);
``clip_grad_norm_`` warns when handed an empty generator.

Expectations from PyTorch 2.13's behaviour; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest


def test_scales_by_the_given_norm(lib):
    w = lib.zeros(2, requires_grad=True)
    w.grad = lib.tensor([3.0, 4.0])
    assert lib.nn.utils.clip_grads_with_norm_([w], 1.0, lib.tensor(10.0)) is None
    assert w.grad.tolist() == pytest.approx([0.3, 0.4], abs=1e-6)


def test_never_scales_up_and_skips_missing_grads(lib):
    w = lib.zeros(2, requires_grad=True)
    v = lib.zeros(2, requires_grad=True)
    w.grad = lib.tensor([3.0, 4.0])
    lib.nn.utils.clip_grads_with_norm_(iter([w, v]), 100.0, lib.tensor(5.0))
    assert w.grad.tolist() == [3.0, 4.0]
    assert v.grad is None
    lib.nn.utils.clip_grads_with_norm_([], 1.0, lib.tensor(5.0))


def test_matches_clip_grad_norm(lib):
    a = lib.ones(3, requires_grad=True)
    b = lib.ones(3, requires_grad=True)
    a.grad = lib.tensor([1.0, -2.0, 2.0])
    b.grad = a.grad.clone()
    total = lib.nn.utils.clip_grad_norm_([a], 0.5)
    lib.nn.utils.clip_grads_with_norm_(b, 0.5, lib.nn.utils.get_total_norm([b.grad]))
    assert total.item() == pytest.approx(3.0)
    assert a.grad.tolist() == b.grad.tolist()


def test_empty_generator_warns(lib):
    with pytest.warns(
        UserWarning, match="`parameters` is an empty generator, no gradient clipping"
    ):
        total = lib.nn.utils.clip_grad_norm_((p for p in []), 1.0)
    assert total.item() == 0.0
