"""``engine.linalg``: PyTorch's ``torch.linalg`` over LAPACK (the scipy-openblas32 wheel).

Factorisations run natively (``engine._C._lapack_*``), batched over leading dimensions, for float32
and float64; this module checks arguments with PyTorch's messages, broadcasts batches, and builds
the composite functions (norms, pinv, matrix_exp, ...) from differentiable ops.
"""

import math

from engine import _C, _transforms, return_types
from engine._linalg_checks import (
    _TYPE_NAMES,
    _broadcast_batches,
    _check_bool,
    _check_float,
    _check_float_or_double,
    _check_matrix,
    _check_same_dtype,
    _check_square,
    _check_str,
    _check_tensor,
    _not_implemented_for,
    _not_pd_message,
    _singular_message,
    _square_float,
    _wrap_dim,
)
from engine._linalg_functions import (
    _L,
    LinalgCholeskyEx,
    LinalgDet,
    LinalgEigh,
    LinAlgError,
    LinalgInvEx,
    LinalgLu,
    LinalgLuFactorEx,
    LinalgLuSolve,
    LinalgQr,
    LinalgSlogdet,
    LinalgSolveEx,
    LinalgSolveTriangular,
    LinalgSvd,
    LuUnpack,
    _eye_rect,
    eye_like,
    permutation_matrix,
    raise_for_info,
)
from engine._out_param import accepts_out
from engine.amp._policy import autocast_op

__all__ = [
    "LinAlgError",
    "cholesky",
    "cholesky_ex",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eigh",
    "eigvalsh",
    "householder_product",
    "inv",
    "inv_ex",
    "lstsq",
    "lu",
    "lu_factor",
    "lu_factor_ex",
    "lu_solve",
    "matmul",
    "matrix_exp",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "solve_ex",
    "solve_triangular",
    "svd",
    "svdvals",
    "tensorinv",
    "tensorsolve",
    "vander",
    "vecdot",
    "vector_norm",
]

matmul = _C.matmul

# ---- inverses, determinants, solves ----


@accepts_out(fname="linalg_inv_ex")
def inv_ex(A, *, check_errors=False, out=None):
    """(inverse, info) of square matrices; info > 0 marks a singular matrix instead of raising."""
    _square_float(A, "linalg.inv")
    inverse, info = LinalgInvEx.apply(A)
    if check_errors:
        raise_for_info(info, A, "linalg.inv_ex", _singular_message)
    return return_types.linalg_inv_ex(inverse, info)


@accepts_out(fname="linalg_inv")
def inv(A, *, out=None):
    """Inverse of a square matrix, or of each matrix in a batch (``A`` of shape (*, n, n)).

    Raises :class:`LinAlgError` when a matrix is singular; :func:`inv_ex` reports it instead.
    To solve ``A X = B``, :func:`solve` is faster and more accurate than ``inv(A) @ B``.

    Args:
        A (Tensor): float32 or float64 matrices, shape (*, n, n).

    Example::

        >>> engine.linalg.inv(engine.tensor([[2.0, 0.0], [0.0, 4.0]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.2500]])
    """
    inverse, info = inv_ex(A)
    raise_for_info(info, A, "linalg.inv", _singular_message)
    return inverse


@accepts_out(fname="linalg_det")
def det(A, *, out=None):
    """Determinant of a square matrix, or of each matrix in a batch, from its LU factorisation.

    Args:
        A (Tensor): float32 or float64 matrices, shape (*, n, n).

    Example::

        >>> engine.linalg.det(engine.tensor([[2.0, 1.0], [1.0, 3.0]]))
        tensor(5.)
    """
    _square_float(A, "linalg.det")
    return LinalgDet.apply(A)


@accepts_out(fname="linalg_slogdet")
def slogdet(A, *, out=None):
    """(sign, log|det|) of square matrices (batched)."""
    _square_float(A, "linalg.slogdet")
    sign, logabsdet = LinalgSlogdet.apply(A)
    return return_types.linalg_slogdet(sign, logabsdet)


def _solve_operands(A, B, left, fname):
    """A and B as matrices of one batch shape, and whether B was a (batch of) vector(s)."""
    _check_bool(left, fname, "left")
    _check_tensor(A, fname)
    _check_tensor(B, fname, "B", 2)
    _check_square(A, fname)
    _check_float(A, fname)
    _check_same_dtype(A, B, fname)
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    Bm = B.unsqueeze(-1) if vector else B
    if not left:
        Bm = Bm.mT
    n = A.shape[-1]
    if Bm.dim() < 2 or Bm.shape[-2] != n:
        eq = "AX = B" if left else "XA = B"
        rows, cols = (B.shape[-2], B.shape[-1]) if B.dim() >= 2 else (B.shape[0], 1)
        raise RuntimeError(
            f"{fname}: Incompatible shapes of A and B for the equation {eq} ({n}x{n} and {rows}x{cols})"
        )
    Am = A if left else A.mT
    Am, Bm = _broadcast_batches(Am, Bm)
    return Am, Bm, vector


@accepts_out(fname="linalg_solve_ex")
def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    """(X, info) with A X = B (X A = B when left is False); info > 0 marks a singular A."""
    Am, Bm, vector = _solve_operands(A, B, left, "linalg.solve")
    X, info = LinalgSolveEx.apply(Am, Bm)
    if check_errors:
        raise_for_info(info, Am, "torch.linalg.solve_ex", _solver_singular)
    if not left:
        X = X.mT
    return return_types.linalg_solve_ex(X.squeeze(-1) if vector else X, info)


