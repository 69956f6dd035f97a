#pragma once
// Dense matrix products on contiguous row-major operands.
#include <cstdint>

namespace engine::kernels {

// C[M,N] = A[M,K] @ B[K,N], all contiguous row-major; C is overwritten.
template <typename T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, const T* B, T* C);

}  // namespace engine::kernels
