"""Pointwise functions PyTorch itself defines as compositions: mvlgamma (a sum of lgamma terms),
float_power (pow in float64) and ldexp (a product with a power of two). Each is a few vectorised
native ops, so values and gradients come from the native kernels."""

import math

from engine import _C
from engine._out_param import accepts_out
from engine._out_rules import float_power_out, floating_out

_Tensor = _C.Tensor


def _require_tensor(fname, value, arg, position):
    if not isinstance(value, _Tensor):
        raise TypeError(
            f"{fname}(): argument '{arg}' (position {position}) must be Tensor, not {type(value).__name__}"
        )


def mvlgamma(input, p):
    """The multivariate log-gamma function of dimension ``p``:
    ``p(p-1)/4 log(pi) + sum_{j<p} lgamma(input - j/2)``, elementwise. Like PyTorch 2.13, elements
    at or below (p-1)/2 give lgamma's values at its poles (inf) rather than an error."""
    _require_tensor("mvlgamma", input, "input", 1)
    if not isinstance(p, int) or isinstance(p, bool):
        raise TypeError(
            f"mvlgamma(): argument 'p' (position 2) must be int, not {type(p).__name__}"
        )
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x = input if input.is_floating_point() else input.to(_C.get_default_dtype())
    offsets = _C.arange(0, p, 1, dtype=x.dtype) * -0.5
    terms = _C.lgamma(x.unsqueeze(-1) + offsets)
    return terms.sum(-1) + p * (p - 1) / 4 * math.log(math.pi)


@accepts_out(float_power_out)
def float_power(input, exponent, *, out=None):
    """``input ** exponent`` computed in float64 (either may be a Python number)."""
    if not isinstance(input, _Tensor) and not isinstance(exponent, _Tensor):
        raise TypeError(
            "float_power(): argument 'input' (position 1) must be Tensor, not "
            f"{type(input).__name__}"
        )
    base = input.to(_C.float64) if isinstance(input, _Tensor) else input
    power = exponent.to(_C.float64) if isinstance(exponent, _Tensor) else exponent
    return _C.pow(base, power)


def float_power_(self, exponent):
    """In-place ``float_power``: self must already be float64, as in PyTorch."""
    if self.dtype != _C.float64:
        name = {_C.float32: "Float", _C.int64: "Long", _C.int32: "Int", _C.bool: "Bool"}.get(
            self.dtype, str(self.dtype)
        )
        raise RuntimeError(
            f"the base given to float_power_ has dtype {name} but the operation's result "
            "requires dtype Double"
        )
    others = [exponent] if isinstance(exponent, _Tensor) else []
    return _C._inplace_apply(self, lambda x: float_power(x, exponent), others)


@accepts_out(floating_out)
def ldexp(input, other, *, out=None):
    """``input * 2 ** other``."""
    _require_tensor("ldexp", input, "input", 1)
    _require_tensor("ldexp", other, "other", 2)
    if other.dtype == _C.bool and input.is_floating_point():
        # With a floating input PyTorch computes 2 ** other in input's dtype through a kernel
        # dispatched on other's, which has no bool form (integer and bool inputs go another way).
        raise NotImplementedError("\"ldexp_cpu_exp\" not implemented for 'Bool'")
    # In the operands' promoted floating dtype (a 0-d float64 input with integer exponents gives
    # float64, as PyTorch's), not in the default dtype pow(2.0, integers) would give.
    dtype = _C.promote_types(_C.result_type(input, other), _C.get_default_dtype())
    if input.is_floating_point() or other.is_floating_point():
        dtype = _C.result_type(input, other)
    return _C.mul(input, _C.pow(_C.tensor(2.0, dtype=dtype), other))


FUNCTIONS = {f.__name__: f for f in (mvlgamma, float_power, ldexp)}
