#pragma once
// Dense matrix products on contiguous row-major operands.
#include <cstdint>

namespace engine::kernels {

// C[M,N] = A[M,K] @ B[K,N], all contiguous row-major; C is overwritten.
template <typename T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, const T* B, T* C);

// C[M,N] = op(A) @ op(B) with row-major leading dimensions: op(A) is A[M,K] (lda >= K), or with
// trans_a the transpose of A[K,M] (lda >= M); likewise B. C is contiguous and overwritten, or with
// `accumulate` added to (C += op(A) @ op(B)). Runs through BLAS where the build has one;
// transposed operands never need a copy there. Outside a parallel region, float32/float64
// products from 2^20 multiply-adds (ENGINE_SMALL_GEMM) are split into blocks of C over
// engine's threads, one single-threaded BLAS call each; float32 products of the shapes where
// OpenBLAS's unpacked small-matrix kernels win are cut into tiles of C for them (matmul.cpp).
template <typename T>
void gemm_ex(int64_t M, int64_t N, int64_t K, const T* A, bool trans_a, int64_t lda, const T* B, bool trans_b,
             int64_t ldb, T* C, bool accumulate = false);

// Puts the BLAS on one thread ahead of a parallel_for whose chunks each run products (gemm_ex
// inside a parallel region always keeps to its caller's thread), so no thread count changes while
// the chunks run.
void one_blas_thread();

// Keeps the BLAS (and its LAPACK) on one thread while alive, so that each of engine's threads can
// run calls of its own (as gemm_ex's split products do). Guards outside a parallel region count
// together: the last one to end gives the BLAS engine's thread count back; inside one they do
// nothing.
class OneBlasThreadWhileAlive {
 public:
  OneBlasThreadWhileAlive();
  ~OneBlasThreadWhileAlive();
  OneBlasThreadWhileAlive(const OneBlasThreadWhileAlive&) = delete;
  OneBlasThreadWhileAlive& operator=(const OneBlasThreadWhileAlive&) = delete;

 private:
  bool outermost_;
};

// Whether gemm_ex uses a BLAS library (for the tests and the benchmark notes).
bool have_blas();

}  // namespace engine::kernels
