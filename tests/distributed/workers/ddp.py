"""DistributedDataParallel on 2+ processes: after each step the parameters equal those of one
process trained on the whole batch (run by test_distributed_ddp.py through the launcher)."""

import sys

import engine
import engine.distributed as dist
import engine.nn as nn
import numpy as np
from engine.nn.parallel import DistributedDataParallel as DDP
from report import run_checks

BATCH = 12


def rank():
    return dist.get_rank()


def size():
    return dist.get_world_size()


def make_model(seed, widths=(5, 16, 16, 3)):
    engine.manual_seed(seed)
    layers = []
    for a, b in zip(widths[:-1], widths[1:]):
        layers += [nn.Linear(a, b), nn.Tanh()]
    return nn.Sequential(*layers[:-1]).double()


def data(step):
    g = engine.Generator()
    g.manual_seed(100 + step)
    x = engine.randn(BATCH, 5, generator=g, dtype=engine.float64)
    y = engine.randn(BATCH, 3, generator=g, dtype=engine.float64)
    return x, y


def shard(t):
    per = t.shape[0] // size()
    return t[rank() * per : (rank() + 1) * per]


def loss_fn(out, y):
    return ((out - y) ** 2).mean()


def assert_same_parameters(a, b, atol=1e-12):
    for (name, p), q in zip(a.named_parameters(), b.parameters()):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), atol=atol, err_msg=name)


def train_pair(ddp_kwargs, optimizer, steps=3):
    reference = make_model(0)
    local = make_model(1 + rank())  # a different start on every rank: DDP broadcasts rank 0's
    if rank() == 0:
        local.load_state_dict(reference.state_dict())
    model = DDP(local, **ddp_kwargs)
    assert_same_parameters(local, reference)
    opt, ref_opt = optimizer(model.parameters()), optimizer(reference.parameters())
    for step in range(steps):
        x, y = data(step)
        opt.zero_grad()
        loss_fn(model(shard(x)), shard(y)).backward()
        opt.step()
        ref_opt.zero_grad()
        loss_fn(reference(x), y).backward()
        ref_opt.step()
        assert_same_parameters(local, reference)
    return model, reference


def check_matches_one_process_sgd():
    train_pair({}, lambda p: engine.optim.SGD(p, lr=0.1, momentum=0.9))


def check_matches_one_process_adam_many_buckets():
    model, _ = train_pair({"bucket_cap_mb": 0.0005}, lambda p: engine.optim.Adam(p, lr=0.01))
    assert len(model.reducer.buckets) > 2


def check_gradient_as_bucket_view():
    model, _ = train_pair(
        {"gradient_as_bucket_view": True, "bucket_cap_mb": 0.001},
        lambda p: engine.optim.SGD(p, lr=0.05),
    )
    views = {v.data_ptr() for b in model.reducer.buckets for v in b.views}
    assert all(p.grad.data_ptr() in views for p in model.parameters())


def check_all_reduce_overlaps_backward():
    # With several buckets, the buckets of the last layers are already being all-reduced when
    # backward reaches the first layer.
    model = DDP(make_model(0), bucket_cap_mb=0.0005)
    seen = []
    first = model.module[0].weight
    first.register_hook(lambda grad: seen.append(model.reducer.next_bucket))
    x, y = data(0)
    loss_fn(model(shard(x)), shard(y)).backward()
    assert seen and seen[0] >= 1, seen
    assert model.reducer.next_bucket == 0  # all finished and reset at the end of backward


class RegisteredBackwards(nn.Module):
    # Registered a, b, c but run c -> b -> a: backward produces a's gradients first, the
    # opposite of the reverse-registration order the first buckets assume.
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(16, 3).double()
        self.b = nn.Linear(16, 16).double()
        self.c = nn.Linear(5, 16).double()

    def forward(self, x):
        return self.a(self.b(self.c(x).tanh()).tanh())


def check_buckets_rebuilt_in_gradient_order():
    engine.manual_seed(0)
    reference = RegisteredBackwards()
    model = DDP(RegisteredBackwards(), bucket_cap_mb=0.0005)
    model.module.load_state_dict(reference.state_dict())
    first_bucket = model.reducer.buckets[0].params[0]
    assert first_bucket is model.module.c.bias  # before any backward: reverse registration
    opt = engine.optim.SGD(model.parameters(), lr=0.1)
    ref_opt = engine.optim.SGD(reference.parameters(), lr=0.1)
    seen = []
    model.module.c.weight.register_hook(lambda g: seen.append(model.reducer.next_bucket))
    for step in range(3):
        x, y = data(step)
        opt.zero_grad()
        loss_fn(model(shard(x)), shard(y)).backward()
        opt.step()
        ref_opt.zero_grad()
        loss_fn(reference(x), y).backward()
        ref_opt.step()
        assert_same_parameters(model.module, reference)
    assert model.reducer.rebuilt
    assert {id(p) for p in model.reducer.buckets[0].params} <= {
        id(p) for p in model.module.a.parameters()
    }
    # once rebuilt, the buckets of a and b are on the wire before c's gradient exists
    assert seen[0] < seen[-1], seen


