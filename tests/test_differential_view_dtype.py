"""Tensor.view(dtype), PyTorch 2.13's bytes reinterpretation: the same storage read as another
dtype, the last dim (stride 1) scaled by the element-size ratio, PyTorch's conditions and messages
where the layout does not allow it, no gradient through the view. Outcomes recorded from PyTorch
2.13; the live test compares with torch itself. One deliberate difference: viewing bytes other than
0 and 1 as bool raises (PyTorch makes a bool tensor holding invalid bytes)."""

import json
import pathlib

import engine
import pytest

CASES = {
    "float32_as_int32": "x.view(L.int32)",
    "float32_as_float64": "x.view(L.float64)",
    "float32_as_uint8": "x.view(L.uint8)",
    "float32_as_float16": "x.view(L.float16)",
    "float32_as_bool_zeros": "L.zeros(2, 2).view(L.bool)",
    "transposed_same_size": "x.t().view(L.int32)",
    "transposed_grow": "x.t().view(L.float64)",
    "transposed_shrink": "x.t().view(L.uint8)",
    "offset_not_divisible": "x[:, 1:3].view(L.float64)",
    "offset_divisible": "x[:, 2:4].view(L.float64)",
    "size_not_divisible": "x[:, :3].view(L.float64)",
    "zero_dim_same_size": "L.tensor(1.0).view(L.int32)",
    "zero_dim_grow": "L.tensor(1.0).view(L.float64)",
    "zero_dim_shrink": "L.tensor(1.0).view(L.uint8)",
    "empty": "L.zeros(0).view(L.float64)",
    "uint8_as_bool_valid": "L.tensor([0, 1, 1, 0], dtype=L.uint8).view(L.bool)",
    "bool_as_uint8": "L.tensor([True, False]).view(L.uint8)",
    "int64_as_float64": "L.tensor([1, 2]).view(L.float64)",
    "float16_as_bfloat16": "L.tensor([1.0, 2.0], dtype=L.float16).view(L.bfloat16)",
    "uint8_as_int32": "L.arange(8, dtype=L.uint8).view(L.int32)",
    "uint8_as_int32_bad": "L.arange(6, dtype=L.uint8).view(L.int32)",
    "expanded_grow": "x[:1].expand(3, 4).view(L.float64)",
    "keyword": "x.view(dtype=L.int32)",
    "requires_grad": "L.ones(2, dtype=L.float64, requires_grad=True).view(L.float32)",
    "shape_form_still_works": "x.view(2, 6)",
}


def _outcome(L, name):
    x = L.arange(12, dtype=L.float32).reshape(3, 4)
    try:
        r = eval(CASES[name], {"L": L, "x": x})
    except Exception as e:
        return [type(e).__name__, str(e).splitlines()[0]]
    return [
        "ok",
        str(r.dtype).split(".")[-1],
        list(r.shape),
        list(r.stride()),
        r.storage_offset(),
        r.requires_grad,
        r.double().tolist() if r.dtype != L.bool else r.tolist(),
    ]


RECORDED = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_view_dtype.json").read_text()
)


@pytest.mark.parametrize("name", sorted(CASES))
def test_view_dtype_matches_recorded(name):
    assert _outcome(engine, name) == RECORDED[name]


def test_view_dtype_shares_memory_both_ways():
    x = engine.zeros(2)
    bits = x.view(engine.int32)
    bits[0] = 1065353216  # the bits of 1.0f
    assert x.tolist() == [1.0, 0.0]
    x[1] = 2.0
    assert bits[1].item() == 1073741824
    assert bits._version == x._version


def test_view_as_bool_refuses_bytes_other_than_0_and_1():
    with pytest.raises(RuntimeError, match="byte 2 at element 2 of the bool view"):
        engine.tensor([0, 1, 2], dtype=engine.uint8).view(engine.bool)
    with pytest.raises(RuntimeError, match="not a valid bool"):
        engine.tensor([1.0]).view(engine.bool)  # the bytes of 1.0f are 0, 0, 128, 63


def test_view_dtype_of_a_non_dtype_keeps_the_shape_errors():
    with pytest.raises(TypeError):
        engine.zeros(4).view("float")


@pytest.mark.parametrize("name", sorted(CASES))
def test_view_dtype_matches_torch(name):
    torch = pytest.importorskip("torch")
    assert _outcome(engine, name) == _outcome(torch, name)
