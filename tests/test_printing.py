"""Tensor printing against reprs recorded from PyTorch (tests/fixtures/printing.json).

The fixture runs twice: through a small pure-Python stand-in tensor, which checks the
formatting code on its own, and through the real engine when its native core is built.
"""

from __future__ import annotations

import importlib.util
import json
import math
import pathlib
import struct

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "printing.json"
CASES = json.loads(FIXTURE.read_text())
IDS = [
    f"{i}-{c['dtype']}-{'x'.join(map(str, c['shape'])) or 'scalar'}" for i, c in enumerate(CASES)
]


def _load_tensor_str():
    # Loaded by path so these tests run even when the package's native core is absent.
    path = ROOT / "python" / "engine" / "_tensor_str.py"
    spec = importlib.util.spec_from_file_location("_engine_tensor_str_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ts = _load_tensor_str()

_NONFINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def _decode(value):
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, str):
        return _NONFINITE[value]
    return value


def _case_data(case):
    """Nested list of the case's values (before its op), and its shape."""
    shape = list(case["shape"])
    if "arange" in case:
        start, stop = case["arange"]
        return _reshape(list(range(start, stop)), shape), shape
    return _decode(case["data"]), shape


def _reshape(flat, shape):
    if not shape:
        return flat[0]
    for size in reversed(shape[1:]):
        flat = [flat[i : i + size] for i in range(0, len(flat), size)]
    return flat


@pytest.fixture
def default_printoptions():
    ts.set_printoptions(profile="default")
    yield
    ts.set_printoptions(profile="default")


# ---------------------------------------------------------------------------
# Stand-in tensor: exactly the interface tensor_repr relies on.


class FakeDType:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"

    @property
    def is_floating_point(self):
        return self.name in ("float32", "float64", "float16", "bfloat16")


class FakeShape(tuple):
    pass


class FakeGradFn:
    def __init__(self, name):
        self._name = name

    def name(self):
        return self._name


