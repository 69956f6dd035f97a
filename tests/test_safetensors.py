"""engine.utils.safetensors: the format written and read directly, and checked against the spec."""

import json
import struct

import engine
import numpy as np
import pytest
from engine.utils import safetensors as st


def test_roundtrip_bytes_all_dtypes():
    tensors = {
        "f32": engine.arange(6.0).reshape(2, 3),
        "f64": engine.tensor([1.5, -2.5], dtype=engine.float64),
        "i64": engine.tensor([[1, 2**40]]),
        "i32": engine.tensor([-7], dtype=engine.int32),
        "bool": engine.tensor([True, False]),
        "scalar": engine.tensor(4.0),
        "empty": engine.zeros(0, 2),
    }
    out = st.load(st.save(tensors))
    assert set(out) == set(tensors)
    for name, t in tensors.items():
        assert out[name].dtype == t.dtype and out[name].shape == t.shape
        assert np.array_equal(out[name].numpy(), t.numpy())


def test_file_roundtrip_and_metadata(tmp_path):
    path = tmp_path / "w.safetensors"
    st.save_file({"w": engine.ones(3, 2)}, path, metadata={"format": "pt"})
    assert st.load_file(path)["w"].tolist() == [[1.0, 1.0]] * 3
    assert st.load_metadata(path) == {"format": "pt"}
    st.save_file({"w": engine.ones(1)}, str(path))
    assert st.load_metadata(path) is None


def test_layout_follows_the_spec():
    data = st.save(
        {
            "b": engine.tensor([1, 2], dtype=engine.int32),
            "a": engine.tensor([0.5], dtype=engine.float64),
        }
    )
    (n,) = struct.unpack("<Q", data[:8])
    assert n % 8 == 0
    header = json.loads(data[8 : 8 + n])
    # Larger elements first, then by name: the order the safetensors library writes.
    assert header["a"] == {"dtype": "F64", "shape": [1], "data_offsets": [0, 8]}
    assert header["b"] == {"dtype": "I32", "shape": [2], "data_offsets": [8, 16]}
    body = data[8 + n :]
    assert struct.unpack("<d", body[:8]) == (0.5,) and struct.unpack("<ii", body[8:]) == (1, 2)


def test_reads_a_hand_written_file():
    header = json.dumps({"x": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]}}).encode()
    data = struct.pack("<Q", len(header)) + header + struct.pack("<4f", 1, 2, 3, 4)
    assert st.load(data)["x"].tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_loaded_tensors_are_writable_copies():
    data = st.save({"x": engine.zeros(3)})
    out = st.load(data)
    out["x"][0] = 1.0
    assert st.load(data)["x"].tolist() == [0.0, 0.0, 0.0]


def test_refuses_non_contiguous_and_shared_tensors():
    base = engine.arange(6.0).reshape(2, 3)
    with pytest.raises(ValueError, match="non contiguous tensor: `t`"):
        st.save({"t": base.t()})
    with pytest.raises(RuntimeError, match="Some tensors share memory"):
        st.save({"a": base, "b": base[1]})
    with pytest.raises(TypeError, match="metadata must be a dict of str to str"):
        st.save({"a": base}, metadata={"epoch": 1})
    with pytest.raises(TypeError, match="not a tensor"):
        st.save({"a": [1.0]})


def malformed(header, body=b""):
    text = json.dumps(header).encode()
    return struct.pack("<Q", len(text)) + text + body


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\x01\x00", "HeaderTooSmall"),
        (struct.pack("<Q", 2**40), "HeaderTooLarge"),
        (struct.pack("<Q", 50) + b"{}", "InvalidHeaderLength"),
        (struct.pack("<Q", 4) + b"nope", "InvalidHeaderDeserialization"),
        (
            malformed({"x": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, b"\0" * 4),
            "MetadataIncomplete",
        ),
        (
            malformed({"x": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}}, b"\0" * 8),
            "TensorInvalidInfo",
        ),
        (
            malformed({"x": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}}, b"\0" * 8),
            "InvalidOffset",
        ),
        (
            malformed({"x": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}, b"\0" * 4),
            "invalid shape",
        ),
        (
            malformed({"x": {"dtype": "Q9", "shape": [1], "data_offsets": [0, 4]}}, b"\0" * 4),
            "unknown dtype",
        ),
        (malformed({"x": {"shape": [1]}}), "invalid entry"),
    ],
)
def test_malformed_buffers_are_refused(data, message):
    with pytest.raises(st.SafetensorError, match=message):
        st.load(data)


def test_unsupported_dtype_is_named():
    data = malformed({"h": {"dtype": "U16", "shape": [1], "data_offsets": [0, 2]}}, b"\0\0")
    with pytest.raises(TypeError, match="dtype U16, which engine does not support"):
        st.load(data)


@pytest.mark.parametrize("name", ["float16", "bfloat16", "uint8", "int8", "int16"])
def test_narrow_dtypes_round_trip(name):
    t = (engine.arange(12) * 1.37 - 5).to(getattr(engine, name)).reshape(3, 4)
    out = st.load(st.save({"t": t}))["t"]
    assert out.dtype == t.dtype and engine.equal(out, t)


def test_bfloat16_is_stored_as_its_bit_patterns():
    # 1.0 in bfloat16 is 0x3F80, written little-endian.
    data = st.save({"t": engine.tensor([1.0, -2.0], dtype=engine.bfloat16)})
    assert data.endswith(b"\x80\x3f\x00\xc0")


def test_interoperates_with_the_safetensors_package(tmp_path):
    numpy_api = pytest.importorskip("safetensors.numpy")
    path = tmp_path / "x.safetensors"
    st.save_file({"a": engine.arange(4.0), "m": engine.tensor([[1, 2]])}, path, metadata={"k": "v"})
    loaded = numpy_api.load_file(str(path))
    assert loaded["a"].tolist() == [0.0, 1.0, 2.0, 3.0] and loaded["m"].tolist() == [[1, 2]]
    theirs = numpy_api.save({"z": np.array([[1.5, 2.5]], np.float64), "b": np.array([True])})
    out = st.load(theirs)
    assert out["z"].tolist() == [[1.5, 2.5]] and out["b"].tolist() == [True]
