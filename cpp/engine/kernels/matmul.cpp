#include "engine/kernels/matmul.h"

#include <algorithm>
#include <cstring>

namespace engine::kernels {

// Blocked i-k-j order: the innermost loop streams a row of B into a row of C, which vectorises,
// and the K and N blocks keep the working set of B in cache.
template <typename T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, const T* B, T* C) {
  std::fill(C, C + M * N, T(0));
  constexpr int64_t KB = 256, NB = 512;
  for (int64_t k0 = 0; k0 < K; k0 += KB) {
    const int64_t k1 = std::min(K, k0 + KB);
    for (int64_t n0 = 0; n0 < N; n0 += NB) {
      const int64_t n1 = std::min(N, n0 + NB);
      for (int64_t i = 0; i < M; ++i) {
        T* c = C + i * N;
        const T* a = A + i * K;
        for (int64_t k = k0; k < k1; ++k) {
          const T av = a[k];
          const T* b = B + k * N;
          for (int64_t j = n0; j < n1; ++j) c[j] += av * b[j];
        }
      }
    }
  }
}

template void gemm<float>(int64_t, int64_t, int64_t, const float*, const float*, float*);
template void gemm<double>(int64_t, int64_t, int64_t, const double*, const double*, double*);
template void gemm<int64_t>(int64_t, int64_t, int64_t, const int64_t*, const int64_t*, int64_t*);
template void gemm<int32_t>(int64_t, int64_t, int64_t, const int32_t*, const int32_t*, int32_t*);

}  // namespace engine::kernels
