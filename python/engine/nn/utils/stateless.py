"""``torch.nn.utils.stateless``: the deprecated home of ``functional_call``."""

from engine.func._functional_call import stateless_functional_call as functional_call

__all__ = ["functional_call"]
