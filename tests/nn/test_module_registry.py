"""Parameters, buffers and submodules are read as plain attributes (the member dicts mirror into
the module's __dict__); every way of changing the member dicts keeps what attributes return right."""

import copy
import io
import pickle

import engine
import pytest
from engine import nn


def test_attribute_reads_follow_the_member_dicts():
    m = nn.Linear(3, 2)
    assert m.weight is m._parameters["weight"]
    replacement = nn.Parameter(engine.zeros(2, 3))
    m._parameters["weight"] = replacement
    assert m.weight is replacement
    del m._parameters["bias"]
    with pytest.raises(AttributeError, match="'Linear' object has no attribute 'bias'"):
        _ = m.bias
    m._buffers["scale"] = engine.ones(1)
    assert m.scale is m._buffers["scale"]
    m._buffers.pop("scale")
    assert not hasattr(m, "scale")


def test_setattr_moves_a_name_between_kinds():
    m = nn.Module()
    m.register_buffer("x", engine.ones(2))
    m.x = nn.Parameter(engine.zeros(2))
    assert "x" in m._parameters and "x" not in m._buffers
    assert m.x is m._parameters["x"]
    del m.x
    assert not hasattr(m, "x")
    m.x = engine.ones(1)  # now a plain attribute
    assert "x" not in m._parameters and m.x.item() == 1.0


def test_parameter_slot_set_to_none_reads_none():
    m = nn.Linear(2, 2)
    m.bias = None
    assert m.bias is None and m._parameters["bias"] is None
    with pytest.raises(
        TypeError, match="cannot assign 'engine.FloatTensor' as parameter 'bias'|cannot assign"
    ):
        m.bias = engine.ones(2)


def test_registering_over_an_existing_attribute_is_refused():
    m = nn.Linear(2, 2)
    with pytest.raises(KeyError, match="attribute 'weight' already exists"):
        m.register_buffer("weight", engine.ones(1))


def _same_members(a, b):
    assert list(a.state_dict()) == list(b.state_dict())
    for (na, pa), (nb, pb) in zip(a.named_parameters(), b.named_parameters()):
        assert na == nb and engine.equal(pa, pb)


@pytest.mark.parametrize(
    "clone",
    [copy.deepcopy, lambda m: pickle.loads(pickle.dumps(m))],
    ids=["deepcopy", "pickle"],
)
def test_copies_are_independent_and_mirrored(clone):
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU())
    twin = clone(model)
    _same_members(model, twin)
    twin[0].weight = nn.Parameter(engine.zeros(4, 3))
    assert twin[0].weight is twin[0]._parameters["weight"]
    assert not engine.equal(model[0].weight, twin[0].weight)
    twin[1]._buffers["running_mean"] = engine.full((4,), 7.0)
    assert twin[1].running_mean[0].item() == 7.0 and model[1].running_mean[0].item() == 0.0


def test_shallow_copy_reads_its_own_members():
    m = nn.Linear(2, 2)
    c = copy.copy(m)
    assert c.weight is m.weight
    c.weight = nn.Parameter(engine.ones(2, 2))
    assert c.weight is c._parameters["weight"]


def test_save_and_load_whole_module():
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh())
    buf = io.BytesIO()
    engine.save(model, buf)
    buf.seek(0)
    loaded = engine.load(buf, weights_only=False)
    _same_members(model, loaded)
    assert loaded[0].weight is loaded[0]._parameters["weight"]


def test_sequential_deletion_renumbers_attributes():
    s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())
    del s[0]
    assert list(s._modules) == ["0", "1"]
    assert isinstance(getattr(s, "0"), nn.Tanh)
    assert isinstance(getattr(s, "1"), nn.Sigmoid)
    assert not hasattr(s, "2")


def test_load_state_dict_assign_updates_attributes():
    m = nn.Linear(2, 2)
    sd = {"weight": engine.ones(2, 2), "bias": engine.zeros(2)}
    m.load_state_dict(sd, assign=True)
    assert m.weight is m._parameters["weight"]
    assert engine.equal(m.weight, engine.ones(2, 2))


def test_to_dtype_keeps_mirror():
    m = nn.Linear(2, 2).double()
    assert m.weight.dtype == engine.float64
    assert m.weight is m._parameters["weight"]
    m.register_buffer("b", engine.ones(1))
    m.float()
    assert m.b.dtype == engine.float32 and m.b is m._buffers["b"]
