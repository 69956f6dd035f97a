// LAPACK's factorisations over batches: each op copies its operands into column-major buffers
// (what LAPACK reads and writes in place; an operand LAPACK only reads is used where it lies when
// it is in that layout already), runs the batch without the interpreter lock, and returns the
// results in that column-major layout, as PyTorch does. LAPACK runs on one OpenBLAS thread while
// engine's threads share a batch's matrices (for_each_matrix).
#include "engine/ops/linalg_decompositions.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <functional>
#include <vector>

#include "engine/autograd/variable.h"
#include "engine/core/checked.h"
#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/kernels/lapack.h"
#include "engine/kernels/matmul.h"
#include "engine/kernels/parallel.h"
#include "engine/ops/float_dispatch.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

namespace lapack = kernels::lapack;

// Shapes of an operand of the batched routines: the batch dims and the matrix.
struct MatrixShape {
  Dims batch;
  int64_t count = 1;  // number of matrices
  int rows = 0, cols = 0;
};

MatrixShape matrix_shape(const Tensor& a, const char* name) {
  ENGINE_CHECK(a.dim() >= 2, std::runtime_error, name, ": expected a tensor with 2 or more dimensions, got ", a.dim());
  ENGINE_CHECK(a.dtype() == DType::Float32 || a.dtype() == DType::Float64, std::runtime_error, name,
               ": expected a float or double tensor, got ", scalar_type_name(a.dtype()));
  MatrixShape s;
  s.batch = Dims(a.shape().begin(), a.shape().end() - 2);
  for (int64_t d : s.batch) s.count = checked_mul(s.count, d, name);
  const int64_t r = a.shape()[a.dim() - 2], c = a.shape()[a.dim() - 1];
  ENGINE_CHECK(r <= INT_MAX && c <= INT_MAX, std::runtime_error, name,
               ": matrices with more than 2147483647 rows or columns are not supported by LAPACK");
  s.rows = static_cast<int>(r);
  s.cols = static_cast<int>(c);
  return s;
}

void check_same_batch(const MatrixShape& a, const MatrixShape& b, const char* name) {
  ENGINE_CHECK(a.batch == b.batch, std::runtime_error, name, ": operands must share their batch shape, got ",
               dims_str(a.batch), " and ", dims_str(b.batch));
}

Dims with_matrix(const Dims& batch, int64_t rows, int64_t cols) {
  Dims d = batch;
  d.push_back(rows);
  d.push_back(cols);
  return d;
}

// A fresh buffer holding each (rows x cols) matrix of `a` in column-major order, with leading
// dimension `ld` >= rows (rows beyond a's are zero): shape (..., cols, ld).
Tensor column_major(const Tensor& a, const MatrixShape& s, int64_t ld) {
  Tensor src = transpose(detach(a), -2, -1);
  if (ld == s.rows) {
    Tensor buf = Tensor::empty(with_matrix(s.batch, s.cols, ld), a.dtype());
    kernels::copy(buf, src);
    return buf;
  }
  Tensor buf = zeros(with_matrix(s.batch, s.cols, ld), a.dtype());
  kernels::copy(narrow(buf, buf.dim() - 1, 0, s.rows), src);
  return buf;
}

// The (rows x cols) matrices of a column-major buffer (..., cols, >= rows), left column-major
// (strides (1, ld) in each matrix) as PyTorch 2.13 returns LAPACK's results: a view, no copy.
Tensor column_major_result(const Tensor& buf, int64_t rows) {
  return transpose(narrow(buf, buf.dim() - 1, 0, rows), -2, -1);
}

int ld_of(int rows) { return std::max(1, rows); }

// `a` itself when its matrices already lie column-major one after another (as the results of
// these ops do: an LU handed back to lu_solve), else column_major's copy. For operands LAPACK
// only reads.
Tensor column_major_input(const Tensor& a, const MatrixShape& s) {
  const Dims& st = a.strides();
  const int64_t d = a.dim();
  bool packed = st[d - 2] == 1 && st[d - 1] == s.rows;
  int64_t expected = int64_t(s.rows) * s.cols;
  for (int64_t i = d - 3; packed && i >= 0; --i) {
    packed = a.shape()[i] == 1 || st[i] == expected;
    expected *= a.shape()[i];
  }
  return packed ? detach(a) : column_major(a, s, s.rows);
}

