"""engine.linalg and the torch.* linear-algebra names: values against NumPy (float64),
reconstructions, batched / empty / non-contiguous inputs, gradients (gradcheck and gradgradcheck),
and errors against PyTorch's recorded messages (fixtures/linalg_errors.json)."""

import builtins
import json
import pathlib

import engine
import numpy as np
import pytest
from engine import linalg as LA
from engine.autograd import gradcheck, gradgradcheck

F64 = engine.float64
# The deprecated torch.* names warn once per process; their own test checks the warnings.
pytestmark = pytest.mark.filterwarnings("ignore:.*is deprecated:UserWarning")
ERRORS = json.loads((pathlib.Path(__file__).parent / "fixtures" / "linalg_errors.json").read_text())


def rand(*shape, dtype=F64, seed=0):
    rng = np.random.default_rng(seed)
    return engine.tensor(rng.standard_normal(shape), dtype=dtype)


def spd(*shape, seed=0):
    """Symmetric positive-definite matrices of shape (..., n, n)."""
    a = rand(*shape, seed=seed).numpy()
    n = shape[-1]
    return engine.tensor(a @ np.swapaxes(a, -1, -2) + n * np.eye(n))


def close(x, ref, tol=1e-10):
    x = x.numpy() if isinstance(x, engine.Tensor) else np.asarray(x)
    assert x.shape == np.shape(ref)
    np.testing.assert_allclose(x, ref, rtol=tol, atol=tol)


# ---- values against NumPy ----

BATCHES = [(), (3,), (2, 2), (0,)]


@pytest.mark.parametrize("batch", BATCHES)
def test_inv_det_slogdet_match_numpy(batch):
    A = rand(*batch, 4, 4)
    a = A.numpy()
    close(LA.inv(A), np.linalg.inv(a))
    close(LA.det(A), np.linalg.det(a))
    sign, logabs = np.linalg.slogdet(a)
    res = LA.slogdet(A)
    close(res.sign, sign)
    close(res.logabsdet, logabs)
    close(engine.inverse(A), np.linalg.inv(a))
    close(A.det(), np.linalg.det(a))


@pytest.mark.parametrize("batch", BATCHES)
def test_solve_matches_numpy(batch):
    A, B = rand(*batch, 3, 3), rand(*batch, 3, 2, seed=1)
    close(LA.solve(A, B), np.linalg.solve(A.numpy(), B.numpy()))
    # left=False: X A = B
    C = rand(*batch, 2, 3, seed=2)
    X = LA.solve(A, C, left=False)
    close(X @ A, C.numpy())


def test_solve_vector_and_broadcast_rhs():
    A = rand(4, 3, 3)
    b = rand(3, seed=1)
    close(
        LA.solve(A, b),
        np.linalg.solve(A.numpy(), np.broadcast_to(b.numpy()[:, None], (4, 3, 1)))[..., 0],
    )
    # B of shape A.shape[:-1] is a batch of vectors
    bb = rand(4, 3, seed=2)
    close(LA.solve(A, bb), np.linalg.solve(A.numpy(), bb.numpy()[..., None])[..., 0])
    # batch broadcasting
    B = rand(2, 1, 3, 2, seed=3)
    X = LA.solve(A, B)
    assert X.shape == (2, 4, 3, 2)


def test_solve_ex_reports_info():
    A = engine.tensor([[1.0, 2.0], [2.0, 4.0]])
    res = LA.solve_ex(A, engine.ones(2, 1))
    assert res.info.item() == 2
    inv, info = LA.inv_ex(A)
    assert info.dtype == engine.int32 and info.item() == 2


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(upper):
    A = spd(3, 4, 4)
    L = LA.cholesky(A, upper=upper)
    ref = np.linalg.cholesky(A.numpy())
    close(L, np.swapaxes(ref, -1, -2) if upper else ref)
    res = LA.cholesky_ex(A)
    assert res.info.tolist() == [0, 0, 0]
    bad = LA.cholesky_ex(engine.tensor([[1.0, 2.0], [2.0, 1.0]]))
    assert bad.info.item() == 2


