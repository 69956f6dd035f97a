"""The differentiable LAPACK operations behind ``engine.linalg``.

Each class runs one LAPACK primitive of ``engine._C._lapack_*`` forward and states its backward rule
with differentiable engine ops (often the class itself, applied again), so ``create_graph=True``
gives higher derivatives. Arguments arrive checked and broadcast by ``engine.linalg``; results are
``(tensor, ..., info)`` where ``info`` (int32, LAPACK's status per matrix) is not differentiable.
"""

import types

from engine import _C
from engine.autograd import Function

# The LAPACK primitives, engine._C._lapack_<name>, under their short names.
_L = types.SimpleNamespace(
    **{
        name[len("_lapack_") :]: getattr(_C, name)
        for name in dir(_C)
        if name.startswith("_lapack_")
    }
)


def eye_like(A, n=None):
    """Identity matrices of A's dtype broadcast to A's batch shape (n x n, n = A.size(-1))."""
    n = A.shape[-1] if n is None else n
    eye = _C.zeros(n, n, dtype=A.dtype)
    eye.diagonal().fill_(1)
    return eye.expand(*A.shape[:-2], n, n)


def diag_embed(x):
    """Square matrices with x (..., n) on their diagonals."""
    return x.unsqueeze(-1) * eye_like(x.unsqueeze(-1).expand(*x.shape, x.shape[-1]))


def _halve_diagonal_tril(X):
    """tril(X) with its diagonal halved (the inverse of symmetrising a triangle)."""
    return X.tril() - 0.5 * diag_embed(X.diagonal(0, -2, -1))


def permutation_from_pivots(LU, pivots):
    """P of A = P L U for getrf's 1-based row interchanges (LU square, k = n pivots)."""
    eye = eye_like(LU).contiguous()
    # getrs applies the interchanges to the right-hand side: with unit factors it returns P^T.
    return _L.lu_solve(eye, pivots, eye, False).mT


class LinalgLuFactorEx(Function):
    """A = P L U: (LU, pivots, info)."""

    @staticmethod
    def forward(ctx, A):
        LU, pivots, info = _L.lu_factor(A)
        ctx.save_for_backward(LU, pivots)
        ctx.mark_non_differentiable(pivots, info)
        ctx._saved_pivot = True  # PyTorch's node shows pivot=True (the only kind on the CPU)
        return LU, pivots, info

    @staticmethod
    def backward(ctx, gLU, _gp, _gi):
        return _lu_factor_backward(*ctx.saved_tensors, gLU)


def _lu_factor_backward(LU, pivots, gLU):
    """The gradient of A from that of its compact LU factors (getrf's LU and pivots)."""
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    L, U = _unpack_factors(LU)
    gL, gU = gLU[..., :, :k].tril(-1), gLU[..., :k, :].triu()
    if m == n:
        gA = _lu_square_backward(L, U, gL, gU)
    elif m > n:
        # P^T A = [L1 U; L2 U]: L2 = A2 U^-1 sends gL2 U^-T to A2 and -L2^T gL2 U^-T to U.
        L1, L2, gL1, gL2 = L[..., :n, :], L[..., n:, :], gL[..., :n, :], gL[..., n:, :]
        gA2 = LinalgSolveTriangular.apply(U.mT, gL2, False, False, False)
        gA1 = _lu_square_backward(L1, U, gL1, gU - L2.mT @ gA2)
        gA = _C.cat([gA1, gA2], -2)
    else:
        # P^T A = [L U1 | L U2]: U2 = L^-1 A2 sends L^-T gU2 to A2 and -L^-T gU2 U2^T to L.
        U1, U2, gU1, gU2 = U[..., :, :m], U[..., :, m:], gU[..., :, :m], gU[..., :, m:]
        gA2 = LinalgSolveTriangular.apply(L.mT, gU2, True, True, True)
        gA1 = _lu_square_backward(L, U1, gL - gA2 @ U2.mT, gU1)
        gA = _C.cat([gA1, gA2], -1)
    return permutation_matrix(pivots, m, LU) @ gA


def _unpack_factors(LU):
    """(L, U) of a compact LU: L unit lower trapezoidal (m x k), U upper trapezoidal (k x n)."""
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    return LU[..., :, :k].tril(-1) + _eye_rect(LU, m, k), LU[..., :k, :].triu()


