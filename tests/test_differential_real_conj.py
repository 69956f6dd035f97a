"""angle and the conjugation family on real tensors (engine has no complex dtype, so only
PyTorch 2.13's real semantics apply: the conjugate of a real tensor is the tensor itself, the angle
is 0 or pi with a zero gradient), and ``tensor(data=...)``. Outcomes recorded from PyTorch 2.13;
the live test compares with torch itself."""

import json
import pathlib

import engine
import pytest

CASES = {
    "angle_float32": "L.angle(x)",
    "angle_float64": "L.angle(x.double())",
    "angle_float16": "L.angle(x.nan_to_num(0.0, 5.0, -5.0).half())",
    "angle_int64": "L.angle(x.nan_to_num(0.0, 5.0, -5.0).long())",
    "angle_bool": "L.angle(x.nan_to_num(0.0, 5.0, -5.0).bool())",
    "angle_method": "x.angle()",
    "angle_out": "L.angle(x, out=L.empty(0, dtype=L.float64))",
    "angle_out_int": "L.angle(x, out=L.empty(0, dtype=L.int64))",
    "angle_grad_fn": "L.angle(x.requires_grad_())",
    "conj": "L.conj(x)",
    "conj_int": "L.conj(x.nan_to_num(0.0).long())",
    "conj_physical": "L.conj_physical(x)",
    "conj_physical_out": "L.conj_physical(x, out=L.empty(0))",
    "tensor_data_keyword": "L.tensor(data=[1, 2])",
    "tensor_data_keyword_options": "L.tensor(data=[1, 2], dtype=L.float64, requires_grad=True)",
}


def _outcome(L, name):
    x = L.tensor([-1.5, 0.0, -0.0, 2.0, float("nan"), -float("inf")])
    try:
        r = eval(CASES[name], {"L": L, "x": x})
    except Exception as e:
        return [type(e).__name__, str(e).splitlines()[0]]
    vals = [v if v == v else "nan" for v in r.detach().double().tolist()]
    return [
        "ok",
        str(r.dtype).split(".")[-1],
        vals,
        r.requires_grad,
        type(r.grad_fn).__name__ if r.grad_fn else None,
    ]


RECORDED = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_real_conj.json").read_text()
)


@pytest.mark.parametrize("name", sorted(CASES))
def test_real_conj_matches_recorded(name):
    assert _outcome(engine, name) == RECORDED[name]


def test_conjugates_of_a_real_tensor_are_the_tensor_itself():
    x = engine.tensor([1.0, -2.0])
    for f in (engine.conj, engine.conj_physical, engine.resolve_conj, engine.resolve_neg):
        assert f(x) is x
    assert x.conj() is x and x.conj_physical_() is x and x.resolve_conj() is x
    assert not engine.is_conj(x) and not x.is_conj() and not x.is_neg()


def test_angle_has_a_zero_gradient():
    x = engine.tensor([-1.0, 2.0, 0.0], requires_grad=True)
    engine.angle(x).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_real_conj_matches_torch(name):
    torch = pytest.importorskip("torch")
    assert _outcome(engine, name) == _outcome(torch, name)