def test_cholesky_solve_and_inverse():
    A = spd(2, 3, 3)
    B = rand(2, 3, 2, seed=1)
    for upper in (False, True):
        F = LA.cholesky(A, upper=upper)
        close(engine.cholesky_solve(B, F, upper), np.linalg.solve(A.numpy(), B.numpy()))
        close(engine.cholesky_inverse(F, upper), np.linalg.inv(A.numpy()))


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (3, 3), (2, 5, 3), (0, 3, 2)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr_reconstructs(shape, mode):
    A = rand(*shape)
    Q, R = LA.qr(A, mode=mode)
    m, n = shape[-2:]
    k = min(m, n)
    if mode == "r":
        assert Q.numel() == 0 and R.shape == (*shape[:-2], k, n)
        return
    cols = m if mode == "complete" else k
    assert Q.shape == (*shape[:-2], m, cols) and R.shape == (*shape[:-2], cols, n)
    close(Q @ R, A.numpy())
    close(Q.mT @ Q, np.broadcast_to(np.eye(cols), (*shape[:-2], cols, cols)))
    close(R, np.triu(R.numpy()))


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 3, 3), (0, 2, 2), (0, 3)])
@pytest.mark.parametrize("full", [True, False])
def test_svd_reconstructs(shape, full):
    A = rand(*shape)
    U, S, Vh = LA.svd(A, full_matrices=full)
    m, n = shape[-2:]
    k = min(m, n)
    close(S, np.linalg.svd(A.numpy(), compute_uv=False))
    assert U.shape == (*shape[:-2], m, m if full else k)
    assert Vh.shape == (*shape[:-2], n if full else k, n)
    close((U[..., :, :k] * S.unsqueeze(-2)) @ Vh[..., :k, :], A.numpy())
    close(LA.svdvals(A), S.numpy())
    old = engine.svd(A)
    close(old.V, np.swapaxes(LA.svd(A, full_matrices=False).Vh.numpy(), -1, -2))


def test_eigh_and_eigvalsh():
    A = spd(3, 4, 4)
    a = A.numpy()
    w, V = LA.eigh(A)
    close(w, np.linalg.eigvalsh(a))
    close(V @ (w.unsqueeze(-1) * V.mT), a)
    close(LA.eigvalsh(A, UPLO="U"), np.linalg.eigvalsh(a, UPLO="U"))
    # only the named triangle is read
    junk = engine.tensor(np.triu(a) + np.tril(np.ones_like(a), -1) * 100)
    close(LA.eigvalsh(junk, UPLO="U"), np.linalg.eigvalsh(a))


def test_float32_and_noncontiguous_inputs():
    A = rand(5, 5, dtype=engine.float32)
    At = A.mT  # a transposed view
    assert not At.is_contiguous()
    inv = LA.inv(At)
    assert inv.dtype == engine.float32
    close(inv, np.linalg.inv(At.numpy()), tol=1e-4)
    sliced = rand(6, 6)[::2, 1::2]
    close(LA.det(sliced), np.linalg.det(sliced.numpy()))
    close(LA.svdvals(sliced), np.linalg.svd(sliced.numpy(), compute_uv=False))


