#pragma once
// The LAPACK-backed factorisations and solves, batched over leading dimensions, for float32 and
// float64. These are forward primitives without history: python/engine/linalg.py checks the
// arguments with PyTorch's messages and gives them their backward rules. Every input may be of
// any layout; results are fresh contiguous tensors of the input's dtype. Operands that go
// together (A and B of a solve) must share their batch shape; `info` tensors are int32 of it.
#include <tuple>

#include "engine/core/tensor.h"

namespace engine::ops {

// LU with partial pivoting of A (..., m, n): (LU, pivots int32 (..., min(m, n)), info).
std::tuple<Tensor, Tensor, Tensor> lapack_lu_factor(const Tensor& a);
// (A^-1, info) of square matrices: getrf then getrs on the identity, matrix by matrix.
std::tuple<Tensor, Tensor> lapack_inv(const Tensor& a);
// det A of square matrices from getrf's factors (the product of U's diagonal, signed by the row
// interchanges), which are not kept.
Tensor lapack_det(const Tensor& a);
// X with op(A) X = B from getrf's LU and pivots; B (..., n, k).
Tensor lapack_lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool transpose);
// Cholesky factor (the other triangle zeroed) and info.
std::tuple<Tensor, Tensor> lapack_cholesky(const Tensor& a, bool upper);
// Householder QR in LAPACK's compact form: (a, tau (..., min(m, n))).
std::tuple<Tensor, Tensor> lapack_geqrf(const Tensor& a);
// (Q, R) of A by geqrf and orgqr in one pass: mode 'r' (R only, (k x n); Q empty), 's' (reduced:
// Q (m x k), R (k x n), k = min(m, n)) or 'c' (complete: Q (m x m), R (m x n)). R is zero below
// its diagonal.
std::tuple<Tensor, Tensor> lapack_qr(const Tensor& a, char mode);
// The first n columns of the product of tau's reflectors stored in a (..., m, n), m >= n >= k.
Tensor lapack_orgqr(const Tensor& a, const Tensor& tau);
// op(Q) C (left) or C op(Q), Q the product of tau's reflectors in a.
Tensor lapack_ormqr(const Tensor& a, const Tensor& tau, const Tensor& c, bool left, bool transpose);
// (U, S, Vh, info); U and Vh are empty (0 elements) without compute_uv.
std::tuple<Tensor, Tensor, Tensor, Tensor> lapack_svd(const Tensor& a, bool full_matrices, bool compute_uv);
// (eigenvalues ascending, eigenvectors as columns (empty without vectors), info).
std::tuple<Tensor, Tensor, Tensor> lapack_eigh(const Tensor& a, bool upper, bool vectors);
// op(A)^-1 B (left) or B op(A)^-1 for triangular A; no singularity check (inf/nan, as BLAS).
Tensor lapack_triangular_solve(const Tensor& a, const Tensor& b, bool upper, bool left, bool transpose,
                               bool unitriangular);
// Least squares with driver 'y' (gelsy), 'd' (gelsd), 's' (gelss), 'l' (gels):
// (solution (..., n, k), rank int64, singular values (..., min(m, n)), info).
std::tuple<Tensor, Tensor, Tensor, Tensor> lapack_lstsq(const Tensor& a, const Tensor& b, double rcond,
                                                        char driver);

}  // namespace engine::ops