def _solver_singular(_value):
    return "The solver failed because the input matrix is singular."


@autocast_op("linalg.solve")
@accepts_out(fname="linalg_solve")
def solve(A, B, *, left=True, out=None):
    """The solution ``X`` of the linear system ``A X = B`` (``X A = B`` when ``left=False``).

    ``A`` is square (*, n, n); ``B`` is (*, n, k) or a vector (*, n), and the batch dimensions
    broadcast. Raises :class:`LinAlgError` when ``A`` is singular.

    Args:
        A (Tensor): the coefficient matrices.
        B (Tensor): the right-hand sides.

    Keyword args:
        left (bool): solve ``A X = B`` (``True``) or ``X A = B``. Default: ``True``.

    Example::

        >>> A = engine.tensor([[3.0, 1.0], [1.0, 2.0]])
        >>> engine.linalg.solve(A, engine.tensor([9.0, 8.0]))
        tensor([2., 3.])
    """
    Am, Bm, vector = _solve_operands(A, B, left, "linalg.solve")
    X, info = LinalgSolveEx.apply(Am, Bm)
    raise_for_info(info, Am, "torch.linalg.solve", _solver_singular)
    if not left:
        X = X.mT
    return X.squeeze(-1) if vector else X


@autocast_op("linalg.solve_triangular")
@accepts_out(fname="linalg_solve_triangular")
def solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    """X with A X = B (X A = B when left is False) for triangular A; no check of singularity."""
    fname = "linalg.solve_triangular"
    for name, value in (("upper", upper), ("left", left), ("unitriangular", unitriangular)):
        _check_bool(value, fname, name)
    _check_tensor(A, fname)
    _check_tensor(B, fname, "B", 2)
    _check_matrix(A, fname)
    _check_matrix(B, fname, "B")
    _check_square(A, fname)
    _not_implemented_for(A, "triangular_solve_cpu")
    _check_same_dtype(A, B, fname)
    n = A.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"{fname}: Incompatible shapes of A and B for the equation {eq} "
            f"({n}x{n} and {B.shape[-2]}x{B.shape[-1]})"
        )
    Am, Bm = _broadcast_batches(A, B)
    return LinalgSolveTriangular.apply(Am, Bm, bool(upper), bool(left), bool(unitriangular))


@accepts_out(fname="linalg_cholesky_ex")
def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    """(L, info) with A = L L^T; info > 0 marks a matrix that is not positive-definite."""
    _check_bool(upper, "linalg.cholesky", "upper")
    _square_float(A, "linalg.cholesky")
    L, info = LinalgCholeskyEx.apply(A, upper)
    if check_errors:
        raise_for_info(info, A, "linalg.cholesky_ex", _not_pd_message)
    return return_types.linalg_cholesky_ex(L, info)


@accepts_out(fname="linalg_cholesky")
def cholesky(A, *, upper=False, out=None):
    """Cholesky factor of a symmetric positive-definite matrix: lower-triangular ``L`` with
    ``A = L L^T`` (or ``U = L^T`` when ``upper=True``), batched.

    Raises :class:`LinAlgError` when a matrix is not positive-definite; :func:`cholesky_ex`
    reports it instead.

    Args:
        A (Tensor): symmetric positive-definite matrices, shape (*, n, n).

    Keyword args:
        upper (bool): return the upper factor. Default: ``False``.

    Example::

        >>> engine.linalg.cholesky(engine.tensor([[4.0, 2.0], [2.0, 2.0]]))
        tensor([[2., 0.],
                [1., 1.]])
    """
    L, info = cholesky_ex(A, upper=upper)
    raise_for_info(info, A, "linalg.cholesky", _not_pd_message)
    return L


# ---- LU ----


@accepts_out(fname="linalg_lu_factor_ex")
def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    """(LU, pivots, info): getrf's compact LU with partial pivoting (1-based int32 pivots)."""
    fname = "linalg.lu_factor"
    _check_tensor(A, fname)
    _check_matrix(A, fname)
    _not_implemented_for(A, "lu_cpu")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    LU, pivots, info = LinalgLuFactorEx.apply(A)
    if check_errors:
        raise_for_info(info, A, "torch.linalg.lu_factor_ex", _lu_singular, RuntimeError)
    return return_types.linalg_lu_factor_ex(LU, pivots, info)


def _lu_singular(value):
    return (
        f"U[{value},{value}] is zero and using it on lu_solve would result in a division by zero. "
        "If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or "
        "linalg.lu_factor_ex(A, pivot)"
    )


@accepts_out(fname="linalg_lu_factor")
def lu_factor(A, *, pivot=True, out=None):
    """(LU, pivots) of getrf; raises for exactly singular square matrices, as PyTorch does."""
    LU, pivots, info = lu_factor_ex(A, pivot=pivot)
    if A.shape[-1] == A.shape[-2]:
        raise_for_info(info, A, "torch.linalg.lu_factor", _lu_singular, RuntimeError)
    return return_types.linalg_lu_factor(LU, pivots)


