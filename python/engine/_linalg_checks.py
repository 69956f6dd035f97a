"""Argument checks of engine.linalg with PyTorch's messages, and batch broadcasting."""

from engine import _C

_TYPE_NAMES = {
    _C.int64: "Long",
    _C.int32: "Int",
    _C.bool: "Bool",
    _C.float32: "Float",
    _C.float64: "Double",
    _C.int16: "Short",
    _C.int8: "Char",
    _C.uint8: "Byte",
    _C.float16: "Half",
    _C.bfloat16: "BFloat16",
    _C.complex64: "ComplexFloat",
    _C.complex128: "ComplexDouble",
}


# ---- argument checks (PyTorch's messages) ----


def _check_tensor(A, fname, arg="A", position=1):
    if not isinstance(A, _C.Tensor):
        raise TypeError(
            f"{fname.replace('.', '_')}(): argument '{arg}' (position {position}) must be Tensor, "
            f"not {type(A).__name__}"
        )


def _check_bool(value, fname, arg):
    if not isinstance(value, bool):
        raise TypeError(
            f"{fname.replace('.', '_')}(): argument '{arg}' must be bool, not {type(value).__name__}"
        )


def _check_str(value, fname, arg):
    if not isinstance(value, str):
        raise TypeError(
            f"{fname.replace('.', '_')}(): argument '{arg}' must be str, not {type(value).__name__}"
        )


def _wrap_dim(dim, ndim):
    """dim in [0, ndim), with PyTorch's IndexError otherwise."""
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if not -ndim <= dim < ndim:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})"
        )
    return dim % ndim


# The LAPACK kernels PyTorch dispatches to without a 16-bit version: for these functions a float16
# or bfloat16 input meets the kernel's dispatch error, not the "Low precision" check of the others.
_LAPACK_KERNELS = {
    "linalg.det": "lu_cpu",
    "linalg.solve": "lu_cpu",
    "linalg.qr": "geqrf_cpu",
    "linalg.svd": "linalg_svd_cpu",
    "linalg.cholesky": "cholesky_cpu",
    "torch.linalg.lu_solve": "linalg.lu_solve_cpu",
}

_LOW_PRECISION = (_C.float16, _C.bfloat16)


def _check_float(A, fname, low_precision_ok=False):
    """A floating-point A, and (unless ``low_precision_ok``: the functions PyTorch computes
    without LAPACK) not a 16-bit one."""
    if A.dtype.is_complex:  # engine's LAPACK paths are real-only
        name = "ComplexFloat" if A.dtype == _C.complex64 else "ComplexDouble"
        raise NotImplementedError(f"\"{fname}\" not implemented for '{name}'")
    if not A.is_floating_point():
        raise RuntimeError(
            f"{fname}: Expected a floating point or complex tensor as input. Got {_TYPE_NAMES[A.dtype]}"
        )
    if A.dtype in _LOW_PRECISION and not low_precision_ok:
        # LAPACK has no 16-bit routines; PyTorch refuses them too, in one of two ways.
        if fname in _LAPACK_KERNELS:
            _not_implemented_for(A, _LAPACK_KERNELS[fname])
        raise RuntimeError(
            f"{fname}: Low precision dtypes not supported. Got {_TYPE_NAMES[A.dtype]}"
        )


def _check_float_or_double(A):
    if not A.is_floating_point() or A.dtype in _LOW_PRECISION:
        raise RuntimeError("This function doesn't handle types other than float and double")


def _not_implemented_for(A, kernel):
    """PyTorch's dispatch error for an input the kernel has no version for: integers and bool,
    and the 16-bit floats LAPACK lacks."""
    if not A.is_floating_point() or A.dtype in _LOW_PRECISION:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_TYPE_NAMES[A.dtype]}'")


def _check_matrix(A, fname, arg="A"):
    if A.dim() < 2:
        raise RuntimeError(f"{fname}: The input tensor {arg} must have at least 2 dimensions.")


def _check_square(A, fname, arg="A"):
    _check_matrix(A, fname, arg)
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(
            f"{fname}: {arg} must be batches of square matrices, but they are "
            f"{A.shape[-2]} by {A.shape[-1]} matrices"
        )


def _square_float(A, fname):
    _check_tensor(A, fname)
    _check_square(A, fname)
    _check_float(A, fname)


def _check_same_dtype(A, B, fname):
    if A.dtype != B.dtype:
        raise RuntimeError(
            f"{fname}: Expected A and B to have the same dtype, but found A of type "
            f"{_TYPE_NAMES[A.dtype]} and B of type {_TYPE_NAMES[B.dtype]} instead"
        )


def _broadcast_batches(A, B):
    """A and B expanded to their common batch shape (matrix dims kept)."""
    batch = _broadcast_shapes(tuple(A.shape[:-2]), tuple(B.shape[:-2]))
    return A.expand(*batch, *A.shape[-2:]), B.expand(*batch, *B.shape[-2:])


def _broadcast_shapes(a, b):
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                f"dimension {len(out)}"
            )
        out.append(y if x == 1 else x)
    return tuple(out)


def _singular_message(value):
    return (
        f"The diagonal element {value} is zero, the inversion could not be completed because the "
        "input matrix is singular."
    )


def _not_pd_message(value):
    return (
        "The factorization could not be completed because the input is not positive-definite "
        f"(the leading minor of order {value} is not positive-definite)."
    )
