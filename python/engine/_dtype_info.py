"""engine.finfo / engine.iinfo: the numerical limits of a dtype, as PyTorch reports them."""

from engine import _C

_FLOAT = {
    "float32": dict(
        bits=32,
        eps=1.1920928955078125e-07,
        max=3.4028234663852886e38,
        tiny=1.1754943508222875e-38,
        resolution=1e-06,
    ),
    "float16": dict(
        bits=16,
        eps=0.0009765625,
        max=65504.0,
        tiny=6.103515625e-05,
        resolution=0.001,
    ),
    "bfloat16": dict(
        bits=16,
        eps=0.0078125,
        max=3.3895313892515355e38,
        tiny=1.1754943508222875e-38,
        resolution=0.01,
    ),
    "float64": dict(
        bits=64,
        eps=2.220446049250313e-16,
        max=1.7976931348623157e308,
        tiny=2.2250738585072014e-308,
        resolution=1e-15,
    ),
}
# bits and signedness of each integer dtype
_INT = {
    "uint8": (8, False),
    "int8": (8, True),
    "int16": (16, True),
    "int32": (32, True),
    "int64": (64, True),
}


class finfo:
    """Machine limits of a floating dtype (default: the default dtype)."""

    def __init__(self, type=None):
        type = _C.get_default_dtype() if type is None else type
        name = str(type).replace("torch.", "")
        if name not in _FLOAT:
            raise TypeError(
                "torch.finfo() requires a floating point input type. "
                "Use torch.iinfo to handle 'torch.finfo'"
            )
        info = _FLOAT[name]
        self.dtype = name
        self.bits = info["bits"]
        self.eps = info["eps"]
        self.max = info["max"]
        self.min = -info["max"]
        self.tiny = self.smallest_normal = info["tiny"]
        self.resolution = info["resolution"]

    def __repr__(self):
        return (
            f"finfo(resolution={self.resolution}, min={self.min:g}, max={self.max:g}, "
            f"eps={self.eps:g}, "
            f"smallest_normal={self.tiny:g}, tiny={self.tiny:g}, dtype={self.dtype})"
        )


class iinfo:
    """Limits of an integer (or bool) dtype."""

    def __init__(self, type):
        name = str(type).replace("torch.", "")
        if name == "bool":
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if name in _INT:
            self.bits, signed = _INT[name]
            if signed:
                self.min, self.max = -(2 ** (self.bits - 1)), 2 ** (self.bits - 1) - 1
            else:
                self.min, self.max = 0, 2**self.bits - 1
        else:
            raise TypeError(
                "torch.iinfo() requires an integer input type. "
                "Use torch.finfo to handle 'torch.iinfo'"
            )
        self.dtype = name

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