def _compact_grad(gL, gU, shape):
    """The gradient of a compact LU (of ``shape``) from those of its L and U: L's strict lower
    triangle and U's upper one, each in its place (L's unit diagonal is no function of LU).
    Given L and U themselves, the compact LU they unpack from."""
    m, n = shape[-2], shape[-1]
    k = min(m, n)
    gl, gu = gL.tril(-1), gU.triu()
    if n > k:
        gl = _C.cat([gl, _C.zeros(*gl.shape[:-1], n - k, dtype=gl.dtype)], -1)
    if m > k:
        gu = _C.cat([gu, _C.zeros(*gu.shape[:-2], m - k, n, dtype=gu.dtype)], -2)
    return gl + gu


class LinalgLu(Function):
    """linalg.lu's L and U (both outputs of one node), given A and its getrf factors (LU, pivots)
    in a tuple, which makes them no inputs of the node: its only edge goes to A, as PyTorch's."""

    @staticmethod
    def forward(ctx, A, factors):
        LU, pivots = factors
        L, U = _unpack_factors(LU)
        # The outputs are saved (LU is rebuilt from them, so a second derivative sees its graph);
        # the integer pivots are a plain attribute, no derivative goes through them.
        ctx.save_for_backward(L, U)
        ctx.pivots = pivots
        ctx._saved_pivot = True
        return L, U

    @staticmethod
    def backward(ctx, gL, gU):
        L, U = ctx.saved_tensors
        shape = (*L.shape[:-1], U.shape[-1])
        LU = _compact_grad(L, U, shape)
        return _lu_factor_backward(LU, ctx.pivots, _compact_grad(gL, gU, shape)), None


class LuUnpack(Function):
    """lu_unpack's L and U from a compact LU (both outputs of one node)."""

    @staticmethod
    def forward(ctx, LU):
        ctx.shape = tuple(LU.shape)
        ctx._saved_LU_data_sym_argsize_minus_1 = LU.shape[-1]
        ctx._saved_LU_data_sym_argsize_minus_2 = LU.shape[-2]
        return _unpack_factors(LU)

    @staticmethod
    def backward(ctx, gL, gU):
        return _compact_grad(gL, gU, ctx.shape)


def _eye_rect(like, m, k):
    """The m x k matrix with ones on its diagonal, of like's dtype."""
    eye = _C.zeros(m, k, dtype=like.dtype)
    eye.diagonal().fill_(1)
    return eye


def _lu_square_backward(L, U, gL, gU):
    """P^T gA for A = P L U with square L (unit lower) and U."""
    # dA = P (dL U + L dU): the adjoint is L^-T M U^-T with M = tril(L^T gL, -1) + triu(gU U^T).
    M = (L.mT @ gL).tril(-1) + (gU @ U.mT).triu()
    X = LinalgSolveTriangular.apply(L.mT, M, True, True, True)
    return LinalgSolveTriangular.apply(U.mT, X, False, False, False)


def permutation_matrix(pivots, m, like):
    """P (m x m) of getrf's pivots (..., min(m, n)), of like's dtype."""
    k = pivots.shape[-1]
    if k < m:
        tail = _C.arange(k + 1, m + 1, dtype=_C.int32).expand(*pivots.shape[:-1], m - k)
        pivots = _C.cat([pivots, tail], -1)
    # Built in float64 (getrs' domain), then given like's dtype: integer LU data unpacks too.
    square = _C.zeros(*pivots.shape[:-1], m, m, dtype=_C.float64)
    P = permutation_from_pivots(square, pivots.contiguous())
    # A tensor of its own, as PyTorch's P is (not a view of the solve's transposed output).
    return P.to(like.dtype) if like.dtype != _C.float64 else P.clone()


