"""engine.save / engine.load: PyTorch's zip checkpoint format, both ways, and weights-only loading."""

import collections
import io
import pathlib
import pickle
import subprocess
import sys
import zipfile

import engine
import numpy as np
import pytest
from engine import serialization

FIXTURE = pathlib.Path(__file__).parent / "fixtures" / "serialization_torch.pt"
TORCH_PYTHON = pathlib.Path("/tmp/tv/bin/python")


def roundtrip(obj, **load_kwargs):
    buffer = io.BytesIO()
    engine.save(obj, buffer)
    buffer.seek(0)
    return engine.load(buffer, **load_kwargs)


def shares_memory(a, b):
    return np.shares_memory(a.detach().numpy(), b.detach().numpy())


# ---------------------------------------------------------------- values and containers


@pytest.mark.parametrize(
    "dtype", [engine.float32, engine.float64, engine.int64, engine.int32, engine.bool]
)
def test_roundtrip_keeps_values_dtype_and_shape(dtype):
    t = (engine.arange(24).reshape(2, 3, 4) % 5).to(dtype)
    out = roundtrip(t)
    assert out.dtype == dtype and out.shape == t.shape
    assert np.array_equal(out.numpy(), t.numpy())


def test_roundtrip_of_containers_numbers_and_strings():
    state = collections.OrderedDict([("w", engine.ones(2, 2)), ("b", engine.zeros(2))])
    obj = {
        "state": state,
        "nested": [engine.tensor(1.5), (engine.tensor([1, 2]), {"k": "v"})],
        "epoch": 7,
        "lr": 0.25,
        "name": "model",
        "flags": {1, 2},
        "none": None,
        "raw": b"\x00\xff",
        "shape": engine.Size([3, 4]),
        "dtype": engine.int32,
        "device": engine.device("cpu"),
    }
    out = roundtrip(obj)
    assert isinstance(out["state"], collections.OrderedDict)
    assert list(out["state"]) == ["w", "b"]
    assert np.array_equal(out["state"]["w"].numpy(), np.ones((2, 2), np.float32))
    assert out["nested"][0].item() == 1.5 and out["nested"][1][1] == {"k": "v"}
    assert out["nested"][1][0].tolist() == [1, 2]
    assert (out["epoch"], out["lr"], out["name"], out["flags"]) == (7, 0.25, "model", {1, 2})
    assert out["none"] is None and out["raw"] == b"\x00\xff"
    assert isinstance(out["shape"], engine.Size) and out["shape"] == (3, 4)
    assert out["dtype"] is engine.int32 and out["device"] == engine.device("cpu")


def test_zero_dim_empty_and_strided_tensors():
    base = engine.arange(20.0).reshape(4, 5)
    out = roundtrip([engine.tensor(2.5), engine.zeros(0, 3), base.t(), base[::2, 1::3]])
    assert out[0].shape == () and out[0].item() == 2.5
    assert out[1].shape == (0, 3)
    assert np.array_equal(out[2].numpy(), base.numpy().T)
    assert np.array_equal(out[3].numpy(), base.numpy()[::2, 1::3])


def test_requires_grad_is_kept():
    w = engine.randn(3, dtype=engine.float64).requires_grad_()
    out = roundtrip({"w": w, "y": w * 2, "c": engine.ones(2)})
    assert out["w"].requires_grad and out["w"].is_leaf
    assert out["y"].requires_grad and out["y"].is_leaf
    assert not out["c"].requires_grad


def test_module_state_dict_and_parameters_roundtrip():
    from engine import nn

    model = nn.Linear(3, 2)
    out = roundtrip({"state": model.state_dict(), "weight": model.weight})
    assert isinstance(out["weight"], nn.Parameter) and out["weight"].requires_grad
    assert out["state"]._metadata == model.state_dict()._metadata
    fresh = nn.Linear(3, 2)
    fresh.load_state_dict(out["state"])
    assert engine.equal(fresh.weight, model.weight) and engine.equal(fresh.bias, model.bias)


# ---------------------------------------------------------------- shared storage


def test_views_of_one_tensor_are_saved_once_and_reload_sharing_memory():
    base = engine.arange(12.0).reshape(3, 4)
    buffer = io.BytesIO()
    engine.save({"base": base, "row": base[1], "col": base[:, 2], "t": base.t()}, buffer)
    names = zipfile.ZipFile(io.BytesIO(buffer.getvalue())).namelist()
    assert [n for n in names if n.startswith("archive/data/")] == ["archive/data/0"]
    buffer.seek(0)
    out = engine.load(buffer)
    assert shares_memory(out["row"], out["col"]) and shares_memory(out["base"], out["t"])
    out["base"][1, 2] = -1.0
    assert out["row"][2].item() == -1.0 and out["col"][1].item() == -1.0
    assert out["t"][2, 1].item() == -1.0


