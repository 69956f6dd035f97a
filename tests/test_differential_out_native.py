"""out= of the native reductions and products (amax, amin, argmax, argmin, std, var, logsumexp,
cumsum, cumprod, prod, all, any, dot, outer, mv, bmm), with each one's PyTorch 2.13 dtype rule:
amax / amin need the input's dtype, argmax / argmin int64, mv / bmm / dot the result's dtype, all /
any bool or uint8 (uint8 reducing the input cast to uint8), logsumexp a floating out, cumsum /
cumprod / prod compute in out's dtype, std / var / outer write any dtype the result casts to. The
outcome of each (dtype, out is returned, first values; or the exception) was recorded from PyTorch
2.13; the live test compares with torch itself."""

import json
import pathlib
import warnings

import engine
import pytest

CASES = {
    "amax": lambda L, a, o: L.amax(a, 0, out=o),
    "amin": lambda L, a, o: L.amin(a, 0, out=o),
    "argmax": lambda L, a, o: L.argmax(a, 0, out=o),
    "argmin": lambda L, a, o: L.argmin(a, 0, out=o),
    "std": lambda L, a, o: L.std(a, 0, out=o),
    "var": lambda L, a, o: L.var(a, 0, out=o),
    "logsumexp": lambda L, a, o: L.logsumexp(a, 0, out=o),
    "cumsum": lambda L, a, o: L.cumsum(a, 0, out=o),
    "cumprod": lambda L, a, o: L.cumprod(a, 0, out=o),
    "all": lambda L, a, o: L.all(a, 0, out=o),
    "any": lambda L, a, o: L.any(a, 0, out=o),
    "prod": lambda L, a, o: L.prod(a, 0, out=o),
    "dot": lambda L, a, o: L.dot(a[0], a[1], out=o),
    "outer": lambda L, a, o: L.outer(a[0], a[1], out=o),
    "mv": lambda L, a, o: L.mv(a, a[0], out=o),
    "bmm": lambda L, a, o: L.bmm(a[None], a[None], out=o),
}

RECORDED = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "differential_out_native.json").read_text()
)


def _outcome(L, key):
    name, input_dtype, out_dtype = key.split("/")
    x = L.tensor([[1.0, 2.0, 0.5], [0.25, 3.0, 1.5], [2.0, 1.0, 4.0]]).to(getattr(L, input_dtype))
    o = L.empty(0, dtype=getattr(L, out_dtype))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = CASES[name](L, x, o)
        except Exception as e:  # noqa: BLE001 - the exception is what is compared
            return f"{type(e).__name__}: {str(e).splitlines()[0][:100]}"
    first = [round(v, 4) if isinstance(v, float) else v for v in r.reshape(-1).tolist()][:3]
    return f"ok {str(r.dtype).split('.')[-1]} {r is o} {first}"


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_native_out_matches_recorded(key):
    assert _outcome(engine, key) == RECORDED[key]


def test_native_out_refuses_inputs_that_require_grad():
    x = engine.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        engine.amax(x, 0, out=engine.empty(0))


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_native_out_matches_torch(key):
    torch = pytest.importorskip("torch")
    assert _outcome(engine, key) == _outcome(torch, key)


def test_prod_still_refuses_a_tuple_of_dims():
    with pytest.raises(
        TypeError, match="prod\\(\\): argument 'dim' \\(position 2\\) must be int, not tuple"
    ):
        engine.prod(engine.ones(3, 4), (0, -1))
