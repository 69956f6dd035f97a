"""The gradient reducer behind DistributedDataParallel: buckets, hooks, overlapped all-reduce.

Parameters are grouped into buckets (at first in reverse registration order, roughly the order
backward produces their gradients, then, after the first backward, in the order observed; one
dtype per bucket; the first bucket small, so communication starts early). Each bucket owns one
flat tensor. When a parameter's gradient has been accumulated, a post-accumulate-grad hook
copies it into its bucket; when a bucket is complete, a non-blocking
MPI all-reduce of it starts while backward goes on computing the other gradients. A callback
queued on the backward pass waits for every bucket at its end, divides by the world size and
writes the averages back into ``param.grad``.

Buckets are started strictly in index order on every process, so the MPI collectives match
across processes whatever the order in which hooks fire.
"""

import engine
import engine.distributed as dist
from engine.autograd import Variable

# PyTorch's first bucket holds 1 MiB of gradients (dist._DEFAULT_FIRST_BUCKET_BYTES).
FIRST_BUCKET_BYTES = 1024 * 1024

_UNUSED_MESSAGE = (
    "Expected to have finished reduction in the prior iteration before starting a new one. This "
    "error indicates that your module has parameters that were not used in producing loss. You "
    "can enable unused parameter detection by passing the keyword argument "
    "`find_unused_parameters=True` to `torch.nn.parallel.DistributedDataParallel`, and by making "
    "sure all `forward` function outputs participate in calculating loss.\n"
    "Parameters which did not receive grad for rank {rank}: {names}"
)


class _Bucket:
    __slots__ = ("params", "slots", "flat", "views", "ready", "pending", "work")

    def __init__(self, params, slots):
        self.params = params
        self.slots = slots  # indices of the params in the reducer's list
        total = sum(p.numel() for p in params)
        self.flat = engine.zeros(total, dtype=params[0].dtype)
        self.views = []
        offset = 0
        for p in params:
            self.views.append(self.flat[offset : offset + p.numel()].view(p.shape))
            offset += p.numel()
        self.ready = [False] * len(params)
        self.pending = len(params)
        self.work = None


def _bucket_assignment(params, first_cap_bytes, cap_bytes, order=None):
    """Lists of parameter indices, one per bucket, filled in ``order`` (default: reverse
    registration order), one dtype per bucket, the first bucket capped at ``first_cap_bytes``
    and the others at ``cap_bytes`` (a parameter larger than the cap gets a bucket of its own)."""
    buckets = []  # [indices, bytes]
    open_bucket = {}  # dtype -> the bucket still being filled with that dtype
    for index in reversed(range(len(params))) if order is None else order:
        p = params[index]
        nbytes = p.numel() * p.element_size()
        bucket = open_bucket.get(p.dtype)
        if bucket is not None:
            cap = first_cap_bytes if bucket is buckets[0] else cap_bytes
            if bucket[1] + nbytes > cap:
                bucket = None
        if bucket is None:
            bucket = [[], 0]
            buckets.append(bucket)
            open_bucket[p.dtype] = bucket
        bucket[0].append(index)
        bucket[1] += nbytes
    return [indices for indices, _ in buckets]


