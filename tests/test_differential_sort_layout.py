"""Layouts of sort and flip results, as PyTorch 2.13 gives them: sort, argsort, msort and flip
(so rot90, a flip and a transpose) return their results in the input's layout when the input is
dense without overlap (a transposed or permuted tensor gives a transposed or permuted result),
row-major otherwise (slices with gaps, expanded tensors); topk and kthvalue always allocate
row-major results. Recorded from PyTorch 2.13; the live test compares with torch itself."""

import json
import pathlib

import engine
import numpy as np
import pytest

INPUTS = {
    "contiguous": "base",
    "transposed": "base.t()",
    "sliced": "base[:, ::2]",
    "permuted3d": "L.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)",
    "expanded": "base[:1].expand(3, 4)",
}
CASES = {
    "sort": "L.sort(x, d)",
    "sort_descending": "L.sort(x, dim=d, descending=True, stable=True)",
    "argsort": "L.argsort(x, d)",
    "msort": "L.msort(x)",
    "topk": "L.topk(x, 2, d)",
    "kthvalue": "L.kthvalue(x, 2, d)",
    "method_sort": "x.sort(d)",
    "flip": "L.flip(x, (d,))",
    "flip_both": "L.flip(x, (0, 1))",
    "fliplr": "L.fliplr(x)",
    "rot90": "L.rot90(x, 1, (0, 1))",
    "rot90_twice": "L.rot90(x, 2, (0, 1))",
}


def _layout(L, inp, case, d):
    base = L.tensor([[3.0, 1.0, 2.0, 5.0], [0.5, 4.0, 4.0, -1.0], [2.0, 2.0, 9.0, 0.0]])
    x = eval(INPUTS[inp], {"L": L, "base": base})
    r = eval(CASES[case], {"L": L, "x": x, "d": d})
    outs = r if isinstance(r, tuple) else (r,)
    return [[list(o.shape), list(o.stride())] for o in outs]


RECORDED = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_sort_layout.json").read_text()
)


def _parts(key):
    inp, case, d = key.split("/")
    return inp, case, int(d)


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_sort_result_layout_matches_recorded(key):
    assert _layout(engine, *_parts(key)) == RECORDED[key]


def test_sorted_values_and_gradient_do_not_depend_on_the_layout():
    a = engine.tensor([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]])
    x = a.t().contiguous().t().requires_grad_()  # values of a, column-major
    values, indices = engine.sort(x, 1, descending=True)
    expected = engine.sort(a, 1, descending=True)
    assert values.stride() == (1, 2) and indices.stride() == (1, 2)
    np.testing.assert_array_equal(values.detach().numpy(), expected.values.numpy())
    np.testing.assert_array_equal(indices.numpy(), expected.indices.numpy())
    (values * engine.tensor([1.0, 2.0, 3.0])).sum().backward()
    weights = np.zeros((2, 3))
    np.put_along_axis(weights, expected.indices.numpy(), [[1.0, 2.0, 3.0]] * 2, axis=1)
    np.testing.assert_array_equal(x.grad.numpy(), weights)
    assert type(values.grad_fn).__name__ == "SortBackward0"


def test_topk_and_kthvalue_refuse_bool_as_pytorch():
    flags = engine.tensor([True, False, True])
    with pytest.raises(RuntimeError, match="topk does not support bool dtypes on CPU"):
        engine.topk(flags, 1)
    with pytest.raises(NotImplementedError, match="\"kthvalue_cpu\" not implemented for 'Bool'"):
        engine.kthvalue(flags, 1)


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_sort_result_layout_matches_torch(key):
    torch = pytest.importorskip("torch")
    assert _layout(engine, *_parts(key)) == _layout(torch, *_parts(key))
