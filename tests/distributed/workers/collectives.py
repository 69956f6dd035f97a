"""Collectives on 2+ processes, checked on every rank against NumPy (run by
test_distributed_collectives.py through the launcher)."""

import sys

import engine
import engine.distributed as dist
import numpy as np
from report import run_checks


def rank():
    return dist.get_rank()


def size():
    return dist.get_world_size()


def expect_error(kind, text, function, *args, **kwargs):
    try:
        function(*args, **kwargs)
    except kind as error:
        assert text in str(error), f"message {str(error)!r} lacks {text!r}"
        return
    raise AssertionError(f"{function.__name__} raised no {kind.__name__}")


def values(r, n=6, dtype=engine.float64):
    """Rank r's distinct input: (r + 1) * [1, 2, ..., n] / 4."""
    return (engine.arange(1, n + 1, dtype=engine.float64) * (r + 1) / 4).to(dtype)


def all_values(n=6):
    return np.stack([values(r, n).numpy() for r in range(size())])


def check_state():
    assert dist.is_initialized()
    assert dist.get_backend() == "mpi"
    assert dist.group.WORLD is not None and dist.GroupMember.WORLD is dist.group.WORLD
    assert dist.get_world_size() == size() >= 2
    assert 0 <= rank() < size()
    assert dist.get_process_group_ranks(dist.group.WORLD) == list(range(size()))
    expect_error(ValueError, "twice", dist.init_process_group, "mpi")


def check_all_reduce_ops():
    every = all_values()
    expected = {
        dist.ReduceOp.SUM: every.sum(0),
        dist.ReduceOp.AVG: every.mean(0),
        dist.ReduceOp.MAX: every.max(0),
        dist.ReduceOp.MIN: every.min(0),
        dist.ReduceOp.PRODUCT: every.prod(0),
    }
    for dtype in (engine.float32, engine.float64):
        for op, want in expected.items():
            t = values(rank(), dtype=dtype)
            dist.all_reduce(t, op=op)
            np.testing.assert_allclose(t.numpy(), want, rtol=1e-6, err_msg=str(op))
            assert t.dtype == dtype
    t = values(rank())
    dist.all_reduce(t, dist.ReduceOp(dist.ReduceOp.MAX))
    np.testing.assert_allclose(t.numpy(), every.max(0))


