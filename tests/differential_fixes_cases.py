"""Cases shared by the test_differential_{out_variants,refusals,selection} tests and by
fixtures/record_differential_fixes.py, which records their outcomes from PyTorch 2.13: each case is
an expression over a library ``L`` (engine or torch) and an input ``x``; its outcome is the result
(dtype, shape, values, and whether ``out`` itself came back) or the exception and its message."""

import math
import random
import warnings

INPUT_DTYPES = ("float32", "int64")
OUT_DTYPES = ("float32", "float64", "int64", "bool")

OUT_CASES = {
    "sum_dim": "L.sum(x, 1, out=o)",
    "sum_dim_keepdim": "L.sum(x, (0, 1), keepdim=True, out=o)",
    "sum_dtype": "L.sum(x, 1, dtype=L.float64, out=o)",
    "sum_no_dim": "L.sum(x, out=o)",
    "mean_dim": "L.mean(x, 1, out=o)",
    "mean_no_dim": "L.mean(x, out=o)",
    "mean_dtype": "L.mean(x, 0, dtype=L.float64, out=o)",
    "cat": "L.cat([x, x], out=o)",
    "concat": "L.concat([x, x], 1, out=o)",
    "stack": "L.stack([x, x], out=o)",
    "where": "L.where(x > 1, x, x, out=o)",
    "where_scalar": "L.where(x > 1, x, 0, out=o)",
    "tril": "L.tril(x, out=o)",
    "triu": "L.triu(x, 1, out=o)",
    "gather": "L.gather(x, 1, L.tensor([[0, 2], [1, 1]]), out=o)",
    "index_select": "L.index_select(x, 1, L.tensor([2, 0]), out=o)",
    "take": "L.take(x, L.tensor([0, 5]), out=o)",
    "diag": "L.diag(x, out=o)",
    "msort": "L.msort(x, out=o)",
    "inner": "L.inner(x, x, out=o)",
    "heaviside": "L.heaviside(x, x, out=o)",
}
TUPLE_CASES = {
    "sort": "L.sort(x, 1, out=(o, i))",
    "topk": "L.topk(x, 2, out=(o, i))",
    "kthvalue": "L.kthvalue(x, 2, out=(o, i))",
}
INDEX_DTYPES = ("int64", "int32")

REFUSALS = {
    "ldexp_bool_exponent": "L.ldexp(x.float(), x > 1)",
    "ldexp_bool_input": "L.ldexp(x > 1, x.float())",
    "ldexp_integer_input_bool_exponent": "L.ldexp(x, x > 1)",
    "isin_bool": "L.isin(x > 1, L.tensor([True]))",
    "isin_bool_number": "L.isin(x, True)",
    "addcmul_bool": "L.addcmul(x > 1, x > 1, x > 1)",
    "addcmul_mixed": "L.addcmul(x.float(), x > 1, x > 1)",
    "trapezoid_bool": "L.trapezoid(x > 1)",
    "trapezoid_bool_x": "L.trapezoid(x.float(), x > 1)",
    "cumulative_trapezoid_bool": "L.cumulative_trapezoid(x > 1)",
    "cov_bool": "L.cov(x > 1)",
    "corrcoef_bool": "L.corrcoef(x > 1)",
    "cdist_half": "L.cdist(x.half(), x.half())",
    "cdist_bfloat16": "L.cdist(x.bfloat16(), x.bfloat16())",
    "histogram_half": "L.histogram(x.half(), bins=3)",
    "special_round_long": "L.special.round(x.long())",
    "special_round_long_decimals": "L.special.round(x.long(), decimals=1)",
    "special_round_bool": "L.special.round(x > 1)",
    "vander_bool": "L.linalg.vander(x[0] > 1)",
    "vander_half": "L.linalg.vander(x[0].half())",
    "heaviside_out_dtype": "L.heaviside(x.float(), x.float(), out=L.empty(0, dtype=L.float64))",
    "inner_out_dtype": "L.inner(x.float(), x.float(), out=L.empty(0, dtype=L.float64))",
    "index_select_dim1_out_of_range": "L.index_select(x, 1, L.tensor([0, 7]))",
    "index_select_dim0_out_of_range": "L.index_select(x, 0, L.tensor([5]))",
    "einsum_bool_first": "L.einsum('ij,kj->ik', x > 1, x.float())",
    "einsum_bool_contracted": "L.einsum('i,i->', x[0] > 1, x[0] > 1)",
    "einsum_bool_outer": "L.einsum('i,j->ij', x[0] > 1, x[0] > 1)",
    "einsum_mixed": "L.einsum('ij,kj->ik', x.float(), x > 1)",
    "cross_bool": "L.linalg.cross(x[:, :3] > 1, x[:, :3].float())",
    "cross_bool_both": "L.cross(x[:, :3] > 1, x[:, :3] > 1, dim=1)",
    "logcumsumexp_dim_first": "L.logcumsumexp(x.long(), 5)",
}


