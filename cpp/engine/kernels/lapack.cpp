#include "engine/kernels/lapack.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#ifdef ENGINE_HAVE_OPENBLAS
#include <cblas.h>

// The wheel's LAPACK symbols carry a `scipy_` prefix. Character arguments are followed by their
// hidden Fortran lengths at the end of the argument list (gfortran's convention).
extern "C" {
using fstrlen = std::size_t;
void scipy_sgetrf_(const int*, const int*, float*, const int*, int*, int*);
void scipy_dgetrf_(const int*, const int*, double*, const int*, int*, int*);
void scipy_spotrf_(const char*, const int*, float*, const int*, int*, fstrlen);
void scipy_dpotrf_(const char*, const int*, double*, const int*, int*, fstrlen);
void scipy_sgeqrf_(const int*, const int*, float*, const int*, float*, float*, const int*, int*);
void scipy_dgeqrf_(const int*, const int*, double*, const int*, double*, double*, const int*, int*);
void scipy_sorgqr_(const int*, const int*, const int*, float*, const int*, const float*, float*, const int*, int*);
void scipy_dorgqr_(const int*, const int*, const int*, double*, const int*, const double*, double*, const int*, int*);
void scipy_sormqr_(const char*, const char*, const int*, const int*, const int*, const float*, const int*, const float*,
                   float*, const int*, float*, const int*, int*, fstrlen, fstrlen);
void scipy_dormqr_(const char*, const char*, const int*, const int*, const int*, const double*, const int*,
                   const double*, double*, const int*, double*, const int*, int*, fstrlen, fstrlen);
void scipy_sgesdd_(const char*, const int*, const int*, float*, const int*, float*, float*, const int*, float*,
                   const int*, float*, const int*, int*, int*, fstrlen);
void scipy_dgesdd_(const char*, const int*, const int*, double*, const int*, double*, double*, const int*, double*,
                   const int*, double*, const int*, int*, int*, fstrlen);
void scipy_ssyevd_(const char*, const char*, const int*, float*, const int*, float*, float*, const int*, int*,
                   const int*, int*, fstrlen, fstrlen);
void scipy_dsyevd_(const char*, const char*, const int*, double*, const int*, double*, double*, const int*, int*,
                   const int*, int*, fstrlen, fstrlen);
void scipy_sgelsy_(const int*, const int*, const int*, float*, const int*, float*, const int*, int*, const float*, int*,
                   float*, const int*, int*);
void scipy_dgelsy_(const int*, const int*, const int*, double*, const int*, double*, const int*, int*, const double*,
                   int*, double*, const int*, int*);
void scipy_sgelsd_(const int*, const int*, const int*, float*, const int*, float*, const int*, float*, const float*,
                   int*, float*, const int*, int*, int*);
void scipy_dgelsd_(const int*, const int*, const int*, double*, const int*, double*, const int*, double*,
                   const double*, int*, double*, const int*, int*, int*);
void scipy_sgelss_(const int*, const int*, const int*, float*, const int*, float*, const int*, float*, const float*,
                   int*, float*, const int*, int*);
void scipy_dgelss_(const int*, const int*, const int*, double*, const int*, double*, const int*, double*,
                   const double*, int*, double*, const int*, int*);
void scipy_sgels_(const char*, const int*, const int*, const int*, float*, const int*, float*, const int*, float*,
                  const int*, int*, fstrlen);
void scipy_dgels_(const char*, const int*, const int*, const int*, double*, const int*, double*, const int*, double*,
                  const int*, int*, fstrlen);
}
#endif