// A single matrix from this many elements keeps OpenBLAS's own threads for its LAPACK call; below
// it, one thread does better on 2 cores (a 256 x 256 QR took 1.0 ms on one, 1.6 ms on two).
constexpr int64_t kThreadedLapackNumel = int64_t(512) * 512;

// Runs body(begin, end) over the matrices [0, count) of a batch of (rows x cols) matrices, with
// LAPACK on one OpenBLAS thread and the batch split over engine's threads: each matrix is one
// call of its own, so the results do not depend on the split. A single large matrix keeps
// OpenBLAS's threads; a single small one runs as it is (OpenBLAS threads no small call).
void for_each_matrix(int64_t count, int64_t rows, int64_t cols, const std::function<void(int64_t, int64_t)>& body) {
  const int64_t numel = rows * cols;
  if (count == 1 && (numel <= int64_t(kernels::lapack::kSmallLu) * kernels::lapack::kSmallLu ||
                     numel >= kThreadedLapackNumel)) {
    body(0, 1);
    return;
  }
  kernels::OneBlasThreadWhileAlive one_blas_thread;
  // Work per matrix in multiply-adds, plus what entering a call costs: chunks of at least 2^16.
  const int64_t cost = numel * std::min(rows, cols) + 256;
  kernels::parallel_for(count, std::max<int64_t>(1, (int64_t(1) << 16) / cost), body);
}

template <typename T>
T* matrix(const Tensor& buf, int64_t i, int64_t stride) {
  return buf.data<T>() + i * stride;
}

Dims with_vector(const Dims& batch, int64_t n) {
  Dims d = batch;
  d.push_back(n);
  return d;
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> lapack_lu_factor(const Tensor& a) {
  const MatrixShape s = matrix_shape(a, "lu_factor");
  const int m = s.rows, n = s.cols, k = std::min(m, n);
  Tensor buf = column_major(a, s, m);
  Tensor piv = zeros(with_vector(s.batch, k), DType::Int32);
  Tensor info = zeros(s.batch, DType::Int32);
  if (m > 0 && n > 0) {
    kernels::ReleaseInterpreterLock unlocked(buf.numel());
    ENGINE_DISPATCH_FLOAT32_64(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for_each_matrix(s.count, m, n, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
          info.data<int32_t>()[i] =
              lapack::getrf<T>(m, n, matrix<T>(buf, i, int64_t(m) * n), ld_of(m), piv.data<int32_t>() + i * k);
        }
      });
    });
  }
  return {column_major_result(buf, m), piv, info};
}

std::tuple<Tensor, Tensor> lapack_inv(const Tensor& a) {
  const MatrixShape s = matrix_shape(a, "inv");
  ENGINE_CHECK(s.rows == s.cols, std::runtime_error, "inv: expected square matrices");
  const int n = s.rows;
  Tensor buf = column_major(a, s, n);
  Tensor x = Tensor::empty(with_matrix(s.batch, n, n), a.dtype());
  Tensor info = zeros(s.batch, DType::Int32);
  if (n > 0) {
    kernels::ReleaseInterpreterLock unlocked(buf.numel());
    ENGINE_DISPATCH_FLOAT32_64(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const int64_t nn = int64_t(n) * n;
      for_each_matrix(s.count, n, 2 * int64_t(n), [&](int64_t b, int64_t e) {
        std::vector<int> piv(static_cast<size_t>(n));
        for (int64_t i = b; i < e; ++i) {
          T* lu = matrix<T>(buf, i, nn);
          info.data<int32_t>()[i] = lapack::getrf<T>(n, n, lu, n, piv.data());
          T* inverse = matrix<T>(x, i, nn);
          std::fill(inverse, inverse + nn, T(0));
          for (int j = 0; j < n; ++j) inverse[int64_t(j) * n + j] = T(1);
          lapack::getrs<T>(false, n, n, lu, n, piv.data(), inverse, n);
        }
      });
    });
  }
  return {column_major_result(x, n), info};
}

