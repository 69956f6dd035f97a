"""``engine.nn.parallel``: data-parallel training over engine.distributed, and DataParallel
(which on engine's CPU runs the wrapped module, as PyTorch's does without an accelerator)."""

from engine.nn.parallel.data_parallel import DataParallel
from engine.nn.parallel.distributed import DistributedDataParallel

__all__ = ["DataParallel", "DistributedDataParallel"]