def base_input(L, dtype):
    rows = [[1.0, 3.0, 2.0], [0.0, 2.0, 5.0]]
    return L.tensor(rows).to(getattr(L, dtype))


def outcome(L, expr, x, o=None, i=None):
    """("ok", dtype, shape, values, out-returned) of ``expr``, or (exception name, message)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = eval(expr, {"L": L, "x": x, "o": o, "i": i})
        except Exception as e:  # noqa: BLE001 - the exception is what is compared
            return [type(e).__name__, str(e).splitlines()[0]]
    first = r[0] if isinstance(r, tuple) else r
    rest = [t.tolist() for t in r] if isinstance(r, tuple) else [r.tolist()]
    values = [[_plain(v) for v in _flat(t)] for t in rest]
    return ["ok", str(first.dtype).split(".")[-1], list(first.shape), values, first is o]


def _flat(v):
    if isinstance(v, list):
        return [y for x in v for y in _flat(x)]
    return [v]


def _plain(v):
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    return v


def out_case_outcome(L, key):
    """key: name/input dtype/out dtype[/index dtype]."""
    name, dtype, out_dtype, *index = key.split("/")
    x = base_input(L, dtype)
    o = L.empty(0, dtype=getattr(L, out_dtype))
    i = L.empty(0, dtype=getattr(L, index[0])) if index else None
    return outcome(L, OUT_CASES.get(name) or TUPLE_CASES[name], x, o, i)


def out_case_keys():
    keys = [f"{n}/{d}/{o}" for n in OUT_CASES for d in INPUT_DTYPES for o in OUT_DTYPES]
    keys += [
        f"{n}/{d}/{o}/{i}"
        for n in TUPLE_CASES
        for d in INPUT_DTYPES
        for o in ("float32", "float64", "int64")
        for i in INDEX_DTYPES
    ]
    return keys


def refusal_outcome(L, name):
    return outcome(L, REFUSALS[name], base_input(L, "int64"))


def section_tests(section, case_outcome):
    """The two tests of one fixture section: each case against PyTorch's recorded outcome, and
    against torch itself when it imports. A test file binds them to module-level names for pytest."""
    import json
    import pathlib

    import engine
    import pytest

    fixture = pathlib.Path(__file__).parent / "fixtures" / "differential_fixes.json"
    recorded = json.loads(fixture.read_text())[section]

    @pytest.mark.parametrize("key", sorted(recorded))
    def test_matches_recorded_pytorch(key):
        assert case_outcome(engine, key) == recorded[key]

    @pytest.mark.parametrize("key", sorted(recorded))
    def test_matches_torch(key):
        torch = pytest.importorskip("torch")
        assert case_outcome(engine, key) == case_outcome(torch, key)

    return test_matches_recorded_pytorch, test_matches_torch


# Rows with repeated values (and NaNs) where which index PyTorch reports depends on its exact
# selection algorithms: sizes around the 16-element insertion-sort threshold and past the
# k * 64 <= n switch of topk.
def selection_rows():
    rng = random.Random(7)
    rows = []
    for n in (5, 12, 16, 17, 23, 40, 70, 130):
        for with_nan in (False, True):
            pool = [1.0, 2.0, 3.0, -1.0] + ([float("nan")] if with_nan else [])
            rows.append([rng.choice(pool) for _ in range(n)])
    return rows


def selection_outcome(L, row):
    x = L.tensor(row)
    n = len(row)
    k = max(1, n // 3)
    out = {}
    for name, r in (
        ("mode", L.mode(x)),
        ("topk", L.topk(x, k)),
        ("topk_small", L.topk(x, k, largest=False)),
        ("topk_unsorted", L.topk(x, k, sorted=False)),
        ("topk_one", L.topk(x, 1)),
        ("kthvalue", L.kthvalue(x, k)),
    ):
        out[name] = r.indices.tolist()
    return out


MOMENT_ROWS = [
    [[float("nan"), float("inf"), float("-inf"), 0.0], [1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 2.0, 2.0]],
    [[1.0, 2.0, float("inf")], [float("inf"), 1.0, 2.0], [float("inf"), float("inf"), 1.0]],
]


def moments_outcome(L, rows):
    x = L.tensor(rows)
    out = {}
    for dim in (0, 1, None):
        for name in ("std_mean", "var_mean"):
            spread, mean = getattr(L, name)(x) if dim is None else getattr(L, name)(x, dim)
            out[f"{name}/{dim}"] = [
                [_plain(v) for v in _flat(spread.tolist())],
                [_plain(v) for v in _flat(mean.tolist())],
            ]
    return out