def test_lu_family():
    A = rand(2, 4, 4)
    LU, piv = LA.lu_factor(A)
    assert piv.dtype == engine.int32 and piv.shape == (2, 4)
    P, L, U = LA.lu(A)
    close(P @ L @ U, A.numpy())
    P2, L2, U2 = engine.lu_unpack(LU, piv)
    close(P2, P.numpy())
    B = rand(2, 4, 3, seed=1)
    close(LA.lu_solve(LU, piv, B), np.linalg.solve(A.numpy(), B.numpy()))
    close(
        LA.lu_solve(LU, piv, B, adjoint=True),
        np.linalg.solve(np.swapaxes(A.numpy(), -1, -2), B.numpy()),
    )
    C = rand(2, 3, 4, seed=2)
    close(LA.lu_solve(LU, piv, C, left=False) @ A, C.numpy())
    close(engine.lu_solve(B, LU, piv), np.linalg.solve(A.numpy(), B.numpy()))
    # rectangular
    W = rand(3, 5)
    P, L, U = LA.lu(W)
    assert L.shape == (3, 3) and U.shape == (3, 5)
    close(P @ L @ U, W.numpy())


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
def test_solve_triangular(upper, left):
    A = rand(2, 3, 3) + 3 * engine.eye(3, dtype=F64)
    A = A.triu() if upper else A.tril()
    B = rand(2, 3, 4, seed=1) if left else rand(2, 4, 3, seed=1)
    X = LA.solve_triangular(A, B, upper=upper, left=left)
    close(A @ X if left else X @ A, B.numpy())
    if left:
        res = engine.triangular_solve(B, A, upper=upper)
        close(res.solution, X.numpy())


def test_lstsq_drivers():
    A, B = rand(5, 3), rand(5, 2, seed=1)
    ref = np.linalg.lstsq(A.numpy(), B.numpy(), rcond=None)
    for driver in (None, "gelsy", "gelsd", "gelss", "gels"):
        res = LA.lstsq(A, B, driver=driver)
        close(res.solution, ref[0])
    res = LA.lstsq(A, B, driver="gelsd")
    close(res.residuals, ref[1])
    close(res.singular_values, ref[3])
    assert res.rank.item() == 3
    assert LA.lstsq(A, B).residuals.numel() == 0
    # a vector right-hand side keeps a length-1 residual
    vec = LA.lstsq(A, B[:, 0], driver="gelsd")
    close(vec.solution, ref[0][:, 0])
    assert vec.residuals.shape == (1,)
    # underdetermined: the minimum-norm solution
    W, C = rand(2, 4), rand(2, 3, seed=2)
    close(
        LA.lstsq(W, C, driver="gelsd").solution,
        np.linalg.lstsq(W.numpy(), C.numpy(), rcond=None)[0],
    )


def test_pinv_rank_cond():
    A = rand(4, 3)
    close(LA.pinv(A), np.linalg.pinv(A.numpy()))
    close(engine.pinverse(A), np.linalg.pinv(A.numpy()))
    S = spd(3, 3)
    close(LA.pinv(S, hermitian=True), np.linalg.pinv(S.numpy()))
    low = engine.tensor(np.outer([1.0, 2, 3], [1.0, 0, 1]))
    assert LA.matrix_rank(low).item() == 1
    assert LA.matrix_rank(A).item() == 3
    close(LA.cond(A), np.linalg.cond(A.numpy()))
    singular = engine.tensor([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]]], dtype=F64)
    close(LA.cond(singular, "fro"), [np.inf, 2.0])
    sq = rand(3, 3, seed=4)
    for p in (1, -1, np.inf, "fro", "nuc", 2, -2):
        close(LA.cond(sq, p), np.linalg.cond(sq.numpy(), p), tol=1e-8)


def test_matrix_power_and_exp():
    A = rand(2, 3, 3) * 0.5
    a = A.numpy()
    for n in (0, 1, 2, 5, -1, -3):
        close(LA.matrix_power(A, n), np.linalg.matrix_power(a, n), tol=1e-9)
    ints = engine.tensor([[1, 1], [1, 0]])
    assert LA.matrix_power(ints, 10).tolist() == [[89, 55], [55, 34]]
    # exp of a nilpotent and of a rotation generator
    N = engine.tensor([[0.0, 1.0], [0.0, 0.0]], dtype=F64)
    close(LA.matrix_exp(N), [[1.0, 1.0], [0.0, 1.0]])
    theta = 3.0
    G = engine.tensor([[0.0, -theta], [theta, 0.0]], dtype=F64)
    c, s = np.cos(theta), np.sin(theta)
    close(engine.matrix_exp(G), [[c, -s], [s, c]], tol=1e-12)
    big = rand(3, 3, seed=5) * 4
    w, V = np.linalg.eig(big.numpy())
    ref = (V @ np.diag(np.exp(w)) @ np.linalg.inv(V)).real
    close(LA.matrix_exp(big), ref, tol=1e-8)


