"""``ReduceOp``: how a collective combines the values of the ranks, as ``torch.distributed``."""

import enum

__all__ = ["ReduceOp"]


class _RedOpType(enum.Enum):
    """The reduction kinds, with PyTorch's numbering (``ReduceOp.SUM`` is ``RedOpType.SUM``)."""

    SUM = 0
    AVG = 1
    PRODUCT = 2
    MIN = 3
    MAX = 4
    BAND = 5
    BOR = 6
    BXOR = 7
    PREMUL_SUM = 8

    def __repr__(self):
        return f"<RedOpType.{self.name}: {self.value}>"

    def __str__(self):
        return f"RedOpType.{self.name}"


_RedOpType.__name__ = _RedOpType.__qualname__ = "RedOpType"


class ReduceOp:
    """An enum-like class of reduction operations: ``SUM``, ``AVG``, ``PRODUCT``, ``MIN``,
    ``MAX`` (and the bitwise ``BAND``, ``BOR``, ``BXOR``), used by :func:`all_reduce`,
    :func:`reduce` and :func:`reduce_scatter`.

    ``ReduceOp.SUM`` is the member ``ReduceOp.RedOpType.SUM``; ``ReduceOp(ReduceOp.SUM)`` wraps
    one as an object, which the collectives accept as well.

    Example::

        >>> dist.all_reduce(t, op=dist.ReduceOp.MAX)
    """

    RedOpType = _RedOpType
    SUM = _RedOpType.SUM
    AVG = _RedOpType.AVG
    PRODUCT = _RedOpType.PRODUCT
    MIN = _RedOpType.MIN
    MAX = _RedOpType.MAX
    BAND = _RedOpType.BAND
    BOR = _RedOpType.BOR
    BXOR = _RedOpType.BXOR
    PREMUL_SUM = _RedOpType.PREMUL_SUM

    def __init__(self, op):
        self.op = _as_red_op_type(op, "ReduceOp")

    def __eq__(self, other):
        if isinstance(other, ReduceOp):
            return self.op is other.op
        return self.op is other

    def __hash__(self):
        return hash(self.op)

    def __repr__(self):
        return f"ReduceOp({self.op!r})"


def _as_red_op_type(op, function):
    """The ``RedOpType`` that ``op`` (a member or a ``ReduceOp`` object) names; TypeError else."""
    if isinstance(op, ReduceOp):
        return op.op
    if isinstance(op, _RedOpType):
        return op
    raise TypeError(
        f"{function}(): op must be a torch.distributed.ReduceOp (e.g. ReduceOp.SUM), "
        f"got {type(op).__name__} {op!r}"
    )