class LinalgLuSolve(Function):
    """X with A X = B (adjoint: A^T X = B), A given by its LU factors."""

    @staticmethod
    def forward(ctx, LU, pivots, B, adjoint):
        X = _L.lu_solve(LU, pivots, B, adjoint)
        ctx.save_for_backward(LU, pivots, X)
        ctx.adjoint = adjoint
        return X

    @staticmethod
    def backward(ctx, gX):
        LU, pivots, X = ctx.saved_tensors
        adjoint = ctx.adjoint
        gB = LinalgLuSolve.apply(LU, pivots, gX, not adjoint)
        gLU = None
        if ctx.needs_input_grad[0]:
            L = LU.tril(-1) + eye_like(LU)
            U = LU.triu()
            if not adjoint:
                # X = U^-1 L^-1 P^T B: gU = -triu(H X^T), gL = -tril(L^-T H X^T U^T, -1), H = U^-T gX.
                H = LinalgSolveTriangular.apply(U.mT, gX, False, True, False)
                HX = H @ X.mT
                gL = LinalgSolveTriangular.apply(L.mT, HX @ U.mT, True, True, True)
                gLU = -(gL.tril(-1) + HX.triu())
            else:
                # X = P L^-T U^-T B: with Z = P^T X, G = L^-1 P^T gX, Y = U^-T B = L^T Z:
                # gL = -tril(Z G^T, -1), gU = -triu(Y (U^-1 G)^T).
                P = permutation_from_pivots(LU, pivots)
                Z = P.mT @ X
                G = LinalgSolveTriangular.apply(L, P.mT @ gX, False, True, True)
                UG = LinalgSolveTriangular.apply(U, G, True, True, False)
                gLU = -((Z @ G.mT).tril(-1) + ((L.mT @ Z) @ UG.mT).triu())
        return gLU, None, gB, None


class LinalgInvEx(Function):
    """(A^-1, info) through getrf and getrs."""

    @staticmethod
    def forward(ctx, A):
        inverse, info = _L.inv(A)
        ctx.save_for_backward(inverse)
        ctx.mark_non_differentiable(info)
        return inverse, info

    @staticmethod
    def backward(ctx, g, _gi):
        (inverse,) = ctx.saved_tensors
        return -(inverse.mT @ g @ inverse.mT)


class LinalgSolveEx(Function):
    """(X, info) with A X = B, for A (..., n, n) and B (..., n, k) of one batch shape."""

    @staticmethod
    def forward(ctx, A, B):
        LU, pivots, info = _L.lu_factor(A)
        X = _L.lu_solve(LU, pivots, B, False)
        ctx.save_for_backward(A, X)
        ctx.mark_non_differentiable(info)
        return X, info

    @staticmethod
    def backward(ctx, gX, _gi):
        A, X = ctx.saved_tensors
        gB, _ = LinalgSolveEx.apply(A.mT, gX)
        gA = -(gB @ X.mT) if ctx.needs_input_grad[0] else None
        return gA, gB


class LinalgDet(Function):
    """det(A) from the LU factorisation."""

    @staticmethod
    def forward(ctx, A):
        det = _L.det(A)
        ctx.save_for_backward(A, det)
        return det

    @staticmethod
    def backward(ctx, g):
        A, det = ctx.saved_tensors
        if not bool((det == 0).any()):
            inverse, _ = LinalgInvEx.apply(A)
            return (g * det).unsqueeze(-1).unsqueeze(-1) * inverse.mT
        # A singular matrix has no inverse but a cofactor matrix: with A = U diag(S) Vh it is
        # det(U) det(Vh) U diag(prod_{j != i} S_j) Vh, which needs no division.
        U, S, Vh = LinalgSvd.apply(A, False, True)
        alpha = _det_parts(U)[2] * _det_parts(Vh)[2]
        n = S.shape[-1]
        ones = _C.ones(*S.shape[:-1], 1, dtype=S.dtype)
        before = _C.cat([ones, S[..., : n - 1]], -1).cumprod(-1)
        after = _C.cat([ones, S.flip(-1)[..., : n - 1]], -1).cumprod(-1).flip(-1)
        D = (g * alpha).unsqueeze(-1) * before * after
        return (U * D.unsqueeze(-2)) @ Vh


class LinalgSlogdet(Function):
    """(sign, log|det A|) from the LU factorisation; the sign is not differentiable."""

    @staticmethod
    def forward(ctx, A):
        sign, logabsdet, _ = _det_parts(A)
        ctx.save_for_backward(A)
        # The sign is an output of the node too (it has the node as grad_fn, as PyTorch's), but no
        # gradient flows through it: with only the sign used, A gets none.
        ctx.set_materialize_grads(False)
        return sign, logabsdet

    @staticmethod
    def backward(ctx, _gs, g):
        if g is None:
            return None
        (A,) = ctx.saved_tensors
        inverse, _ = LinalgInvEx.apply(A)
        return g.unsqueeze(-1).unsqueeze(-1) * inverse.mT


