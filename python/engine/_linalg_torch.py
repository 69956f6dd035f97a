"""The ``torch.*`` and Tensor-method names of linear algebra (``torch.det``, ``Tensor.inverse``,
``torch.svd``, ``torch.cdist``, ...), written over ``engine.linalg``."""

import sys

import engine
from engine import _C, _grad_fn_names, _user_warnings, linalg, return_types
from engine import _linalg_checks as checks
from engine._linalg_functions import _L, Geqrf
from engine._out_param import accepts_out, write
from engine.amp._policy import autocast_op

# PyTorch's deprecation notices for the old names, each given once per process as PyTorch does.
_DEPRECATED = {
    "cross": (
        "Using torch.cross without specifying the dim arg is deprecated.\n"
        "Please either pass the dim explicitly or simply use torch.linalg.cross.\n"
        "The default value of dim will change to agree with that of linalg.cross in a future "
        "release."
    ),
    "cholesky": (
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be "
        "removed in a future PyTorch release.\n"
        "L = torch.cholesky(A)\n"
        "should be replaced with\n"
        "L = torch.linalg.cholesky(A)\n"
        "and\n"
        "U = torch.cholesky(A, upper=True)\n"
        "should be replaced with\n"
        "U = torch.linalg.cholesky(A).mH\n"
        "This transform will produce equivalent results for all valid (symmetric positive"
        " definite) inputs."
    ),
    "qr": (
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a "
        "future PyTorch release.\n"
        "The boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
        "Q, R = torch.qr(A, some)\n"
        "should be replaced with\n"
        "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')"
    ),
    "lu": (
        "torch.lu is deprecated in favor of torch.linalg.lu_factor / "
        "torch.linalg.lu_factor_ex and will be removed in a future PyTorch release.\n"
        "LU, pivots = torch.lu(A, compute_pivots)\n"
        "should be replaced with\n"
        "LU, pivots = torch.linalg.lu_factor(A, compute_pivots)\n"
        "and\n"
        "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\n"
        "should be replaced with\n"
        "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)"
    ),
    "lu_solve": (
        "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be "
        "removed in a future PyTorch release.\n"
        "Note that torch.linalg.lu_solve has its arguments reversed.\n"
        "X = torch.lu_solve(B, LU, pivots)\n"
        "should be replaced with\n"
        "X = torch.linalg.lu_solve(LU, pivots, B)"
    ),
    "triangular_solve": (
        "torch.triangular_solve is deprecated in favor of "
        "torch.linalg.solve_triangularand will be removed in a future PyTorch release.\n"
        "torch.linalg.solve_triangular has its arguments reversed and does not return a "
        "copy of one of the inputs.\n"
        "X = torch.triangular_solve(B, A).solution\n"
        "should be replaced with\n"
        "X = torch.linalg.solve_triangular(A, B)."
    ),
    "chain_matmul": (
        "torch.chain_matmul is deprecated and will be removed in a future PyTorch "
        "release. Use torch.linalg.multi_dot instead, which accepts a list of two or more"
        " tensors rather than multiple parameters."
    ),
    "nuclear_norm": (
        "at::nuclear_norm is deprecated and it is just left for JIT compatibility. It "
        "will be removed in a future PyTorch release. Please use `linalg.matrix_norm(A, "
        "'nuc', dim, keepdim)` instead"
    ),
    "frobenius_norm": (
        "at::frobenius_norm is deprecated and it is just left for JIT compatibility. It "
        "will be removed in a future PyTorch release. Please use `linalg.vector_norm(A, "
        "2., dim, keepdim)` instead"
    ),
}
_warned = set()


def _deprecated(name):
    """PyTorch's deprecation notice for ``name``, once per process, at the caller's line."""
    if name not in _warned:
        _warned.add(name)
        _user_warnings.warn(_DEPRECATED[name], UserWarning)


def det(input):
    """``linalg.det``."""
    return linalg.det(input)


def logdet(input):
    """log(det(input)): nan for a negative determinant, -inf for a singular matrix."""
    if isinstance(input, _C.Tensor) and not input.is_floating_point():
        raise RuntimeError(
            f"logdet: Expected a floating point or complex tensor as input. Got {checks._TYPE_NAMES[input.dtype]}"
        )
    if isinstance(input, _C.Tensor) and input.dtype in checks._LOW_PRECISION:
        raise RuntimeError(
            f"logdet: Low precision dtypes not supported. Got {checks._TYPE_NAMES[input.dtype]}"
        )
    sign, logabsdet = linalg.slogdet(input)
    # log(sign) is 0 for +1, nan for -1 and -inf for 0: added to log|det| it gives logdet.
    return logabsdet + sign.log()