namespace engine::kernels::lapack {

bool available() {
#ifdef ENGINE_HAVE_OPENBLAS
  return true;
#else
  return false;
#endif
}

#ifdef ENGINE_HAVE_OPENBLAS

namespace {

// The hidden length of every one-character argument.
constexpr fstrlen one = 1;

// Picks the single- or double-precision routine.
template <typename T, typename S, typename D>
constexpr auto pick(S s, D d) {
  if constexpr (std::is_same_v<T, float>) {
    return s;
  } else {
    return d;
  }
}

// LAPACK reports the optimal workspace as a floating-point number in work[0].
template <typename T>
int workspace_size(T query) {
  return std::max(1, static_cast<int>(query));
}

// The caller's workspace, or a fresh one for this call alone, sized on first use: `query(ws, size)`
// runs the routine as a workspace query (lwork = -1) into *size and sizes ws.iwork if it has one.
template <typename T, typename Query>
Workspace<T>& sized_workspace(Workspace<T>* given, Workspace<T>& local, Query query) {
  Workspace<T>& ws = given ? *given : local;
  if (!ws.sized) {
    T size{};
    query(ws, &size);
    ws.work.resize(static_cast<size_t>(workspace_size(size)));
    ws.sized = true;
  }
  return ws;
}

}  // namespace

// LAPACK's dgetf2 (unblocked LU with partial pivoting: the first entry of largest magnitude, a
// reciprocal scaling unless the pivot is tiny, a rank-one update) for small matrices.
// With N > 0 the matrix is N x N and the compiler unrolls the loops (a batch of 4 x 4 matrices
// spends its time on loop control otherwise); N = 0 takes the sizes given.
template <typename T, int N>
int getrf_small(int m_given, int n_given, T* a, int lda, int* ipiv) {
  const int m = N > 0 ? N : m_given, n = N > 0 ? N : n_given;
  int info = 0;
  const int k = std::min(m, n);
  for (int j = 0; j < k; ++j) {
    T* col = a + int64_t(j) * lda;
    int p = j;
    T best = std::abs(col[j]);
    for (int i = j + 1; i < m; ++i) {  // selects, not branches: the pivot row is data, unpredictable
      const T v = std::abs(col[i]);
      const bool larger = v > best;
      best = larger ? v : best;
      p = larger ? i : p;
    }
    ipiv[j] = p + 1;
    if (col[p] != T(0)) {
      for (int c = 0; c < n; ++c) std::swap(a[int64_t(c) * lda + j], a[int64_t(c) * lda + p]);
      if (std::abs(col[j]) >= std::numeric_limits<T>::min()) {
        const T r = T(1) / col[j];
        for (int i = j + 1; i < m; ++i) col[i] *= r;
      } else {
        for (int i = j + 1; i < m; ++i) col[i] /= col[j];
      }
    } else if (info == 0) {
      info = j + 1;
    }
    for (int c = j + 1; c < n; ++c) {
      T* dst = a + int64_t(c) * lda;
      const T f = dst[j];
      for (int i = j + 1; i < m; ++i) dst[i] -= col[i] * f;
    }
  }
  return info;
}

// dgetrs for small matrices: the row interchanges, then the two triangular solves column by
// column. U's diagonal is inverted once per call and multiplied by, as OpenBLAS's trsm does (no
// chain of divisions per column; a zero pivot gives inf / nan, never a skipped entry). W columns
// go together: each sees the operations it would alone, in the same order, and the W chains of
// dependent operations overlap.
template <typename T, int N, int W>
void getrs_columns(bool transpose, int n_given, const T* a, int lda, const int* ipiv, const T* inv_diag, T* b,
                   int ldb) {
  const int n = N > 0 ? N : n_given;
  T* x[W];
  for (int w = 0; w < W; ++w) x[w] = b + int64_t(w) * ldb;
  if (!transpose) {
    for (int i = 0; i < n; ++i) {
      const int p = ipiv[i] - 1;
      for (int w = 0; w < W; ++w) std::swap(x[w][i], x[w][p]);
    }
    for (int k = 0; k < n; ++k) {  // L (unit lower)
      const T* col = a + int64_t(k) * lda;
      for (int i = k + 1; i < n; ++i) {
        for (int w = 0; w < W; ++w) x[w][i] -= x[w][k] * col[i];
      }
    }
    for (int k = n - 1; k >= 0; --k) {  // U
      const T* col = a + int64_t(k) * lda;
      for (int w = 0; w < W; ++w) x[w][k] *= inv_diag[k];
      for (int i = 0; i < k; ++i) {
        for (int w = 0; w < W; ++w) x[w][i] -= x[w][k] * col[i];
      }
    }
    return;
  }
  T t[W];
  for (int i = 0; i < n; ++i) {  // U^T
    const T* col = a + int64_t(i) * lda;
    for (int w = 0; w < W; ++w) t[w] = x[w][i];
    for (int k = 0; k < i; ++k) {
      for (int w = 0; w < W; ++w) t[w] -= col[k] * x[w][k];
    }
    for (int w = 0; w < W; ++w) x[w][i] = t[w] * inv_diag[i];
  }
  for (int i = n - 1; i >= 0; --i) {  // L^T (unit)
    const T* col = a + int64_t(i) * lda;
    for (int w = 0; w < W; ++w) t[w] = x[w][i];
    for (int k = i + 1; k < n; ++k) {
      for (int w = 0; w < W; ++w) t[w] -= col[k] * x[w][k];
    }
    for (int w = 0; w < W; ++w) x[w][i] = t[w];
  }
  for (int i = n - 1; i >= 0; --i) {
    const int p = ipiv[i] - 1;
    for (int w = 0; w < W; ++w) std::swap(x[w][i], x[w][p]);
  }
}

template <typename T, int N>
void getrs_small(bool transpose, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb) {
  T inv_diag[kSmallLu];
  for (int k = 0; k < n; ++k) inv_diag[k] = T(1) / a[int64_t(k) * lda + k];
  int j = 0;
  for (; j + 4 <= nrhs; j += 4) getrs_columns<T, N, 4>(transpose, n, a, lda, ipiv, inv_diag, b + int64_t(j) * ldb, ldb);
  for (; j < nrhs; ++j) getrs_columns<T, N, 1>(transpose, n, a, lda, ipiv, inv_diag, b + int64_t(j) * ldb, ldb);
}

// The sizes whose loops are unrolled: 2 x 2 to 8 x 8.
template <typename T>
int getrf_small_any(int m, int n, T* a, int lda, int* ipiv) {
  if (m == n) {
    switch (n) {
      case 2: return getrf_small<T, 2>(m, n, a, lda, ipiv);
      case 3: return getrf_small<T, 3>(m, n, a, lda, ipiv);
      case 4: return getrf_small<T, 4>(m, n, a, lda, ipiv);
      case 5: return getrf_small<T, 5>(m, n, a, lda, ipiv);
      case 6: return getrf_small<T, 6>(m, n, a, lda, ipiv);
      case 7: return getrf_small<T, 7>(m, n, a, lda, ipiv);
      case 8: return getrf_small<T, 8>(m, n, a, lda, ipiv);
      default: break;
    }
  }
  return getrf_small<T, 0>(m, n, a, lda, ipiv);
}

template <typename T>
void getrs_small_any(bool transpose, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb) {
  switch (n) {
    case 2: return getrs_small<T, 2>(transpose, n, nrhs, a, lda, ipiv, b, ldb);
    case 3: return getrs_small<T, 3>(transpose, n, nrhs, a, lda, ipiv, b, ldb);
    case 4: return getrs_small<T, 4>(transpose, n, nrhs, a, lda, ipiv, b, ldb);
    case 5: return getrs_small<T, 5>(transpose, n, nrhs, a, lda, ipiv, b, ldb);
    case 6: return getrs_small<T, 6>(transpose, n, nrhs, a, lda, ipiv, b, ldb);
    case 7: return getrs_small<T, 7>(transpose, n, nrhs, a, lda, ipiv, b, ldb);
    case 8: return getrs_small<T, 8>(transpose, n, nrhs, a, lda, ipiv, b, ldb);
    default: return getrs_small<T, 0>(transpose, n, nrhs, a, lda, ipiv, b, ldb);
  }
}

template <typename T>
int getrf(int m, int n, T* a, int lda, int* ipiv) {
  if (m <= kSmallLu && n <= kSmallLu) return getrf_small_any(m, n, a, lda, ipiv);
  int info = 0;
  pick<T>(scipy_sgetrf_, scipy_dgetrf_)(&m, &n, a, &lda, ipiv, &info);
  return info;
}

// Triangular systems of at most this many rows go to BLAS trsm in one call; larger ones are split.
constexpr int kTrsmBlock = 64;

// B (n x nrhs) overwritten by op(A)^-1 B, A (n x n) triangular: the rows split in two halves,
// one half solved (recursively), the other updated by one GEMM with the off-diagonal block, then
// solved. OpenBLAS's trsm runs at under half its GEMM's rate (a 256 x 256 system with 256
// right-hand sides: 0.8 ms, the same flops of GEMM 0.35 ms); this puts all but the diagonal
// blocks' work in GEMM (getrs 256 x 256, 256 right-hand sides: 1.7 -> 1.3 ms on one thread).
// Where the rows split depends on n alone.
template <typename T>
void trsm_left_blocked(bool upper, bool transpose, bool unit, int n, int nrhs, const T* a, int lda, T* b, int ldb) {
  if (n <= kTrsmBlock) {
    trsm<T>(true, upper, transpose, unit, n, nrhs, a, lda, b, ldb);
    return;
  }
  const int h = (n / 2 + 15) / 16 * 16, rest = n - h;  // halves on GEMM's 16-row tiles
  const T* a22 = a + int64_t(h) * lda + h;
  T* b2 = b + h;
  const auto gemm = pick<T>(scipy_cblas_sgemm, scipy_cblas_dgemm);
  // op(A) = [[X11, X12], [X21, X22]]: lower without transposition, or upper with it, solves
  // the first rows first (X21 = A21, or A12^T); the others solve the last rows first (X12 =
  // A12, or A21^T). A21 lies at a + h, A12 at a + h * lda.
  if (upper == transpose) {
    trsm_left_blocked(upper, transpose, unit, h, nrhs, a, lda, b, ldb);
    const T* x21 = transpose ? a + int64_t(h) * lda : a + h;
    gemm(CblasColMajor, transpose ? CblasTrans : CblasNoTrans, CblasNoTrans, rest, nrhs, h, T(-1), x21, lda, b, ldb,
         T(1), b2, ldb);
    trsm_left_blocked(upper, transpose, unit, rest, nrhs, a22, lda, b2, ldb);
  } else {
    trsm_left_blocked(upper, transpose, unit, rest, nrhs, a22, lda, b2, ldb);
    const T* x12 = transpose ? a + h : a + int64_t(h) * lda;
    gemm(CblasColMajor, transpose ? CblasTrans : CblasNoTrans, CblasNoTrans, h, nrhs, rest, T(-1), x12, lda, b2, ldb,
         T(1), b, ldb);
    trsm_left_blocked(upper, transpose, unit, h, nrhs, a, lda, b, ldb);
  }
}

// getf2/getrf's row interchanges applied to B's columns (forward, or backward to undo them),
// one column at a time: each column's rows are near each other in memory.
template <typename T>
void swap_rows(bool backward, int n, int nrhs, const int* ipiv, T* b, int ldb) {
  for (int c = 0; c < nrhs; ++c) {
    T* col = b + int64_t(c) * ldb;
    if (!backward) {
      for (int i = 0; i < n; ++i) std::swap(col[i], col[ipiv[i] - 1]);
    } else {
      for (int i = n - 1; i >= 0; --i) std::swap(col[i], col[ipiv[i] - 1]);
    }
  }
}

template <typename T>
int getrs(bool transpose, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb) {
  if (n <= kSmallLu) {
    getrs_small_any(transpose, n, nrhs, a, lda, ipiv, b, ldb);
    return 0;
  }
  // A = P L U: A X = B is L U X = P^T B; A^T X = B is U^T L^T (P^T X) = B.
  if (!transpose) {
    swap_rows(false, n, nrhs, ipiv, b, ldb);
    trsm_left_blocked<T>(false, false, true, n, nrhs, a, lda, b, ldb);
    trsm_left_blocked<T>(true, false, false, n, nrhs, a, lda, b, ldb);
  } else {
    trsm_left_blocked<T>(true, true, false, n, nrhs, a, lda, b, ldb);
    trsm_left_blocked<T>(false, true, true, n, nrhs, a, lda, b, ldb);
    swap_rows(true, n, nrhs, ipiv, b, ldb);
  }
  return 0;
}

template <typename T>
int potrf(bool upper, int n, T* a, int lda) {
  int info = 0;
  const char uplo = upper ? 'U' : 'L';
  pick<T>(scipy_spotrf_, scipy_dpotrf_)(&uplo, &n, a, &lda, &info, one);
  return info;
}

template <typename T>
int geqrf(int m, int n, T* a, int lda, T* tau, Workspace<T>* given) {
  auto f = pick<T>(scipy_sgeqrf_, scipy_dgeqrf_);
  int info = 0;
  Workspace<T> local;
  Workspace<T>& ws = sized_workspace<T>(given, local, [&](Workspace<T>&, T* size) {
    int q = -1;
    f(&m, &n, a, &lda, tau, size, &q, &info);
  });
  int lwork = static_cast<int>(ws.work.size());
  f(&m, &n, a, &lda, tau, ws.work.data(), &lwork, &info);
  return info;
}

template <typename T>
int orgqr(int m, int n, int k, T* a, int lda, const T* tau, Workspace<T>* given) {
  auto f = pick<T>(scipy_sorgqr_, scipy_dorgqr_);
  int info = 0;
  Workspace<T> local;
  Workspace<T>& ws = sized_workspace<T>(given, local, [&](Workspace<T>&, T* size) {
    int q = -1;
    f(&m, &n, &k, a, &lda, tau, size, &q, &info);
  });
  int lwork = static_cast<int>(ws.work.size());
  f(&m, &n, &k, a, &lda, tau, ws.work.data(), &lwork, &info);
  return info;
}

template <typename T>
int ormqr(bool left, bool transpose, int m, int n, int k, const T* a, int lda, const T* tau, T* c, int ldc,
          Workspace<T>* given) {
  auto f = pick<T>(scipy_sormqr_, scipy_dormqr_);
  const char side = left ? 'L' : 'R', tr = transpose ? 'T' : 'N';
  int info = 0;
  Workspace<T> local;
  Workspace<T>& ws = sized_workspace<T>(given, local, [&](Workspace<T>&, T* size) {
    int q = -1;
    f(&side, &tr, &m, &n, &k, a, &lda, tau, c, &ldc, size, &q, &info, one, one);
  });
  int lwork = static_cast<int>(ws.work.size());
  f(&side, &tr, &m, &n, &k, a, &lda, tau, c, &ldc, ws.work.data(), &lwork, &info, one, one);
  return info;
}

template <typename T>
int gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt, Workspace<T>* given) {
  auto f = pick<T>(scipy_sgesdd_, scipy_dgesdd_);
  int info = 0;
  Workspace<T> local;
  Workspace<T>& ws = sized_workspace<T>(given, local, [&](Workspace<T>& into, T* size) {
    int q = -1;
    into.iwork.resize(static_cast<size_t>(8 * std::max(1, std::min(m, n))));
    f(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, size, &q, into.iwork.data(), &info, one);
  });
  int lwork = static_cast<int>(ws.work.size());
  f(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, ws.work.data(), &lwork, ws.iwork.data(), &info, one);
  return info;
}

