#pragma once
// One iteration scheme for every elementwise and reduction kernel: the shape is walked in row-major
// order and the innermost dimension is handed to a callback as (pointers, byte strides, length).
// Dimensions that are contiguous across all operands are merged first, so a contiguous or a simply
// broadcast tensor reaches the callback as one long run.
//
// The walk itself is compiled once per operand count (strided_loop.cpp), not once per kernel: the
// callback is reached through RunRef, one indirect call per run, so each kernel instantiates only
// its inner loop. This keeps the many dtype x op kernels of elementwise.cpp cheap to compile.
#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>
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

// Puts the dims in operand 0's memory order (largest stride first). Elementwise kernels walk their
// output this way: a result laid out like a transposed input (core/layout.h) then merges into runs
// as long as a row-major one. Only for kernels whose elements are independent of the walk's order.
template <size_t N>
void order_by_first_operand(StridedOperands<N>& op) {
  const Dims& first = op.strides[0];
  bool ordered = true;
  for (size_t d = 1; d < first.size() && ordered; ++d) ordered = first[d - 1] >= first[d];
  if (ordered) return;
  Dims order;
  for (size_t d = 0; d < first.size(); ++d) order.push_back(static_cast<int64_t>(d));
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return first[x] > first[y]; });
  Dims shape;
  std::array<Dims, N> strides;
  for (int64_t d : order) {
    shape.push_back(op.shape[d]);
    for (size_t k = 0; k < N; ++k) strides[k].push_back(op.strides[k][d]);
  }
  op.shape = std::move(shape);
  op.strides = std::move(strides);
}

// A non-owning reference to a run callback f(ptrs, inner_strides, n); valid while f lives.
template <size_t N>
class RunRef {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::remove_cv_t<F>, RunRef>>>
  RunRef(F& f) : obj_(const_cast<void*>(static_cast<const void*>(&f))), call_(&thunk<F>) {}  // NOLINT: implicit by design
  void operator()(std::array<char*, N> p, std::array<int64_t, N> s, int64_t n) const { call_(obj_, p, s, n); }

 private:
  template <typename F>
  static void thunk(void* obj, std::array<char*, N> p, std::array<int64_t, N> s, int64_t n) {
    (*static_cast<F*>(obj))(p, s, n);
  }
  void* obj_;
  void (*call_)(void*, std::array<char*, N>, std::array<int64_t, N>, int64_t);
};

// A non-owning reference to a block callback f(ptrs, inner_strides, n, outer_strides, rows): `rows`
// runs of n elements, run r starting at ptrs + r * outer_strides. Kernels whose runs can be short
// (a column slice, a transposed operand) loop over the rows themselves instead of taking one
// indirect call per run.
template <size_t N>
class BlockRef {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::remove_cv_t<F>, BlockRef>>>
  BlockRef(F& f) : obj_(const_cast<void*>(static_cast<const void*>(&f))), call_(&thunk<F>) {}  // NOLINT: implicit by design
  void operator()(std::array<char*, N> p, std::array<int64_t, N> s, int64_t n, std::array<int64_t, N> os,
                  int64_t rows) const {
    call_(obj_, p, s, n, os, rows);
  }

 private:
  template <typename F>
  static void thunk(void* obj, std::array<char*, N> p, std::array<int64_t, N> s, int64_t n,
                    std::array<int64_t, N> os, int64_t rows) {
    (*static_cast<F*>(obj))(p, s, n, os, rows);
  }
  void* obj_;
  void (*call_)(void*, std::array<char*, N>, std::array<int64_t, N>, int64_t, std::array<int64_t, N>, int64_t);
};

// The walks, defined in strided_loop.cpp for N = 1..4.
template <size_t N>
void for_each_run_ref(StridedOperands<N> op, RunRef<N> f);
template <size_t N>
void for_each_run_range_ref(const StridedOperands<N>& op, int64_t begin, int64_t end, RunRef<N> f);
template <size_t N>
void parallel_for_each_run_ref(StridedOperands<N> op, RunRef<N> f);
template <size_t N>
void parallel_for_each_block_ref(StridedOperands<N> op, BlockRef<N> f);

// Calls f(std::array<char*, N> ptrs, std::array<int64_t, N> inner_strides, int64_t n) for every
// innermost run, in row-major order.
template <size_t N, typename F>
void for_each_run(StridedOperands<N> op, F&& f) {
  for_each_run_ref<N>(std::move(op), RunRef<N>(f));
}

// Like for_each_run, over the flat row-major positions [begin, end) of an already coalesced `op`.
template <size_t N, typename F>
void for_each_run_range(const StridedOperands<N>& op, int64_t begin, int64_t end, F&& f) {
  for_each_run_range_ref<N>(op, begin, end, RunRef<N>(f));
}

// for_each_run split across the thread pool when the work is large, with the interpreter lock
// released meanwhile. Only for kernels whose runs write disjoint outputs (not reductions).
template <size_t N, typename F>
void parallel_for_each_run(StridedOperands<N> op, F&& f) {
  parallel_for_each_run_ref<N>(std::move(op), RunRef<N>(f));
}

// parallel_for_each_run with the runs handed over in blocks of rows (the two innermost dims after
// coalescing), f(ptrs, inner_strides, n, outer_strides, rows). Only for kernels whose runs write
// disjoint outputs.
template <size_t N, typename F>
void parallel_for_each_block(StridedOperands<N> op, F&& f) {
  parallel_for_each_block_ref<N>(std::move(op), BlockRef<N>(f));
}

}  // namespace engine::kernels
