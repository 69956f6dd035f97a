"""Int-list arguments (``shifts``, ``dims``, sizes) parsed as PyTorch's argument parser parses
them: one int or a tuple/list of ints, where NumPy integers and one-element integer tensors count
as ints and bool does not, with its messages for the first thing that is not."""

from engine import _C
from engine._composite_ops import _type_name

_Tensor = _C.Tensor


def _index_value(v):
    """v as an int where PyTorch's int-list arguments take it (ints, NumPy integers, integer
    tensors of one element), else None. bool is refused as PyTorch refuses it."""
    if isinstance(v, bool):
        return None
    if isinstance(v, _Tensor):
        return int(v.item()) if v.numel() == 1 and not v.is_floating_point() else None
    try:
        return v.__index__() if hasattr(type(v), "__index__") else None
    except Exception:
        return None


def _int_list(fname, value, arg, position):
    """An int-list argument (one int or a tuple/list of them) parsed as PyTorch parses it, with
    its messages: the argument's type, or the first element that is not an int."""
    one = None if isinstance(value, (tuple, list)) else _index_value(value)
    if one is not None:
        return [one]
    if not isinstance(value, (tuple, list)):
        raise TypeError(
            f"{fname}(): argument '{arg}' (position {position}) must be tuple of ints, "
            f"not {_type_name(value)}"
        )
    out = []
    for i, v in enumerate(value):
        n = _index_value(v)
        if n is None:
            if isinstance(value, list) and not isinstance(v, (bool, float)):
                raise TypeError(
                    f"{fname}(): argument '{arg}' failed to unpack the object at pos {i + 1} "
                    f'with error "type must be tuple of ints,but got {_type_name(v)}"'
                )
            raise TypeError(
                f"{fname}(): argument '{arg}' (position {position}) must be tuple of ints, "
                f"but found element of type {_type_name(v)} at pos {i}"
            )
        out.append(n)
    return out
