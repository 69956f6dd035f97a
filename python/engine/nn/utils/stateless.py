"""``torch.nn.utils.stateless``: the deprecated home of ``functional_call``."""

import warnings

from engine.func._functional_call import _call

__all__ = ["functional_call"]


def functional_call(
    module, parameters_and_buffers, args=None, kwargs=None, *, tie_weights=True, strict=False
):
    """The deprecated spelling of :func:`engine.func.functional_call` with one dict."""
    warnings.warn(
        "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be "
        "removed in a future version of PyTorch. Please use `torch.func.functional_call` instead "
        "which is a drop-in replacement.",
        FutureWarning,
        stacklevel=2,
    )
    return _call(module, parameters_and_buffers, args, kwargs, tie_weights, strict)