def _unpack(LU, pivots, unpack_data=True, unpack_pivots=True, A=None):
    """(P, L, U) of a compact LU; L and U are the outputs of one node (LuUnpackBackward0, or with
    A, the matrix LU factorises, LinalgLuBackward0), P has no history."""
    m = LU.shape[-2]
    L = U = P = _C.zeros(0, dtype=LU.dtype)
    if unpack_data:
        L, U = LuUnpack.apply(LU) if A is None else LinalgLu.apply(A, (LU, pivots))
    if unpack_pivots:
        P = permutation_matrix(pivots, m, LU)
    return P, L, U


@accepts_out(fname="linalg_lu")
def lu(A, *, pivot=True, out=None):
    """(P, L, U) with A = P L U: L unit lower trapezoidal, U upper trapezoidal."""
    with _no_grad():
        LU, pivots, _ = lu_factor_ex(A, pivot=pivot)
    P, L, U = _unpack(LU, pivots, A=A)
    return return_types.linalg_lu(P, L, U)


@accepts_out(fname="linalg_lu_solve")
def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """X with A X = B (adjoint: A^T X = B; left False: X A = B) from lu_factor's output."""
    fname = "linalg.lu_solve"
    _check_tensor(LU, fname, "LU")
    _check_tensor(B, fname, "B", 2)
    _check_square(LU, fname, "LU")
    _check_matrix(B, fname, "B")
    _check_float(LU, "torch.linalg.lu_solve")
    if LU.dtype != B.dtype:
        raise RuntimeError(
            f"{fname}: Expected LU and B to have the same dtype, but found LU of type "
            f"{_TYPE_NAMES[LU.dtype]} and B of type {_TYPE_NAMES[B.dtype]} instead"
        )
    _check_bool(left, fname, "left")
    _check_bool(adjoint, fname, "adjoint")
    if pivots.dtype != _C.int32:
        raise RuntimeError(f"{fname}: pivots should be a Tensor of scalar type torch.int32")
    n = LU.shape[-1]
    if pivots.dim() < 1 or pivots.shape[-1] != n:
        raise RuntimeError(
            f"{fname}: Number of pivots per batch should be same as the dimension of the matrix"
        )
    if pivots.numel() and bool((pivots > n).any()):
        raise RuntimeError(
            "Pivots given to lu_solve must all be smaller or equal to LU.size(-2). "
            "Did you properly pass the result of lu_factor?"
        )
    if pivots.numel() and bool((pivots < 1).any()):
        raise RuntimeError(
            "Pivots given to lu_solve must all be greater or equal to 1. "
            "Did you properly pass the result of lu_factor?"
        )
    if not left:
        B = B.mT
        adjoint = not adjoint
    if B.shape[-2] != n:
        raise RuntimeError(
            f"{fname}: Incompatible shapes of A and B for the equation {'AX = B' if left else 'XA = B'} "
            f"({n}x{n} and {B.shape[-2]}x{B.shape[-1]})"
        )
    LUb, Bb = _broadcast_batches(LU, B)
    piv = pivots.expand(*LUb.shape[:-2], n).contiguous()
    X = LinalgLuSolve.apply(LUb, piv, Bb, bool(adjoint))
    return X if left else X.mT


# ---- orthogonal factorisations and spectra ----


@autocast_op("linalg.qr")
@accepts_out(fname="linalg_qr")
def qr(A, mode="reduced", *, out=None):
    """QR decomposition ``A = Q R`` of (*, m, n) matrices: ``Q`` with orthonormal columns and
    ``R`` upper-triangular, returned as the named tuple ``(Q, R)``.

    Args:
        A (Tensor): the matrices.
        mode (str): ``'reduced'`` (Q is (m, k), R is (k, n), k = min(m, n)), ``'complete'``
            (Q is (m, m)) or ``'r'`` (R only; Q is empty). Default: ``'reduced'``.

    Example::

        >>> A = engine.tensor([[3.0, 1.0], [4.0, 2.0]], dtype=engine.float64)
        >>> Q, R = engine.linalg.qr(A)
        >>> engine.allclose(Q @ R, A)
        True
    """
    fname = "linalg.qr"
    _check_tensor(A, fname)
    _check_str(mode, fname, "mode")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(
            f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or 'complete'"
        )
    _check_float(A, fname)
    _check_matrix(A, fname)
    Q, R = LinalgQr.apply(A, mode)
    return return_types.linalg_qr(Q, R)


@autocast_op("linalg.svd")
@accepts_out(fname="linalg_svd")
def svd(A, full_matrices=True, *, driver=None, out=None):
    """Singular value decomposition ``A = U diag(S) Vh`` of (*, m, n) matrices, returned as the
    named tuple ``(U, S, Vh)`` with the singular values ``S`` in descending order.

    Args:
        A (Tensor): the matrices.
        full_matrices (bool): square ``U`` (m, m) and ``Vh`` (n, n) when ``True``; the reduced
            (m, k) and (k, n), k = min(m, n), when ``False``. Default: ``True``.

    Example::

        >>> U, S, Vh = engine.linalg.svd(engine.tensor([[3.0, 0.0], [0.0, -2.0]]))
        >>> S
        tensor([3., 2.])
    """
    fname = "linalg.svd"
    _check_tensor(A, fname)
    _check_bool(full_matrices, fname, "full_matrices")
    _check_matrix(A, fname)
    _check_float(A, fname)
    if driver is not None:
        raise RuntimeError(
            "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend."
        )
    U, S, Vh = LinalgSvd.apply(A, bool(full_matrices), True)
    return return_types.linalg_svd(U, S, Vh)