Tensor lapack_det(const Tensor& a) {
  const MatrixShape s = matrix_shape(a, "det");
  ENGINE_CHECK(s.rows == s.cols, std::runtime_error, "det: expected square matrices");
  const int n = s.rows;
  Tensor buf = column_major(a, s, n);
  Tensor det = Tensor::empty(s.batch, a.dtype());
  ENGINE_DISPATCH_FLOAT32_64(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const int64_t nn = int64_t(n) * n;
    kernels::ReleaseInterpreterLock unlocked(buf.numel());
    for_each_matrix(s.count, n, n, [&](int64_t b, int64_t e) {
      std::vector<int> piv(static_cast<size_t>(n));
      for (int64_t i = b; i < e; ++i) {
        T* lu = matrix<T>(buf, i, nn);
        if (n > 0) lapack::getrf<T>(n, n, lu, n, piv.data());
        // The diagonal's product in order, then the interchanges' sign (exact), as
        // perm_sign * diagonal.prod(-1) computes it.
        T product = T(1);
        bool odd = false;
        for (int j = 0; j < n; ++j) {
          product *= lu[int64_t(j) * n + j];
          odd ^= piv[static_cast<size_t>(j)] != j + 1;
        }
        det.data<T>()[i] = odd ? -product : product;
      }
    });
  });
  return det;
}

Tensor lapack_lu_solve(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool transpose) {
  const MatrixShape s = matrix_shape(lu, "lu_solve"), sb = matrix_shape(b, "lu_solve");
  check_same_batch(s, sb, "lu_solve");
  const int n = s.rows, k = sb.cols;
  ENGINE_CHECK(s.cols == n && sb.rows == n && lu.dtype() == b.dtype(), std::runtime_error,
               "lu_solve: expected square LU factors and a right-hand side of as many rows, of one dtype");
  ENGINE_CHECK(pivots.dtype() == DType::Int32 && pivots.shape() == with_vector(s.batch, n), std::runtime_error,
               "lu_solve: expected int32 pivots of shape ", dims_str(with_vector(s.batch, n)));
  Tensor a = column_major_input(lu, s), x = column_major(b, sb, n);
  Tensor piv = contiguous(pivots);
  // Pivots out of range would make LAPACK swap rows outside the matrix.
  const int32_t* p = piv.data<int32_t>();
  for (int64_t i = 0; i < piv.numel(); ++i) {
    ENGINE_CHECK(p[i] >= 1 && p[i] <= n, std::runtime_error,
                 "lu_solve: pivots must be between 1 and the size of the matrix, got ", p[i]);
  }
  if (n > 0 && k > 0) {
    kernels::ReleaseInterpreterLock unlocked(a.numel() + x.numel());
    ENGINE_DISPATCH_FLOAT32_64(lu.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if (s.count == 1 && n > lapack::kSmallLu) {
        // One matrix: its right-hand sides are independent solves, split over engine's threads
        // (blocks of 16 columns or more, fixed by the thread count).
        kernels::OneBlasThreadWhileAlive one_blas_thread;
        const int64_t per_thread = (k + kernels::num_threads() - 1) / kernels::num_threads();
        const int64_t grain = std::max<int64_t>(16, per_thread);
        kernels::parallel_for(k, grain, [&](int64_t c0, int64_t c1) {
          lapack::getrs<T>(transpose, n, static_cast<int>(c1 - c0), a.data<T>(), ld_of(n), p, x.data<T>() + c0 * n,
                           ld_of(n));
        });
        return;
      }
      for_each_matrix(s.count, n, int64_t(n) + k, [&](int64_t b0, int64_t e) {
        for (int64_t i = b0; i < e; ++i) {
          lapack::getrs<T>(transpose, n, k, matrix<T>(a, i, int64_t(n) * n), ld_of(n), p + i * n,
                           matrix<T>(x, i, int64_t(n) * k), ld_of(n));
        }
      });
    });
  }
  return column_major_result(x, n);
}