def test_distinct_tensors_get_distinct_storages():
    a, b = engine.ones(3), engine.ones(3)
    out = roundtrip([a, b, a])
    assert not shares_memory(out[0], out[1])
    assert shares_memory(out[0], out[2])


# ---------------------------------------------------------------- file arguments and format


def test_path_pathlib_and_file_object(tmp_path):
    t = engine.arange(5)
    engine.save(t, str(tmp_path / "a.pt"))
    engine.save(t, tmp_path / "b.pt")
    with open(tmp_path / "c.pt", "wb") as f:
        engine.save(t, f)
    for name in ("a.pt", "b.pt", "c.pt"):
        assert engine.load(tmp_path / name).tolist() == [0, 1, 2, 3, 4]
        assert engine.load(str(tmp_path / name)).tolist() == [0, 1, 2, 3, 4]
    with open(tmp_path / "a.pt", "rb") as f:
        assert engine.load(f).tolist() == [0, 1, 2, 3, 4]


def test_archive_layout_matches_pytorch():
    buffer = io.BytesIO()
    engine.save({"x": engine.ones(3)}, buffer)
    zf = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    names = set(zf.namelist())
    assert {"archive/data.pkl", "archive/data/0", "archive/version", "archive/byteorder"} <= names
    assert zf.read("archive/version") == b"3\n" and zf.read("archive/byteorder") == b"little"
    for info in zf.infolist():
        assert info.compress_type == zipfile.ZIP_STORED
    data = zf.getinfo("archive/data/0")
    assert serialization._record_offset(zf, data) % 64 == 0
    pkl = zf.read("archive/data.pkl")
    assert b"torch._utils\n_rebuild_tensor_v2" in pkl and b"torch\nFloatStorage" in pkl


def test_mmap_load_maps_the_file(tmp_path):
    path = tmp_path / "m.pt"
    engine.save({"a": engine.arange(1000.0), "b": engine.ones(4, dtype=engine.int64)}, path)
    out = engine.load(path, mmap=True)
    assert out["a"].sum().item() == sum(range(1000)) and out["b"].tolist() == [1, 1, 1, 1]
    out["a"][0] = 5.0  # copy-on-write: the file is untouched
    assert engine.load(path)["a"][0].item() == 0.0
    with pytest.raises(ValueError, match="file path in order to use the mmap"):
        engine.load(io.BytesIO(path.read_bytes()), mmap=True)


def test_map_location_forms():
    t = engine.arange(3.0)
    for where in (None, "cpu", engine.device("cpu"), {"cpu": "cpu"}, lambda s, loc: s):
        assert roundtrip(t, map_location=where).tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(RuntimeError, match="CPU only"):
        roundtrip(t, map_location="cuda:0")


def test_bad_files_give_clear_errors(tmp_path):
    with pytest.raises(RuntimeError, match="not a zip checkpoint"):
        engine.load(io.BytesIO(b"not a checkpoint"))
    with pytest.raises(AttributeError, match="path or a file-like object"):
        engine.save(engine.ones(1), 3)


def test_corrupt_tensor_layout_is_refused():
    storage = np.zeros(4, np.float32)
    with pytest.raises(RuntimeError, match="does not fit in a storage of 4 elements"):
        serialization._rebuild_tensor(storage, 2, (3,), (1,))
    with pytest.raises(RuntimeError, match="invalid tensor layout"):
        serialization._rebuild_tensor(storage, 0, (2,), (-1,))


# ---------------------------------------------------------------- weights_only


class Custom:
    def __init__(self, value=0):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, Custom) and other.value == self.value


def test_weights_only_refuses_unknown_globals():
    buffer = io.BytesIO()
    engine.save({"x": Custom(3)}, buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError) as info:
        engine.load(buffer)
    message = str(info.value)
    assert message.startswith("Weights only load failed.")
    assert f"Unsupported global: GLOBAL {__name__}.Custom was not an allowed global" in message
    assert "engine.serialization.add_safe_globals" in message
    buffer.seek(0)
    assert engine.load(buffer, weights_only=False) == {"x": Custom(3)}


def test_add_safe_globals_and_context_manager():
    buffer = io.BytesIO()
    engine.save([Custom(5)], buffer)
    try:
        with serialization.safe_globals([Custom]):
            buffer.seek(0)
            assert engine.load(buffer) == [Custom(5)]
        buffer.seek(0)
        with pytest.raises(pickle.UnpicklingError):
            engine.load(buffer)
        serialization.add_safe_globals([Custom])
        assert Custom in serialization.get_safe_globals()
        buffer.seek(0)
        assert engine.load(buffer) == [Custom(5)]
    finally:
        serialization.clear_safe_globals()
    assert serialization.get_safe_globals() == []


def test_weights_only_refuses_code_execution():
    payload = pickle.dumps(eval, protocol=2)  # any callable global the allow-list lacks
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("archive/data.pkl", payload)
        zf.writestr("archive/version", "3\n")
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL builtins.eval"):
        engine.load(buffer)


# ---------------------------------------------------------------- PyTorch's own files


