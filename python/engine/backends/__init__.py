"""``engine.backends``: the flags and queries PyTorch scripts read (``backends.mps.is_available()``,
``backends.cudnn.benchmark = True``). engine computes on the CPU: every accelerator reports
unavailable, and the cuDNN flags are kept but change nothing."""

from engine.backends import cuda, cudnn, mps

__all__ = ["cuda", "cudnn", "mps"]