template <typename T>
int syevd(bool vectors, bool upper, int n, T* a, int lda, T* w, Workspace<T>* given) {
  auto f = pick<T>(scipy_ssyevd_, scipy_dsyevd_);
  const char jobz = vectors ? 'V' : 'N', uplo = upper ? 'U' : 'L';
  int info = 0;
  Workspace<T> local;
  Workspace<T>& ws = sized_workspace<T>(given, local, [&](Workspace<T>& into, T* size) {
    int q = -1, iquery = 0;
    f(&jobz, &uplo, &n, a, &lda, w, size, &q, &iquery, &q, &info, one, one);
    into.iwork.resize(static_cast<size_t>(std::max(1, iquery)));
  });
  int lwork = static_cast<int>(ws.work.size()), liwork = static_cast<int>(ws.iwork.size());
  f(&jobz, &uplo, &n, a, &lda, w, ws.work.data(), &lwork, ws.iwork.data(), &liwork, &info, one, one);
  return info;
}

template <typename T>
void trsm(bool left, bool upper, bool transpose, bool unit, int m, int n, const T* a, int lda, T* b, int ldb) {
  const auto side = left ? CblasLeft : CblasRight;
  const auto uplo = upper ? CblasUpper : CblasLower;
  const auto tr = transpose ? CblasTrans : CblasNoTrans;
  const auto diag = unit ? CblasUnit : CblasNonUnit;
  pick<T>(scipy_cblas_strsm, scipy_cblas_dtrsm)(CblasColMajor, side, uplo, tr, diag, m, n, T(1), a, lda, b, ldb);
}

