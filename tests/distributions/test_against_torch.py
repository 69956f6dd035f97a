"""Every distribution's log_prob, cdf, icdf, entropy and moments against PyTorch 2.13's, from
tests/fixtures/distributions.json (recorded by tests/fixtures/record_distributions.py) and, when
torch is importable, live; and the samples of the distributions whose samplers draw PyTorch's
random numbers, bit for bit after manual_seed(0)."""

import json
import pathlib
import warnings

import engine
import numpy as np
import pytest
from distribution_cases import BIT_EXACT, SAME_STREAM, build, quantities

_PATH = pathlib.Path(__file__).parents[1] / "fixtures" / "distributions.json"
FIXTURE = json.loads(_PATH.read_text())["cases"]
CASES = {name: (dist, value) for name, dist, value in build(engine)}
QUANTITIES = dict(quantities(engine))


def _close(actual, expected, rtol=1e-7, atol=1e-9):
    np.testing.assert_allclose(np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64),
                               rtol=rtol, atol=atol, equal_nan=True)  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("quantity", sorted(QUANTITIES))
def test_matches_recorded(name, quantity):
    dist, value = CASES[name]
    expected = FIXTURE[name][quantity]
    if expected is None:
        with pytest.raises((NotImplementedError, AttributeError, TypeError)):
            QUANTITIES[quantity](dist, value)
        return
    actual = QUANTITIES[quantity](dist, value)
    assert isinstance(actual, engine.Tensor)
    _close(actual.tolist(), expected, rtol=1e-6 if actual.dtype == engine.float32 else 1e-7)


@pytest.mark.parametrize("name", sorted(SAME_STREAM))
def test_samples_draw_torch_random_numbers(name):
    dist, _ = CASES[name]
    engine.manual_seed(0)
    sample = dist.sample((4,))
    engine.manual_seed(0)
    single = dist.sample()
    pairs = [(sample, "sample"), (single, "sample_scalar_shape")]
    if dist.has_rsample:
        engine.manual_seed(0)
        pairs.append((dist.rsample((3,)), "rsample"))
    for drawn, key in pairs:
        if name in BIT_EXACT:
            assert drawn.tolist() == FIXTURE[name][key], key
        else:
            rtol = 1e-6 if drawn.dtype == engine.float32 else 1e-12
            _close(drawn.tolist(), FIXTURE[name][key], rtol=rtol, atol=rtol)


def test_cases_shapes_agree_with_torch_live():
    torch = pytest.importorskip("torch")
    # PyTorch 2.13's Wishart.rsample warns "Singular sample detected." on every draw.
    warnings.simplefilter("ignore", UserWarning)
    for (name, tdist, _), (_, edist, _) in zip(build(torch), build(engine)):
        assert tuple(edist.batch_shape) == tuple(tdist.batch_shape), name
        assert tuple(edist.event_shape) == tuple(tdist.event_shape), name
        assert edist.has_rsample == tdist.has_rsample, name
        assert edist.has_enumerate_support == tdist.has_enumerate_support, name
        assert repr(edist.support) == repr(tdist.support), name
        assert repr(edist) == repr(tdist), name
        assert tuple(edist.log_prob(edist.sample((2,))).shape) == tuple(
            tdist.log_prob(tdist.sample((2,))).shape
        )
