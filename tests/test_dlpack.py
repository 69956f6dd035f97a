"""DLPack exchange: Tensor.__dlpack__ / __dlpack_device__, engine.from_dlpack and
engine.utils.dlpack, zero-copy both ways, with NumPy in process and PyTorch (when installed) in a
subprocess. Messages are PyTorch 2.13's where PyTorch has one."""

import gc
import os
import pathlib
import subprocess
import sys
import warnings
import weakref

import engine
import numpy as np
import pytest
from engine.utils import dlpack

DTYPES = [
    ("bool", np.bool_),
    ("uint8", np.uint8),
    ("int8", np.int8),
    ("int16", np.int16),
    ("int32", np.int32),
    ("int64", np.int64),
    ("float16", np.float16),
    ("float32", np.float32),
    ("float64", np.float64),
]


def sample(name, shape=(2, 3)):
    return (engine.arange(int(np.prod(shape))).reshape(*shape) % 2 + 1).to(getattr(engine, name))


# ---- the protocol methods ----


def test_dlpack_device_is_the_cpu():
    device = engine.ones(2).__dlpack_device__()
    assert device == (1, 0)
    assert device[0] is dlpack.DLDeviceType.kDLCPU


def test_capsule_names_follow_max_version():
    t = engine.arange(4.0)
    assert "dltensor" in repr(t.__dlpack__()) and "versioned" not in repr(t.__dlpack__())
    assert '"dltensor_versioned"' in repr(t.__dlpack__(max_version=(1, 0)))
    assert '"dltensor_versioned"' in repr(t.__dlpack__(max_version=(1, 3)))
    assert '"dltensor"' in repr(t.__dlpack__(max_version=(0, 8)))
    assert '"dltensor"' in repr(dlpack.to_dlpack(t))


def test_dlpack_arguments_are_checked_as_pytorch():
    t = engine.arange(4.0)
    with pytest.raises(AssertionError, match=r"^stream should be None on cpu\.$"):
        t.__dlpack__(stream=0)
    with pytest.raises(TypeError, match=r"^stream must be ``int`` or ``none``$"):
        t.__dlpack__(stream=1.0)
    t.__dlpack__(stream=None)
    t.__dlpack__(stream=-1)
    with pytest.raises(TypeError, match=r"takes 1 positional argument but 2 were given"):
        t.__dlpack__(1)
    with pytest.raises(TypeError, match=r"argument 'dl_device' must be tuple of ints, not int"):
        t.__dlpack__(dl_device=5)
    with pytest.raises(TypeError, match=r"argument 'copy' must be bool, not int"):
        t.__dlpack__(copy=1)
    with pytest.raises(TypeError, match="not subscriptable"):
        t.__dlpack__(max_version=5)
    with pytest.raises(BufferError, match="cannot be exported to device type 2"):
        t.__dlpack__(dl_device=(2, 0))
    t.__dlpack__(dl_device=(1, 0))
    t.__dlpack__(dl_device=(dlpack.DLDeviceType.kDLCPU, 0))


def test_requires_grad_is_refused():
    t = engine.ones(2, requires_grad=True)
    msg = r"^Can't export tensors that require gradient, use tensor.detach\(\)$"
    with pytest.raises(BufferError, match=msg):
        t.__dlpack__()
    with pytest.raises(BufferError, match=msg):
        engine.from_dlpack(t)
    assert engine.from_dlpack(t.detach()).tolist() == [1.0, 1.0]


def test_invalid_capsules():
    msg = "from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed only once"
    capsule = engine.arange(3).__dlpack__()
    assert engine.from_dlpack(capsule).tolist() == [0, 1, 2]
    with pytest.raises(RuntimeError, match=msg):
        engine.from_dlpack(capsule)  # already consumed
    assert "used_dltensor" in repr(capsule)
    for bad in (1, "x", None):
        with pytest.raises(RuntimeError, match=msg):
            engine.from_dlpack(bad)
    with pytest.raises(AssertionError, match="device and copy kwargs not supported"):
        engine.from_dlpack(engine.arange(3).__dlpack__(), copy=True)
    with pytest.raises(TypeError, match="must be Tensor"):
        dlpack.to_dlpack(1)