def slogdet(input):
    """``linalg.slogdet`` under its torch.* result name."""
    sign, logabsdet = linalg.slogdet(input)
    return return_types.slogdet(sign, logabsdet)


@accepts_out(fname="inverse")
def inverse(input, *, out=None):
    """``linalg.inv``."""
    return linalg.inv(input)


@accepts_out(fname="cholesky")
def cholesky(input, upper=False, *, out=None):
    """``linalg.cholesky`` with errors named 'cholesky'."""
    _deprecated("cholesky")
    if isinstance(input, _C.Tensor) and not input.is_floating_point() and input.dim() >= 2:
        raise NotImplementedError(
            f"\"cholesky_cpu\" not implemented for '{checks._TYPE_NAMES[input.dtype]}'"
        )
    L, info = linalg.cholesky_ex(input, upper=upper)
    linalg.raise_for_info(info, input, "cholesky", checks._not_pd_message)
    return L


@autocast_op("cholesky_solve")
@accepts_out(fname="cholesky_solve")
def cholesky_solve(B, L, upper=False, *, out=None):
    """X with A X = B for A = L L^T (U^T U when upper), given the factor."""
    checks._check_square(L, "cholesky_solve", "A")
    checks._not_implemented_for(L, "cholesky_solve_cpu")
    if B.dtype != L.dtype:
        raise RuntimeError(
            f"Expected b and A to have the same dtype, but found b of type "
            f"{checks._TYPE_NAMES[B.dtype]} and A of type {checks._TYPE_NAMES[L.dtype]} instead."
        )
    Lb, Bb = checks._broadcast_batches(L, B)
    if upper:
        Y = linalg.solve_triangular(Lb.mT, Bb, upper=False)
        return linalg.solve_triangular(Lb, Y, upper=True)
    Y = linalg.solve_triangular(Lb, Bb, upper=False)
    return linalg.solve_triangular(Lb.mT, Y, upper=True)


@accepts_out(fname="cholesky_inverse")
def cholesky_inverse(L, upper=False, *, out=None):
    """A^-1 for A = L L^T (U^T U when upper), given the factor."""
    checks._check_square(L, "cholesky_inverse", "A")
    checks._not_implemented_for(L, "cholesky_inverse_out_cpu")
    return cholesky_solve(linalg.eye_like(L).clone(), L, upper)


@accepts_out(fname="qr")
def qr(input, some=True, *, out=None):
    """(Q, R): reduced when some, complete otherwise."""
    _deprecated("qr")
    Q, R = linalg.qr(input, "reduced" if some else "complete")
    return return_types.qr(Q, R)


@accepts_out(fname="svd")
def svd(input, some=True, compute_uv=True, *, out=None):
    """(U, S, V) with input = U diag(S) V^T; without compute_uv, U and V are zero-filled."""
    if not compute_uv:
        S = linalg.svdvals(input)
        m, n = input.shape[-2], input.shape[-1]
        U = _C.zeros(*input.shape[:-2], m, m, dtype=input.dtype)
        V = _C.zeros(*input.shape[:-2], n, n, dtype=input.dtype)
        return return_types.svd(U, S, V)
    U, S, Vh = linalg.svd(input, full_matrices=not some)
    return return_types.svd(U, S, Vh.mT)


@accepts_out(fname="lu")
def lu(A, pivot=True, get_infos=False, out=None):
    """(LU, pivots) of A, and infos when get_infos."""
    _deprecated("lu")
    LU, pivots, info = linalg.lu_factor_ex(A, pivot=pivot)
    return (LU, pivots, info) if get_infos else (LU, pivots)


@accepts_out(fname="lu_solve")
def lu_solve(b, LU_data, LU_pivots, *, out=None):
    """``linalg.lu_solve(LU_data, LU_pivots, b)``."""
    _deprecated("lu_solve")
    return linalg.lu_solve(LU_data, LU_pivots, b)


@accepts_out(fname="lu_unpack")
def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    """(P, L, U) from the compact LU and pivots."""
    P, L, U = linalg._unpack(LU_data, LU_pivots, unpack_data, unpack_pivots)
    return return_types.lu_unpack(P, L, U)


