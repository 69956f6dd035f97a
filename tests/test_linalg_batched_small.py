"""The LU paths of engine.linalg on small matrices (factorised and solved natively up to 32 x 32,
with loops unrolled up to 8 x 8) and on batches split over engine's threads: values against NumPy
in float64 on both sides of every size limit, pivots and info as LAPACK's, singular matrices, and
results that do not depend on the thread count."""

import engine
import numpy as np
import pytest
from engine import linalg as LA

F64 = engine.float64


def rand(*shape, seed=0, dtype=F64):
    return engine.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=dtype)


def close(x, ref, tol=1e-9):
    np.testing.assert_allclose(x.numpy(), ref, rtol=tol, atol=tol)


def lu_reference(a):
    """getrf's (LU, 1-based pivots, info) by LAPACK's dgetf2 rule, in float64 NumPy."""
    a = np.array(a, dtype=np.float64, order="F")
    m, n = a.shape
    piv, info = [], 0
    for j in range(min(m, n)):
        p = j + int(np.argmax(np.abs(a[j:, j])))
        piv.append(p + 1)
        if a[p, j] != 0:
            a[[j, p], :] = a[[p, j], :]
            a[j + 1 :, j] /= a[j, j]
        elif info == 0:
            info = j + 1
        a[j + 1 :, j + 1 :] -= np.outer(a[j + 1 :, j], a[j, j + 1 :])
    return a, np.array(piv, dtype=np.int32), info


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 32, 33, 40])
def test_inv_det_solve_match_numpy_across_the_size_limits(n):
    A = rand(6, n, n, seed=n)
    B = rand(6, n, 3, seed=n + 100)
    a, b = A.numpy(), B.numpy()
    close(LA.inv(A), np.linalg.inv(a))
    close(LA.det(A), np.linalg.det(a), tol=1e-8)
    close(LA.solve(A, B), np.linalg.solve(a, b))
    close(LA.solve(A, B[..., 0]), np.linalg.solve(a, b[..., :1])[..., 0])
    right = B.mT.contiguous()  # X A = B
    close(
        LA.solve(A, right, left=False),
        np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), b), -1, -2),
    )
    sign, logabsdet = LA.slogdet(A)
    ref_sign, ref_log = np.linalg.slogdet(a)
    close(sign, ref_sign)
    close(logabsdet, ref_log)


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5), (8, 8), (9, 6), (33, 33)])
def test_lu_factor_pivots_and_factors_are_lapacks(shape):
    A = rand(3, *shape, seed=sum(shape))
    LU, pivots, info = LA.lu_factor_ex(A)
    for i in range(3):
        ref_lu, ref_piv, ref_info = lu_reference(A[i].numpy())
        close(LU[i], ref_lu, tol=1e-12)
        assert pivots[i].tolist() == ref_piv.tolist()
        assert int(info[i]) == ref_info


@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("n", [4, 6, 20, 40])
def test_lu_solve_both_ways(n, adjoint):
    A = rand(5, n, n, seed=n)
    B = rand(5, n, 7, seed=n + 1)
    LU, pivots = LA.lu_factor(A)
    X = LA.lu_solve(LU, pivots, B, adjoint=adjoint)
    a = np.swapaxes(A.numpy(), -1, -2) if adjoint else A.numpy()
    close(X, np.linalg.solve(a, B.numpy()))


def test_singular_small_matrices_report_info_and_give_inf_or_nan():
    A = engine.tensor(
        [[[1.0, 2.0], [2.0, 4.0]], [[2.0, 0.0], [0.0, 3.0]], [[0.0, 0.0], [0.0, 0.0]]], dtype=F64
    )
    inverse, info = LA.inv_ex(A)
    assert info.tolist() == [2, 0, 1]
    assert not bool(inverse[0].isfinite().any()) and not bool(inverse[2].isfinite().any())
    close(inverse[1], np.diag([0.5, 1 / 3]))
    assert LA.det(A).tolist() == [0.0, 6.0, 0.0]
    with pytest.raises(LA.LinAlgError, match=r"\(Batch element 0\)"):
        LA.inv(A)
    _, info = LA.solve_ex(A, engine.ones(3, 2, 1, dtype=F64))
    assert info.tolist() == [2, 0, 1]


def test_det_sign_follows_the_row_interchanges():
    # Permutation matrices: det is the sign of the permutation.
    perms = [[0, 1, 2, 3], [1, 0, 2, 3], [1, 2, 0, 3], [3, 2, 1, 0], [1, 0, 3, 2]]
    eye = np.eye(4)
    A = engine.tensor(np.stack([eye[p] for p in perms]), dtype=F64)
    assert LA.det(A).tolist() == [1.0, -1.0, 1.0, 1.0, 1.0]


def test_float32_small_batches():
    A = rand(50, 4, 4, seed=3, dtype=engine.float32)
    a = A.numpy().astype(np.float64)
    close(LA.inv(A), np.linalg.inv(a), tol=1e-3)
    close(LA.det(A), np.linalg.det(a), tol=1e-4)


@pytest.mark.parametrize("n", [4, 40])
def test_batched_results_do_not_depend_on_the_thread_count(n):
    # Each matrix of a batch is one call of its own, whichever thread runs it.
    A = rand(1000 if n == 4 else 20, n, n, seed=7)
    saved = engine.get_num_threads()
    results = []
    try:
        for threads in (1, 2, 3):
            engine.set_num_threads(threads)
            results.append([LA.inv(A), LA.det(A), LA.qr(A).Q, LA.eigh(A @ A.mT).eigenvalues])
    finally:
        engine.set_num_threads(saved)
    for other in results[1:]:
        for x, y in zip(results[0], other):
            assert bool(engine.equal(x, y))


def test_split_solve_is_deterministic_and_matches_numpy():
    # One matrix, many right-hand sides: the columns are split over the threads.
    B = rand(256, 256, seed=8)
    C = rand(256, 96, seed=9)
    saved = engine.get_num_threads()
    try:
        for threads in (1, 2, 3):
            engine.set_num_threads(threads)
            X = LA.solve(B, C)
            assert bool(engine.equal(X, LA.solve(B, C)))
            close(X, np.linalg.solve(B.numpy(), C.numpy()), tol=1e-8)
    finally:
        engine.set_num_threads(saved)


def test_empty_batches_and_matrices():
    assert LA.inv(engine.zeros(0, 3, 3, dtype=F64)).shape == (0, 3, 3)
    assert LA.det(engine.zeros(0, 3, 3, dtype=F64)).shape == (0,)
    assert LA.det(engine.zeros(2, 0, 0, dtype=F64)).tolist() == [1.0, 1.0]
    assert LA.inv(engine.zeros(2, 0, 0, dtype=F64)).shape == (2, 0, 0)


def test_inverse_keeps_its_column_major_layout():
    A = rand(10, 4, 4, seed=1)
    inverse = LA.inv(A)
    assert inverse.stride() == (16, 1, 4)
    LU, _ = LA.lu_factor(A)
    assert LU.stride() == (16, 1, 4)
