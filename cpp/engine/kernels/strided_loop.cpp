// The strided walks of strided_loop.h, compiled once per operand count.
#include "engine/kernels/strided_loop.h"

namespace engine::kernels {

namespace {
// Elements below which an elementwise kernel stays on the calling thread: 256 KB of float32, about
// 3 us of work, where waking the second thread still pays. The chunks are contiguous ranges, the
// same parts that the tiled matrix products give each thread (kernels/matmul.cpp), so a weight
// update finds its weight and gradient in the cache of the core that last wrote them. (Before
// the products split that way, a second thread here moved half of each weight into the other
// core's cache and the MLP step ran 15% slower; with both, 2^18 -> 2^16 took it from 470 to 350 us.)
constexpr int64_t kElementwiseGrain = int64_t(1) << 16;
}  // namespace

template <size_t N>
void for_each_run_ref(StridedOperands<N> op, RunRef<N> f) {
  for (int64_t s : op.shape) {
    if (s == 0) return;
  }
  coalesce(op);
  const size_t nd = op.shape.size();
  if (nd == 0) {
    std::array<int64_t, N> zero{};
    f(op.data, zero, int64_t{1});
    return;
  }
  std::array<int64_t, N> inner;
  for (size_t k = 0; k < N; ++k) inner[k] = op.strides[k][nd - 1];
  const int64_t n = op.shape[nd - 1];
  Dims index(nd - 1, 0);
  std::array<char*, N> ptr = op.data;
  while (true) {
    f(ptr, inner, n);
    // Advance the outer multi-index like an odometer.
    size_t d = nd - 1;
    while (d-- > 0) {
      ++index[d];
      for (size_t k = 0; k < N; ++k) ptr[k] += op.strides[k][d];
      if (index[d] < op.shape[d]) break;
      for (size_t k = 0; k < N; ++k) ptr[k] -= op.strides[k][d] * op.shape[d];
      index[d] = 0;
      if (d == 0) return;
    }
    if (nd == 1) return;
  }
}

template <size_t N>
void for_each_run_range_ref(const StridedOperands<N>& op, int64_t begin, int64_t end, RunRef<N> f) {
  const size_t nd = op.shape.size();
  Dims index(nd, 0);
  std::array<char*, N> ptr = op.data;
  int64_t rem = begin;
  for (size_t d = nd; d-- > 0;) {
    index[d] = rem % op.shape[d];
    rem /= op.shape[d];
    for (size_t k = 0; k < N; ++k) ptr[k] += index[d] * op.strides[k][d];
  }
  std::array<int64_t, N> inner;
  for (size_t k = 0; k < N; ++k) inner[k] = op.strides[k][nd - 1];
  const int64_t n = op.shape[nd - 1];
  for (int64_t pos = begin; pos < end;) {
    const int64_t len = std::min(n - index[nd - 1], end - pos);
    f(ptr, inner, len);
    pos += len;
    if (pos >= end) return;
    // Back to the start of the row, then advance the outer multi-index like an odometer.
    for (size_t k = 0; k < N; ++k) ptr[k] -= index[nd - 1] * inner[k];
    index[nd - 1] = 0;
    for (size_t d = nd - 1; d-- > 0;) {
      ++index[d];
      for (size_t k = 0; k < N; ++k) ptr[k] += op.strides[k][d];
      if (index[d] < op.shape[d]) break;
      for (size_t k = 0; k < N; ++k) ptr[k] -= op.strides[k][d] * op.shape[d];
      index[d] = 0;
    }
  }
}

template <size_t N>
void parallel_for_each_run_ref(StridedOperands<N> op, RunRef<N> f) {
  order_by_first_operand(op);
  int64_t numel = 1;
  for (int64_t s : op.shape) numel *= s;
  if (numel < kReleaseLockNumel) return for_each_run_ref<N>(std::move(op), f);
  coalesce(op);
  if (op.shape.empty()) return for_each_run_ref<N>(std::move(op), f);
  ReleaseInterpreterLock unlocked(numel);
  parallel_for(numel, kElementwiseGrain, [&](int64_t b, int64_t e) { for_each_run_range_ref<N>(op, b, e, f); });
}

namespace {

// The rows [begin, end) of a coalesced op with at least two dims (a row: the innermost dim, rows
// counted row-major over the others), handed to f in blocks of consecutive rows of the
// second-innermost dim.
template <size_t N>
void blocks_of_rows(const StridedOperands<N>& op, int64_t begin, int64_t end, BlockRef<N> f) {
  const size_t nd = op.shape.size(), rd = nd - 2;  // rd: the dim the rows of a block run along
  Dims index(nd - 1, 0);
  std::array<char*, N> ptr = op.data;
  int64_t rem = begin;
  for (size_t d = nd - 1; d-- > 0;) {
    index[d] = rem % op.shape[d];
    rem /= op.shape[d];
    for (size_t k = 0; k < N; ++k) ptr[k] += index[d] * op.strides[k][d];
  }
  std::array<int64_t, N> inner, outer;
  for (size_t k = 0; k < N; ++k) {
    inner[k] = op.strides[k][nd - 1];
    outer[k] = op.strides[k][rd];
  }
  const int64_t n = op.shape[nd - 1];
  for (int64_t row = begin; row < end;) {
    const int64_t rows = std::min(op.shape[rd] - index[rd], end - row);
    f(ptr, inner, n, outer, rows);
    row += rows;
    if (row >= end) return;
    // Back to the start of dim rd, then advance the dims outside it like an odometer.
    for (size_t k = 0; k < N; ++k) ptr[k] -= index[rd] * outer[k];
    index[rd] = 0;
    for (size_t d = rd; d-- > 0;) {
      ++index[d];
      for (size_t k = 0; k < N; ++k) ptr[k] += op.strides[k][d];
      if (index[d] < op.shape[d]) break;
      for (size_t k = 0; k < N; ++k) ptr[k] -= op.strides[k][d] * op.shape[d];
      index[d] = 0;
    }
  }
}

}  // namespace

template <size_t N>
void parallel_for_each_block_ref(StridedOperands<N> op, BlockRef<N> f) {
  for (int64_t s : op.shape) {
    if (s == 0) return;
  }
  order_by_first_operand(op);
  coalesce(op);
  const std::array<int64_t, N> zero{};
  if (op.shape.size() <= 1) {
    // One run: split among threads by elements.
    const int64_t n = op.shape.empty() ? 1 : op.shape[0];
    std::array<int64_t, N> inner = zero;
    if (!op.shape.empty()) {
      for (size_t k = 0; k < N; ++k) inner[k] = op.strides[k][0];
    }
    auto run = [&](int64_t b, int64_t e) {
      std::array<char*, N> p = op.data;
      for (size_t k = 0; k < N; ++k) p[k] += b * inner[k];
      f(p, inner, e - b, zero, 1);
    };
    if (n < kReleaseLockNumel) return run(0, n);
    ReleaseInterpreterLock unlocked(n);
    return parallel_for(n, kElementwiseGrain, run);
  }
  const int64_t n = op.shape.back();
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < op.shape.size(); ++d) rows *= op.shape[d];
  if (rows * n < kReleaseLockNumel) return blocks_of_rows<N>(op, 0, rows, f);
  ReleaseInterpreterLock unlocked(rows * n);
  parallel_for(rows, std::max<int64_t>(1, kElementwiseGrain / n), [&](int64_t b, int64_t e) { blocks_of_rows<N>(op, b, e, f); });
}

#define ENGINE_STRIDED_LOOP_INSTANTIATE(N)                                                          \
  template void for_each_run_ref<N>(StridedOperands<N>, RunRef<N>);                                 \
  template void for_each_run_range_ref<N>(const StridedOperands<N>&, int64_t, int64_t, RunRef<N>); \
  template void parallel_for_each_run_ref<N>(StridedOperands<N>, RunRef<N>);                       \
  template void parallel_for_each_block_ref<N>(StridedOperands<N>, BlockRef<N>);
ENGINE_STRIDED_LOOP_INSTANTIATE(1)
ENGINE_STRIDED_LOOP_INSTANTIATE(2)
ENGINE_STRIDED_LOOP_INSTANTIATE(3)
ENGINE_STRIDED_LOOP_INSTANTIATE(4)
#undef ENGINE_STRIDED_LOOP_INSTANTIATE

}  // namespace engine::kernels