@autocast_op("linalg.svdvals")
@accepts_out(fname="linalg_svdvals")
def svdvals(A, *, driver=None, out=None):
    """The singular values of A, descending."""
    fname = "linalg.svdvals"
    _check_tensor(A, fname)
    _check_matrix(A, fname)
    _check_float(A, "linalg.svd")
    if A.requires_grad and _C.is_grad_enabled():
        return LinalgSvd.apply(A, False, True)[1]
    return LinalgSvd.apply(A, False, False)[1]


def _uplo(UPLO):
    if UPLO not in ("L", "U", "l", "u"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return UPLO in ("U", "u")


def _check_eigh(A, fname, UPLO):
    _check_tensor(A, fname)
    _check_str(UPLO, fname, "UPLO")
    upper = _uplo(UPLO)
    _check_square(A, fname)
    _not_implemented_for(A, "linalg_eigh_cpu")
    return upper


@autocast_op("linalg.eigh")
@accepts_out(fname="linalg_eigh")
def eigh(A, UPLO="L", *, out=None):
    """Eigenvalues (ascending) and orthonormal eigenvectors (as columns) of symmetric matrices,
    returned as the named tuple ``(eigenvalues, eigenvectors)``; only the triangle ``UPLO``
    names is read.

    Args:
        A (Tensor): symmetric matrices, shape (*, n, n).
        UPLO (str): ``'L'`` (lower) or ``'U'`` (upper) triangle. Default: ``'L'``.

    Example::

        >>> engine.linalg.eigh(engine.tensor([[2.0, 1.0], [1.0, 2.0]])).eigenvalues
        tensor([1., 3.])
    """
    upper = _check_eigh(A, "linalg.eigh", UPLO)
    w, V = LinalgEigh.apply(A, upper)
    return return_types.linalg_eigh(w, V)


@autocast_op("linalg.eigvalsh")
@accepts_out(fname="linalg_eigvalsh")
def eigvalsh(A, UPLO="L", *, out=None):
    """The eigenvalues (ascending) of symmetric matrices, from the UPLO triangle."""
    upper = _check_eigh(A, "linalg.eigvalsh", UPLO)
    if A.requires_grad and _C.is_grad_enabled():
        return LinalgEigh.apply(A, upper)[0]
    w, _, info = _L.eigh(A, upper, False)
    raise_for_info(
        info, A, "linalg.eigvalsh", lambda v: f"The algorithm failed to converge (error code: {v})."
    )
    return w


@accepts_out(fname="linalg_householder_product")
def householder_product(A, tau, *, out=None):
    """The first n columns of the product of the Householder reflectors (A, tau) (orgqr)."""
    fname = "torch.linalg.householder_product"
    _check_tensor(A, fname)
    _check_tensor(tau, fname, "tau")
    if A.dim() < 2:
        raise RuntimeError(f"{fname}: input must have at least 2 dimensions.")
    if A.shape[-2] < A.shape[-1]:
        raise RuntimeError(
            f"{fname}: input.shape[-2] must be greater than or equal to input.shape[-1]"
        )
    if tau.shape[-1] > A.shape[-1]:
        raise RuntimeError(
            f"{fname}: input.shape[-1] must be greater than or equal to tau.shape[-1]"
        )
    _not_implemented_for(A, "orgqr_cpu")
    if tau.dim() == A.dim() - 1 and tuple(tau.shape[:-1]) != tuple(A.shape[:-2]):
        raise RuntimeError(
            f"{fname}: Expected batch dimensions of tau to be equal to input.shape[:-2], but got "
            f"{list(tau.shape[:-1])}"
        )
    if tau.dim() != A.dim() - 1:
        raise RuntimeError(
            f"{fname}: Expected tau to have one dimension less than input, but got tau.ndim "
            f"equal to {tau.dim()} and input.ndim is equal to {A.dim()}"
        )
    _check_float(A, fname)
    if tau.dtype != A.dtype:
        raise RuntimeError(
            f"{fname}: tau dtype {_TYPE_NAMES[tau.dtype]} does not match input dtype "
            f"{_TYPE_NAMES[A.dtype]}"
        )
    if _C.is_grad_enabled() and (A.requires_grad or tau.requires_grad):
        return _householder_product_differentiable(A, tau)
    return _L.orgqr(A, tau)


def _householder_product_differentiable(A, tau):
    """orgqr's result in differentiable ops, so gradients reach A and tau."""
    return reflectors_product(A, tau)[..., :, : A.shape[-1]]


def reflectors_product(A, tau):
    """The full m x m product of the reflectors I - tau_i v_i v_i^T stored in A (..., m, n) and
    tau, as one batched rank-1 update per reflector in differentiable ops."""
    m, n = A.shape[-2], A.shape[-1]
    V = A.tril(-1) + _eye_rect(A, m, n)
    Q = eye_like(A, m)
    for i in range(tau.shape[-1]):
        v = V[..., :, i : i + 1]
        t = tau[..., i : i + 1].unsqueeze(-1)
        Q = Q - (Q @ v) @ (t * v.mT)
    return Q


# ---- least squares and pseudo-inverses ----

_DRIVERS = {"gelsy": "y", "gelsd": "d", "gelss": "s", "gels": "l"}


@autocast_op("linalg.lstsq")
def lstsq(A, B, rcond=None, *, driver=None):
    """Least-squares solution of ``A X = B``: the ``X`` minimising ``||A X - B||``, returned as
    the named tuple ``(solution, residuals, rank, singular_values)`` (what the driver computes;
    ``'gelsy'`` by default).

    Args:
        A (Tensor): (*, m, n) matrices.
        B (Tensor): (*, m, k) right-hand sides.
        rcond (float, optional): singular values below ``rcond`` times the largest count as
            zero. Default: machine precision times max(m, n).

    Keyword args:
        driver (str, optional): ``'gels'``, ``'gelsy'``, ``'gelsd'`` or ``'gelss'``.

    Example::

        >>> A = engine.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        >>> B = engine.tensor([[1.0], [2.0], [3.0]])
        >>> engine.linalg.lstsq(A, B).solution
        tensor([[1.0000],
                [2.0000]])
    """
    fname = "torch.linalg.lstsq"
    _check_tensor(A, "linalg.lstsq")
    _check_tensor(B, "linalg.lstsq", "B", 2)
    _check_float_or_double(A)
    if A.dtype != B.dtype:
        raise RuntimeError(
            f"{fname}: Expected input and other to have the same dtype, but got input's dtype "
            f"{_TYPE_NAMES[A.dtype]} and other's dtype {_TYPE_NAMES[B.dtype]}"
        )
    if A.dim() < 2:
        raise RuntimeError(f"{fname}: input must have at least 2 dimensions.")
    vector = B.dim() == A.dim() - 1
    Bm = B.unsqueeze(-1) if vector else B
    if Bm.dim() < 2 or Bm.shape[-2] != A.shape[-2]:
        raise RuntimeError(f"{fname}: input.size(-2) should match other.size(-2)")
    driver_name = "gelsy" if driver is None else driver
    if driver_name not in _DRIVERS:
        raise RuntimeError(
            f"{fname}: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"
        )
    m, n = A.shape[-2], A.shape[-1]
    if rcond is None:
        rcond = _eps(A.dtype) * max(m, n)
    Am, Bb = _broadcast_batches(A, Bm)
    # LAPACK rejects non-finite input through its error handler (which prints to stdout).
    if not (bool(Am.isfinite().all()) and bool(Bb.isfinite().all())):
        raise RuntimeError(f"{fname}: the input matrices contain non-finite values")
    X, rank, sv, _ = _L.lstsq(Am, Bb, float(rcond), _DRIVERS[driver_name])
    if _C.is_grad_enabled() and (A.requires_grad or B.requires_grad):
        # The gradient of the minimum-norm solution is that of pinv(A) B.
        X = pinv(Am) @ Bb
    empty = _C.zeros(0, dtype=A.dtype)
    if driver_name == "gels":
        rank = _C.zeros(0, dtype=_C.int64)
    if driver_name not in ("gelsd", "gelss"):
        sv = empty
    residuals = empty
    if m > n and driver_name != "gelsy" and (driver_name == "gels" or bool((rank == n).all())):
        residuals = ((Am @ X - Bb) ** 2).sum(-2)
    if vector:
        X = X.squeeze(-1)
    return return_types.linalg_lstsq(X, residuals, rank, sv)


def _eps(dtype):
    return 2.220446049250313e-16 if dtype == _C.float64 else 1.1920928955078125e-07


def _tolerance(S, atol, rtol, m, n, dtype):
    """The cutoff of singular values: max(atol, rtol * largest), PyTorch's defaults."""
    if rtol is None:
        rtol = _eps(dtype) * max(m, n) if atol is None or _is_zero(atol) else 0.0
    smax = S.amax(-1, keepdim=True) if S.shape[-1] > 0 else _C.zeros(*S.shape[:-1], 1, dtype=dtype)
    rtol_t = rtol if isinstance(rtol, _C.Tensor) else _C.full((), float(rtol), dtype=dtype)
    rtol_t = rtol_t.unsqueeze(-1) if rtol_t.dim() > 0 else rtol_t
    tol = rtol_t * smax
    if atol is not None:
        atol_t = atol if isinstance(atol, _C.Tensor) else _C.full((), float(atol), dtype=dtype)
        atol_t = atol_t.unsqueeze(-1) if atol_t.dim() > 0 else atol_t
        tol = _C.maximum(tol, atol_t.to(dtype))
    return tol


def _is_zero(x):
    return (not isinstance(x, _C.Tensor)) and x == 0


@accepts_out(fname="linalg_pinv")
def pinv(A, *, atol=None, rtol=None, hermitian=False, out=None):
    """The Moore-Penrose pseudo-inverse, from the SVD (eigh when hermitian)."""
    _check_tensor(A, "linalg.pinv")
    if A.dim() < 2 or A.dtype not in (_C.float32, _C.float64):
        raise RuntimeError(
            f"linalg.pinv({_TYPE_NAMES[A.dtype]}{{{list(A.shape)}}}): expected a tensor with 2 or "
            "more dimensions of float, double, cfloat or cdouble types"
        )
    m, n = A.shape[-2], A.shape[-1]
    if hermitian:
        w, V = eigh(A)
        tol = _tolerance(w.abs(), atol, rtol, m, n, A.dtype)
        keep = w.abs() > tol
        winv = _C.where(keep, 1 / _C.where(keep, w, _C.ones_like(w)), _C.zeros_like(w))
        return (V * winv.unsqueeze(-2)) @ V.mT
    U, S, Vh = svd(A, full_matrices=False)
    tol = _tolerance(S, atol, rtol, m, n, A.dtype)
    keep = S > tol
    Sinv = _C.where(keep, 1 / _C.where(keep, S, _C.ones_like(S)), _C.zeros_like(S))
    return (Vh.mT * Sinv.unsqueeze(-2)) @ U.mT


@autocast_op("linalg.matrix_rank")
@accepts_out(fname="linalg_matrix_rank")
def matrix_rank(A, *, atol=None, rtol=None, hermitian=False, out=None):
    """The number of singular values above the tolerance (int64, batched)."""
    _check_tensor(A, "linalg.matrix_rank")
    _check_matrix(A, "linalg.matrix_rank")
    _check_float_or_double(A)
    m, n = A.shape[-2], A.shape[-1]
    with _no_grad():
        S = eigvalsh(A).abs() if hermitian else svdvals(A)
        tol = _tolerance(S, atol, rtol, m, n, A.dtype)
        return (S > tol).sum(-1)


def _no_grad():
    from engine.autograd import no_grad

    return no_grad()


# ---- powers and exponentials ----


@accepts_out(fname="linalg_matrix_power")
def matrix_power(A, n, *, out=None):
    """A^n for integer n (negative n: powers of the inverse), by repeated squaring."""
    fname = "linalg.matrix_power"
    _check_tensor(A, fname)
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(
            f"linalg_matrix_power(): argument 'n' (position 2) must be int, not {type(n).__name__}"
        )
    _check_square(A, fname)
    if n == 0:
        return eye_like(A).clone() if A.is_floating_point() else _int_eye(A)
    if n < 0:
        A = inv(A)
        n = -n
    result = None
    base = A
    while n:
        if n & 1:
            result = base if result is None else result @ base
        n >>= 1
        if n:
            base = base @ base
    return result


def _int_eye(A):
    k = A.shape[-1]
    eye = _C.zeros(k, k, dtype=A.dtype)
    eye.diagonal().fill_(1)
    return eye.expand(*A.shape).clone()


@_transforms.values_op
def matrix_exp(A):
    """exp(A) by scaling and squaring of a Taylor polynomial (differentiable ops only)."""
    fname = "linalg.matrix_exp"
    _check_tensor(A, fname)
    _check_square(A, fname)
    if not A.dtype.is_complex:  # complex: the same polynomial in complex matmuls
        _check_float(A, fname, low_precision_ok=True)
    if A.dtype in (_C.float16, _C.bfloat16):
        return matrix_exp(A.float()).to(A.dtype)  # PyTorch computes 16-bit inputs too
    if A.numel() == 0:
        return A.clone()
    # Scale so that every matrix has 1-norm <= 1/2: degree 18 then leaves an error below eps.
    with _no_grad():
        norm1 = A.abs().sum(-2).amax(-1).amax().item()
    finite = math.isfinite(norm1)
    squarings = max(0, math.ceil(math.log2(norm1 / 0.5))) if finite and norm1 > 0.5 else 0
    X = A / (2.0**squarings)
    eye = eye_like(A)
    term = eye
    result = eye
    for k in range(1, 19):
        term = (term @ X) / float(k)
        result = result + term
    for _ in range(squarings):
        result = result @ result
    return result


# ---- norms ----


def _dims_tuple(dim):
    if dim is None:
        return None
    if isinstance(dim, int):
        return (dim,)
    return tuple(dim)


@accepts_out(fname="linalg_vector_norm")
def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """Vector norm of ``x`` over ``dim`` (all elements when ``None``), whatever its shape:
    :math:`(\\sum |x_i|^{ord})^{1/ord}`, with ``inf``/``-inf`` the largest/smallest magnitude
    and 0 the number of non-zero elements.

    Args:
        x (Tensor): a floating-point tensor.
        ord (int, float, inf or -inf): the order. Default: 2.
        dim (int or tuple of ints, optional): the dimensions to reduce. Default: all.
        keepdim (bool): keep the reduced dimensions with size 1. Default: ``False``.

    Keyword args:
        dtype (engine.dtype, optional): the dtype ``x`` is cast to first.

    Example::

        >>> x = engine.tensor([3.0, -4.0])
        >>> engine.linalg.vector_norm(x), engine.linalg.vector_norm(x, ord=1)
        (tensor(5.), tensor(7.))
    """
    fname = "linalg.vector_norm"
    _check_tensor(x, fname, "input")
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise TypeError(
            f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, not {type(ord).__name__}"
        )
    if dtype is not None:
        x = x.to(dtype)
    if x.dtype.is_complex:  # the norm of the magnitudes (real, differentiable as abs is)
        x = x.abs()
    if not x.is_floating_point():
        raise RuntimeError(
            f"{fname}: Expected a floating point or complex tensor as input. Got {_TYPE_NAMES[x.dtype]}"
        )
    dims = _dims_tuple(dim)
    if dims is None or len(dims) == 0:
        dims = tuple(range(x.dim()))
    elif x.dim() > 0:
        dims = tuple(_wrap_dim(d, x.dim()) for d in dims)
    if ord == 0:
        return (x != 0).to(x.dtype).sum(dims, keepdim=keepdim)
    if ord in (math.inf, -math.inf) and any(x.shape[d] == 0 for d in dims):
        raise RuntimeError(
            f"{fname} cannot compute the {ord} norm on an empty tensor because the operation "
            "does not have an identity"
        )
    if x.dim() == 0:
        x = x.reshape(1)
        dims = (0,)
        result = _C.norm(x, ord, dims, False)
        return result.reshape(()) if not keepdim else result.reshape(())
    return _C.norm(x, float(ord), list(dims), keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """Matrix norm of the matrices ``A`` holds in dimensions ``dim``: ``'fro'`` (Frobenius),
    ``'nuc'`` (nuclear, sum of singular values), 2 / -2 (largest / smallest singular value),
    1 / -1 (max / min column sum of magnitudes), ``inf`` / ``-inf`` (max / min row sum).

    Args:
        A (Tensor): a floating-point tensor of at least 2 dimensions.
        ord (str, int or float): the norm. Default: ``'fro'``.
        dim (tuple of 2 ints): the matrix dimensions. Default: ``(-2, -1)``.
        keepdim (bool): keep those dimensions with size 1. Default: ``False``.

    Keyword args:
        dtype (engine.dtype, optional): the dtype ``A`` is cast to first.

    Example::

        >>> A = engine.tensor([[1.0, -2.0], [3.0, 4.0]])
        >>> engine.linalg.matrix_norm(A, ord=1)
        tensor(6.)
    """
    fname = "linalg.matrix_norm"
    _check_tensor(A, fname)
    _check_matrix(A, fname)
    if dtype is not None:
        A = A.to(dtype)
    if A.dtype.is_complex and ord not in ("nuc", 2, -2):
        A = A.abs()  # these norms depend on the magnitudes only
    # The singular-value norms need LAPACK (no 16-bit version); the others are plain reductions.
    _check_float(A, fname, low_precision_ok=ord not in ("nuc", 2, -2))
    d0, d1 = (_wrap_dim(d, A.dim()) for d in dim)
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim)
    if ord == "nuc" or ord in (2, -2):
        M = A.movedim((d0, d1), (-2, -1))
        S = svdvals(M)
        if ord == "nuc":
            r = S.sum(-1)
        elif ord == 2:
            r = S.amax(-1)
        else:
            r = S.amin(-1)
        if keepdim:
            r = r.unsqueeze(min(d0, d1)).unsqueeze(max(d0, d1))
        return r
    if ord in (1, -1, math.inf, -math.inf):
        sum_dim, red_dim = (d0, d1) if ord in (1, -1) else (d1, d0)
        sums = A.abs().sum(sum_dim, keepdim=True)
        r = sums.amax(red_dim, keepdim=True) if ord > 0 else sums.amin(red_dim, keepdim=True)
        if not keepdim:
            r = r.squeeze(max(d0, d1)).squeeze(min(d0, d1))
        return r
    raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")


@accepts_out(fname="linalg_norm")
def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    """Vector or matrix norm, as ``ord`` and ``dim`` say: a :func:`matrix_norm` when ``dim`` has
    two entries (or ``A`` is 2-D and ``dim`` is ``None`` with an ``ord``), a
    :func:`vector_norm` otherwise. Without ``ord`` and ``dim``, the 2-norm of all elements.

    Args:
        A (Tensor): a floating-point tensor.
        ord (int, float, inf, -inf, 'fro' or 'nuc', optional): the norm. Default: ``None``.
        dim (int or tuple of ints, optional): the dimensions to reduce.
        keepdim (bool): keep the reduced dimensions with size 1. Default: ``False``.

    Keyword args:
        dtype (engine.dtype, optional): the dtype ``A`` is cast to first.

    Example::

        >>> A = engine.tensor([[3.0, 0.0], [0.0, 4.0]])
        >>> engine.linalg.norm(A), engine.linalg.norm(A, ord=2)
        (tensor(5.), tensor(4.))
    """
    fname = "linalg.norm"
    _check_tensor(A, fname)
    dims = _dims_tuple(dim)
    if dims is not None and len(dims) == 2:
        return matrix_norm(A, "fro" if ord is None else ord, dims, keepdim, dtype=dtype)
    if dims is not None:
        if isinstance(ord, str):
            raise RuntimeError(
                f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dims)}"
            )
        return vector_norm(A, 2 if ord is None else ord, dims, keepdim, dtype=dtype)
    if ord is None:
        return vector_norm(A, 2, None, keepdim, dtype=dtype)
    if A.dim() == 2 or isinstance(ord, str):
        return matrix_norm(A, ord, (-2, -1), keepdim, dtype=dtype)
    if A.dim() == 1:
        return vector_norm(A, ord, None, keepdim, dtype=dtype)
    raise RuntimeError(
        f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {A.dim()}D."
    )