class Reducer:
    """Averages the gradients of ``params`` over ``process_group`` during backward."""

    def __init__(
        self,
        params,
        names,
        process_group,
        first_bucket_cap_bytes,
        bucket_cap_bytes,
        find_unused_parameters,
        gradient_as_bucket_view,
    ):
        self.params = params
        self.names = names
        self.group = process_group
        self.world_size = dist.get_world_size(process_group)
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.caps = (first_bucket_cap_bytes, bucket_cap_bytes)
        self._build_buckets(None)
        # The order in which gradients became ready in the first synchronised backward: the
        # buckets are then rebuilt in that order (as PyTorch does), so that each fills up as
        # early as the graph allows even when modules are registered in another order.
        self.ready_order = []
        self.rebuilt = False
        self.next_bucket = 0
        self.armed = False
        self.expect_sync = False
        self.unfinished_error = None
        self.handles = [p.register_post_accumulate_grad_hook(self._on_grad_ready) for p in params]

    def _build_buckets(self, order):
        self.buckets = []
        self.where = {}
        for indices in _bucket_assignment(self.params, *self.caps, order=order):
            bucket = _Bucket([self.params[i] for i in indices], indices)
            for position, i in enumerate(indices):
                self.where[id(self.params[i])] = (bucket, position)
            self.buckets.append(bucket)

    def _rebuild_in_ready_order(self):
        seen = set(self.ready_order)
        order = self.ready_order + [i for i in reversed(range(len(self.params))) if i not in seen]
        # Every process must bucket alike: rank 0's order is everyone's.
        shared = [order]
        dist.broadcast_object_list(
            shared, src=dist.get_global_rank(self.group, 0), group=self.group
        )
        order = shared[0]
        if _bucket_assignment(self.params, *self.caps, order=order) != [
            b.slots for b in self.buckets
        ]:
            self._build_buckets(order)
        self.rebuilt = True
        self.ready_order = []

    # ---- during backward ----

    def prepare_for_backward(self, sync):
        """Called by forward: whether the coming backward all-reduces the gradients."""
        if self.unfinished_error is not None:
            message, self.unfinished_error = self.unfinished_error, None
            raise RuntimeError(message)
        self.expect_sync = sync

    def _on_grad_ready(self, param):
        if not self.expect_sync:
            return
        if not self.armed:
            self.armed = True
            Variable._execution_engine.queue_callback(self._finish_backward)
        bucket, position = self.where[id(param)]
        if bucket.ready[position]:
            return
        grad = param.grad
        view = bucket.views[position]
        if grad is not None and grad.data_ptr() != view.data_ptr():
            with engine.no_grad():
                view.copy_(grad)
        elif grad is None:
            view.zero_()
        bucket.ready[position] = True
        if not self.rebuilt:
            self.ready_order.append(bucket.slots[position])
        bucket.pending -= 1
        if bucket.pending == 0:
            self._launch_ready_buckets()
        else:
            self._progress()

    def _launch_ready_buckets(self):
        while self.next_bucket < len(self.buckets) and self.buckets[self.next_bucket].pending == 0:
            bucket = self.buckets[self.next_bucket]
            bucket.work = dist.all_reduce(bucket.flat, group=self.group, async_op=True)
            self.next_bucket += 1
        self._progress()

    def _progress(self):
        # MPI advances non-blocking collectives inside MPI calls: testing the oldest pending
        # one lets the all-reduces move on while backward computes.
        for bucket in self.buckets[: self.next_bucket]:
            if bucket.work is not None and not bucket.work.is_completed():
                break

    # ---- at the end of backward ----

    def _finish_backward(self):
        self.armed = False
        missing = [(b, pos) for b in self.buckets for pos, ready in enumerate(b.ready) if not ready]
        locally_used = None
        if missing and not self.find_unused_parameters:
            names = ", ".join(self.names[b.slots[pos]] for b, pos in missing)
            self.unfinished_error = _UNUSED_MESSAGE.format(rank=dist.get_rank(), names=names)
            self._wait_launched()
            self._reset()
            return
        if self.find_unused_parameters:
            locally_used = engine.ones(len(self.params), dtype=engine.uint8)
            for bucket, pos in missing:
                locally_used[bucket.slots[pos]] = 0
            for bucket, pos in missing:
                bucket.views[pos].zero_()
                bucket.ready[pos] = True
                bucket.pending -= 1
            self._launch_ready_buckets()
            dist.all_reduce(locally_used, op=dist.ReduceOp.MAX, group=self.group)
            locally_used = locally_used.tolist()
        self._wait_launched()
        for bucket in self.buckets:
            bucket.flat.div_(self.world_size)
            for position, (param, view) in enumerate(zip(bucket.params, bucket.views)):
                if locally_used is not None and not locally_used[bucket.slots[position]]:
                    continue  # no process used this parameter: its gradient stays as it was
                self._write_grad(param, view)
        self._reset()
        if not self.rebuilt:
            self._rebuild_in_ready_order()

    def _wait_launched(self):
        for bucket in self.buckets[: self.next_bucket]:
            bucket.work.wait()
            bucket.work = None

    def _write_grad(self, param, view):
        grad = param.grad
        if grad is not None and grad.data_ptr() == view.data_ptr():
            return
        with engine.no_grad():
            if self.gradient_as_bucket_view:
                param.grad = view
            elif grad is None:
                param.grad = view.clone()
            else:
                grad.copy_(view)

    def _reset(self):
        for bucket in self.buckets:
            bucket.ready = [False] * len(bucket.params)
            bucket.pending = len(bucket.params)
        self.next_bucket = 0

    def remove_hooks(self):
        for handle in self.handles:
            handle.remove()
        self.handles = []