std::tuple<Tensor, Tensor> lapack_cholesky(const Tensor& a, bool upper) {
  const MatrixShape s = matrix_shape(a, "cholesky");
  ENGINE_CHECK(s.rows == s.cols, std::runtime_error, "cholesky: expected square matrices");
  const int n = s.rows;
  Tensor buf = column_major(a, s, n);
  Tensor info = zeros(s.batch, DType::Int32);
  if (n > 0) {
    kernels::ReleaseInterpreterLock unlocked(buf.numel());
    ENGINE_DISPATCH_FLOAT32_64(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for_each_matrix(s.count, n, n, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
          T* f = matrix<T>(buf, i, int64_t(n) * n);
          info.data<int32_t>()[i] = lapack::potrf<T>(upper, n, f, n);
          // potrf leaves the other triangle as it was: the factor is triangular.
          for (int c = 0; c < n; ++c) {
            for (int r = 0; r < n; ++r) {
              if (upper ? r > c : r < c) f[int64_t(c) * n + r] = T(0);
            }
          }
        }
      });
    });
  }
  return {column_major_result(buf, n), info};
}

std::tuple<Tensor, Tensor> lapack_geqrf(const Tensor& a) {
  const MatrixShape s = matrix_shape(a, "geqrf");
  const int m = s.rows, n = s.cols, k = std::min(m, n);
  Tensor buf = column_major(a, s, m);
  Tensor tau = zeros(with_vector(s.batch, k), a.dtype());
  if (k > 0) {
    kernels::ReleaseInterpreterLock unlocked(buf.numel());
    ENGINE_DISPATCH_FLOAT32_64(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for_each_matrix(s.count, m, n, [&](int64_t b, int64_t e) {
        lapack::Workspace<T> ws;
        for (int64_t i = b; i < e; ++i) {
          lapack::geqrf<T>(m, n, matrix<T>(buf, i, int64_t(m) * n), ld_of(m), matrix<T>(tau, i, k), &ws);
        }
      });
    });
  }
  return {column_major_result(buf, m), tau};
}

std::tuple<Tensor, Tensor> lapack_qr(const Tensor& a, char mode) {
  const MatrixShape s = matrix_shape(a, "qr");
  ENGINE_CHECK(mode == 'r' || mode == 's' || mode == 'c', std::runtime_error, "qr: unknown mode");
  const int m = s.rows, n = s.cols, k = std::min(m, n);
  // Q has k columns (reduced) or m (complete); its first min(n, qcols) columns start from the
  // reflectors geqrf leaves in the factorised matrix, which is Q's buffer itself when it has Q's
  // shape (the R factor copied out first).
  const int qcols = mode == 'c' ? m : k;
  const int rrows = qcols;  // R (qcols x n): in complete mode, rows below the k-th are zero
  const bool q_in_place = mode != 'r' && qcols == n;
  Tensor buf = column_major(a, s, m);
  Tensor r = Tensor::empty(with_matrix(s.batch, n, rrows), a.dtype());  // column-major (rrows x n)
  Tensor q = mode == 'r' ? zeros({0}, a.dtype())
             : q_in_place ? buf
                          : Tensor::empty(with_matrix(s.batch, qcols, m), a.dtype());
  if (r.numel() > 0 || (mode != 'r' && q.numel() > 0)) {
    kernels::ReleaseInterpreterLock unlocked(buf.numel());
    ENGINE_DISPATCH_FLOAT32_64(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const int64_t mn = int64_t(m) * n, rn = int64_t(rrows) * n, qm = int64_t(qcols) * m;
      for_each_matrix(s.count, m, n, [&](int64_t b, int64_t e) {
        lapack::Workspace<T> geqrf_ws, orgqr_ws;
        std::vector<T> tau(static_cast<size_t>(std::max(1, k)));
        for (int64_t i = b; i < e; ++i) {
          T* f = matrix<T>(buf, i, mn);
          if (k > 0) lapack::geqrf<T>(m, n, f, ld_of(m), tau.data(), &geqrf_ws);
          T* rm = matrix<T>(r, i, rn);
          for (int c = 0; c < n; ++c) {  // R: the upper triangle (trapezoid) of the first k rows
            const int top = std::min(c + 1, k);
            T* rc = rm + int64_t(c) * rrows;
            std::copy(f + int64_t(c) * m, f + int64_t(c) * m + top, rc);
            std::fill(rc + top, rc + rrows, T(0));
          }
          if (mode == 'r' || qcols == 0 || m == 0) continue;
          T* qm_ptr = q_in_place ? f : matrix<T>(q, i, qm);
          if (!q_in_place) {  // the first min(n, qcols) columns of reflectors, the others zero
            const int64_t given = int64_t(std::min(n, qcols)) * m;
            std::copy(f, f + given, qm_ptr);
            std::fill(qm_ptr + given, qm_ptr + qm, T(0));
          }
          lapack::orgqr<T>(m, qcols, k, qm_ptr, ld_of(m), tau.data(), &orgqr_ws);
        }
      });
    });
  }
  if (mode == 'r') return {q, column_major_result(r, rrows)};
  return {column_major_result(q, m), column_major_result(r, rrows)};
}