@autocast_op("linalg.cond")
@accepts_out(fname="linalg_cond")
def cond(A, p=None, *, out=None):
    """The condition number of A in the p-norm (2-norm by default: ratio of singular values)."""
    fname = "linalg.cond"
    _check_tensor(A, fname)
    _check_matrix(A, fname)
    _check_float(A, "linalg.svd")
    if p is None or p in (2, -2):
        S = svdvals(A)
        if p == -2:
            return S.amin(-1) / S.amax(-1)
        return S.amax(-1) / S.amin(-1)
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(
            f"linalg.cond(ord={p}): A must be batches of square matrices, but they are "
            f"{A.shape[-2]} by {A.shape[-1]} matrices"
        )
    # A singular matrix has an infinite condition number rather than an error.
    inverse, info = inv_ex(A)
    result = matrix_norm(A, p) * matrix_norm(inverse, p)
    return _C.where(info > 0, _C.full((), math.inf, dtype=result.dtype), result)


# ---- products and shapes ----


@accepts_out(fname="linalg_cross")
def cross(input, other, *, dim=-1, out=None):
    """The cross product of 3-vectors along dim (broadcast)."""
    fname = "linalg.cross"
    if input.dtype == _C.bool:
        # PyTorch's kernel has no bool form, and its dispatch on input's dtype comes first.
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    if input.dtype != other.dtype:
        raise RuntimeError(
            f"expected scalar type {_TYPE_NAMES[input.dtype]} but found {_TYPE_NAMES[other.dtype]}"
        )
    if input.dim() != other.dim():
        raise RuntimeError(f"{fname}: inputs must have the same number of dimensions.")
    d = _wrap_dim(dim, input.dim())
    if input.shape[d] != 3 or other.shape[d] != 3:
        raise RuntimeError(
            f"{fname}: inputs dimension {dim} must have length 3. Got {input.shape[d]} and {other.shape[d]}"
        )
    i1 = _C.tensor([1, 2, 0])
    i2 = _C.tensor([2, 0, 1])
    a1, a2 = input.index_select(d, i1), input.index_select(d, i2)
    b1, b2 = other.index_select(d, i1), other.index_select(d, i2)
    return a1 * b2 - a2 * b1


