"""The reentrant checkpoint's node: PyTorch's class name ``CheckpointFunction`` (public in
``utils.checkpoint``), so a printed output shows ``grad_fn=<CheckpointFunctionBackward>``.

Recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations


def test_reentrant_checkpoint_node_name(lib):
    from importlib import import_module

    checkpoint = import_module(lib.__name__ + ".utils.checkpoint")
    x = lib.tensor([1.0, -2.0], requires_grad=True)
    y = checkpoint.checkpoint(lambda t: t.relu() * 3, x, use_reentrant=True)
    assert type(y.grad_fn).__name__ == "CheckpointFunctionBackward"
    assert "CheckpointFunction" in checkpoint.__all__
    assert repr(y).endswith("grad_fn=<CheckpointFunctionBackward>)")
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 0.0]