Tensor lapack_orgqr(const Tensor& a, const Tensor& tau) {
  const MatrixShape s = matrix_shape(a, "orgqr");
  const int m = s.rows, n = s.cols;
  ENGINE_CHECK(tau.dim() == a.dim() - 1 && tau.dtype() == a.dtype(), std::runtime_error,
               "orgqr: expected tau with one dimension fewer than input, of the same dtype");
  const int64_t k = tau.shape()[tau.dim() - 1];
  ENGINE_CHECK(m >= n && n >= k && with_vector(s.batch, k) == tau.shape(), std::runtime_error,
               "orgqr: expected input.size(-2) >= input.size(-1) >= tau.size(-1) and matching batch shapes");
  Tensor buf = column_major(a, s, m);
  Tensor t = contiguous(detach(tau));
  if (n > 0) {
    kernels::ReleaseInterpreterLock unlocked(buf.numel());
    ENGINE_DISPATCH_FLOAT32_64(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for_each_matrix(s.count, m, n, [&](int64_t b, int64_t e) {
        lapack::Workspace<T> ws;
        for (int64_t i = b; i < e; ++i) {
          lapack::orgqr<T>(m, n, static_cast<int>(k), matrix<T>(buf, i, int64_t(m) * n), ld_of(m), matrix<T>(t, i, k),
                           &ws);
        }
      });
    });
  }
  return column_major_result(buf, m);
}

Tensor lapack_ormqr(const Tensor& a, const Tensor& tau, const Tensor& c, bool left, bool transpose) {
  const MatrixShape s = matrix_shape(a, "ormqr"), sc = matrix_shape(c, "ormqr");
  check_same_batch(s, sc, "ormqr");
  ENGINE_CHECK(tau.dim() == a.dim() - 1 && tau.dtype() == a.dtype() && c.dtype() == a.dtype(), std::runtime_error,
               "ormqr: expected tau with one dimension fewer than input, and one dtype for all operands");
  const int64_t k = tau.shape()[tau.dim() - 1];
  const int m = sc.rows, n = sc.cols, nq = left ? m : n;
  ENGINE_CHECK(s.rows == nq && k <= std::min(s.rows, s.cols) && with_vector(s.batch, k) == tau.shape(),
               std::runtime_error, "ormqr: input.size(-2) must equal other.size(", left ? -2 : -1,
               ") and tau must hold at most min(input.size(-2), input.size(-1)) reflectors");
  Tensor abuf = column_major_input(a, s), cbuf = column_major(c, sc, m);
  Tensor t = contiguous(detach(tau));
  if (m > 0 && n > 0) {
    kernels::ReleaseInterpreterLock unlocked(abuf.numel() + cbuf.numel());
    ENGINE_DISPATCH_FLOAT32_64(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for_each_matrix(s.count, m, n, [&](int64_t b, int64_t e) {
        lapack::Workspace<T> ws;
        for (int64_t i = b; i < e; ++i) {
          lapack::ormqr<T>(left, transpose, m, n, static_cast<int>(k), matrix<T>(abuf, i, int64_t(s.rows) * s.cols),
                           ld_of(s.rows), matrix<T>(t, i, k), matrix<T>(cbuf, i, int64_t(m) * n), ld_of(m), &ws);
        }
      });
    });
  }
  return column_major_result(cbuf, m);
}

