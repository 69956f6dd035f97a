"""The meta device: creation, printing, layout, ops by shape and dtype rules, refusals, modules.

Expected texts are PyTorch 2.13's (recorded from it); where torch imports, a few cases are also
compared live."""

import copy

import engine
import pytest
from engine import nn


def meta(*shape, **kw):
    return engine.empty(*shape, device="meta", **kw)


def test_creation_and_identity():
    x = meta(3, 4)
    assert x.is_meta and not x.is_cpu
    assert x.device == engine.device("meta") and repr(x.device) == "device(type='meta')"
    assert x.shape == (3, 4) and x.stride() == (4, 1) and x.dtype == engine.float32
    assert x.data_ptr() == 0
    assert engine.zeros(2, dtype=engine.int64, device="meta").dtype == engine.int64
    assert engine.full((2,), 3, device="meta").dtype == engine.int64
    assert engine.tensor([1.0, 2.0], device="meta").shape == (2,)
    assert engine.arange(5, device=engine.device("meta")).shape == (5,)
    assert engine.eye(3, device="meta").is_meta
    assert engine.empty_strided((2, 3), (1, 2), device="meta").stride() == (1, 2)
    assert engine.randperm(4, device="meta").is_meta
    assert engine.rand_like(x).is_meta and x.new_zeros(2).is_meta
    assert engine.empty(2, device="meta", requires_grad=True).requires_grad


def test_no_memory_for_huge_shapes():
    big = engine.empty(10**6, 10**6, device="meta")  # 4 TB: only a shape
    assert big.untyped_storage().nbytes() == 4 * 10**12
    layer = nn.Linear(10**5, 10**5, device="meta")  # reset_parameters runs, without memory
    assert layer.weight.is_meta and layer.weight.shape == (10**5, 10**5)


def test_printing():
    assert repr(meta(3, 4)) == "tensor(..., device='meta', size=(3, 4))"
    assert str(meta(3, 4)) == "tensor(..., device='meta', size=(3, 4))"
    assert repr(meta(2, dtype=engine.int64)) == (
        "tensor(..., device='meta', size=(2,), dtype=torch.int64)"
    )
    assert repr(meta()) == "tensor(..., device='meta', size=())"
    assert repr(meta(2, 2, requires_grad=True)) == (
        "tensor(..., device='meta', size=(2, 2), requires_grad=True)"
    )
    assert repr(nn.Linear(4, 4, device="meta").weight) == (
        "Parameter containing:\ntensor(..., device='meta', size=(4, 4), requires_grad=True)"
    )


@pytest.mark.parametrize(
    "read, error, message",
    [
        (lambda x: x.tolist(), NotImplementedError, "Cannot copy out of meta tensor; no data!"),
        (lambda x: x.cpu(), NotImplementedError, "Cannot copy out of meta tensor; no data!"),
        (lambda x: x.to("cpu"), NotImplementedError, "Cannot copy out of meta tensor; no data!"),
        (lambda x: x[0, 0].item(), RuntimeError, "Tensor.item() cannot be called on meta tensors"),
        (lambda x: float(x[0, 0]), RuntimeError, "Tensor.item() cannot be called on meta tensors"),
        (lambda x: bool(x[0, 0]), RuntimeError, "Tensor.item() cannot be called on meta tensors"),
        (lambda x: x.item(), RuntimeError, "a Tensor with 12 elements cannot be converted to Scalar"),
        (
            lambda x: x.numpy(),
            TypeError,
            "can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor "
            "to host memory first.",
        ),
        (lambda x: x + engine.ones(3, 4), RuntimeError,
         "Tensor on device cpu is not on the expected device meta!"),
        (lambda x: engine.ones(3, 4) + x, RuntimeError,
         "Tensor on device meta is not on the expected device cpu!"),
        (lambda x: engine.cat([x, engine.ones(3, 4)]), RuntimeError,
         "Tensor on device cpu is not on the expected device meta!"),
        (lambda x: engine.ones(3, 4).copy_(x), NotImplementedError,
         "Cannot copy out of meta tensor; no data!"),
    ],
)  # fmt: skip
def test_value_reads_and_mixing_refused(read, error, message):
    with pytest.raises(error) as info:
        read(meta(3, 4))
    assert str(info.value) == message


def test_data_dependent_shapes_refused():
    x = meta(3, 4)
    for op in (lambda: x.nonzero(), lambda: x.unique(), lambda: x.masked_select(x > 0)):
        with pytest.raises(NotImplementedError, match="attempted to run this operator with Meta"):
            op()