def test_norms():
    x = rand(3, 4)
    a = x.numpy()
    for ord in (2, 1, 3.5, np.inf, -np.inf, 0):
        close(LA.vector_norm(x, ord), np.linalg.norm(a.ravel(), ord))
        close(LA.vector_norm(x, ord, dim=1), np.linalg.norm(a, ord, axis=1))
    for ord in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        close(LA.matrix_norm(x, ord), np.linalg.norm(a, ord))
        close(LA.norm(x, ord), np.linalg.norm(a, ord))
    close(LA.matrix_norm(x, "fro", keepdim=True), np.linalg.norm(a, "fro", keepdims=True))
    close(
        LA.matrix_norm(rand(2, 3, 4), 2, dim=(0, 2), keepdim=True).squeeze(),
        np.linalg.norm(rand(2, 3, 4).numpy(), 2, axis=(0, 2)),
    )
    close(LA.norm(x), np.linalg.norm(a))
    close(engine.nuclear_norm(x), np.linalg.norm(a, "nuc"))
    close(engine.frobenius_norm(x, (0, 1)), np.linalg.norm(a))


def test_products_and_shapes():
    a, b = rand(4, 3), rand(4, 3, seed=1)
    close(LA.cross(a, b), np.cross(a.numpy(), b.numpy()))
    close(engine.cross(a, b, dim=1), np.cross(a.numpy(), b.numpy()))
    close(LA.vecdot(a, b), (a.numpy() * b.numpy()).sum(-1))
    ms = [rand(2, 3), rand(3, 4, seed=1), rand(4, 5, seed=2)]
    close(LA.multi_dot(ms), np.linalg.multi_dot([m.numpy() for m in ms]))
    close(engine.chain_matmul(*ms), np.linalg.multi_dot([m.numpy() for m in ms]))
    close(
        LA.multi_dot([rand(3), rand(3, 4), rand(4, seed=3)]),
        np.linalg.multi_dot([rand(3).numpy(), rand(3, 4).numpy(), rand(4, seed=3).numpy()]),
    )
    v = engine.tensor([1.0, 2.0, 3.0], dtype=F64)
    close(LA.vander(v), np.vander(v.numpy(), increasing=True))
    close(engine.vander(v), np.vander(v.numpy()))
    close(engine.vander(v, 4, increasing=True), np.vander(v.numpy(), 4, increasing=True))
    assert engine.vander(v, 0).shape == (3, 0)
    close(LA.vander(v, N=2), np.vander(v.numpy(), 2, increasing=True))
    T = rand(4, 6, 8, 3)
    close(LA.tensorinv(T, ind=2), np.linalg.tensorinv(T.numpy(), ind=2), tol=1e-8)
    Bt = rand(4, 6, seed=1)
    close(LA.tensorsolve(T, Bt), np.linalg.tensorsolve(T.numpy(), Bt.numpy()), tol=1e-8)
    close(LA.diagonal(rand(2, 3, 3)), np.diagonal(rand(2, 3, 3).numpy(), axis1=-2, axis2=-1))
    x1, x2 = rand(5, 3), rand(4, 3, seed=1)
    ref = np.linalg.norm(x1.numpy()[:, None] - x2.numpy()[None], axis=-1)
    close(engine.cdist(x1, x2), ref)
    close(engine.dist(x1, x1 * 2), np.linalg.norm(x1.numpy()))


def test_householder_geqrf_ormqr():
    A = rand(5, 3)
    a, tau = engine.geqrf(A)
    Q = LA.householder_product(a, tau)
    Qref = LA.qr(A).Q
    close(Q, Qref.numpy())
    close(engine.orgqr(a, tau), Qref.numpy())
    C = rand(5, 2, seed=1)
    Qfull = LA.qr(A, mode="complete").Q
    close(engine.ormqr(a, tau, C), (Qfull @ C).numpy())
    close(engine.ormqr(a, tau, C, transpose=True), (Qfull.mT @ C).numpy())