def test_device_argument():
    t = engine.arange(3.0)
    assert engine.from_dlpack(t, device="cpu").tolist() == [0.0, 1.0, 2.0]
    assert engine.from_dlpack(t, device=engine.device("cpu")).data_ptr() == t.data_ptr()
    with pytest.raises(AssertionError, match="from_dlpack: unsupported device type: <class 'int'>"):
        engine.from_dlpack(t, device=3)
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        engine.from_dlpack(t, device="cuda")


def test_signatures():
    import inspect

    assert str(inspect.signature(engine.from_dlpack)) == "(ext_tensor, *, device=None, copy=None)"
    assert str(inspect.signature(engine.Tensor.__dlpack__)) == (
        "(self, *, stream=-1, max_version=None, dl_device=None, copy=None)"
    )
    assert engine.utils.dlpack.from_dlpack is engine.from_dlpack
    for f in (engine.from_dlpack, dlpack.to_dlpack, engine.Tensor.__dlpack__):
        assert f.__doc__


# ---- engine to engine ----


@pytest.mark.parametrize("versioned", [False, True])
def test_engine_round_trip_shares_storage(versioned):
    t = engine.arange(6.0).reshape(2, 3)
    u = engine.from_dlpack(t.__dlpack__(max_version=(1, 0) if versioned else None))
    assert u.data_ptr() == t.data_ptr() and u.shape == (2, 3) and u.stride() == (3, 1)
    u[0, 0] = -1.0
    assert t[0, 0].item() == -1.0
    # One storage: an in-place write through the import is seen by autograd's version checks.
    w = engine.ones(2, 3, requires_grad=True)
    y = (w * t).sum()
    u.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_engine_views_and_layouts():
    base = engine.arange(24.0).reshape(2, 3, 4)
    for view in (
        base.transpose(0, 2),
        base[:, 1],
        base[..., ::2],
        base[1:, :, 1:3],
        base.expand(2, 2, 3, 4),
    ):
        u = engine.from_dlpack(view)
        assert u.shape == view.shape and u.stride() == view.stride()
        assert u.tolist() == view.tolist() and u.data_ptr() == view.data_ptr()


@pytest.mark.parametrize("name", [n for n, _ in DTYPES] + ["bfloat16"])
def test_engine_round_trip_every_dtype(name):
    t = sample(name)
    u = engine.from_dlpack(t)
    assert u.dtype == t.dtype and u.tolist() == t.tolist() and u.data_ptr() == t.data_ptr()


def test_zero_dim_and_empty():
    s = engine.tensor(2.5)
    u = engine.from_dlpack(s)
    assert u.shape == () and u.item() == 2.5
    e = engine.zeros(0, 3)
    v = engine.from_dlpack(e)
    assert v.shape == (0, 3) and v.numel() == 0
    assert np.from_dlpack(e).shape == (0, 3)
    assert engine.from_dlpack(np.zeros((3, 0), np.float32)).shape == (3, 0)
    assert np.from_dlpack(s).shape == () and float(np.from_dlpack(s)) == 2.5


def test_copy_true_gives_separate_memory():
    t = engine.arange(3.0)
    u = engine.from_dlpack(t, copy=True)
    u[0] = 9.0
    assert t.tolist() == [0.0, 1.0, 2.0]
    a = np.from_dlpack(t, copy=True)
    a[1] = 9.0
    assert t.tolist() == [0.0, 1.0, 2.0]
    assert engine.from_dlpack(t, copy=False).data_ptr() == t.data_ptr()


# ---- NumPy ----


@pytest.mark.parametrize("name,np_dtype", DTYPES)
def test_numpy_from_engine_every_dtype(name, np_dtype):
    t = sample(name)
    a = np.from_dlpack(t)
    assert a.dtype == np_dtype and a.tolist() == t.tolist()
    assert a.ctypes.data == t.data_ptr()


@pytest.mark.parametrize("name,np_dtype", DTYPES)
def test_engine_from_numpy_every_dtype(name, np_dtype):
    a = (np.arange(6) % 3).astype(np_dtype).reshape(2, 3)
    t = engine.from_dlpack(a)
    assert t.dtype == getattr(engine, name) and t.tolist() == a.tolist()
    assert t.data_ptr() == a.ctypes.data


