#pragma once
// One iteration scheme for every elementwise and reduction kernel: the shape is walked in row-major
// order and the innermost dimension is handed to a callback as (pointers, byte strides, length).
// Dimensions that are contiguous across all operands are merged first, so a contiguous or a simply
// broadcast tensor reaches the callback as one long run.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "engine/core/shape.h"
#include "engine/kernels/parallel.h"

namespace engine::kernels {

template <size_t N>
struct StridedOperands {
  Dims shape;
  std::array<Dims, N> strides;  // bytes
  std::array<char*, N> data;
};

template <size_t N>
void coalesce(StridedOperands<N>& op) {
  // Drop size-1 dims, then merge neighbours whose strides chain for every operand.
  Dims shape;
  std::array<Dims, N> strides;
  for (size_t d = 0; d < op.shape.size(); ++d) {
    if (op.shape[d] == 1) continue;
    shape.push_back(op.shape[d]);
    for (size_t k = 0; k < N; ++k) strides[k].push_back(op.strides[k][d]);
  }
  Dims mshape;
  std::array<Dims, N> mstrides;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!mshape.empty()) {
      bool mergeable = true;
      for (size_t k = 0; k < N; ++k) {
        if (mstrides[k].back() != strides[k][d] * shape[d]) mergeable = false;
      }
      if (mergeable) {
        mshape.back() *= shape[d];
        for (size_t k = 0; k < N; ++k) mstrides[k].back() = strides[k][d];
        continue;
      }
    }
    mshape.push_back(shape[d]);
    for (size_t k = 0; k < N; ++k) mstrides[k].push_back(strides[k][d]);
  }
  op.shape = std::move(mshape);
  op.strides = std::move(mstrides);
}

// f(std::array<char*, N> ptrs, std::array<int64_t, N> inner_strides, int64_t n)
template <size_t N, typename F>
void for_each_run(StridedOperands<N> op, F&& f) {
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

// Like for_each_run, over the flat row-major positions [begin, end) of an already coalesced `op`.
template <size_t N, typename F>
void for_each_run_range(const StridedOperands<N>& op, int64_t begin, int64_t end, F&& f) {
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

// for_each_run split across the thread pool when the work is large, with the interpreter lock
// released meanwhile. Only for kernels whose runs write disjoint outputs (not reductions).
template <size_t N, typename F>
void parallel_for_each_run(StridedOperands<N> op, F&& f) {
  int64_t numel = 1;
  for (int64_t s : op.shape) numel *= s;
  if (numel < kReleaseLockNumel) return for_each_run(std::move(op), f);
  coalesce(op);
  if (op.shape.empty()) return for_each_run(std::move(op), f);
  ReleaseInterpreterLock unlocked(numel);
  parallel_for(numel, kParallelGrain, [&](int64_t b, int64_t e) { for_each_run_range(op, b, e, f); });
}

}  // namespace engine::kernels