std::tuple<Tensor, Tensor, Tensor, Tensor> lapack_svd(const Tensor& a, bool full_matrices, bool compute_uv) {
  const MatrixShape s = matrix_shape(a, "svd");
  const int m = s.rows, n = s.cols, k = std::min(m, n);
  const int ucols = full_matrices ? m : k, vrows = full_matrices ? n : k;
  Tensor buf = column_major(a, s, m);
  Tensor sv = zeros(with_vector(s.batch, k), a.dtype());
  Tensor info = zeros(s.batch, DType::Int32);
  // Column-major U (m x ucols) is stored as (ucols, m); Vh (vrows x n) as (n, vrows).
  Tensor u = compute_uv ? zeros(with_matrix(s.batch, ucols, m), a.dtype()) : zeros({0}, a.dtype());
  Tensor vt = compute_uv ? zeros(with_matrix(s.batch, n, vrows), a.dtype()) : zeros({0}, a.dtype());
  const char jobz = !compute_uv ? 'N' : full_matrices ? 'A' : 'S';
  if (k > 0) {
    kernels::ReleaseInterpreterLock unlocked(buf.numel());
    ENGINE_DISPATCH_FLOAT32_64(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for_each_matrix(s.count, m, n, [&](int64_t b, int64_t e) {
        T dummy[1] = {T(0)};
        lapack::Workspace<T> ws;
        for (int64_t i = b; i < e; ++i) {
          T* up = compute_uv ? matrix<T>(u, i, int64_t(ucols) * m) : dummy;
          T* vp = compute_uv ? matrix<T>(vt, i, int64_t(n) * vrows) : dummy;
          info.data<int32_t>()[i] = lapack::gesdd<T>(jobz, m, n, matrix<T>(buf, i, int64_t(m) * n), ld_of(m),
                                                     matrix<T>(sv, i, k), up, ld_of(m), vp, ld_of(vrows), &ws);
        }
      });
    });
  } else if (compute_uv) {
    // No singular values: the full bases of an empty matrix are identities.
    ENGINE_DISPATCH_FLOAT32_64(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for (int64_t i = 0; i < s.count; ++i) {
        if (ucols == m) {
          for (int j = 0; j < m; ++j) matrix<T>(u, i, int64_t(m) * m)[int64_t(j) * m + j] = T(1);
        }
        if (vrows == n) {
          for (int j = 0; j < n; ++j) matrix<T>(vt, i, int64_t(n) * n)[int64_t(j) * n + j] = T(1);
        }
      }
    });
  }
  if (!compute_uv) return {u, sv, vt, info};
  return {column_major_result(u, m), sv, column_major_result(vt, vrows), info};
}