def check_no_sync_accumulates_then_averages():
    reference = make_model(0)
    model = DDP(make_model(0))
    x, y = data(0)
    half = BATCH // 2
    with model.no_sync():
        loss_fn(model(shard(x[:half])), shard(y[:half])).backward()
    grads_local = [p.grad.clone() for p in model.parameters()]
    loss_fn(model(shard(x[half:])), shard(y[half:])).backward()
    loss_fn(reference(x[:half]), y[:half]).backward()
    loss_fn(reference(x[half:]), y[half:]).backward()
    for p, q in zip(model.parameters(), reference.parameters()):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), atol=1e-12)
    # inside no_sync the gradients were this rank's own
    other = engine.zeros_like(grads_local[0])
    dist.all_reduce(other.copy_(grads_local[0]))
    assert not np.allclose(grads_local[0].numpy() * size(), other.numpy())


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4).double()
        self.used = nn.Linear(4, 2).double()
        self.unused = nn.Linear(4, 2).double()

    def forward(self, x):
        return self.used(self.body(x))


def check_find_unused_parameters():
    engine.manual_seed(0)
    model = DDP(TwoHeads(), find_unused_parameters=True)
    x = engine.randn(4, 4, dtype=engine.float64) * (rank() + 1)
    model(x).sum().backward()
    assert model.module.unused.weight.grad is None
    g = model.module.used.weight.grad.clone()
    total = g.clone()
    dist.all_reduce(total)
    np.testing.assert_allclose(g.numpy() * size(), total.numpy())


def check_unused_parameters_without_detection_raise():
    engine.manual_seed(0)
    model = DDP(TwoHeads())
    x = engine.randn(4, 4, dtype=engine.float64)
    model(x).sum().backward()
    try:
        model(x)
    except RuntimeError as error:
        message = str(error)
        assert "Expected to have finished reduction in the prior iteration" in message
        assert "unused.weight" in message
    else:
        raise AssertionError("no error for parameters that received no gradient")


def check_buffers_broadcast_and_state_dict():
    engine.manual_seed(rank())
    net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    model = DDP(net)
    model(engine.randn(8, 3) * (rank() + 1))
    stats = net[1].running_mean.clone()
    everyone = [engine.zeros_like(stats) for _ in range(size())]
    dist.all_gather(everyone, stats)
    assert not np.allclose(everyone[0].numpy(), everyone[1].numpy())  # each rank's own data
    # the next forward starts by broadcasting rank 0's statistics (eval: no update after it)
    net.eval()
    model(engine.randn(8, 3))
    np.testing.assert_array_equal(net[1].running_mean.numpy(), everyone[0].numpy())
    keys = list(model.state_dict())
    assert keys[0] == "module.0.weight" and "module.1.running_mean" in keys, keys
    plain = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    plain.load_state_dict({k[len("module.") :]: v for k, v in model.state_dict().items()})
    assert model.module is net


def check_constructor_errors():
    for kwargs, kind in (({"device_ids": [0]}, ValueError), ({"bucket_cap_mb": -1}, ValueError)):
        try:
            DDP(nn.Linear(2, 2), **kwargs)
        except kind:
            pass
        else:
            raise AssertionError(f"DDP(..., **{kwargs}) did not raise")
    frozen = nn.Linear(2, 2).requires_grad_(False)
    try:
        DDP(frozen)
    except RuntimeError as error:
        assert "doesn't have any parameter that requires a gradient" in str(error)
    else:
        raise AssertionError("DDP of a frozen module did not raise")


def check_training_with_sampler_and_loader_matches_one_process():
    # The whole recipe: DistributedSampler + DataLoader + DDP + optimizer, two epochs. Each step's
    # global batch is the union of the ranks' batches; one process trained on those samples
    # must end with the same parameters.
    from engine.utils.data import DataLoader, DistributedSampler, TensorDataset

    g = engine.Generator()
    g.manual_seed(7)
    inputs = engine.randn(22, 5, generator=g, dtype=engine.float64)
    targets = engine.randn(22, 3, generator=g, dtype=engine.float64)
    dataset = TensorDataset(inputs, targets, engine.arange(22))
    sampler = DistributedSampler(dataset, seed=3)
    loader = DataLoader(dataset, batch_size=4, sampler=sampler)
    model = DDP(make_model(0))
    reference = make_model(0)
    opt = engine.optim.SGD(model.parameters(), lr=0.1)
    ref_opt = engine.optim.SGD(reference.parameters(), lr=0.1)
    for epoch in range(2):
        sampler.set_epoch(epoch)
        for x, y, index in loader:
            opt.zero_grad()
            loss_fn(model(x), y).backward()
            opt.step()
            everyone = [None] * size()
            dist.all_gather_object(everyone, index.tolist())
            chosen = engine.tensor([i for part in everyone for i in part])
            ref_opt.zero_grad()
            loss_fn(reference(inputs[chosen]), targets[chosen]).backward()
            ref_opt.step()
    assert_same_parameters(model.module, reference)


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    run_checks(dict(globals()))
