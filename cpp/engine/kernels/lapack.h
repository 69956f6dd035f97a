#pragma once
// LAPACK (and BLAS trsm) from the scipy-openblas32 wheel, one matrix at a time. Matrices are
// column-major with a leading dimension, as LAPACK wants them; callers copy into that layout and
// loop over batches. Routines return LAPACK's `info` (0: success, > 0: the routine's numerical
// failure, < 0 never happens for valid arguments). Sizes are LAPACK's 32-bit ints: callers check
// their dimensions fit first. getrf and getrs on matrices of up to kSmallLu rows and columns run
// LAPACK's unblocked algorithms (dgetf2, dlaswp + dtrsm) here: OpenBLAS spends more on entering
// each call than a 4 x 4 factorisation costs, which a batch of small matrices pays per matrix.
#include <cstdint>
#include <vector>

namespace engine::kernels::lapack {

// The largest matrices (rows and columns) factorised and solved without calling OpenBLAS.
constexpr int kSmallLu = 32;

// Workspace reused across the matrices of a batch, all of one size and kind of call: the first
// call asks LAPACK for the optimal size, the others reuse the buffers. Without one, a routine
// asks and allocates for itself.
template <typename T>
struct Workspace {
  std::vector<T> work;
  std::vector<int> iwork;
  bool sized = false;
};

// Whether the build links a LAPACK; without one every routine raises.
bool available();

// LU with partial pivoting of A (m x n); ipiv gets min(m, n) 1-based row interchanges.
template <typename T>
int getrf(int m, int n, T* a, int lda, int* ipiv);
// Solves op(A) X = B with A's LU from getrf (n x n); B (n x nrhs) is overwritten by X.
template <typename T>
int getrs(bool transpose, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb);
// Cholesky factor of the symmetric positive-definite A's `upper` or lower triangle.
template <typename T>
int potrf(bool upper, int n, T* a, int lda);
// Householder QR of A (m x n): R above the diagonal, reflectors below, min(m, n) scalars in tau.
template <typename T>
int geqrf(int m, int n, T* a, int lda, T* tau, Workspace<T>* ws = nullptr);
// The first n columns of the product of k reflectors (m x n, m >= n >= k), written over a.
template <typename T>
int orgqr(int m, int n, int k, T* a, int lda, const T* tau, Workspace<T>* ws = nullptr);
// C (m x n) overwritten by op(Q) C (left) or C op(Q); a holds k reflectors of length m (left) or n.
template <typename T>
int ormqr(bool left, bool transpose, int m, int n, int k, const T* a, int lda, const T* tau, T* c, int ldc,
          Workspace<T>* ws = nullptr);
// SVD by divide and conquer; jobz 'N' (values only), 'S' (reduced) or 'A' (full). A is destroyed.
template <typename T>
int gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt, Workspace<T>* ws = nullptr);
// Eigenvalues (ascending) of the symmetric A's `upper` or lower triangle; with vectors, they
// overwrite A (columns).
template <typename T>
int syevd(bool vectors, bool upper, int n, T* a, int lda, T* w, Workspace<T>* ws = nullptr);
// B (m x n) overwritten by op(A)^-1 B (left, A m x m) or B op(A)^-1 (A n x n), A triangular.
template <typename T>
void trsm(bool left, bool upper, bool transpose, bool unit, int m, int n, const T* a, int lda, T* b, int ldb);
// Least squares min ||A X - B|| with driver 'y' (gelsy), 'd' (gelsd), 's' (gelss) or 'l' (gels).
// A (m x n) is destroyed; B (ldb >= max(m, n), nrhs columns) holds X in its first n rows. `s`
// (min(m, n)) receives singular values for 'd'/'s'; `rank` the effective rank (not for 'l').
template <typename T>
int gels(char driver, int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T rcond, T* s, int* rank);

}  // namespace engine::kernels::lapack