@autocast_op("pinverse")
def pinverse(input, rcond=1e-15):
    """``linalg.pinv`` with a relative tolerance."""
    return linalg.pinv(input, rtol=rcond)


def matrix_power(input, n):
    """``linalg.matrix_power``."""
    return linalg.matrix_power(input, n)


def matrix_exp(input):
    """``linalg.matrix_exp``."""
    return linalg.matrix_exp(input)


@accepts_out(fname="triangular_solve")
def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False, *, out=None):
    """(solution of op(A) X = b, a copy of A)."""
    _deprecated("triangular_solve")
    checks._check_matrix(b, "torch.triangular_solve", "b")
    checks._check_matrix(A, "torch.triangular_solve")
    checks._not_implemented_for(A, "triangular_solve_cpu")
    M = A.mT if transpose else A
    X = linalg.solve_triangular(M, b, upper=upper != transpose, unitriangular=unitriangular)
    # The copy of A is column-major, as LAPACK's input buffer that PyTorch returns.
    copy = A.mT.clone(memory_format=engine.contiguous_format).mT
    return return_types.triangular_solve(X, copy)


@accepts_out(fname="geqrf")
def geqrf(input, *, out=None):
    """(a, tau): LAPACK's compact Householder QR (no gradient, as in PyTorch)."""
    checks._check_tensor(input, "geqrf")
    checks._check_matrix(input, "geqrf", "input")
    checks._not_implemented_for(input, "geqrf_cpu")
    a, tau = Geqrf.apply(_L.geqrf, input)
    return return_types.geqrf(a, tau)


def orgqr(input, tau):
    """``linalg.householder_product``."""
    return linalg.householder_product(input, tau)


@accepts_out(fname="ormqr")
def ormqr(input, tau, other, left=True, transpose=False, *, out=None):
    """op(Q) other (left) or other op(Q), Q the product of the reflectors (input, tau)."""
    fname = "torch.ormqr"
    checks._check_matrix(input, fname, "input")
    checks._check_matrix(other, fname, "other")
    checks._check_float(input, fname)
    if input.dtype != other.dtype or input.dtype != tau.dtype:
        raise RuntimeError(f"{fname}: Expected input, tau and other to have the same dtype")
    batch = list(input.shape[:-2])
    for name, t, nd in (("tau", tau, 1), ("other", other, 2)):
        if list(t.shape[:-nd]) != batch:
            raise RuntimeError(
                f"{fname}: Expected batch dimensions of {name} to be equal to input.shape[:-2], "
                f"but got {list(t.shape[:-nd])}"
            )
    axis = -2 if left else -1
    if other.shape[axis] != input.shape[-2]:
        raise RuntimeError(f"{fname}: other.shape[{axis}] must be equal to input.shape[-2]")
    if tau.shape[-1] > input.shape[-1]:
        raise RuntimeError(f"{fname}: tau.shape[-1] must be less than or equal to input.shape[-1]")
    if _C.is_grad_enabled() and any(t.requires_grad for t in (input, tau, other)):
        Q = linalg.reflectors_product(input, tau)
        Q = Q.mT if transpose else Q
        return Q @ other if left else other @ Q
    return _L.ormqr(input, tau, other, bool(left), bool(transpose))


@accepts_out(fname="chain_matmul")
def chain_matmul(*matrices, out=None):
    """The product of 2-D matrices, in order."""
    _deprecated("chain_matmul")
    if len(matrices) == 1:
        return matrices[0].clone()
    return linalg.multi_dot(matrices)


@accepts_out(fname="nuclear_norm")
def nuclear_norm(input, dim=None, keepdim=False, *, out=None):
    """The sum of singular values (over the last two dims, or `dim`)."""
    _deprecated("nuclear_norm")
    return linalg.matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim)


@accepts_out(fname="frobenius_norm")
def frobenius_norm(input, dim, keepdim=False, *, out=None):
    """The square root of the sum of squares over `dim`."""
    _deprecated("frobenius_norm")
    return linalg.vector_norm(input, 2, dim, keepdim)


@accepts_out(fname="cross")
def cross(input, other, dim=None, *, out=None):
    """The cross product along `dim` (by default the first dim of size 3)."""
    if dim is None:
        _deprecated("cross")
        for d, (a, b) in enumerate(zip(input.shape, other.shape)):
            if a == 3 and b == 3:
                dim = d
                break
        else:
            raise RuntimeError("no dimension of size 3 in input")
    return _grad_fn_names.name_grad_fn(
        linalg.cross(input, other, dim=dim), "LinalgCrossBackward0", (input,)
    )


