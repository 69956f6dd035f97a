"""Named results of ops returning several tensors (``values, indices = x.max(0)``)."""

from collections import namedtuple


def _make(name, fields):
    base = namedtuple(name, fields)

    def __repr__(self):
        body = ",\n".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"torch.return_types.{name}(\n{body})"

    cls = type(name, (base,), {"__slots__": (), "__repr__": __repr__})
    cls.__module__ = "engine.return_types"
    return cls


max = _make("max", ("values", "indices"))
min = _make("min", ("values", "indices"))
sort = _make("sort", ("values", "indices"))
topk = _make("topk", ("values", "indices"))
kthvalue = _make("kthvalue", ("values", "indices"))
median = _make("median", ("values", "indices"))
frexp = _make("frexp", ("mantissa", "exponent"))
