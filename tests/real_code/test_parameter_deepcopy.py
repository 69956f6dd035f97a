"""``copy.deepcopy`` of an ``nn.Parameter`` (and so of a model) copies the data and
``requires_grad`` only: the ``.grad`` and Python attributes stay behind, as in PyTorch, while a
plain leaf tensor's deepcopy keeps its ``.grad``.

Behaviour observed in PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import copy


def test_parameter_deepcopy_drops_grad_and_attributes(lib):
    p = lib.nn.Parameter(lib.ones(2))
    p.grad = lib.full((2,), 3.0)
    p.tag = "shared"
    q = copy.deepcopy(p)
    assert type(q) is type(p) and q.requires_grad
    assert q.grad is None
    assert not hasattr(q, "tag")
    assert q.data_ptr() != p.data_ptr() and q.tolist() == [1.0, 1.0]


def test_frozen_parameter_stays_frozen(lib):
    q = copy.deepcopy(lib.nn.Parameter(lib.zeros(1), requires_grad=False))
    assert q.requires_grad is False


def test_model_deepcopy_after_backward_has_no_grads(lib):
    m = lib.nn.Linear(2, 2)
    m(lib.ones(1, 2)).sum().backward()
    m2 = copy.deepcopy(m)
    assert all(p.grad is None for p in m2.parameters())
    assert lib.equal(m2.weight, m.weight) and m.weight.grad is not None


def test_tied_parameters_stay_tied(lib):
    emb = lib.nn.Embedding(3, 2)
    out = lib.nn.Linear(2, 3, bias=False)
    out.weight = emb.weight
    pair = copy.deepcopy(lib.nn.ModuleList([emb, out]))
    assert pair[0].weight is pair[1].weight


def test_plain_leaf_deepcopy_keeps_grad(lib):
    t = lib.ones(2, requires_grad=True)
    t.grad = lib.full((2,), 5.0)
    assert copy.deepcopy(t).grad.tolist() == [5.0, 5.0]
