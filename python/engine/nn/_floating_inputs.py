"""PyTorch's refusals of integer and bool inputs by nn.functional operators whose kernels exist
only for floating-point dtypes. engine composes these operators from ops that accept integers
(``where``, ``*``, ``expm1`` promote), so without these checks ``F.elu`` of a LongTensor would
quietly return a float tensor where PyTorch raises. Each message is PyTorch 2.13's, naming its
kernel (``"elu_cpu" not implemented for 'Long'``)."""

from engine import _C
from engine._scalar_type_names import scalar_type_name


def require_floating(input, kernel):
    """Raises PyTorch's NotImplementedError unless ``input`` has a floating-point dtype."""
    if isinstance(input, _C.Tensor) and not input.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{scalar_type_name(input.dtype)}'"
        )


def require_floating_common(kernel, *tensors):
    """``require_floating`` on the dtype ``tensors`` promote to (a loss of a float input and an
    integer target runs the float kernel, as in PyTorch)."""
    dtype = _C.result_type(*tensors) if len(tensors) > 1 else tensors[0].dtype
    if not dtype.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_type_name(dtype)}'")


def refuse_bool(input, kernel):
    """Raises PyTorch's NotImplementedError for a bool ``input`` of a kernel that has integer
    versions but no bool one (threshold, reflection and replication padding)."""
    if isinstance(input, _C.Tensor) and input.dtype == _C.bool:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