std::tuple<Tensor, Tensor, Tensor> lapack_eigh(const Tensor& a, bool upper, bool vectors) {
  const MatrixShape s = matrix_shape(a, "eigh");
  ENGINE_CHECK(s.rows == s.cols, std::runtime_error, "eigh: expected square matrices");
  const int n = s.rows;
  Tensor buf = column_major(a, s, n);
  Tensor w = zeros(with_vector(s.batch, n), a.dtype());
  Tensor info = zeros(s.batch, DType::Int32);
  if (n > 0) {
    kernels::ReleaseInterpreterLock unlocked(buf.numel());
    ENGINE_DISPATCH_FLOAT32_64(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for_each_matrix(s.count, n, n, [&](int64_t b, int64_t e) {
        lapack::Workspace<T> ws;
        for (int64_t i = b; i < e; ++i) {
          info.data<int32_t>()[i] = lapack::syevd<T>(vectors, upper, n, matrix<T>(buf, i, int64_t(n) * n), n,
                                                     matrix<T>(w, i, n), &ws);
        }
      });
    });
  }
  return {w, vectors ? column_major_result(buf, n) : zeros({0}, a.dtype()), info};
}

Tensor lapack_triangular_solve(const Tensor& a, const Tensor& b, bool upper, bool left, bool transpose,
                               bool unitriangular) {
  const MatrixShape s = matrix_shape(a, "triangular_solve"), sb = matrix_shape(b, "triangular_solve");
  check_same_batch(s, sb, "triangular_solve");
  const int m = sb.rows, n = sb.cols, na = left ? m : n;
  ENGINE_CHECK(s.rows == na && s.cols == na && a.dtype() == b.dtype(), std::runtime_error,
               "triangular_solve: expected a square A matching B's ", left ? "rows" : "columns", ", of one dtype");
  Tensor abuf = column_major_input(a, s), x = column_major(b, sb, m);
  if (m > 0 && n > 0) {
    kernels::ReleaseInterpreterLock unlocked(abuf.numel() + x.numel());
    ENGINE_DISPATCH_FLOAT32_64(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for_each_matrix(s.count, m, n, [&](int64_t b0, int64_t e) {
        for (int64_t i = b0; i < e; ++i) {
          lapack::trsm<T>(left, upper, transpose, unitriangular, m, n, matrix<T>(abuf, i, int64_t(na) * na),
                          ld_of(na), matrix<T>(x, i, int64_t(m) * n), ld_of(m));
        }
      });
    });
  }
  return column_major_result(x, m);
}

std::tuple<Tensor, Tensor, Tensor, Tensor> lapack_lstsq(const Tensor& a, const Tensor& b, double rcond,
                                                        char driver) {
  const MatrixShape s = matrix_shape(a, "lstsq"), sb = matrix_shape(b, "lstsq");
  check_same_batch(s, sb, "lstsq");
  const int m = s.rows, n = s.cols, k = sb.cols, ld = std::max(1, std::max(m, n));
  ENGINE_CHECK(sb.rows == m && a.dtype() == b.dtype(), std::runtime_error,
               "lstsq: expected B with as many rows as A, of the same dtype");
  ENGINE_CHECK(driver == 'y' || driver == 'd' || driver == 's' || driver == 'l', std::runtime_error,
               "lstsq: unknown driver");
  Tensor abuf = column_major(a, s, m), x = column_major(b, sb, ld);
  Tensor sv = zeros(with_vector(s.batch, std::min(m, n)), a.dtype());
  Tensor rank = zeros(s.batch, DType::Int64);
  Tensor info = zeros(s.batch, DType::Int32);
  if (m > 0 && n > 0 && k > 0) {
    kernels::ReleaseInterpreterLock unlocked(abuf.numel() + x.numel());
    ENGINE_DISPATCH_FLOAT32_64(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for_each_matrix(s.count, m, n, [&](int64_t b0, int64_t e) {
        for (int64_t i = b0; i < e; ++i) {
          int r = 0;
          info.data<int32_t>()[i] =
              lapack::gels<T>(driver, m, n, k, matrix<T>(abuf, i, int64_t(m) * n), ld_of(m),
                              matrix<T>(x, i, int64_t(ld) * k), ld, T(rcond), matrix<T>(sv, i, std::min(m, n)), &r);
          rank.data<int64_t>()[i] = r;
        }
      });
    });
  }
  return {column_major_result(x, n), rank, sv, info};
}

}  // namespace engine::ops