def test_numpy_sharing_both_ways():
    a = np.zeros((2, 3), np.float32)
    t = engine.from_dlpack(a)
    t[1, 2] = 5.0
    a[0, 0] = 7.0
    assert a[1, 2] == 5.0 and t[0, 0].item() == 7.0
    u = engine.arange(4)
    b = np.from_dlpack(u)
    b[0] = 40
    u[3] = 30
    assert u.tolist() == [40, 1, 2, 30] and b.tolist() == [40, 1, 2, 30]


def test_numpy_strides():
    a = np.arange(24.0).reshape(2, 3, 4)
    row = a[0, 0]
    repeated = np.lib.stride_tricks.as_strided(
        row, shape=(5, 4), strides=(0, 8)
    )  # writable, stride 0
    for view in (a.transpose(2, 0, 1), a[:, 1], a[..., ::2], repeated):
        t = engine.from_dlpack(view)
        assert t.shape == view.shape
        assert t.stride() == tuple(s // 8 for s in view.strides)
        assert t.tolist() == view.tolist()
    t = engine.arange(24.0, dtype=engine.float64).reshape(2, 3, 4).permute(2, 0, 1)[:, :, ::3]
    b = np.from_dlpack(t)
    assert b.strides == tuple(8 * s for s in t.stride()) and b.tolist() == t.tolist()
    assert np.from_dlpack(engine.arange(3.0).expand(2, 3)).strides == (0, 4)


def test_numpy_negative_strides_are_refused():
    with pytest.raises(ValueError, match="negative stride"):
        engine.from_dlpack(np.arange(6.0)[::-1])
    # A size-1 dim is never stepped along, whatever its stride.
    assert engine.from_dlpack(np.arange(6.0)[::-1][:1]).tolist() == [5.0]


def test_unsupported_dtypes_are_refused():
    for dt, what in (
        (np.uint16, "uint of 16 bits"),
        (np.uint32, "uint of 32 bits"),
        (np.uint64, "uint of 64"),
    ):
        with pytest.raises(TypeError, match=f"engine has no dtype for DLPack {what}"):
            engine.from_dlpack(np.zeros(3, dt))


def test_complex_tensors_cross_both_ways():
    a = np.array([1 + 2j, -3.5j], dtype=np.complex64)
    t = engine.from_dlpack(a)
    assert t.dtype is engine.complex64 and t.tolist() == [1 + 2j, -3.5j]
    back = np.from_dlpack(engine.tensor([0.5 - 1j], dtype=engine.complex128))
    assert back.dtype == np.complex128 and back.tolist() == [0.5 - 1j]


def test_misaligned_data_is_refused():
    a = np.frombuffer(bytearray(17), dtype=np.uint8)[1:].view(np.float64)
    with pytest.raises(ValueError, match="not aligned to its element size"):
        engine.from_dlpack(a)


def test_read_only_producer_warns():
    a = np.arange(3.0)
    a.flags.writeable = False
    with pytest.warns(UserWarning, match="The given DLPack tensor is read-only"):
        t = engine.from_dlpack(a)
    assert t.tolist() == [0.0, 1.0, 2.0]


def test_refused_capsule_stays_with_its_producer():
    # A capsule engine refuses is not consumed: another consumer may still take it.
    capsule = np.zeros(3, np.uint32).__dlpack__()
    with pytest.raises(TypeError):
        engine.from_dlpack(capsule)
    assert repr(capsule).startswith('<capsule object "dltensor"')


# ---- lifetimes ----


def test_import_keeps_the_producer_alive():
    a = np.arange(1000.0)
    ref = weakref.ref(a)
    t = engine.from_dlpack(a)
    del a
    gc.collect()
    assert ref() is not None  # the storage holds the producer's capsule, which holds the array
    assert t[999].item() == 999.0
    view = t[10:20]
    del t
    gc.collect()
    assert ref() is not None and view.tolist() == [float(i) for i in range(10, 20)]
    del view
    gc.collect()
    assert ref() is None  # the last view released it


def test_export_keeps_the_storage_alive():
    t = engine.arange(1000.0)
    a = np.from_dlpack(t)
    del t
    gc.collect()
    assert a[999] == 999.0 and a.sum() == 499500.0


def test_unconsumed_capsule_frees_the_storage():
    # An engine tensor over a NumPy array, exported and never consumed: the capsule alone keeps
    # the array alive, and its destructor (running the deleter) lets it go.
    a = np.arange(10.0)
    ref = weakref.ref(a)
    t = engine.from_dlpack(a)
    capsule = t.__dlpack__(max_version=(1, 0))
    del a, t
    gc.collect()
    assert ref() is not None
    del capsule
    gc.collect()
    assert ref() is None


def test_export_survives_resize_of_the_source():
    t = engine.arange(4.0)
    a = np.from_dlpack(t)
    t.resize_(100000)  # a new storage for t; the capsule still holds the old one
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_deleter_runs_from_another_thread():
    # The last reference may go away on a thread: the deleter takes the interpreter lock itself.
    import threading

    a = np.arange(100.0)
    ref = weakref.ref(a)
    box = [engine.from_dlpack(a)]
    del a

    def drop():
        box.clear()
        gc.collect()

    th = threading.Thread(target=drop)
    th.start()
    th.join()
    gc.collect()
    assert ref() is None


# ---- PyTorch (in its own interpreter: tests run without torch installed) ----

TORCH_PYTHON = pathlib.Path("/tmp/tv/bin/python")


def torch_available():
    if not TORCH_PYTHON.exists():
        return False
    return subprocess.run([TORCH_PYTHON, "-c", "import torch"], capture_output=True).returncode == 0


@pytest.mark.skipif(not torch_available(), reason="PyTorch (/tmp/tv) is not installed")
def test_pytorch_round_trip(tmp_path):
    # The torch interpreter imports this engine build through a one-package path entry.
    (tmp_path / "engine").symlink_to(pathlib.Path(engine.__file__).parent)
    script = """
import warnings
import engine, torch
warnings.simplefilter("error")
for name in ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]:
    t = (engine.arange(6).reshape(2, 3) % 2 + 1).to(getattr(engine, name))
    x = torch.from_dlpack(t)
    assert str(x.dtype) == "torch." + name and x.tolist() == t.tolist(), name
    assert x.data_ptr() == t.data_ptr()
    y = torch.arange(6).reshape(3, 2).t().to(getattr(torch, name))
    u = engine.from_dlpack(y)
    assert u.dtype == getattr(engine, name) and u.tolist() == y.tolist() and u.stride() == y.stride(), name
# sharing, both directions, versioned and legacy capsules
t = engine.zeros(2, 3)
x = torch.from_dlpack(t)
x[1, 1] = 4.0
assert t[1, 1].item() == 4.0
x = torch.zeros(5)
u = engine.from_dlpack(x)
u[2] = 3.0
assert x[2].item() == 3.0
u = engine.from_dlpack(torch.utils.dlpack.to_dlpack(x))
assert u.tolist() == x.tolist()
x = torch.utils.dlpack.from_dlpack(engine.utils.dlpack.to_dlpack(t))
assert x.tolist() == t.tolist()
# lifetimes: drop the producer first
x = torch.arange(1000.0)
u = engine.from_dlpack(x)
del x
assert u.sum().item() == 499500.0
t = engine.arange(1000.0)
x = torch.from_dlpack(t)
del t
assert x.sum().item() == 499500.0
# 0-d and empty
assert torch.from_dlpack(engine.tensor(3.5)).item() == 3.5
assert engine.from_dlpack(torch.zeros(0, 2)).shape == (0, 2)
print("ok")
"""
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    run = subprocess.run([TORCH_PYTHON, "-c", script], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"


def test_import_engine_does_not_load_dlpack_consumers():
    script = (
        "import sys, engine; print('engine.utils.dlpack' in sys.modules, 'numpy' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "False"]


def test_no_warning_for_writable_producers():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        engine.from_dlpack(np.arange(3.0))
        engine.from_dlpack(engine.arange(3.0))
