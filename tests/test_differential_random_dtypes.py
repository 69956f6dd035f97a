"""The random fills on integer and bool tensors, as PyTorch 2.13 refuses them: its uniform and
normal kernels exist for floating dtypes only, so rand / rand_like / uniform_ raise
NotImplementedError naming "check_uniform_bounds" and randn / randn_like / normal_ naming
"normal_kernel_cpu"; a normal fill of no elements reaches no kernel and passes. Recorded from
PyTorch 2.13; the live test compares with torch itself."""

import json
import pathlib

import engine
import pytest

CASES = {
    "rand_like": lambda L, x, e, dt: L.rand_like(x),
    "randn_like": lambda L, x, e, dt: L.randn_like(x),
    "rand": lambda L, x, e, dt: L.rand(2, dtype=dt),
    "randn": lambda L, x, e, dt: L.randn(2, dtype=dt),
    "uniform_": lambda L, x, e, dt: x.clone().uniform_(),
    "normal_": lambda L, x, e, dt: x.clone().normal_(),
    "randn_empty": lambda L, x, e, dt: L.randn_like(e),
    "rand_empty": lambda L, x, e, dt: L.rand_like(e),
    "normal_empty": lambda L, x, e, dt: e.clone().normal_(),
}

RECORDED = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_random_dtypes.json").read_text()
)


def _outcome(L, key):
    name, dtype = key.split("/")
    dt = getattr(L, dtype)
    try:
        r = CASES[name](L, L.ones(2, dtype=dt), L.ones(0, dtype=dt), dt)
    except Exception as ex:  # noqa: BLE001 - the exception is what is compared
        return f"{type(ex).__name__} {ex}"
    return f"ok {tuple(r.shape)} {str(r.dtype).replace('engine.', 'torch.')}"


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_random_fill_dtype_matches_recorded(key):
    assert _outcome(engine, key) == RECORDED[key]


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_random_fill_dtype_matches_torch(key):
    torch = pytest.importorskip("torch")
    assert _outcome(engine, key) == _outcome(torch, key)