template <typename T>
int gels(char driver, int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T rcond, T* s, int* rank) {
  int info = 0, lwork = -1;
  T query{};
  std::vector<T> work;
  switch (driver) {
    case 'y': {
      auto f = pick<T>(scipy_sgelsy_, scipy_dgelsy_);
      // Columns free to pivot: jpvt starts at zero.
      std::vector<int> jpvt(static_cast<size_t>(std::max(1, n)), 0);
      f(&m, &n, &nrhs, a, &lda, b, &ldb, jpvt.data(), &rcond, rank, &query, &lwork, &info);
      lwork = workspace_size(query);
      work.resize(static_cast<size_t>(lwork));
      f(&m, &n, &nrhs, a, &lda, b, &ldb, jpvt.data(), &rcond, rank, work.data(), &lwork, &info);
      return info;
    }
    case 'd': {
      auto f = pick<T>(scipy_sgelsd_, scipy_dgelsd_);
      int iquery = 0;
      f(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, &query, &lwork, &iquery, &info);
      lwork = workspace_size(query);
      work.resize(static_cast<size_t>(lwork));
      std::vector<int> iwork(static_cast<size_t>(std::max(1, iquery)));
      f(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work.data(), &lwork, iwork.data(), &info);
      return info;
    }
    case 's': {
      auto f = pick<T>(scipy_sgelss_, scipy_dgelss_);
      f(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, &query, &lwork, &info);
      lwork = workspace_size(query);
      work.resize(static_cast<size_t>(lwork));
      f(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work.data(), &lwork, &info);
      return info;
    }
    default: {
      auto f = pick<T>(scipy_sgels_, scipy_dgels_);
      const char tr = 'N';
      f(&tr, &m, &n, &nrhs, a, &lda, b, &ldb, &query, &lwork, &info, one);
      lwork = workspace_size(query);
      work.resize(static_cast<size_t>(lwork));
      f(&tr, &m, &n, &nrhs, a, &lda, b, &ldb, work.data(), &lwork, &info, one);
      return info;
    }
  }
}