def test_lowrank():
    engine.manual_seed(0)
    U0, V0 = rand(20, 3), rand(10, 3, seed=1)
    A = U0 @ V0.mT
    U, S, V = engine.svd_lowrank(A, q=3)
    close(S, np.linalg.svd(A.numpy(), compute_uv=False)[:3], tol=1e-8)
    close((U * S.unsqueeze(-2)) @ V.mT, A.numpy(), tol=1e-8)
    U, S, V = engine.pca_lowrank(A, q=3)
    centred = A.numpy() - A.numpy().mean(0)
    close(S, np.linalg.svd(centred, compute_uv=False)[:3], tol=1e-8)


def test_return_types_and_grad_fn_names():
    A = rand(3, 3)
    assert type(LA.slogdet(A)).__name__ == "linalg_slogdet"
    assert LA.qr(A)._fields == ("Q", "R")
    assert LA.svd(A)._fields == ("U", "S", "Vh")
    assert LA.eigh(spd(3, 3))._fields == ("eigenvalues", "eigenvectors")
    assert LA.lstsq(A, A)._fields == ("solution", "residuals", "rank", "singular_values")
    assert repr(LA.inv_ex(A)).startswith("torch.return_types.linalg_inv_ex(")
    x = A.clone().requires_grad_()
    assert LA.inv(x).grad_fn.name() == "LinalgInvExBackward0"
    assert LA.det(x).grad_fn.name() == "LinalgDetBackward0"
    assert LA.solve(x, x).grad_fn.name() == "LinalgSolveExBackward0"
    assert LA.svd(x).S.grad_fn.name() == "LinalgSvdBackward0"


# ---- gradients ----


def _leaf(*shape, seed=0):
    return rand(*shape, seed=seed).requires_grad_()


def _spd_of(a):
    return a @ a.mT + a.shape[-1] * engine.eye(a.shape[-1], dtype=F64)


