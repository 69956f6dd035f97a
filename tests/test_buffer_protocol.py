"""The Python buffer protocol (memoryview, bytes, np.asarray through it) and __array_interface__
on Tensor: the tensor's own memory with the right format, itemsize, shape and strides, writable,
contiguous or not. PyTorch's tensors offer neither; engine follows PyTorch's rules of the nearest
paths (numpy(), __dlpack__): tensors that require grad and bfloat16 tensors are refused."""

import ctypes
import gc
import hashlib
import sys

import engine
import numpy as np
import pytest

# dtype name -> (PEP 3118 format, itemsize, __array_interface__ typestr)
LITTLE = sys.byteorder == "little"
TABLE = {
    "bool": ("?", 1, "|b1"),
    "uint8": ("B", 1, "|u1"),
    "int8": ("b", 1, "|i1"),
    "int16": ("h", 2, "<i2" if LITTLE else ">i2"),
    "int32": ("i", 4, "<i4" if LITTLE else ">i4"),
    "int64": ("q", 8, "<i8" if LITTLE else ">i8"),
    "float16": ("e", 2, "<f2" if LITTLE else ">f2"),
    "float32": ("f", 4, "<f4" if LITTLE else ">f4"),
    "float64": ("d", 8, "<f8" if LITTLE else ">f8"),
}


def sample(name, shape=(2, 3)):
    n = int(np.prod(shape))
    return (engine.arange(n).reshape(*shape) % 3).to(getattr(engine, name))


@pytest.mark.parametrize("name", sorted(TABLE))
def test_memoryview_describes_each_dtype(name):
    fmt, size, _ = TABLE[name]
    t = sample(name)
    m = memoryview(t)
    assert (m.format, m.itemsize, m.ndim, m.shape, m.strides) == (
        fmt,
        size,
        2,
        (2, 3),
        (3 * size, size),
    )
    assert not m.readonly and m.c_contiguous and m.nbytes == 6 * size
    if name != "float16":  # memoryview.tolist has no half floats
        assert m.tolist() == t.tolist()
    assert bytes(t) == t.numpy().tobytes()


@pytest.mark.parametrize("name", sorted(TABLE))
def test_asarray_goes_through_the_buffer_without_copy(name):
    t = sample(name)
    a = np.asarray(t)
    assert a.dtype == np.dtype(name) and a.shape == (2, 3) and a.tolist() == t.tolist()
    assert a.ctypes.data == t.data_ptr()


def test_non_contiguous_views():
    base = engine.arange(24.0, dtype=engine.float64).reshape(2, 3, 4)
    for view in (
        base.transpose(0, 2),
        base[:, 1],
        base[..., ::2],
        base[1:, :, 1:3],
        base[0, 0, 1:].expand(3, 3),
    ):
        m = memoryview(view)
        assert m.shape == tuple(view.shape)
        assert m.strides == tuple(8 * s for s in view.stride())
        assert m.tolist() == view.tolist()
        assert bytes(view) == view.contiguous().numpy().tobytes()
        a = np.asarray(view)
        assert a.strides == m.strides and a.tolist() == view.tolist()
        assert np.shares_memory(a, np.asarray(base))


def test_writes_go_both_ways():
    t = engine.zeros(2, 3)
    m = memoryview(t)
    m[1, 2] = 5.0
    assert t[1, 2].item() == 5.0
    a = np.asarray(t.t())
    a[0, 1] = 7.0
    assert t[1, 0].item() == 7.0
    t[0, 0] = 3.0
    assert m[0, 0] == 3.0 and a[0, 0] == 3.0
    c = (ctypes.c_float * 6).from_buffer(t)  # asks for a writable, simple buffer
    c[5] = -1.0
    assert t[1, 2].item() == -1.0


def test_zero_dim_and_empty():
    s = engine.tensor(2.5)
    m = memoryview(s)
    assert m.shape == () and m.ndim == 0 and m.tolist() == 2.5
    assert np.asarray(s).shape == () and float(np.asarray(s)) == 2.5
    for shape in ((0,), (0, 3), (3, 0)):
        e = engine.zeros(*shape)
        m = memoryview(e)
        assert m.shape == shape and m.nbytes == 0 and bytes(e) == b""
        assert np.asarray(e).shape == shape


