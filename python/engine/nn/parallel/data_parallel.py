"""``engine.nn.DataParallel``: PyTorch's single-process data parallelism over several GPUs.

engine computes on the CPU only, where PyTorch's DataParallel finds no device to split the batch
over and simply runs the wrapped module: so does this one. Scripts that wrap their model keep
working unchanged, and checkpoints keep PyTorch's ``module.`` prefix on every key.
"""

from __future__ import annotations

from typing import Any

from engine.nn.modules.module import Module


class DataParallel(Module):
    """Wraps ``module``; calling it calls ``module`` (no accelerator to replicate onto).

    Args:
        module (Module): the module to run.
        device_ids (list of int or engine.device, optional): accepted and unused, as PyTorch
            does when no accelerator is present.
        output_device (int or engine.device, optional): likewise.
        dim (int): the batch dimension a multi-device run would scatter along. Default: 0.

    Example::

        >>> model = engine.nn.DataParallel(engine.nn.Linear(2, 1))
        >>> list(model.state_dict())
        ['module.weight', 'module.bias']
    """

    def __init__(
        self,
        module: Module,
        device_ids: Any = None,
        output_device: Any = None,
        dim: int = 0,
    ) -> None:
        super().__init__()
        self.module = module
        self.device_ids: list = []

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        """Runs the wrapped module on ``inputs``."""
        return self.module(*inputs, **kwargs)