GRAD_CASES = {
    "inv": lambda a: LA.inv(a),
    "det": lambda a: LA.det(a),
    "slogdet": lambda a: LA.slogdet(a).logabsdet,
    "logdet": lambda a: engine.logdet(_spd_of(a)),
    "solve": lambda a: LA.solve(a, a.sum(-1, keepdim=True) + 1),
    "solve_left_false": lambda a: LA.solve(a, a[..., :2, :] * 2, left=False),
    "cholesky": lambda a: LA.cholesky(_spd_of(a)),
    "cholesky_upper": lambda a: LA.cholesky(_spd_of(a), upper=True),
    "qr": lambda a: LA.qr(a),
    "svd": lambda a: (
        LA.svd(a, full_matrices=False).S,
        LA.svd(a, full_matrices=False).U @ LA.svd(a, full_matrices=False).Vh,
    ),
    "svdvals": lambda a: LA.svdvals(a),
    "eigh": lambda a: (LA.eigh(a + a.mT).eigenvalues, LA.eigh(a + a.mT).eigenvectors.abs()),
    "eigvalsh": lambda a: LA.eigvalsh(a + a.mT),
    "pinv": lambda a: LA.pinv(a),
    "matrix_power": lambda a: LA.matrix_power(a, 3),
    "matrix_power_neg": lambda a: LA.matrix_power(a, -2),
    "matrix_exp": lambda a: LA.matrix_exp(a),
    "vector_norm": lambda a: LA.vector_norm(a, 3),
    "matrix_norm_nuc": lambda a: LA.matrix_norm(a, "nuc"),
    "matrix_norm_2": lambda a: LA.matrix_norm(a, 2),
    "solve_triangular": lambda a: LA.solve_triangular(
        a.triu() + 4 * engine.eye(3, dtype=F64), a, upper=True
    ),
    "solve_triangular_right_unit": lambda a: LA.solve_triangular(
        a.tril(), a, upper=False, left=False, unitriangular=True
    ),
    "lu_factor": lambda a: LA.lu_factor(a).LU,
    "lu_factor_tall": lambda a: LA.lu_factor(a[..., :, :2]).LU,
    "lu_wide": lambda a: LA.lu(a[..., :2, :])[1:],
    "lu": lambda a: LA.lu(a)[1:],
    "lu_solve": lambda a: LA.lu_solve(*LA.lu_factor(a), a * 2),
    "lu_solve_adjoint": lambda a: LA.lu_solve(*LA.lu_factor(a), a * 2, adjoint=True),
    "cholesky_solve": lambda a: engine.cholesky_solve(a, LA.cholesky(_spd_of(a))),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_gradcheck_and_gradgradcheck(name):
    f = GRAD_CASES[name]
    a = _leaf(3, 3)
    assert gradcheck(f, (a,))
    assert gradgradcheck(f, (a,))


@pytest.mark.parametrize("shape", [(4, 2), (2, 4), (2, 3, 2)])
def test_gradcheck_rectangular(shape):
    a = _leaf(*shape)
    b = rand(*shape[:-1], 2, seed=1)
    for f in (
        lambda x: LA.qr(x),
        lambda x: (
            LA.svd(x, full_matrices=False).S,
            LA.svd(x, full_matrices=False).U @ LA.svd(x, full_matrices=False).Vh,
        ),
        LA.pinv,
        lambda x: LA.lstsq(x, b).solution,
    ):
        assert gradcheck(f, (a,))
        assert gradgradcheck(f, (a,))


def test_gradcheck_batched_solve_and_inv():
    a = (_leaf(2, 3, 3) + 3 * engine.eye(3, dtype=F64)).detach().requires_grad_()
    b = _leaf(3, 2, seed=1)  # broadcast over A's batch
    assert gradcheck(lambda x, y: LA.solve(x, y), (a, b))
    assert gradcheck(LA.inv, (a,))


def test_qr_derivative_errors_match_pytorch():
    a = _leaf(4, 2)
    Q, R = LA.qr(a, mode="complete")
    with pytest.raises(
        RuntimeError, match="not differentiable when mode='complete' and nrows > ncols"
    ):
        (Q.sum() + R.sum()).backward()
    _, R = LA.qr(a, mode="r")
    with pytest.raises(RuntimeError, match="depends on Q, which is not computed when mode='r'"):
        R.sum().backward()


# ---- errors ----


@pytest.mark.parametrize("case", ERRORS, ids=[c["expr"] for c in ERRORS])
def test_errors_match_pytorch(case):
    expected = LA.LinAlgError if case["type"] == "LinAlgError" else getattr(builtins, case["type"])
    with pytest.raises(expected) as info:
        eval(case["expr"], {"torch": engine})
    assert str(info.value).split("\n")[0] == case["message"]


def test_linalg_error_is_a_runtime_error():
    assert issubclass(LA.LinAlgError, RuntimeError)
    with pytest.raises(RuntimeError):
        LA.inv(engine.zeros(2, 2))


def test_det_gradient_of_singular_matrices_is_the_cofactor_matrix():
    # PyTorch 2.13 returns zeros here; the cofactor matrix is the derivative (and what
    # finite differences give), so engine returns it.
    A = engine.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=F64).requires_grad_()
    LA.det(A).backward()
    close(A.grad, [[4.0, -2.0], [-2.0, 1.0]])
    B = engine.zeros(2, 3, 3, dtype=F64)
    B[1] = 2 * engine.eye(3, dtype=F64)
    B.requires_grad_()
    LA.det(B).sum().backward()
    close(B.grad, np.stack([np.zeros((3, 3)), 4 * np.eye(3)]))
    near = engine.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.5]], dtype=F64)
    assert gradcheck(LA.det, (near.requires_grad_(),))