@accepts_out(fname="linalg_multi_dot")
def multi_dot(tensors, *, out=None):
    """The product of a chain of matrices (first may be a row vector, last a column vector)."""
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    first, last = tensors[0], tensors[-1]
    mats = list(tensors)
    if first.dim() == 1:
        mats[0] = first.unsqueeze(0)
    if last.dim() == 1:
        mats[-1] = last.unsqueeze(-1)
    for i, t in enumerate(mats):
        if t.dim() != 2:
            which = "first" if i == 0 else "last" if i == len(mats) - 1 else None
            if which:
                raise RuntimeError(
                    f"multi_dot(): the {which} tensor must be 1D or 2D but got {tensors[i].dim()}D"
                )
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.dim()}D")
    result = mats[0]
    for t in mats[1:]:
        result = result @ t
    if first.dim() == 1:
        result = result.squeeze(0)
    if last.dim() == 1:
        result = result.squeeze(-1)
    return result


@accepts_out(fname="linalg_vecdot")
def vecdot(x, y, *, dim=-1, out=None):
    """The dot product of vectors along dim (broadcast)."""
    _check_tensor(x, "linalg.vecdot", "x")
    _check_tensor(y, "linalg.vecdot", "y", 2)
    _check_float(x, "linalg.vecdot", low_precision_ok=True)
    if x.dtype != y.dtype:
        raise RuntimeError(
            f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
            f"{_TYPE_NAMES[x.dtype]} and y of type {_TYPE_NAMES[y.dtype]} instead"
        )
    return (x * y).sum(dim)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """torch.diagonal with the matrix dims last by default."""
    return A.diagonal(offset, dim1, dim2)


