"""Tensor.untyped_storage(), Tensor.storage(), set_(storage, ...) and saving views of one storage.

Expected values are PyTorch 2.13's (recorded from it)."""

import io
import warnings

import engine
import pytest


def test_untyped_storage_is_the_block_as_bytes():
    a = engine.arange(6, dtype=engine.float32)
    s = a.untyped_storage()
    assert isinstance(s, engine.UntypedStorage)
    assert (s.size(), s.nbytes(), len(s), s.element_size()) == (24, 24, 24, 1)
    assert s.device == engine.device("cpu") and s.data_ptr() == a.data_ptr()
    assert s.tolist()[:8] == [0, 0, 0, 0, 0, 0, 128, 63]
    assert (s[6], s[-1], s[1:3].size()) == (128, 64, 2)
    assert a[1:].untyped_storage().data_ptr() == s.data_ptr()
    assert a.view(2, 3).t().untyped_storage().nbytes() == 24
    assert engine.tensor([], dtype=engine.float32).untyped_storage().data_ptr() == 0
    assert repr(engine.arange(2, dtype=engine.uint8).untyped_storage()) == (
        " 0\n 1\n[torch.storage.UntypedStorage(device=cpu) of size 2]"
    )
    s[0] = 1  # writes through to the tensor
    assert a[0].item() > 0
    with pytest.raises(IndexError):
        s[24]


def test_resize_refused():
    s = engine.zeros(2).untyped_storage()
    assert s.resize_(8) is s
    with pytest.raises(RuntimeError, match="not resizable"):
        s.resize_(100)
    with pytest.raises(RuntimeError):
        s.resize_(-1)


def test_typed_storage_warns_once():
    a = engine.arange(3.0)
    import engine.storage as storage_module

    storage_module._warned[0] = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ts = a.storage()
        a.storage()
    assert [str(w.message) for w in caught] == [storage_module._TYPED_WARNING]
    assert caught[0].category is UserWarning
    assert (ts.size(), ts.dtype, ts.nbytes(), ts.element_size()) == (3, engine.float32, 12, 4)
    assert ts.tolist() == [0.0, 1.0, 2.0] and ts[1] == 1.0 and ts.data_ptr() == a.data_ptr()
    assert repr(ts).endswith(
        "[torch.storage.TypedStorage(dtype=torch.float32, device=cpu) of size 3]"
    )


def test_set_from_storage():
    a = engine.arange(6.0)
    b = engine.empty(0).set_(a.untyped_storage(), 2, (2, 2), (2, 1))
    assert b.tolist() == [[2.0, 3.0], [4.0, 5.0]] and b.storage_offset() == 2
    assert b.untyped_storage().data_ptr() == a.untyped_storage().data_ptr()
    c = engine.empty(0).set_(a.untyped_storage())
    assert c.shape == (6,)
    assert engine.empty(0, dtype=engine.float64).set_(a.untyped_storage(), 0, (2,), (1,)).shape == (
        2,
    )
    with pytest.raises(RuntimeError, match="out of bounds"):
        engine.empty(0).set_(a.untyped_storage(), 0, (10,), (1,))


def test_meta_storage():
    s = engine.empty(3, device="meta").untyped_storage()
    assert s.nbytes() == 12 and s.data_ptr() == 0 and s.device == engine.device("meta")
    assert repr(s) == "...\n[torch.storage.UntypedStorage(device=meta) of size 12]"
    for read in (lambda: s[0], lambda: s.tolist()):
        with pytest.raises(NotImplementedError, match="Not available for 'meta' device type"):
            read()


def test_save_keeps_views_of_one_storage():
    base = engine.arange(12.0)
    buf = io.BytesIO()
    engine.save({"base": base, "v1": base[2:6], "v2": base.view(3, 4)}, buf)
    buf.seek(0)
    d = engine.load(buf)
    d["base"][3] = 100.0
    assert d["v1"][1].item() == 100.0 and d["v2"][0, 3].item() == 100.0
    assert (d["v1"].storage_offset(), d["v2"].stride()) == (2, (4, 1))
    assert d["v1"].untyped_storage().size() == 48
    assert d["v1"].untyped_storage().data_ptr() == d["base"].untyped_storage().data_ptr()
    whole, alone = io.BytesIO(), io.BytesIO()
    engine.save(base[:2], whole)
    engine.save(base[:2].clone(), alone)
    assert len(whole.getvalue()) == len(alone.getvalue())  # records padded to 64 bytes
    whole.seek(0)
    loaded = engine.load(whole)
    assert loaded.tolist() == [0.0, 1.0] and loaded.untyped_storage().nbytes() == 48


def test_set_called_on_a_non_tensor_is_a_type_error():
    # As Python refuses a method descriptor applied to the wrong type (PyTorch's message shape).
    with pytest.raises(
        TypeError,
        match="descriptor 'set_' for 'engine._C.Tensor' objects doesn't apply to a 'int' object",
    ):
        engine.Tensor.set_(3, engine.zeros(1))
