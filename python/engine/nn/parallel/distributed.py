"""``DistributedDataParallel``: data-parallel training of a module over engine.distributed."""

import contextlib

import engine
import engine.distributed as dist
from engine.distributed._process_group import resolve
from engine.nn.modules.module import Module
from engine.nn.parallel._reducer import FIRST_BUCKET_BYTES, Reducer

__all__ = ["DistributedDataParallel"]


def _broadcast_coalesced(tensors, group, src):
    """Broadcasts ``tensors`` from global rank ``src``: one message per dtype, not per tensor."""
    by_dtype = {}
    for t in tensors:
        by_dtype.setdefault(t.dtype, []).append(t)
    with engine.no_grad():
        for same_dtype in by_dtype.values():
            flat = engine.cat([t.detach().reshape(-1) for t in same_dtype])
            dist.broadcast(flat, src=src, group=group)
            offset = 0
            for t in same_dtype:
                t.detach().copy_(flat[offset : offset + t.numel()].view(t.shape))
                offset += t.numel()


class DistributedDataParallel(Module):
    """Data-parallel training: each process runs ``module`` on its share of the batch, and the
    gradients are averaged over the processes during backward, so that after
    ``optimizer.step()`` every process holds the parameters one process would have computed on
    the whole batch.

    At construction the parameters and buffers of rank 0 are broadcast to all processes. During
    backward, gradients are copied into buckets (``bucket_cap_mb`` MiB each) and every bucket is
    all-reduced with non-blocking MPI as soon as it is complete, while backward computes the rest;
    the end of backward waits for them and writes the averages into ``param.grad``. After the
    first backward the buckets are rebuilt in the order the gradients became ready (rank 0's), so
    that they fill as early as the graph allows.

    Args:
        module: the module to replicate (parameters on the CPU).
        device_ids, output_device: for GPU modules in PyTorch; must be None here.
        broadcast_buffers: broadcast rank 0's buffers (e.g. batch-norm statistics) before each
            forward (default True).
        process_group: the group to average over (default: the default group).
        bucket_cap_mb: bucket size in MiB (default 25, and then the first bucket holds 1 MiB).
        find_unused_parameters: allow parameters that get no gradient in a backward pass (they
            contribute zeros; a parameter no process used keeps its gradient unchanged).
        gradient_as_bucket_view: leave ``param.grad`` as views into the buckets after the first
            step, which saves a copy per step.
        init_sync: broadcast rank 0's parameters and buffers at construction (default True).

    The other arguments of PyTorch's signature are accepted and have no effect on the CPU.

    Example::

        >>> dist.init_process_group("mpi")
        >>> model = DistributedDataParallel(engine.nn.Linear(10, 1))
        >>> loss = model(x_shard).pow(2).mean()
        >>> loss.backward()  # gradients are now averaged over the processes
        >>> optimizer.step()
    """

    def __init__(
        self,
        module,
        device_ids=None,
        output_device=None,
        dim=0,
        broadcast_buffers=True,
        init_sync=True,
        process_group=None,
        bucket_cap_mb=None,
        find_unused_parameters=False,
        check_reduction=False,
        gradient_as_bucket_view=False,
        static_graph=False,
        delay_all_reduce_named_params=None,
        param_to_hook_all_reduce=None,
        mixed_precision=None,
        device_mesh=None,
        skip_all_reduce_unused_params=False,
        bucket_cap_mb_list=None,
        batched_grad_copy=False,
        forward_sync_buffers=None,
    ):
        super().__init__()
        if not isinstance(module, Module):
            raise TypeError(
                f"DistributedDataParallel: module must be an nn.Module, got {type(module).__name__}"
            )
        pg = resolve(process_group)
        if device_ids or output_device is not None:
            raise ValueError(
                "DistributedDataParallel device_ids and output_device arguments only work with "
                "single-device/multiple-device GPU modules or CPU modules, but got device_ids "
                f"{device_ids}, output_device {output_device}, and module parameters "
                "{device(type='cpu')}."
            )
        named = [(n, p) for n, p in module.named_parameters() if p.requires_grad]
        if not named:
            raise RuntimeError(
                "DistributedDataParallel is not needed when a module doesn't have any parameter "
                "that requires a gradient."
            )
        # As PyTorch: with the default cap the first bucket holds only 1 MiB, so that the first
        # all-reduce starts early; an explicit cap applies to every bucket.
        first_bucket_bytes = FIRST_BUCKET_BYTES if bucket_cap_mb is None else None
        if bucket_cap_mb is None:
            bucket_cap_mb = 25
        if not isinstance(bucket_cap_mb, (int, float)) or bucket_cap_mb <= 0:
            raise ValueError(
                f"DistributedDataParallel: bucket_cap_mb must be a positive number, got {bucket_cap_mb!r}"
            )
        self.module = module
        self.process_group = pg
        self.device_ids = None
        self.output_device = None
        self.dim = dim
        self.broadcast_buffers = True if broadcast_buffers is None else bool(broadcast_buffers)
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.static_graph = static_graph
        self.bucket_bytes_cap = int(bucket_cap_mb * 1024 * 1024)
        if first_bucket_bytes is None:
            first_bucket_bytes = self.bucket_bytes_cap
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        self._source_rank = dist.get_global_rank(pg, 0) if pg is not dist.group.WORLD else 0
        if init_sync:
            states = [p for p in module.parameters()] + [b for b in module.buffers()]
            if states:
                _broadcast_coalesced(states, pg, self._source_rank)
        object.__setattr__(
            self,
            "reducer",
            Reducer(
                [p for _, p in named],
                [n for n, _ in named],
                pg,
                first_bucket_bytes,
                self.bucket_bytes_cap,
                find_unused_parameters,
                gradient_as_bucket_view,
            ),
        )

    def forward(self, *inputs, **kwargs):
        """Runs the wrapped module (after broadcasting rank 0's buffers, when asked to)."""
        if engine.is_grad_enabled():
            self.reducer.prepare_for_backward(self.require_backward_grad_sync)
        if self.broadcast_buffers and self.require_forward_param_sync:
            buffers = list(self.module.buffers())
            if buffers:
                _broadcast_coalesced(buffers, self.process_group, self._source_rank)
        return self.module(*inputs, **kwargs)

    @contextlib.contextmanager
    def no_sync(self):
        """A context in which backward accumulates gradients locally without averaging them;
        the first backward after it averages everything accumulated (gradient accumulation).

        Example::

            >>> with ddp.no_sync():
            ...     ddp(x1).sum().backward()  # no communication
            >>> ddp(x2).sum().backward()  # averages the sum of both steps' gradients
        """
        previous = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = previous

    def will_sync_module_buffers(self):
        """True when forward broadcasts the module's buffers."""
        return self.broadcast_buffers and any(True for _ in self.module.buffers())
