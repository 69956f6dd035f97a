"""The strides of results whose layout PyTorch 2.13 fixes whatever the input's: row-major for
diag_embed, renorm, one_hot, masked_scatter and advanced indexing on a later dim; the input's dense layout for
index_put and put (written into a clone); a fresh tensor for ``to(copy=True)``, laid out as
clone() lays it out. Strides recorded from PyTorch 2.13 (RECORDED below); the live test compares
with torch itself when it imports."""

import engine
import pytest


def _input(L, layout):
    x = L.arange(24.0).reshape(3, 8)
    if layout == "transposed":
        return x[:, :4].contiguous().t()  # (4, 3) with strides (1, 4)
    if layout == "sliced":
        return x[:, ::2]  # (3, 4) with strides (8, 2)
    return x[:, :4].contiguous()


CASES = {
    "diag_embed": lambda L, x: L.diag_embed(x),
    "renorm": lambda L, x: L.renorm(x, 2, 0, 1.0),
    "one_hot": lambda L, x: L.nn.functional.one_hot(x.long() % 3),
    "index_put": lambda L, x: L.index_put(x, (L.tensor([0, 2]),), x[0], accumulate=True),
    "put": lambda L, x: L.put(x, L.tensor([0, 3]), x[0, :2]),
    "masked_scatter": lambda L, x: L.masked_scatter(x, x > 3, L.arange(12.0)),
    "to_copy": lambda L, x: x.to(x.dtype, copy=True),
    "getitem_later_dim": lambda L, x: x[:, [1, 2]],
    "getitem_two_steps": lambda L, x: x[[0, 1], :][:, [1, 2]],
}
LAYOUTS = ("contiguous", "transposed", "sliced")


def strides_of(L, name):
    return [list(CASES[name](L, _input(L, layout)).stride()) for layout in LAYOUTS]


# Recorded from PyTorch 2.13: strides for the contiguous, transposed and sliced inputs.
RECORDED = {
    "diag_embed": [[16, 4, 1], [9, 3, 1], [16, 4, 1]],
    "getitem_later_dim": [[2, 1], [2, 1], [2, 1]],
    "getitem_two_steps": [[2, 1], [2, 1], [2, 1]],
    "index_put": [[4, 1], [1, 4], [4, 1]],
    "masked_scatter": [[4, 1], [3, 1], [4, 1]],
    "one_hot": [[12, 3, 1], [9, 3, 1], [12, 3, 1]],
    "put": [[4, 1], [1, 4], [4, 1]],
    "renorm": [[4, 1], [3, 1], [4, 1]],
    "to_copy": [[4, 1], [1, 4], [4, 1]],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_result_strides_match_recorded(name):
    assert strides_of(engine, name) == RECORDED[name]


@pytest.mark.parametrize("name", sorted(CASES))
def test_result_strides_match_torch(name):
    torch = pytest.importorskip("torch")
    assert strides_of(engine, name) == strides_of(torch, name)


def test_to_copy_makes_a_new_tensor():
    x = engine.arange(6.0).reshape(2, 3)
    y = x.to(x.dtype, copy=True)
    y.fill_(0.0)
    assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert x.to(x.dtype) is x  # without copy=True nothing changes hands back self