def _to_f32(v):
    if not math.isfinite(v):
        return v
    try:
        return struct.unpack("f", struct.pack("f", v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def _to_f16(v):
    if not math.isfinite(v):
        return v
    try:
        return struct.unpack("e", struct.pack("e", v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def _to_bf16(v):
    """v rounded to bfloat16 (nearest even), through its float32 bits."""
    if not math.isfinite(v):
        return v
    (bits,) = struct.unpack("I", struct.pack("f", _to_f32(v)))
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("f", struct.pack("I", bits))[0]


def _map(fn, data):
    if isinstance(data, list):
        return [_map(fn, x) for x in data]
    return fn(data)


def _leaves(data):
    if isinstance(data, list):
        for x in data:
            yield from _leaves(x)
    else:
        yield data


class FakeTensor:
    def __init__(self, data, shape, dtype, requires_grad=False, grad_fn=None):
        cast = {
            "float32": lambda v: _to_f32(float(v)),
            "float64": float,
            "int64": int,
            "int32": int,
            "bool": bool,
            "float16": lambda v: _to_f16(float(v)),
            "bfloat16": lambda v: _to_bf16(float(v)),
            "uint8": int,
            "int8": int,
            "int16": int,
        }[dtype]
        self._data = _map(cast, data)
        self.shape = FakeShape(shape)
        self.dtype = FakeDType(dtype)
        self.requires_grad = requires_grad
        self.grad_fn = grad_fn

    def dim(self):
        return len(self.shape)

    def numel(self):
        return math.prod(self.shape)

    def tolist(self):
        return self._data

    def _edge_list(self, edgeitems):
        def cut(data, depth):
            if depth == len(self.shape):
                return data
            if self.shape[depth] > 2 * edgeitems:
                data = data[:edgeitems] + data[-edgeitems:]
            return [cut(x, depth + 1) for x in data]

        return cut(self._data, 0)

    def apply(self, op):
        if op is None:
            return self
        shape = list(self.shape)
        if op == "exp":
            data, grad_fn = _map(math.exp, self._data), "ExpBackward0"
        elif op == "mul2":
            data, grad_fn = _map(lambda v: v * 2, self._data), "MulBackward0"
        elif op == "sum":
            data, shape, grad_fn = math.fsum(_leaves(self._data)), [], "SumBackward0"
        else:
            raise ValueError(op)
        return FakeTensor(data, shape, self.dtype.name, True, FakeGradFn(grad_fn))


@pytest.mark.usefixtures("default_printoptions")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_fixture_repr(case):
    data, shape = _case_data(case)
    t = FakeTensor(data, shape, case["dtype"], case["requires_grad"]).apply(case["op"])
    ts.set_printoptions(**case["options"])
    assert ts.tensor_repr(t) == case["expected"]


def test_summarized_printing_only_reads_edges(default_printoptions):
    class EdgeOnly(FakeTensor):
        def tolist(self):
            raise AssertionError("summarized printing must not materialize every element")

    t = EdgeOnly(_reshape(list(range(10**5)), [100, 1000]), [100, 1000], "int64")
    assert ts.tensor_repr(t) == (
        "tensor([[    0,     1,     2,  ...,   997,   998,   999],\n"
        "        [ 1000,  1001,  1002,  ...,  1997,  1998,  1999],\n"
        "        [ 2000,  2001,  2002,  ...,  2997,  2998,  2999],\n"
        "        ...,\n"
        "        [97000, 97001, 97002,  ..., 97997, 97998, 97999],\n"
        "        [98000, 98001, 98002,  ..., 98997, 98998, 98999],\n"
        "        [99000, 99001, 99002,  ..., 99997, 99998, 99999]])"
    )


def test_set_printoptions_semantics(default_printoptions):
    defaults = {
        "precision": 4,
        "threshold": 1000,
        "edgeitems": 3,
        "linewidth": 80,
        "sci_mode": None,
    }
    assert ts.get_printoptions() == defaults

    ts.set_printoptions(profile="short")
    assert ts.get_printoptions() == dict(defaults, precision=2, edgeitems=2)
    ts.set_printoptions(profile="full", linewidth=100)
    assert ts.get_printoptions() == dict(defaults, threshold=math.inf, linewidth=100)

    ts.set_printoptions(sci_mode=True)
    assert ts.get_printoptions()["sci_mode"] is True
    # Any later call without sci_mode turns automatic mode back on.
    ts.set_printoptions(precision=3)
    assert ts.get_printoptions()["sci_mode"] is None
    assert ts.get_printoptions()["precision"] == 3
    assert ts.get_printoptions()["threshold"] == math.inf

    ts.set_printoptions(profile="default")
    assert ts.get_printoptions() == defaults


def test_printoptions_context_manager(default_printoptions):
    t = FakeTensor([1.12345, 2.5], [2], "float32")
    ts.set_printoptions(sci_mode=False)
    with ts.printoptions(precision=2):
        assert ts.tensor_repr(t) == "tensor([1.12, 2.50])"
        assert ts.get_printoptions()["sci_mode"] is None
    assert ts.tensor_repr(t) == "tensor([1.1235, 2.5000])"
    assert ts.get_printoptions()["sci_mode"] is False

    with pytest.raises(RuntimeError), ts.printoptions(linewidth=10):
        raise RuntimeError
    assert ts.get_printoptions()["linewidth"] == 80


# ---------------------------------------------------------------------------
# The real engine.


def _engine_tensor(engine, case):
    data, shape = _case_data(case)
    dtype = getattr(engine, case["dtype"])
    if "arange" in case:
        start, stop = case["arange"]
        t = engine.arange(start, stop, dtype=dtype)
    else:
        t = engine.tensor(data, dtype=dtype, requires_grad=case["requires_grad"])
    if list(t.shape) != shape:
        t = t.reshape(*shape)
    op = case["op"]
    if op == "exp":
        t = t.exp()
    elif op == "mul2":
        t = t * 2
    elif op == "sum":
        t = t.sum()
    return t


@pytest.fixture
def engine():
    pytest.importorskip("engine._C")
    import engine

    engine.set_printoptions(profile="default")
    yield engine
    engine.set_printoptions(profile="default")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_engine_repr(engine, case):
    t = _engine_tensor(engine, case)
    engine.set_printoptions(**case["options"])
    assert repr(t) == case["expected"]
    assert str(t) == case["expected"]