def _det_parts(A):
    """(sign, log|det|, det) of square matrices, from getrf's factors (no history)."""
    LU, pivots, _ = _L.lu_factor(A)
    n = A.shape[-1]
    diag = LU.diagonal(0, -2, -1)
    swaps = (pivots != _C.arange(1, n + 1, dtype=_C.int32)).sum(-1)
    parity = 1 - 2 * (swaps % 2)
    perm_sign = parity.to(A.dtype)
    sign = perm_sign * diag.sign().prod(-1)
    logabsdet = diag.abs().log().sum(-1)
    det = perm_sign * diag.prod(-1)
    return sign, logabsdet, det


class LinalgCholeskyEx(Function):
    """(L, info) with A = L L^T (upper: A = U^T U)."""

    @staticmethod
    def forward(ctx, A, upper):
        factor, info = _L.cholesky(A, upper)
        # potrf lets NaN through: a non-finite or non-positive pivot is a failed minor too.
        diag = factor.diagonal(0, -2, -1)
        bad = (~(diag.isfinite() & (diag > 0))).long()
        if diag.numel() and bool(bad.any()):
            first = bad.argmax(-1).int() + 1
            info = _C.where((info == 0) & (bad.sum(-1) > 0), first, info)
        ctx.save_for_backward(factor)
        ctx.upper = upper
        ctx._saved_upper = upper
        ctx.mark_non_differentiable(info)
        return factor, info

    @staticmethod
    def backward(ctx, g, _gi):
        (factor,) = ctx.saved_tensors
        L, gL = (factor.mT, g.mT) if ctx.upper else (factor, g)
        # dA = dL L^T + L dL^T gives gA = sym(L^-T Phi(L^T gL) L^-1), Phi = tril, diagonal halved.
        P = _halve_diagonal_tril(L.mT @ gL)
        S = LinalgSolveTriangular.apply(L.mT, P, True, True, False)
        S = LinalgSolveTriangular.apply(L, S, False, False, False)
        return 0.5 * (S + S.mT), None


class LinalgSolveTriangular(Function):
    """A^-1 B (left) or B A^-1 for triangular A of one batch shape with B (BLAS trsm)."""

    @staticmethod
    def forward(ctx, A, B, upper, left, unitriangular):
        X = _L.triangular_solve(A, B, upper, left, False, unitriangular)
        ctx.save_for_backward(A, X)
        ctx.flags = (upper, left, unitriangular)
        return X

    @staticmethod
    def backward(ctx, gX):
        A, X = ctx.saved_tensors
        upper, left, unit = ctx.flags
        gB = LinalgSolveTriangular.apply(A.mT, gX, not upper, left, unit)
        gA = None
        if ctx.needs_input_grad[0]:
            gA = -(gB @ X.mT) if left else -(X.mT @ gB)
            offset = 1 if unit else 0
            gA = gA.triu(offset) if upper else gA.tril(-offset)
        return gA, gB, None, None, None


class LinalgQr(Function):
    """(Q, R) of A in mode 'reduced', 'complete' or 'r' (Q then empty)."""

    @staticmethod
    def forward(ctx, A, mode):
        # geqrf and orgqr in one native pass; Q and R come back column-major, as PyTorch's.
        Q, R = _L.qr(A, {"reduced": "s", "complete": "c", "r": "r"}[mode])
        ctx.save_for_backward(Q, R)
        ctx.mode = mode
        ctx._saved_mode = mode  # PyTorch's node shows the mode as grad_fn._saved_mode
        return Q, R

    @staticmethod
    def backward(ctx, gQ, gR):
        Q, R = ctx.saved_tensors
        if ctx.mode == "r":
            raise RuntimeError(
                "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                "Please use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr."
            )
        m, n = Q.shape[-2], R.shape[-1]
        if ctx.mode == "complete" and m > n:
            raise RuntimeError(
                "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
            )
        if m >= n:
            return _qr_backward_tall(Q, R, gQ, gR), None
        # A = Q [X | Y], R = [U | V]: X = Q U is a square QR, and Y = Q V.
        U, V = R[..., :, :m], R[..., :, m:]
        gU, gV = gR[..., :, :m], gR[..., :, m:]
        # V = Q^T Y sends Y gV^T to Q's cotangent; Y = Q V gets Q gV.
        gX = _qr_backward_tall(Q, U, gQ + Q @ V @ gV.mT, gU)
        return _C.cat([gX, Q @ gV], -1), None