def test_ops_follow_shape_and_dtype_rules():
    x = meta(3, 4)
    assert (x + engine.tensor(1.0)).is_meta  # a CPU 0-dim tensor joins any device
    assert (x @ x.t()).shape == (3, 3)
    assert x.t().stride() == (1, 4) and x[1:].storage_offset() == 4
    assert x.sum(0).shape == (4,) and x.sum().shape == ()
    values, indices = x.sort()
    assert values.is_meta and indices.dtype == engine.int64
    assert (x > 0).dtype == engine.bool and (x.int() // 2).dtype == engine.int32
    assert (x.int() // x.int()).shape == (3, 4)  # no division by zero on a stand-in
    assert engine.empty_like(x).is_meta and engine.empty_like(x, device="cpu").is_cpu
    assert x.uniform_() is x and x.zero_() is x and x.copy_(engine.ones(4)) is x
    with pytest.raises(RuntimeError):
        x + meta(5)  # the broadcasting error of the operation itself
    view = x.view(12)
    assert view.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()


def test_random_generator_untouched():
    engine.manual_seed(0)
    expected = engine.randn(3)
    engine.manual_seed(0)
    with engine.device("meta"):
        nn.Linear(5, 5)
        engine.randn(2)
    meta(4).normal_()
    assert engine.equal(engine.randn(3), expected)


def test_default_device():
    assert engine.get_default_device() == engine.device("cpu")
    with engine.device("meta"):
        assert engine.get_default_device() == engine.device("meta")
        assert engine.zeros(2).is_meta and engine.eye(2).is_meta
        assert engine.zeros(2, device="cpu").is_cpu
        model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert engine.zeros(1).is_cpu
    assert all(p.is_meta for p in model.parameters())
    engine.set_default_device("meta")
    try:
        assert engine.randn(3).is_meta
    finally:
        engine.set_default_device(None)
    assert engine.randn(1).is_cpu


def test_to_empty_then_reset_parameters():
    with engine.device("meta"):
        model = nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 2))
    model.to_empty(device="cpu")
    for m in model:
        m.reset_parameters()
    assert all(p.is_cpu for p in model.parameters())
    assert model(engine.ones(3, 4)).shape == (3, 2)


def test_module_to_meta_and_functional_call():
    model = nn.Linear(4, 2)
    base = copy.deepcopy(model).to("meta")
    assert base.weight.is_meta and model.weight.is_cpu
    params = {k: v.detach() for k, v in model.named_parameters()}
    x = engine.randn(5, 4)
    out = engine.func.functional_call(base, params, (x,))
    assert engine.allclose(out, model(x))
    assert base(meta(5, 4)).shape == (5, 2)


def test_shapes_match_the_cpu_computation():
    """Every op's meta result has the shape and dtype the same op gives on real tensors (its
    errors are the same too); a value read is refused cleanly, never a crash."""
    cases = [
        (engine.exp, (3, 4)), (engine.relu, (3, 4)), (engine.softmax, (3, 4), 1),
        (engine.matmul, (2, 3, 4), (4, 5)), (engine.cumsum, (3, 4), 1), (engine.argmax, (3, 4), 0),
        (engine.outer, (3,), (4,)), (engine.maximum, (3, 1), (1, 4)),
        (engine.nn.functional.conv2d, (1, 2, 8, 8), (3, 2, 3, 3)), (engine.topk, (5,), 2),
        (engine.stack, [(2,), (2,)]), (engine.einsum, "ij,jk->ik", (2, 3), (3, 4)),
        (engine.nn.functional.embedding, (4,), (10, 3)),
    ]  # fmt: skip
    for op, *shapes in cases:

        def make(spec, device, op=op):
            if isinstance(spec, tuple):
                dtype = (
                    engine.int64
                    if op is engine.nn.functional.embedding and len(spec) == 1
                    else None
                )
                if device == "meta":
                    return engine.empty(spec, dtype=dtype, device=device)
                n = 1
                for d in spec:
                    n *= d
                return (engine.arange(n) % 7).to(dtype or engine.float32).reshape(spec)
            if isinstance(spec, list):
                return [make(s, device) for s in spec]
            return spec

        real = op(*[make(s, None) for s in shapes])
        fake = op(*[make(s, "meta") for s in shapes])
        real = real if isinstance(real, tuple) else (real,)
        fake = fake if isinstance(fake, tuple) else (fake,)
        for r, f in zip(real, fake):
            assert f.is_meta and f.shape == r.shape and f.dtype == r.dtype, op


def test_against_pytorch():
    torch = pytest.importorskip("torch")
    for make in (
        lambda t: t.empty(3, 4, device="meta"),
        lambda t: t.empty(3, 4, device="meta").t()[1:],
        lambda t: t.zeros(2, 3, device="meta", dtype=t.int32).sum(1),
        lambda t: t.nn.Linear(3, 2, device="meta").weight,
    ):
        ours, theirs = make(engine), make(torch)
        assert repr(ours) == repr(theirs)
        assert ours.stride() == theirs.stride() and ours.storage_offset() == theirs.storage_offset()
