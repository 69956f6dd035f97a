#include "engine/kernels/lapack.h"

#include <algorithm>
#include <cstddef>
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
void scipy_sgetrs_(const char*, const int*, const int*, const float*, const int*, const int*, float*, const int*, int*,
                   fstrlen);
void scipy_dgetrs_(const char*, const int*, const int*, const double*, const int*, const int*, double*, const int*,
                   int*, fstrlen);
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

}  // namespace

template <typename T>
int getrf(int m, int n, T* a, int lda, int* ipiv) {
  int info = 0;
  pick<T>(scipy_sgetrf_, scipy_dgetrf_)(&m, &n, a, &lda, ipiv, &info);
  return info;
}

template <typename T>
int getrs(bool transpose, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb) {
  int info = 0;
  const char tr = transpose ? 'T' : 'N';
  pick<T>(scipy_sgetrs_, scipy_dgetrs_)(&tr, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, one);
  return info;
}

template <typename T>
int potrf(bool upper, int n, T* a, int lda) {
  int info = 0;
  const char uplo = upper ? 'U' : 'L';
  pick<T>(scipy_spotrf_, scipy_dpotrf_)(&uplo, &n, a, &lda, &info, one);
  return info;
}

template <typename T>
int geqrf(int m, int n, T* a, int lda, T* tau) {
  auto f = pick<T>(scipy_sgeqrf_, scipy_dgeqrf_);
  int info = 0, lwork = -1;
  T query{};
  f(&m, &n, a, &lda, tau, &query, &lwork, &info);
  lwork = workspace_size(query);
  std::vector<T> work(static_cast<size_t>(lwork));
  f(&m, &n, a, &lda, tau, work.data(), &lwork, &info);
  return info;
}

template <typename T>
int orgqr(int m, int n, int k, T* a, int lda, const T* tau) {
  auto f = pick<T>(scipy_sorgqr_, scipy_dorgqr_);
  int info = 0, lwork = -1;
  T query{};
  f(&m, &n, &k, a, &lda, tau, &query, &lwork, &info);
  lwork = workspace_size(query);
  std::vector<T> work(static_cast<size_t>(lwork));
  f(&m, &n, &k, a, &lda, tau, work.data(), &lwork, &info);
  return info;
}

template <typename T>
int ormqr(bool left, bool transpose, int m, int n, int k, const T* a, int lda, const T* tau, T* c, int ldc) {
  auto f = pick<T>(scipy_sormqr_, scipy_dormqr_);
  const char side = left ? 'L' : 'R', tr = transpose ? 'T' : 'N';
  int info = 0, lwork = -1;
  T query{};
  f(&side, &tr, &m, &n, &k, a, &lda, tau, c, &ldc, &query, &lwork, &info, one, one);
  lwork = workspace_size(query);
  std::vector<T> work(static_cast<size_t>(lwork));
  f(&side, &tr, &m, &n, &k, a, &lda, tau, c, &ldc, work.data(), &lwork, &info, one, one);
  return info;
}

template <typename T>
int gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt) {
  auto f = pick<T>(scipy_sgesdd_, scipy_dgesdd_);
  std::vector<int> iwork(static_cast<size_t>(8 * std::max(1, std::min(m, n))));
  int info = 0, lwork = -1;
  T query{};
  f(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, &query, &lwork, iwork.data(), &info, one);
  lwork = workspace_size(query);
  std::vector<T> work(static_cast<size_t>(lwork));
  f(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work.data(), &lwork, iwork.data(), &info, one);
  return info;
}

template <typename T>
int syevd(bool vectors, bool upper, int n, T* a, int lda, T* w) {
  auto f = pick<T>(scipy_ssyevd_, scipy_dsyevd_);
  const char jobz = vectors ? 'V' : 'N', uplo = upper ? 'U' : 'L';
  int info = 0, lwork = -1, liwork = -1, iquery = 0;
  T query{};
  f(&jobz, &uplo, &n, a, &lda, w, &query, &lwork, &iquery, &liwork, &info, one, one);
  lwork = workspace_size(query);
  liwork = std::max(1, iquery);
  std::vector<T> work(static_cast<size_t>(lwork));
  std::vector<int> iwork(static_cast<size_t>(liwork));
  f(&jobz, &uplo, &n, a, &lda, w, work.data(), &lwork, iwork.data(), &liwork, &info, one, one);
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
int geqrf(int, int, T*, int, T*) { unavailable(); }
template <typename T>
int orgqr(int, int, int, T*, int, const T*) { unavailable(); }
template <typename T>
int ormqr(bool, bool, int, int, int, const T*, int, const T*, T*, int) { unavailable(); }
template <typename T>
int gesdd(char, int, int, T*, int, T*, T*, int, T*, int) { unavailable(); }
template <typename T>
int syevd(bool, bool, int, T*, int, T*) { unavailable(); }
template <typename T>
void trsm(bool, bool, bool, bool, int, int, const T*, int, T*, int) { unavailable(); }
template <typename T>
int gels(char, int, int, int, T*, int, T*, int, T, T*, int*) { unavailable(); }

#endif

#define ENGINE_LAPACK_INSTANTIATE(T)                                                                       \
  template int getrf<T>(int, int, T*, int, int*);                                                          \
  template int getrs<T>(bool, int, int, const T*, int, const int*, T*, int);                               \
  template int potrf<T>(bool, int, T*, int);                                                               \
  template int geqrf<T>(int, int, T*, int, T*);                                                            \
  template int orgqr<T>(int, int, int, T*, int, const T*);                                                 \
  template int ormqr<T>(bool, bool, int, int, int, const T*, int, const T*, T*, int);                      \
  template int gesdd<T>(char, int, int, T*, int, T*, T*, int, T*, int);                                    \
  template int syevd<T>(bool, bool, int, T*, int, T*);                                                     \
  template void trsm<T>(bool, bool, bool, bool, int, int, const T*, int, T*, int);                         \
  template int gels<T>(char, int, int, int, T*, int, T*, int, T, T*, int*);
ENGINE_LAPACK_INSTANTIATE(float)
ENGINE_LAPACK_INSTANTIATE(double)
#undef ENGINE_LAPACK_INSTANTIATE

}  // namespace engine::kernels::lapack
