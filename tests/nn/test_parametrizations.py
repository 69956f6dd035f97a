"""weight_norm / spectral_norm (hook-based and parametrization forms), orthogonal, and the
parametrize machinery: the same training runs as PyTorch 2.13 (fixture), and the API's rules."""

import copy
import importlib.util
import json
import pathlib
import pickle
import warnings

import engine
import pytest
from engine import nn
from engine.nn.utils import parametrize

FIXTURES = pathlib.Path(__file__).parent.parent / "fixtures"


def _load_recorder():
    spec = importlib.util.spec_from_file_location(
        "record_parametrizations", FIXTURES / "record_parametrizations.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _close(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return abs(a - b) <= 1e-3 * max(1.0, abs(b))
    return a == b


def test_scenario_matches_pytorch():
    expected = json.loads((FIXTURES / "nn_parametrizations.json").read_text())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        got = _load_recorder().scenario(engine)
    assert set(got) == set(expected)
    for name, want in expected.items():
        assert _close(got[name], want), (name, got[name], want)


def test_hook_weight_norm_warns_and_recomputes():
    with pytest.warns(FutureWarning, match="torch.nn.utils.weight_norm` is deprecated"):
        m = nn.utils.weight_norm(nn.Linear(3, 2))
    assert m.weight_g.shape == (2, 1) and m.weight_v.shape == (2, 3)
    with engine.no_grad():
        m.weight_g.mul_(2.0)
    m(engine.randn(1, 3))
    rows = m.weight.norm(dim=1)
    assert engine.allclose(rows, m.weight_g.reshape(-1))
    with (
        pytest.raises(RuntimeError, match="Cannot register two weight_norm hooks"),
        pytest.warns(FutureWarning),
    ):
        nn.utils.weight_norm(m)
    nn.utils.remove_weight_norm(m)
    assert isinstance(m.weight, nn.Parameter) and "weight_g" not in m._parameters
    with pytest.raises(ValueError, match="weight_norm of 'weight' not found in"):
        nn.utils.remove_weight_norm(m)


def test_hook_spectral_norm_sigma_is_largest_singular_value():
    engine.manual_seed(0)
    m = nn.utils.spectral_norm(nn.Linear(6, 5), n_power_iterations=30)
    m(engine.randn(2, 6))
    assert abs(engine.linalg.matrix_norm(m.weight.detach(), 2).item() - 1.0) < 1e-3
    sd = m.state_dict()
    assert sd._metadata[""]["spectral_norm"] == {"weight.version": 1}
    with pytest.raises(ValueError, match="Expected n_power_iterations to be positive"):
        nn.utils.spectral_norm(nn.Linear(2, 2), n_power_iterations=0)
    nn.utils.remove_spectral_norm(m)
    assert sorted(m.state_dict()) == ["bias", "weight"]


def test_spectral_norm_state_dict_round_trip():
    engine.manual_seed(0)
    a = nn.utils.spectral_norm(nn.Linear(4, 3))
    a(engine.randn(2, 4))
    b = nn.utils.spectral_norm(nn.Linear(4, 3))
    b.load_state_dict(a.state_dict())
    a.eval(), b.eval()
    x = engine.randn(2, 4)
    assert engine.allclose(a(x), b(x))


def test_parametrization_class_property_and_removal():
    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).mT

    m = nn.Linear(3, 3)
    other = nn.Linear(3, 3)
    parametrize.register_parametrization(m, "weight", Symmetric())
    assert type(m).__name__ == "ParametrizedLinear" and type(other) is nn.Linear
    assert parametrize.is_parametrized(m) and parametrize.is_parametrized(m, "weight")
    assert not parametrize.is_parametrized(m, "bias")
    assert parametrize.type_before_parametrizations(m) is nn.Linear
    assert engine.equal(m.weight, m.weight.mT)
    assert "weight" not in m._parameters
    with pytest.raises(
        RuntimeError, match="Serialization of parametrized modules is only supported through"
    ):
        pickle.dumps(m)
    twin = copy.deepcopy(m)
    assert engine.equal(twin.weight, m.weight)
    with pytest.raises(
        RuntimeError, match="parametrization Symmetric does not implement right_inverse."
    ):
        m.weight = engine.eye(3)
    parametrize.remove_parametrizations(m, "weight")
    assert type(m) is nn.Linear and isinstance(m.weight, nn.Parameter)
    assert engine.equal(m.weight, m.weight.mT)
    assert not hasattr(m, "parametrizations")


def test_parametrization_checks_shape_and_dtype():
    class Grow(nn.Module):
        def forward(self, X):
            return engine.cat([X, X])

    with pytest.raises(ValueError, match="may not change the shape of the tensor, unless `unsafe`"):
        parametrize.register_parametrization(nn.Linear(2, 2), "weight", Grow())
    m = parametrize.register_parametrization(nn.Linear(2, 2), "weight", Grow(), unsafe=True)
    assert m.weight.shape == (4, 2)
    with pytest.raises(
        ValueError, match="does not have a parameter, a buffer, or a parametrized element"
    ):
        parametrize.register_parametrization(nn.Linear(2, 2), "nope", Grow())


def test_cached_computes_once():
    calls = []

    class Counting(nn.Module):
        def forward(self, X):
            calls.append(1)
            return X * 2

    m = parametrize.register_parametrization(nn.Linear(2, 2), "weight", Counting())
    calls.clear()
    with parametrize.cached():
        m.weight, m.weight, m(engine.randn(1, 2))
    assert len(calls) == 1


def test_orthogonal_assignment_and_training_keeps_orthogonality():
    engine.manual_seed(0)
    m = nn.utils.parametrizations.orthogonal(nn.Linear(5, 3))
    eye = engine.eye(3)
    assert engine.allclose(m.weight @ m.weight.mT, eye, atol=1e-5)
    q = engine.linalg.qr(engine.randn(5, 3)).Q.mT.contiguous()
    m.weight = q
    assert engine.allclose(m.weight, q, atol=1e-5)
    opt = engine.optim.SGD(m.parameters(), lr=0.5)
    for _ in range(3):
        opt.zero_grad()
        m(engine.randn(4, 5)).pow(2).sum().backward()
        opt.step()
    assert engine.allclose(m.weight @ m.weight.mT, eye, atol=1e-5)


def test_new_weight_norm_loads_old_state_dict():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        old = nn.utils.weight_norm(nn.Linear(3, 2))
    new = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2))
    new.load_state_dict(old.state_dict())
    x = engine.randn(4, 3)
    assert engine.allclose(old(x), new(x))