def dist(input, other, p=2):
    """The p-norm of input - other."""
    diff = input - other
    if not diff.is_floating_point():
        raise RuntimeError(
            "norm(): input dtype should be either floating point or complex. "
            f"Got {checks._TYPE_NAMES[diff.dtype]} instead."
        )
    return linalg.vector_norm(input - other, p)


@autocast_op("cdist")
def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of x1 (..., P, M) and each row of x2 (..., R, M)."""
    for name, x in (("X1", x1), ("X2", x2)):
        if x.dim() < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {x.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(
            f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}"
        )
    for name, x in (("X1", x1), ("X2", x2)):
        if not x.is_floating_point():
            raise RuntimeError(
                f"cdist only supports floating-point dtypes, {name} got: {checks._TYPE_NAMES[x.dtype]}"
            )
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    return linalg.vector_norm(diff, p, -1)


def svd_lowrank(A, q=6, niter=2, M=None):
    """(U, S, V) of a randomized rank-q SVD of A - M (Halko et al.)."""
    q = 6 if q is None else q
    X = A if M is None else A - M
    R = _C.randn(*X.shape[:-2], X.shape[-1], q, dtype=X.dtype)
    Q = linalg.qr(X @ R).Q
    for _ in range(niter):
        Q = linalg.qr(X.mT @ Q).Q
        Q = linalg.qr(X @ Q).Q
    B = Q.mT @ X
    U, S, Vh = linalg.svd(B, full_matrices=False)
    return Q @ U, S, Vh.mT


def pca_lowrank(A, q=None, center=True, niter=2):
    """(U, S, V) of the low-rank PCA of A (columns centred when center)."""
    m, n = A.shape[-2], A.shape[-1]
    q = min(6, m, n) if q is None else q
    if center:
        A = A - A.mean(-2, keepdim=True)
    return svd_lowrank(A, q, niter)


def vander(x, N=None, increasing=False):
    """Vandermonde matrix of a 1-D x: decreasing powers unless increasing."""
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    if n <= 1:
        out = _C.ones(x.shape[0], n, dtype=x.dtype)
    else:
        out = linalg.vander(x, N=n)
    return out if increasing else out.flip(-1)


_native_norm = _C.norm


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """torch.norm: the native p-norms, and the nuclear norm of matrices (p='nuc')."""
    if isinstance(p, str) and p == "nuc":
        dims = (-2, -1) if dim is None else dim
        result = linalg.matrix_norm(input, "nuc", dims, keepdim, dtype=dtype)
        return result if out is None else write(out, result, [input], "norm")
    if out is not None:
        result = _native_norm(input, p, dim, keepdim, dtype=dtype)
        return write(out, result, [input], "norm")
    return _native_norm(input, p, dim, keepdim, dtype=dtype)


_ALL_FUNCTIONS = {
    f.__name__: f
    for f in (
        det, logdet, slogdet, inverse, cholesky, cholesky_inverse, cholesky_solve, qr, svd, lu,
        lu_solve, lu_unpack, pinverse, matrix_power, matrix_exp, triangular_solve, geqrf, orgqr,
        ormqr, chain_matmul, nuclear_norm, frobenius_norm, svd_lowrank, pca_lowrank, cross, cdist,
        dist, vander, norm,
    )
}  # fmt: skip

# The torch.* names to export: those the package (still being imported) does not already have
# from another family (dist, cdist, vander may come from there), and norm, which gains p='nuc'.
_package = sys.modules.get("engine")
FUNCTIONS = {k: v for k, v in _ALL_FUNCTIONS.items() if k == "norm" or not hasattr(_package, k)}

# Tensor methods of the same names (self as the first argument).
METHODS = {
    k: _ALL_FUNCTIONS[k]
    for k in (
        "det", "logdet", "slogdet", "inverse", "cholesky", "cholesky_inverse", "cholesky_solve",
        "qr", "svd", "lu", "lu_solve", "pinverse", "matrix_power", "matrix_exp",
        "triangular_solve", "geqrf", "orgqr", "ormqr", "cross", "dist", "norm",
    )
}  # fmt: skip


def install():
    """Adds the Tensor methods (existing native methods of the same name are kept, but for
    norm, which gains p='nuc')."""
    for name, fn in METHODS.items():
        if not hasattr(_C.Tensor, name) or name == "norm":
            setattr(_C.Tensor, name, fn)