@accepts_out(fname="linalg_tensorinv")
def tensorinv(A, ind=2, *, out=None):
    """The tensor whose tensordot with A over ind dims is the identity."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    out_shape = tuple(A.shape[ind:]) + tuple(A.shape[:ind])
    rows = math.prod(A.shape[:ind])
    cols = math.prod(A.shape[ind:])
    if rows != cols:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), "
            f"but got {cols} != {rows}"
        )
    return inv(A.reshape(rows, cols)).reshape(*out_shape)


@accepts_out(fname="linalg_tensorsolve")
def tensorsolve(A, B, dims=None, *, out=None):
    """X with tensordot(A, X, X.ndim) = B."""
    if dims is not None:
        dims = [d % A.dim() for d in dims]
        rest = [d for d in range(A.dim()) if d not in dims]
        A = A.permute(*rest, *dims)
    x_shape = tuple(A.shape[B.dim() :])
    rows = B.numel()
    cols = math.prod(x_shape)
    if rows != cols:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), "
            f"but got {cols} != {rows}"
        )
    return solve(A.reshape(rows, cols), B.reshape(rows)).reshape(*x_shape)


def vander(x, *, N=None):
    """Vandermonde matrices of increasing powers: x^0, x^1, ..., x^(N-1) along a new last dim."""
    if x.dtype in (_C.bool, _C.float16, _C.bfloat16):
        raise RuntimeError(
            "linalg.vander supports floating point, complex, and integer tensors, but got "
            f"{_TYPE_NAMES[x.dtype]}"
        )
    n = (x.shape[-1] if x.dim() else 1) if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    ones = _C.ones(*x.shape, 1, dtype=x.dtype)
    powers = x.unsqueeze(-1).expand(*x.shape, n - 1).cumprod(-1)
    return _C.cat([ones, powers], -1)
