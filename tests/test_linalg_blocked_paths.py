"""The paths engine.linalg takes for larger matrices: getrs above 32 x 32 solving its triangles by
halves (BLAS trsm up to 64 rows, GEMM for the off-diagonal blocks) both ways, and linalg.qr's
single native pass (geqrf, R copied out, orgqr in place or in a buffer of Q's shape). Values
against NumPy in float64 on both sides of each size limit, layouts, batches, float32, singular
matrices and results that do not depend on the thread count."""

import engine
import numpy as np
import pytest
from engine import linalg as LA

F64 = engine.float64


def rand(*shape, seed=0, dtype=F64):
    return engine.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=dtype)


def close(x, ref, tol=1e-9):
    np.testing.assert_allclose(x.double().numpy(), ref, rtol=tol, atol=tol)


# 33: the first size past the unrolled LU; 64/65: one trsm call or a split; 129, 200: splits
# that are not powers of two (halves rounded to 16 rows).
SIZES = [33, 63, 64, 65, 96, 129, 200]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("k", [1, 3, 17])
def test_solve_and_lu_solve_both_ways_match_numpy(n, k):
    A = rand(n, n, seed=n) + n**0.5 * engine.eye(n, dtype=F64)
    B = rand(n, k, seed=k)
    a, b = A.numpy(), B.numpy()
    close(LA.solve(A, B), np.linalg.solve(a, b))
    LU, pivots = LA.lu_factor(A)
    close(LA.lu_solve(LU, pivots, B), np.linalg.solve(a, b))
    close(LA.lu_solve(LU, pivots, B, adjoint=True), np.linalg.solve(a.T, b))
    close(LA.lu_solve(LU, pivots, B.mT, left=False), np.linalg.solve(a.T, b).T)


@pytest.mark.parametrize("n", [65, 130])
def test_blocked_solve_in_float32_and_for_inverses(n):
    A = rand(n, n, seed=2) + n**0.5 * engine.eye(n, dtype=F64)
    B = rand(n, 5, seed=3)
    close(LA.solve(A.float(), B.float()), np.linalg.solve(A.numpy(), B.numpy()), tol=1e-4)
    close(LA.inv(A), np.linalg.inv(A.numpy()))
    close(LA.inv(A.float()), np.linalg.inv(A.numpy()), tol=1e-4)


def test_blocked_solve_of_strided_and_batched_operands():
    n = 100
    A = rand(3, n, n, seed=4) + 10 * engine.eye(n, dtype=F64)
    B = rand(3, 7, n, seed=5).mT  # (3, n, 7), rows of stride 1
    ref = np.linalg.solve(A.numpy(), B.numpy())
    close(LA.solve(A, B), ref)
    close(LA.solve(A.mT.contiguous().mT, B.contiguous()), ref)
    # Every other column of a wider matrix, and a vector right-hand side.
    W = rand(n, 2 * n, seed=6)
    Am = W[:, ::2] + 10 * engine.eye(n, dtype=F64)
    close(LA.solve(Am, B[0, :, 0]), np.linalg.solve(Am.numpy(), B[0, :, 0].numpy()))


def test_blocked_solve_does_not_depend_on_the_thread_count():
    A = rand(200, 200, seed=10)
    B = rand(200, 150, seed=11)
    saved = engine.get_num_threads()
    results = []
    try:
        for threads in (1, 2, 3):
            engine.set_num_threads(threads)
            X = LA.solve(A, B)
            assert bool(engine.equal(X, LA.solve(A, B)))
            results.append(X)
    finally:
        engine.set_num_threads(saved)
    close(results[0], np.linalg.solve(A.numpy(), B.numpy()), tol=1e-8)


def test_blocked_solve_raises_for_singular_matrices():
    n = 100
    A = rand(n, n, seed=12)
    A[:, 70] = 0.0  # U[70, 70] comes out exactly zero
    with pytest.raises(
        LA.LinAlgError, match="linalg.solve: The solver failed because the input matrix is singular"
    ):
        LA.solve(A, rand(n, 2))
    X, info = LA.solve_ex(A, rand(n, 2))
    assert info.item() > 0
    with pytest.raises(LA.LinAlgError, match=r"\(Batch element 1\)"):
        LA.solve(engine.stack([engine.eye(n, dtype=F64), A]), rand(2, n, 1))


QR_SHAPES = [
    (70, 40),
    (40, 70),
    (65, 65),
    (3, 50, 20),
    (2, 20, 50),
    (0, 4, 3),
    (4, 0),
    (0, 4),
    (1, 1),
]


@pytest.mark.parametrize("shape", QR_SHAPES)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr_in_one_pass_matches_numpy(shape, mode):
    A = rand(*shape, seed=sum(shape))
    Q, R = LA.qr(A, mode=mode)
    m, n = shape[-2:]
    k = min(m, n)
    rows = m if mode == "complete" else k
    assert R.shape == (*shape[:-2], rows, n)
    assert bool(engine.equal(R, R.triu()))
    ref_r = np.linalg.qr(A.numpy(), mode="r" if mode == "r" else mode)
    ref_r = ref_r if mode == "r" else ref_r[1]
    # Householder QR is unique up to the signs of R's rows: LAPACK's on both sides.
    close(R, ref_r)
    if mode == "r":
        assert Q.numel() == 0
        return
    cols = m if mode == "complete" else k
    assert Q.shape == (*shape[:-2], m, cols)
    close(Q @ R, A.numpy())
    close(Q.mT @ Q, np.broadcast_to(np.eye(cols), (*shape[:-2], cols, cols)))
    close(Q, np.linalg.qr(A.numpy(), mode=mode)[0])


def test_qr_results_are_column_major_as_pytorchs():
    Q, R = LA.qr(rand(2, 6, 4, seed=1))
    assert Q.stride() == (24, 1, 6) and R.stride() == (16, 1, 4)
    Q, R = LA.qr(rand(6, 4, seed=1), mode="complete")
    assert Q.stride() == (1, 6) and R.stride() == (1, 6)
    Q, R = LA.qr(rand(4, 6, seed=1))
    assert Q.stride() == (1, 4) and R.stride() == (1, 4)


def test_qr_of_float32_strided_input_and_its_gradient():
    A = rand(30, 20, seed=2)
    Q, R = LA.qr(A.float().mT.contiguous().mT)
    close(Q @ R, A.numpy(), tol=1e-5)
    x = rand(8, 5, seed=3).requires_grad_()
    assert engine.autograd.gradcheck(lambda a: LA.qr(a), (x,))
    x = rand(5, 8, seed=4).requires_grad_()
    assert engine.autograd.gradcheck(lambda a: LA.qr(a), (x,))


def test_qr_of_an_empty_tall_matrix_in_complete_mode_is_the_identity():
    Q, R = LA.qr(engine.zeros(4, 0, dtype=F64), mode="complete")
    assert bool(engine.equal(Q, engine.eye(4, dtype=F64))) and R.shape == (4, 0)