# PyTorch's node shows the outputs it keeps as grad_fn._saved_Q and grad_fn._saved_R.
LinalgQr._backward_cls._saved_Q = property(lambda ctx: ctx.saved_tensors[0], doc="The saved Q.")
LinalgQr._backward_cls._saved_R = property(lambda ctx: ctx.saved_tensors[1], doc="The saved R.")


def _qr_backward_tall(Q, R, gQ, gR):
    """A's cotangent for A = Q R with m >= n (R square, upper triangular)."""
    # M = R gR^T - gQ^T Q; gA = (gQ + Q copyltu(M)) R^-T, copyltu mirroring the lower triangle.
    M = R @ gR.mT - gQ.mT @ Q
    copyltu = M.tril() + M.tril(-1).mT
    b = gQ + Q @ copyltu
    # b R^-T: a right solve with the lower triangular R^T.
    return LinalgSolveTriangular.apply(R.mT, b, False, False, False)


class LinalgSvd(Function):
    """(U, S, Vh) of A by gesdd; U and Vh are empty when compute_uv is False."""

    @staticmethod
    def forward(ctx, A, full_matrices, compute_uv):
        U, S, Vh, info = _L.svd(A, full_matrices, compute_uv)
        if bool((info != 0).any()) and not bool(A.isfinite().all()):
            raise_for_info(
                info,
                A,
                "linalg.svd",
                lambda _: (
                    "The algorithm failed to converge because the input matrix contained "
                    "non-finite values."
                ),
            )
        check_convergence(info, "linalg.svd", A)
        ctx.save_for_backward(U, S, Vh)
        ctx._saved_full_matrices = full_matrices
        ctx._saved_S_sym_argsize_minus_1 = S.shape[-1]
        return U, S, Vh

    @staticmethod
    def backward(ctx, gU, gS, gVh):
        U, S, Vh = ctx.saved_tensors
        k = S.shape[-1]
        # Only the first k columns of U and rows of Vh are determined by A.
        U, Vh = U[..., :, :k], Vh[..., :k, :]
        gU = None if gU is None else gU[..., :, :k]
        gVh = None if gVh is None else gVh[..., :k, :]
        gA = U @ diag_embed(gS) @ Vh if gS is not None else None
        if gU is None and gVh is None:
            return gA, None, None
        m, n = U.shape[-2], Vh.shape[-1]
        gU = _C.zeros_like(U) if gU is None else gU
        gVh = _C.zeros_like(Vh) if gVh is None else gVh
        V, gV = Vh.mT, gVh.mT
        # F_ij = 1 / (s_j^2 - s_i^2) off the diagonal: the rotation among singular vectors.
        S2 = S * S
        diff = S2.unsqueeze(-2) - S2.unsqueeze(-1)
        eye = eye_like(diff)
        F = (1 - eye) / (diff + eye)
        UtgU = U.mT @ gU
        VtgV = V.mT @ gV
        J = F * (UtgU - UtgU.mT)
        K = F * (VtgV - VtgV.mT)
        Smat = diag_embed(S)
        inner = J @ Smat + Smat @ K
        if gA is not None:
            inner = inner + diag_embed(gS)
        result = U @ inner @ Vh
        Sinv = diag_embed(1 / S)
        if m > k:
            result = result + (gU - U @ UtgU) @ Sinv @ Vh
        if n > k:
            result = result + U @ Sinv @ (gV.mT - VtgV.mT @ Vh)
        return result, None, None