def test_contiguous_requests_of_a_strided_tensor_are_refused():
    t = engine.arange(6.0).reshape(2, 3)
    flat = engine.arange(6.0)
    assert hashlib.sha256(flat).digest() == hashlib.sha256(bytes(flat)).digest()  # a simple buffer
    with pytest.raises(BufferError, match="not C-contiguous"):
        hashlib.sha256(flat[::2])
    with pytest.raises(TypeError):
        memoryview(t.t()).cast("B")  # memoryview's own rule
    assert memoryview(t[:1]).f_contiguous and memoryview(t.t()).f_contiguous
    assert not memoryview(t[:, :1]).f_contiguous and not memoryview(t[:, :1]).c_contiguous


def test_requires_grad_is_refused():
    w = engine.ones(2, requires_grad=True)
    with pytest.raises(
        BufferError, match=r"^Can't export tensors that require gradient, use tensor.detach\(\)$"
    ):
        memoryview(w)
    with pytest.raises(BufferError):
        bytes(w)
    assert memoryview(w.detach()).tolist() == [1.0, 1.0]
    p = engine.nn.Parameter(engine.ones(2))
    with pytest.raises(BufferError):
        memoryview(p)
    assert memoryview(engine.nn.Parameter(engine.ones(2), requires_grad=False)).tolist() == [
        1.0,
        1.0,
    ]


def test_bfloat16_is_refused():
    t = engine.ones(2, dtype=engine.bfloat16)
    with pytest.raises(BufferError, match="bfloat16 has no buffer format character"):
        memoryview(t)
    with pytest.raises(TypeError, match="^Got unsupported ScalarType BFloat16$"):
        np.asarray(t)
    with pytest.raises(TypeError, match="^Got unsupported ScalarType BFloat16$"):
        _ = t.__array_interface__


def test_buffer_keeps_the_memory_alive():
    t = engine.arange(1000.0)
    m = memoryview(t)
    a = np.asarray(t)
    del t
    gc.collect()
    assert m[999] == 999.0 and a.sum() == 499500.0
    u = engine.arange(4.0)
    m = memoryview(u)
    u.resize_(100000)  # u gets a new storage; the view still holds the old one
    assert m.tolist() == [0.0, 1.0, 2.0, 3.0]
    m.release()


def test_single_element_integer_tensor_is_an_index_to_bytes():
    # bytes(x) asks __index__ first (Python's rule): as in PyTorch, bytes(tensor([3])) is 3 zero bytes.
    assert bytes(engine.tensor([3])) == b"\x00\x00\x00"
    assert bytes(engine.tensor([1, 2], dtype=engine.uint8)) == b"\x01\x02"
    assert bytes(engine.tensor([1.5])) == np.float32(1.5).tobytes()


@pytest.mark.parametrize("name", sorted(TABLE))
def test_array_interface(name):
    t = sample(name)
    iface = t.__array_interface__
    _, _, typestr = TABLE[name]
    assert (
        iface["version"] == 3 and iface["typestr"] == typestr and iface["descr"] == [("", typestr)]
    )
    assert iface["shape"] == (2, 3) and iface["strides"] is None
    assert iface["data"] == (t.data_ptr(), False)
    s = t.t().__array_interface__
    size = TABLE[name][1]
    assert s["shape"] == (3, 2) and s["strides"] == (size, 3 * size)


def test_array_interface_builds_a_shared_array():
    class Holder:
        def __init__(self, t):
            self.__array_interface__ = t.__array_interface__
            self.t = t

    t = engine.arange(12.0).reshape(3, 4)[:, 1::2]
    a = np.asarray(Holder(t))
    assert a.tolist() == t.tolist()
    a[0, 0] = -1.0
    assert t[0, 0].item() == -1.0


def test_array_interface_refuses_requires_grad():
    w = engine.ones(2, requires_grad=True)
    msg = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    with pytest.raises(RuntimeError) as info:
        _ = w.__array_interface__
    assert str(info.value) == msg
    with pytest.raises(RuntimeError) as info:
        np.asarray(w)  # the buffer refuses, then the interface: NumPy shows PyTorch's message
    assert str(info.value) == msg


def test_numpy_tolist_item_unchanged():
    t = engine.arange(6.0).reshape(2, 3)
    assert t.numpy().base is not None and t.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert t[1, 1].item() == 4.0
    a = np.array(t)  # a copy
    a[0, 0] = 9.0
    assert t[0, 0].item() == 0.0
    assert np.asarray(t, dtype=np.float32).dtype == np.float32
    assert np.array(t, copy=False).ctypes.data == t.data_ptr()
