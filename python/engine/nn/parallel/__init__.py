"""``engine.nn.parallel``: data-parallel training over engine.distributed."""

from engine.nn.parallel.distributed import DistributedDataParallel

__all__ = ["DistributedDataParallel"]