class LinalgEigh(Function):
    """(eigenvalues ascending, eigenvectors) of symmetric A from one triangle (syevd)."""

    @staticmethod
    def forward(ctx, A, upper):
        w, V, info = _L.eigh(A, upper, True)
        check_convergence(info, "linalg.eigh", A)
        ctx.save_for_backward(w, V)
        return w, V

    @staticmethod
    def backward(ctx, gw, gV):
        w, V = ctx.saved_tensors
        if gV is None:
            return V @ diag_embed(gw) @ V.mT, None
        # Inner matrix: skew(V^T gV) / (w_j - w_i) off the diagonal, gw on it.
        VtgV = V.mT @ gV
        diff = w.unsqueeze(-2) - w.unsqueeze(-1)
        eye = eye_like(diff)
        inner = (1 - eye) * (0.5 * (VtgV - VtgV.mT)) / (diff + eye)
        if gw is not None:
            inner = inner + diag_embed(gw)
        return V @ inner @ V.mT, None


def _without_derivative(op_name, class_name):
    """A Function running `compute` forward whose backward raises PyTorch's
    "the derivative for '<op>' is not implemented." (outputs still record the op)."""

    def forward(ctx, compute, *inputs):
        return compute(*inputs)

    def backward(ctx, *grads):
        raise RuntimeError(f"the derivative for '{op_name}' is not implemented.")

    return type(
        class_name,
        (Function,),
        {"forward": staticmethod(forward), "backward": staticmethod(backward)},
    )


Geqrf = _without_derivative("geqrf", "Geqrf")


# The graph nodes carry PyTorch's names (grad_fn.name() == "LinalgInvExBackward0", ...).
for _cls in (
    LinalgLuFactorEx, LinalgLuSolve, LinalgInvEx, LinalgSolveEx, LinalgDet, LinalgSlogdet,
    LinalgCholeskyEx, LinalgSolveTriangular, LinalgQr, LinalgSvd, LinalgEigh, Geqrf, LinalgLu,
    LuUnpack,
):  # fmt: skip
    _cls._backward_cls.__name__ = _cls._backward_cls.__qualname__ = _cls.__name__ + "Backward0"


def _name_saved_tensors(fn, *names):
    """Shows the tensors ``fn``'s forward saves under the names PyTorch's node gives them
    (``grad_fn._saved_eigenvalues``, with ``_raw_saved_eigenvalues`` its SavedTensor)."""
    node = fn._backward_cls
    for i, name in enumerate(names):
        setattr(node, f"_saved_{name}", property(lambda ctx, i=i: ctx.saved_tensors[i]))
        setattr(node, f"_raw_saved_{name}", property(lambda ctx, i=i: ctx._raw_saved_tensors[i]))


_name_saved_tensors(LinalgLuFactorEx, "LU", "pivots")
_name_saved_tensors(LinalgLu, "L", "U")
_name_saved_tensors(LinalgInvEx, "inverse")
_name_saved_tensors(LinalgCholeskyEx, "L")
_name_saved_tensors(LinalgQr, "Q", "R")
_name_saved_tensors(LinalgSvd, "U", "S", "Vh")
_name_saved_tensors(LinalgEigh, "eigenvalues", "eigenvectors")


class LinAlgError(RuntimeError):
    """Raised when a factorisation fails numerically (singular, not positive-definite, ...)."""


LinAlgError.__module__ = "engine.linalg"


def first_failure(info):
    """(batch index, info value) of the first nonzero info, or None."""
    if info.dim() == 0:  # one matrix: the common case, without a reduction
        value = info.item()
        return None if value == 0 else (0, value)
    failed = (info.reshape(-1) != 0).long()
    if failed.numel() == 0 or not bool(failed.any()):
        return None
    index = int(failed.argmax())
    return index, int(info.reshape(-1)[index])


def raise_for_info(info, A, fname, describe, error=None):
    """LinAlgError (or `error`) with describe(info value) for the first failed matrix, with its
    batch index."""
    failure = first_failure(info)
    if failure is None:
        return
    index, value = failure
    prefix = f"{fname}: (Batch element {index}): " if A.dim() > 2 else f"{fname}: "
    raise (error or LinAlgError)(prefix + describe(value))


def check_convergence(info, fname, A):
    raise_for_info(
        info,
        A,
        fname,
        lambda v: (
            "The algorithm failed to converge because the input matrix is ill-conditioned "
            f"or has too many repeated singular values (error code: {v})."
        ),
    )