def test_out_arguments():
    out = engine.empty(0)
    result = LA.inv(2 * engine.eye(2), out=out)
    assert result is out
    close(out, 0.5 * np.eye(2))
    outs = (engine.empty(0), engine.empty(0, dtype=engine.int32))
    res = LA.inv_ex(engine.eye(2), out=outs)
    assert res.inverse is outs[0] and res.info is outs[1]
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        LA.inv(engine.eye(2).requires_grad_(), out=engine.empty(2, 2))
    with pytest.raises(
        TypeError, match=r"linalg_svd\(\): argument .out. must be tuple of Tensors, not Tensor"
    ):
        LA.svd(engine.eye(2), out=engine.empty(0))


def test_ops_without_a_derivative_say_so_on_backward():
    x = rand(3, 2).requires_grad_()
    a, tau = engine.geqrf(x)
    with pytest.raises(RuntimeError, match="the derivative for 'geqrf' is not implemented."):
        a.sum().backward()


def test_householder_product_gradients():
    a, tau = engine.geqrf(rand(2, 4, 3))
    a, tau = a.requires_grad_(), tau.requires_grad_()
    close(
        LA.householder_product(a, tau).detach(),
        LA.householder_product(a.detach(), tau.detach()).numpy(),
    )
    assert gradcheck(LA.householder_product, (a, tau))
    assert gradgradcheck(LA.householder_product, (a, tau))
    c = rand(2, 4, 2, seed=3).requires_grad_()
    for left, transpose in ((True, False), (True, True)):
        full = engine.ormqr(a.detach(), tau.detach(), c.detach(), left, transpose)
        close(engine.ormqr(a, tau, c, left, transpose).detach(), full.numpy())
        assert gradcheck(
            lambda x, t, y, lt=left, tr=transpose: engine.ormqr(x, t, y, lt, tr), (a, tau, c)
        )
    d = rand(2, 2, 4, seed=4).requires_grad_()
    assert gradcheck(lambda x, t, y: engine.ormqr(x, t, y, False, True), (a, tau, d))


def test_norm_accepts_nuc():
    x = rand(3, 4)
    close(engine.norm(x, "nuc"), np.linalg.norm(x.numpy(), "nuc"))
    close(x.norm("nuc"), np.linalg.norm(x.numpy(), "nuc"))
    close(x.norm(), np.linalg.norm(x.numpy()))
    close(engine.norm(x, 1, 1), np.abs(x.numpy()).sum(1))


@pytest.mark.filterwarnings("error")
def test_deprecated_names_warn_once_as_pytorch(monkeypatch):
    from engine import _linalg_torch

    monkeypatch.setattr(_linalg_torch, "_warned", set())
    A = 2 * engine.eye(3, dtype=F64)
    calls = {
        "cholesky": lambda: engine.cholesky(A),
        "qr": lambda: engine.qr(A),
        "lu": lambda: engine.lu(A),
        "lu_solve": lambda: engine.lu_solve(A, *LA.lu_factor(A)),
        "triangular_solve": lambda: engine.triangular_solve(A, A),
        "chain_matmul": lambda: engine.chain_matmul(A, A),
        "nuclear_norm": lambda: engine.nuclear_norm(A),
        "frobenius_norm": lambda: engine.frobenius_norm(A, (0, 1)),
    }
    for name, call in calls.items():
        with pytest.warns(UserWarning, match="deprecated") as record:
            call()
        assert len(record) == 1 and name in str(record[0].message)
        call()  # once only: a second call is silent (warnings are errors in this test)
    engine.svd(A), engine.cholesky_solve(A, A), engine.det(A)  # not deprecated


def test_cross_without_dim_warns_once_as_pytorch():
    import warnings

    import engine.linalg  # noqa: F401
    from engine import _linalg_torch

    _linalg_torch._warned.discard("cross")
    x = engine.randn(3, 3)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        engine.cross(x, x)
        x.cross(x)
    messages = [str(w.message) for w in seen]
    assert len(messages) == 1 and messages[0].startswith(
        "Using torch.cross without specifying the dim arg is deprecated."
    )
    assert seen[0].filename == __file__
