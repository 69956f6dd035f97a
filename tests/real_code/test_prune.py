"""``nn.utils.prune``: parameters become ``<name>_orig`` times a ``<name>_mask`` buffer,
recomputed by a forward pre-hook; repeated pruning combines masks in a PruningContainer; the
random methods draw as PyTorch does, so a seeded script prunes the same entries.

Golden values recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import importlib

import pytest


def _prune(lib):
    return importlib.import_module(f"{lib.__name__}.nn.utils.prune")


def test_seeded_masks_and_containers(lib):
    prune = _prune(lib)
    lib.manual_seed(0)
    m = lib.nn.Linear(4, 3)
    prune.random_unstructured(m, "weight", amount=0.5)
    assert m.weight_mask.tolist() == [[1, 0, 0, 1], [1, 0, 0, 1], [0, 1, 1, 0]]
    prune.random_structured(m, "weight", amount=1, dim=0)
    assert m.weight_mask.tolist() == [[0, 0, 0, 0], [1, 0, 0, 1], [0, 1, 1, 0]]
    hooks = list(m._forward_pre_hooks.values())
    assert len(hooks) == 1 and type(hooks[0]).__name__ == "PruningContainer"
    prune.ln_structured(m, "weight", amount=0.34, n=1, dim=1)
    assert m.weight_mask.tolist() == [[0, 0, 0, 0], [1, 0, 0, 1], [0, 0, 1, 0]]
    assert len(hooks[0]) == 3
    prune.l1_unstructured(m, "bias", amount=1, importance_scores=lib.tensor([3.0, 1.0, 2.0]))
    assert m.bias_mask.tolist() == [1, 0, 1]
    assert sorted(m.state_dict()) == ["bias_mask", "bias_orig", "weight_mask", "weight_orig"]
    assert sorted(n for n, _ in m.named_parameters()) == ["bias_orig", "weight_orig"]


def test_hook_recomputes_and_remove_makes_it_permanent(lib):
    prune = _prune(lib)
    m = lib.nn.Linear(2, 2)
    with lib.no_grad():
        m.weight.copy_(lib.tensor([[0.1, -2.0], [3.0, 0.2]]))
    prune.l1_unstructured(m, "weight", amount=2)
    assert m.weight.tolist() == [[0.0, -2.0], [3.0, 0.0]]
    with lib.no_grad():
        m.weight_orig.add_(1.0)
    m(lib.ones(1, 2))
    assert m.weight.tolist() == [[0.0, -1.0], [4.0, 0.0]]
    assert prune.is_pruned(lib.nn.Sequential(m))
    prune.remove(m, "weight")
    assert type(m.weight).__name__ == "Parameter"
    assert m.weight.tolist() == [[0.0, -1.0], [4.0, 0.0]]
    assert not prune.is_pruned(m)
    assert sorted(m.state_dict()) == ["bias", "weight"]


def test_global_and_custom_masks(lib):
    prune = _prune(lib)
    a, b = lib.nn.Linear(2, 2), lib.nn.Linear(2, 2)
    with lib.no_grad():
        a.weight.copy_(lib.tensor([[1.0, 2.0], [3.0, 4.0]]))
        b.weight.copy_(lib.tensor([[0.5, 5.0], [6.0, 0.1]]))
    prune.global_unstructured(
        [(a, "weight"), (b, "weight")], pruning_method=prune.L1Unstructured, amount=3
    )
    assert a.weight_mask.tolist() == [[0, 1], [1, 1]]
    assert b.weight_mask.tolist() == [[0, 1], [1, 0]]
    c = prune.custom_from_mask(lib.nn.Linear(3, 1), "bias", lib.tensor([0.0]))
    assert c.bias.tolist() == [0.0]
    assert prune.identity(lib.nn.Linear(2, 1), "bias").bias_mask.tolist() == [1.0]
    t = lib.tensor([3.0, -1.0, 0.5, 2.0])
    assert prune.L1Unstructured(amount=2).prune(t).tolist() == [3.0, 0.0, 0.0, 2.0]


def test_errors(lib):
    prune = _prune(lib)
    m = lib.nn.Linear(2, 2)
    with pytest.raises(ValueError, match="^Parameter 'weight' of module Linear.* has to be pruned"):
        prune.remove(m, "weight")
    with pytest.raises(
        ValueError, match=r"^amount=1.5 should either be a float in the range \[0, 1\]"
    ):
        prune.l1_unstructured(m, "weight", amount=1.5)
    with pytest.raises(
        ValueError, match="^amount=5 should be smaller than the number of parameters to prune=4$"
    ):
        prune.l1_unstructured(m, "weight", amount=5)
    assert sorted(n for n, _ in m.named_parameters()) == ["bias", "weight"]  # restored
    with pytest.raises(TypeError, match="^Invalid type for amount: a. Must be int or float.$"):
        prune.random_unstructured(m, "bias", amount="a")
    with pytest.raises(
        ValueError, match="^Structured pruning can only be applied to multidimensional"
    ):
        prune.ln_structured(m, "bias", 1, 2, 0)
    with pytest.raises(
        IndexError, match=r"^Invalid index 3 for tensor of size torch.Size\(\[2, 2\]\)$"
    ):
        prune.ln_structured(m, "weight", 1, 2, 3)
    with pytest.raises(TypeError, match='^Only "unstructured" PRUNING_TYPE supported'):
        prune.global_unstructured([(m, "weight")], prune.RandomStructured, amount=1)
    with pytest.raises(
        TypeError, match="^global_unstructured\\(\\): parameters is not an Iterable$"
    ):
        prune.global_unstructured(3, prune.L1Unstructured, amount=1)