#else  // no LAPACK in this build

namespace {
[[noreturn]] void unavailable() {
  throw std::runtime_error("engine was built without LAPACK (the scipy-openblas32 wheel): linalg is unavailable");
}
}  // namespace

template <typename T>
int getrf(int, int, T*, int, int*) { unavailable(); }
template <typename T>
int getrs(bool, int, int, const T*, int, const int*, T*, int) { unavailable(); }
template <typename T>
int potrf(bool, int, T*, int) { unavailable(); }
template <typename T>
int geqrf(int, int, T*, int, T*, Workspace<T>*) { unavailable(); }
template <typename T>
int orgqr(int, int, int, T*, int, const T*, Workspace<T>*) { unavailable(); }
template <typename T>
int ormqr(bool, bool, int, int, int, const T*, int, const T*, T*, int, Workspace<T>*) { unavailable(); }
template <typename T>
int gesdd(char, int, int, T*, int, T*, T*, int, T*, int, Workspace<T>*) { unavailable(); }
template <typename T>
int syevd(bool, bool, int, T*, int, T*, Workspace<T>*) { unavailable(); }
template <typename T>
void trsm(bool, bool, bool, bool, int, int, const T*, int, T*, int) { unavailable(); }
template <typename T>
int gels(char, int, int, int, T*, int, T*, int, T, T*, int*) { unavailable(); }

#endif

#define ENGINE_LAPACK_INSTANTIATE(T)                                                                       \
  template int getrf<T>(int, int, T*, int, int*);                                                          \
  template int getrs<T>(bool, int, int, const T*, int, const int*, T*, int);                               \
  template int potrf<T>(bool, int, T*, int);                                                               \
  template int geqrf<T>(int, int, T*, int, T*, Workspace<T>*);                                                      \
  template int orgqr<T>(int, int, int, T*, int, const T*, Workspace<T>*);                                            \
  template int ormqr<T>(bool, bool, int, int, int, const T*, int, const T*, T*, int, Workspace<T>*);                \
  template int gesdd<T>(char, int, int, T*, int, T*, T*, int, T*, int, Workspace<T>*);                              \
  template int syevd<T>(bool, bool, int, T*, int, T*, Workspace<T>*);                                               \
  template void trsm<T>(bool, bool, bool, bool, int, int, const T*, int, T*, int);                         \
  template int gels<T>(char, int, int, int, T*, int, T*, int, T, T*, int*);
ENGINE_LAPACK_INSTANTIATE(float)
ENGINE_LAPACK_INSTANTIATE(double)
#undef ENGINE_LAPACK_INSTANTIATE

}  // namespace engine::kernels::lapack
