"""``DistributedSampler``: each process of a data-parallel job visits its own share of a
dataset, as ``torch.utils.data.distributed.DistributedSampler``."""

import math

from engine.utils.data._random import new_generator, randperm
from engine.utils.data.sampler import Sampler

__all__ = ["DistributedSampler"]


class DistributedSampler(Sampler):
    """Restricts a map-style dataset to the indices of one process (rank) out of
    ``num_replicas``.

    Every epoch, the indices are shuffled (when ``shuffle``) with a generator seeded with
    ``seed + epoch`` (PyTorch's order, so the same on every process), padded by repeating the
    first indices until they divide evenly (or, with ``drop_last``, cut to a multiple of
    ``num_replicas``), and rank ``r`` takes every ``num_replicas``-th index starting at ``r``.
    Call :meth:`set_epoch` at the start of each epoch to get a new order.

    ``num_replicas`` and ``rank`` default to the world size and rank of the default process
    group (see :mod:`engine.distributed`).

    Example::

        >>> sampler = DistributedSampler(dataset)
        >>> loader = DataLoader(dataset, batch_size=32, sampler=sampler)
        >>> for epoch in range(epochs):
        ...     sampler.set_epoch(epoch)
        ...     for batch in loader:
        ...         ...
    """

    def __init__(
        self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False
    ):
        if num_replicas is None or rank is None:
            import engine.distributed as dist

            if not dist.is_available():
                raise RuntimeError("Requires distributed package to be available")
            if num_replicas is None:
                num_replicas = dist.get_world_size()
            if rank is None:
                rank = dist.get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(
                f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]"
            )
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        length = len(dataset)
        if drop_last and length % num_replicas != 0:
            # Cut to the largest multiple of num_replicas, so every rank gets the same count.
            self.num_samples = math.ceil((length - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(length / num_replicas)
        self.total_size = self.num_samples * self.num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self):
        length = len(self.dataset)
        if self.shuffle:
            indices = randperm(length, new_generator(self.seed + self.epoch))
        else:
            indices = list(range(length))
        if not self.drop_last:
            padding = self.total_size - len(indices)
            if padding <= len(indices):
                indices += indices[:padding]
            else:
                indices += (indices * math.ceil(padding / len(indices)))[:padding]
        else:
            indices = indices[: self.total_size]
        return iter(indices[self.rank : self.total_size : self.num_replicas])

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        """Sets the epoch, which seeds the shuffle: call it before each epoch so that the order
        changes (and stays the same on every process)."""
        self.epoch = epoch
