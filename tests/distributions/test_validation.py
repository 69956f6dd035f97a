"""Argument and sample validation: PyTorch's exception types and messages (recorded in
tests/fixtures/distributions.json), the validate_args switches, and argument checks."""

import json
import pathlib
import warnings

import engine
import engine.distributions as D
import pytest
from distribution_cases import errors

RECORDED = json.loads(
    (pathlib.Path(__file__).parents[1] / "fixtures" / "distributions.json").read_text()
)["errors"]
THUNKS = dict(errors(engine))


@pytest.mark.parametrize("name", sorted(THUNKS))
def test_error_matches_torch(name):
    kind, message = RECORDED[name]
    with pytest.raises(Exception) as info:
        THUNKS[name]()
    assert type(info.value).__name__ == kind
    assert str(info.value) == message


def test_validate_args_false_skips_checks():
    d = D.Normal(engine.tensor(0.0), engine.tensor(-1.0), validate_args=False)
    assert d.log_prob(engine.tensor(0.0)).isnan().item()


def test_set_default_validate_args():
    try:
        D.Distribution.set_default_validate_args(False)
        d = D.Exponential(engine.tensor(-1.0))
        assert not d._validate_args
        d.log_prob(engine.tensor(-1.0))  # no support check either
    finally:
        D.Distribution.set_default_validate_args(True)
    with pytest.raises(ValueError):
        D.Exponential(engine.tensor(-1.0))


def test_expand_keeps_validation_setting():
    d = D.Normal(engine.tensor(0.0), engine.tensor(1.0), validate_args=False).expand((3,))
    assert not d._validate_args
    assert d.batch_shape == engine.Size([3])


def test_missing_arg_constraints_warns():
    class NoConstraints(D.Distribution):
        pass

    with pytest.warns(UserWarning, match="does not define `arg_constraints`"):
        NoConstraints(validate_args=True)


def test_custom_init_subclass_needs_expand():
    class Shifted(D.Normal):
        def __init__(self, loc):
            super().__init__(loc, 1.0)

    with pytest.raises(NotImplementedError, match="must also define a custom .expand"):
        Shifted(engine.zeros(2)).expand((3, 2))


def test_sample_n_warns():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert D.Normal(0.0, 1.0).sample_n(3).shape == (3,)
    assert any("sample_n will be deprecated" in str(w.message) for w in caught)