def check_all_reduce_integers_and_bool():
    t = engine.tensor([rank() + 1, 10 * rank(), -3], dtype=engine.int64)
    dist.all_reduce(t)
    n = size()
    assert t.tolist() == [n * (n + 1) // 2, 10 * n * (n - 1) // 2, -3 * n]
    t = engine.tensor([0b1100 | rank(), 0b1010], dtype=engine.int32)
    dist.all_reduce(t, op=dist.ReduceOp.BAND)
    assert t.tolist() == [0b1100, 0b1010]
    b = engine.tensor([rank() == 0, True, False])
    dist.all_reduce(b, op=dist.ReduceOp.MAX)
    assert b.tolist() == [True, True, False]
    expect_error(
        RuntimeError,
        "result type Float can't be cast to the desired output type Long",
        dist.all_reduce,
        engine.ones(2, dtype=engine.int64),
        op=dist.ReduceOp.AVG,
    )
    expect_error(ValueError, "BAND", dist.all_reduce, engine.ones(2), op=dist.ReduceOp.BAND)


def check_all_reduce_in_place_without_copy():
    base = engine.zeros(4, 6, dtype=engine.float64)
    row = base[1]  # a contiguous view into base
    row.copy_(values(rank()))
    address = row.data_ptr()
    dist.all_reduce(row)
    assert row.data_ptr() == address
    np.testing.assert_allclose(base[1].numpy(), all_values().sum(0))
    assert float(base[0].abs().sum()) == 0 and float(base[2:].abs().sum()) == 0


def check_all_reduce_non_contiguous():
    base = engine.zeros(6, 3, dtype=engine.float64)
    base[:, 1] = values(rank())
    column = base[:, 1]
    assert not column.is_contiguous()
    dist.all_reduce(column)
    np.testing.assert_allclose(base[:, 1].numpy(), all_values().sum(0))
    assert float(base[:, 0].abs().sum()) == 0 and float(base[:, 2].abs().sum()) == 0


def check_all_reduce_half_precision():
    for dtype in (engine.float16, engine.bfloat16):
        t = values(rank(), dtype=dtype)
        dist.all_reduce(t, op=dist.ReduceOp.AVG)
        assert t.dtype == dtype
        np.testing.assert_allclose(t.float().numpy(), all_values().mean(0), rtol=1e-2)


def check_all_reduce_on_leaf_requiring_grad_and_odd_shapes():
    w = values(rank()).requires_grad_()
    dist.all_reduce(w)
    assert w.requires_grad
    np.testing.assert_allclose(w.detach().numpy(), all_values().sum(0))
    scalar = engine.tensor(float(rank() + 1))
    dist.all_reduce(scalar)
    assert scalar.shape == () and float(scalar) == size() * (size() + 1) / 2
    empty = engine.zeros(0, 3)
    dist.all_reduce(empty)
    assert empty.shape == (0, 3)


def check_async_all_reduce():
    t = values(rank())
    work = dist.all_reduce(t, async_op=True)
    assert isinstance(work, dist.Work)
    assert work.wait() is True
    assert work.is_completed() and work.is_success()
    assert work.result()[0] is t
    np.testing.assert_allclose(t.numpy(), all_values().sum(0))
    column = engine.zeros(6, 2, dtype=engine.float64)
    column[:, 0] = values(rank())
    work = dist.all_reduce(column[:, 0], op=dist.ReduceOp.AVG, async_op=True)
    work.wait()
    np.testing.assert_allclose(column[:, 0].numpy(), all_values().mean(0))
    assert dist.all_reduce(engine.ones(1)) is None


def check_broadcast():
    src = size() - 1
    for dtype in (engine.float32, engine.int64, engine.bfloat16, engine.bool):
        t = (values(rank()) * 4).to(dtype)
        dist.broadcast(t, src=src)
        assert t.tolist() == (values(src) * 4).to(dtype).tolist(), dtype
    base = engine.zeros(6, 2)
    base[:, 1] = values(rank()).float()
    work = dist.broadcast(base[:, 1], src=0, async_op=True)
    work.wait()
    np.testing.assert_allclose(base[:, 1].numpy(), values(0).numpy())
    assert float(base[:, 0].abs().sum()) == 0
    t = values(rank())
    dist.broadcast(t, group_src=1)
    np.testing.assert_allclose(t.numpy(), values(1).numpy())


def check_argument_errors():
    expect_error(
        TypeError, "Expected parameter `tensor` of type torch.Tensor", dist.all_reduce, [1.0]
    )
    expect_error(TypeError, "ReduceOp", dist.all_reduce, engine.ones(2), op="sum")
    expect_error(
        ValueError, "Must specify global_rank or group_rank", dist.broadcast, engine.ones(2)
    )
    expect_error(RuntimeError, "invalid root rank: 5", dist.broadcast, engine.ones(2), src=5)
    expect_error(RuntimeError, "invalid root rank: -1", dist.broadcast, engine.ones(2), src=-1)
    expect_error(ValueError, "Can't specify both", dist.broadcast, engine.ones(2), 0, group_src=0)
    expect_error(
        TypeError,
        "Expected parameter `tensor_list` of type List[torch.Tensor]",
        dist.all_gather,
        engine.ones(2),
        engine.ones(2),
    )
    expect_error(
        RuntimeError,
        "number of output tensors should equal to the world size",
        dist.all_gather,
        [engine.zeros(2)],
        engine.ones(2),
    )
    expect_error(
        RuntimeError,
        "Tensors are not equal in size or data type",
        dist.all_gather,
        [engine.zeros(3) for _ in range(size())],
        engine.ones(2),
    )
    expect_error(
        ValueError,
        "destination rank should not be the same as the rank of the current process",
        dist.send,
        engine.ones(2),
        dst=rank(),
    )
    expect_error(
        RuntimeError,
        "world_size times",
        dist.all_gather_into_tensor,
        engine.zeros(3),
        engine.ones(2),
    )
    expect_error(
        RuntimeError,
        "world_size times",
        dist.reduce_scatter_tensor,
        engine.zeros(3),
        engine.ones(2),
    )
    expect_error(RuntimeError, "invalid destination rank: 7", dist.send, engine.ones(2), dst=7)
    expect_error(
        ValueError, "tag must be in", dist.send, engine.ones(2), dst=(rank() + 1) % size(), tag=-1
    )
    expect_error(
        ValueError,
        "tag must be in",
        dist.recv,
        engine.ones(2),
        src=(rank() + 1) % size(),
        tag=2**62,
    )


def check_all_gather():
    outputs = [engine.full((2, 3), -1.0) for _ in range(size())]
    dist.all_gather(outputs, values(rank()).reshape(2, 3).float())
    for r, out in enumerate(outputs):
        np.testing.assert_allclose(out.numpy(), values(r).reshape(2, 3).numpy())
    out = engine.zeros(size() * 2, 3, dtype=engine.float64)
    address = out.data_ptr()
    dist.all_gather_into_tensor(out, values(rank()).reshape(2, 3))
    assert out.data_ptr() == address
    np.testing.assert_allclose(out.numpy(), all_values().reshape(size() * 2, 3))
    stacked = engine.zeros(size(), 6, dtype=engine.float64)
    dist.all_gather_into_tensor(stacked, values(rank()), async_op=True).wait()
    np.testing.assert_allclose(stacked.numpy(), all_values())
    objects = [None] * size()
    dist.all_gather_object(objects, {"rank": rank()})
    assert objects == [{"rank": r} for r in range(size())]


def check_reduce_scatter():
    n = size()
    full = engine.arange(n * 3, dtype=engine.float64) * (rank() + 1)
    out = engine.zeros(3, dtype=engine.float64)
    dist.reduce_scatter_tensor(out, full)
    total = sum(r + 1 for r in range(n))
    np.testing.assert_allclose(out.numpy(), np.arange(n * 3)[rank() * 3 : rank() * 3 + 3] * total)
    out = engine.zeros(3, dtype=engine.float64)
    dist.reduce_scatter_tensor(out, full, op=dist.ReduceOp.AVG, async_op=True).wait()
    np.testing.assert_allclose(
        out.numpy(), np.arange(n * 3)[rank() * 3 : rank() * 3 + 3] * total / n
    )
    out = engine.zeros(2)
    dist.reduce_scatter(out, [engine.ones(2) * (i + 10 * rank()) for i in range(n)])
    np.testing.assert_allclose(out.numpy(), [rank() * n + 10 * sum(range(n))] * 2)


def check_reduce():
    dst = size() - 1
    t = values(rank())
    dist.reduce(t, dst=dst)
    want = all_values().sum(0) if rank() == dst else values(rank()).numpy()
    np.testing.assert_allclose(t.numpy(), want)
    t = values(rank())
    dist.reduce(t, dst=0, op=dist.ReduceOp.MAX, async_op=True).wait()
    want = all_values().max(0) if rank() == 0 else values(rank()).numpy()
    np.testing.assert_allclose(t.numpy(), want)


def check_gather_and_scatter():
    dst = size() - 1
    gathered = (
        [engine.zeros(6, dtype=engine.float64) for _ in range(size())] if rank() == dst else None
    )
    dist.gather(values(rank()), gathered, dst=dst)
    if rank() == dst:
        np.testing.assert_allclose(np.stack([g.numpy() for g in gathered]), all_values())
    out = engine.zeros(6, dtype=engine.float64)
    pieces = [values(r) for r in range(size())] if rank() == 0 else None
    dist.scatter(out, pieces, src=0)
    np.testing.assert_allclose(out.numpy(), values(rank()).numpy())
    if rank() == 0:
        expect_error(
            ValueError,
            "``scatter_list`` must be specified on source rank",
            dist.scatter,
            out,
            None,
            src=0,
        )
        expect_error(
            ValueError,
            "``gather_list`` must be specified on destination rank",
            dist.gather,
            out,
            None,
            dst=0,
        )


def check_send_recv():
    if rank() == 0:
        dist.send(values(0), dst=1)
        dist.send(engine.tensor([7, 8], dtype=engine.int32), dst=1, tag=3)
        work = dist.isend(engine.ones(3, dtype=engine.bfloat16) * 2, dst=1)
        work.wait()
    elif rank() == 1:
        t = engine.zeros(6, dtype=engine.float64)
        assert dist.recv(t, src=0) == 0
        np.testing.assert_allclose(t.numpy(), values(0).numpy())
        t = engine.zeros(2, dtype=engine.int32)
        assert dist.recv(t, tag=3) == 0  # any source
        assert t.tolist() == [7, 8]
        t = engine.zeros(3, dtype=engine.bfloat16)
        work = dist.irecv(t, src=0)
        work.wait()
        assert t.float().tolist() == [2.0, 2.0, 2.0]


def check_barrier_and_objects():
    dist.barrier()
    dist.barrier(async_op=True).wait()
    objects = [{"from": rank()}, rank()]
    dist.broadcast_object_list(objects, src=1)
    assert objects == [{"from": 1}, 1]


def check_new_group():
    solo = dist.new_group([0])
    if rank() == 0:
        assert dist.get_world_size(solo) == 1 and dist.get_rank(solo) == 0
        t = engine.ones(2)
        dist.all_reduce(t, group=solo)
        assert t.tolist() == [1.0, 1.0]
    else:
        assert solo == dist.GroupMember.NON_GROUP_MEMBER
        assert dist.get_rank(solo) == -1
        assert dist.all_reduce(engine.ones(2), group=solo) is None
    everyone = dist.new_group(list(reversed(range(size()))))
    assert dist.get_process_group_ranks(everyone) == list(range(size()))
    t = values(rank())
    dist.all_reduce(t, group=everyone)
    np.testing.assert_allclose(t.numpy(), all_values().sum(0))
    dist.destroy_process_group(everyone)
    expect_error(
        ValueError, "world size should be less or equal", dist.new_group, list(range(size() + 1))
    )


def check_non_contiguous_outputs():
    # Outputs that are strided views go through a contiguous temporary copied back into them.
    base = engine.zeros(6, 3, dtype=engine.float64)
    dist.scatter(base[:, 2], [values(r) for r in range(size())] if rank() == 0 else None, src=0)
    np.testing.assert_allclose(base[:, 2].numpy(), values(rank()).numpy())
    assert float(base[:, :2].abs().sum()) == 0
    out = engine.zeros(6, size(), dtype=engine.float64)
    dist.all_gather_into_tensor(out.t(), values(rank()))
    np.testing.assert_allclose(out.numpy(), all_values().T)
    out = engine.zeros(3, 2, dtype=engine.float64)
    dist.reduce_scatter_tensor(out[:, 1], engine.arange(3.0 * size(), dtype=engine.float64))
    want = np.arange(3.0 * size())[rank() * 3 : rank() * 3 + 3] * size()
    np.testing.assert_allclose(out[:, 1].numpy(), want)
    assert float(out[:, 0].abs().sum()) == 0
    if rank() == 0:
        dist.send(values(0)[::2], dst=1)
    elif rank() == 1:
        column = engine.zeros(3, 2, dtype=engine.float64)
        dist.recv(column[:, 0], src=0)
        np.testing.assert_allclose(column[:, 0].numpy(), values(0).numpy()[::2])
        assert float(column[:, 1].abs().sum()) == 0


def check_all_to_all():
    n, r = size(), rank()
    # equal parts: rank r sends 10 * r + i to rank i (one row of 2 each)
    send = engine.tensor([[10.0 * r + i] * 2 for i in range(n)])
    out = engine.zeros(n, 2)
    dist.all_to_all_single(out, send)
    assert out.tolist() == [[10.0 * j + r] * 2 for j in range(n)]
    # uneven parts: rank r sends i + 1 copies of r to rank i
    send = engine.cat([engine.full((i + 1,), float(r)) for i in range(n)])
    out = engine.zeros(n * (r + 1))
    work = dist.all_to_all_single(out, send, [r + 1] * n, [i + 1 for i in range(n)], async_op=True)
    work.wait()
    assert out.tolist() == [float(j) for j in range(n) for _ in range(r + 1)]
    outputs = [engine.zeros(j + 1, dtype=engine.int64) for j in range(n)]
    dist.all_to_all(outputs, [engine.full((r + 1,), 100 * r + i) for i in range(n)])
    assert [o.tolist() for o in outputs] == [[100 * j + r] * (j + 1) for j in range(n)]
    expect_error(
        RuntimeError,
        "does not divide equally",
        dist.all_to_all_single,
        engine.zeros(3),
        engine.zeros(3),
    )
    expect_error(
        RuntimeError,
        "add up to",
        dist.all_to_all_single,
        engine.zeros(4),
        engine.zeros(4),
        None,
        [5] * n,
    )


def check_destroy_and_init_again():
    dist.destroy_process_group()
    assert not dist.is_initialized() and dist.group.WORLD is None
    expect_error(ValueError, "Default process group has not been initialized", dist.get_rank)
    expect_error(AssertionError, "Process group cannot be None", dist.destroy_process_group)
    dist.init_process_group("gloo")  # PyTorch's CPU backend name runs over MPI
    t = values(rank())
    dist.all_reduce(t)
    np.testing.assert_allclose(t.numpy(), all_values().sum(0))


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    run_checks(dict(globals()))