def test_loads_file_written_by_pytorch():
    out = engine.load(FIXTURE)
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert out["base"].dtype == engine.float32 and np.array_equal(out["base"].numpy(), base)
    assert np.array_equal(out["row"].numpy(), base[1])
    assert np.array_equal(out["column"].numpy(), base[:, 2])
    assert np.array_equal(out["transposed"].numpy(), base.T)
    assert shares_memory(out["base"], out["row"]) and shares_memory(out["base"], out["transposed"])
    assert out["int64"].tolist() == [[1, -2], [3, 2**40]] and out["int64"].dtype == engine.int64
    assert out["int32"].tolist() == [7, -8] and out["int32"].dtype == engine.int32
    assert out["bool"].tolist() == [True, False, True]
    assert out["scalar"].shape == () and out["scalar"].item() == 3.25
    assert out["empty"].shape == (0, 3)
    weight = out["state"]["layer.weight"]
    assert list(out["state"]) == ["layer.weight", "layer.bias"]
    assert weight.requires_grad and weight.dtype == engine.float64
    assert np.allclose(weight.detach().numpy().ravel(), np.linspace(-1, 1, 6))
    assert out["meta"] == {"epoch": 3, "name": "run", "lr": 0.1, "sizes": [1, (2, 3)]}
    assert out["shape"] == engine.Size([2, 3]) and out["dtype"] is engine.float64


def test_unsupported_pytorch_dtype_is_named():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr(
            "archive/data.pkl",
            b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n((X\x07\x00\x00\x00storage"
            b"ctorch\nComplexFloatStorage\nX\x01\x00\x00\x000X\x03\x00\x00\x00cpuK\x01tQK\x00K\x01\x85K\x01"
            b"\x85\x89ccollections\nOrderedDict\n)RtR.",
        )
        zf.writestr("archive/data/0", b"\x00" * 8)
    buffer.seek(0)
    with pytest.raises(TypeError, match="complex64 tensor"):
        engine.load(buffer)


def torch_available():
    if not TORCH_PYTHON.exists():
        return False
    return subprocess.run([TORCH_PYTHON, "-c", "import torch"], capture_output=True).returncode == 0


@pytest.mark.skipif(not torch_available(), reason="PyTorch (/tmp/tv) is not installed")
def test_pytorch_loads_engine_file(tmp_path):
    base = engine.arange(12.0).reshape(3, 4)
    w = engine.ones(2, dtype=engine.float64).requires_grad_()
    from engine import nn

    obj = {
        "linear": nn.Linear(2, 1).state_dict(),
        "parameter": nn.Parameter(engine.zeros(2)),
        "base": base,
        "row": base[1],
        "t": base.t(),
        "state": collections.OrderedDict(w=w),
        "i": engine.tensor([1, 2], dtype=engine.int32),
        "n": 3,
        "shape": engine.Size([2]),
        "dtype": engine.int64,
    }
    path = tmp_path / "engine.pt"
    engine.save(obj, path)
    script = f"""
import torch
out = torch.load({str(path)!r})
assert out["base"].tolist() == [[float(4 * r + c) for c in range(4)] for r in range(3)]
out["base"][1, 0] = -5.0
assert out["row"][0].item() == -5.0 and out["t"][0, 1].item() == -5.0
assert out["state"]["w"].requires_grad and out["state"]["w"].dtype == torch.float64
assert out["i"].dtype == torch.int32 and out["n"] == 3
assert out["shape"] == torch.Size([2]) and out["dtype"] is torch.int64
assert isinstance(out["parameter"], torch.nn.Parameter)
torch.nn.Linear(2, 1).load_state_dict(out["linear"])
print("ok")
"""
    run = subprocess.run([TORCH_PYTHON, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"


def test_saving_does_not_import_torch():
    script = "import io, sys, engine; engine.save(engine.ones(2), io.BytesIO()); print('torch' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "False"


NARROW_VALUES = {
    "float16": [[0.47998046875, 3.220703125], [5.9609375, 8.703125]],
    "bfloat16": [[0.48046875, 3.21875], [5.96875, 8.6875]],
    "uint8": [[0, 3], [5, 8]],
    "int8": [[0, 3], [5, 8]],
    "int16": [[0, 3], [5, 8]],
}


def test_narrow_dtypes_load_from_pytorch_and_round_trip(tmp_path):
    # Half, BFloat16, Byte, Char and Short storages as PyTorch writes them; bfloat16 (which NumPy
    # lacks) travels as its 16-bit patterns.
    loaded = engine.load(FIXTURE)["narrow"]
    for name, expected in NARROW_VALUES.items():
        assert loaded[name].dtype == getattr(engine, name)
        assert loaded[name].float().tolist() == expected
    path = tmp_path / "narrow.pt"
    engine.save(loaded, path)
    again = engine.load(path)
    for name in NARROW_VALUES:
        assert again[name].dtype == loaded[name].dtype
        assert engine.equal(again[name], loaded[name])
