#include "engine/core/overlap.h"

#include <algorithm>
#include <numeric>

#include "engine/core/error.h"

namespace engine {

bool non_overlapping_and_dense(const Tensor& t) {
  if (t.is_contiguous()) return true;
  const int64_t n = t.dim();
  SmallVector<int64_t, 6> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return t.strides()[a] < t.strides()[b] || (t.strides()[a] == t.strides()[b] && t.shape()[a] < t.shape()[b]);
  });
  int64_t expected = 1;
  for (int64_t d : order) {
    const int64_t size = t.shape()[d];
    if (size == 1) continue;
    if (t.strides()[d] != expected) return false;
    expected *= size;
  }
  return true;
}

bool same_elements(const Tensor& a, const Tensor& b) {
  return a.get() == b.get() || (a.get()->storage == b.get()->storage && a.offset() == b.offset() &&
                                a.shape() == b.shape() && a.strides() == b.strides() && a.dtype() == b.dtype());
}

Overlap overlap_status(const Tensor& a, const Tensor& b) {
  if (a.get() == b.get()) return Overlap::Full;
  if (a.numel() == 0 || b.numel() == 0 || a.get()->storage != b.get()->storage) return Overlap::None;
  if (!non_overlapping_and_dense(a) || !non_overlapping_and_dense(b)) return Overlap::TooHard;
  // Dense tensors cover [begin, end) of their storage in bytes; compare the ranges.
  const auto* a_begin = static_cast<const char*>(a.raw_data());
  const auto* b_begin = static_cast<const char*>(b.raw_data());
  const auto* a_end = a_begin + a.numel() * static_cast<int64_t>(itemsize(a.dtype()));
  const auto* b_end = b_begin + b.numel() * static_cast<int64_t>(itemsize(b.dtype()));
  if (a_begin == b_begin && a_end == b_end) return a.strides() == b.strides() ? Overlap::Full : Overlap::Partial;
  if (a_begin < b_end && b_begin < a_end) return Overlap::Partial;
  return Overlap::None;
}

void check_no_internal_overlap(const Tensor& written) {
  for (int64_t d = 0; d < written.dim(); ++d) {
    ENGINE_CHECK(written.strides()[d] != 0 || written.shape()[d] <= 1, std::runtime_error,
                 "unsupported operation: more than one element of the written-to tensor refers to a single memory "
                 "location. Please clone() the tensor before performing the operation.");
  }
}

void check_no_partial_overlap(const Tensor& written, const Tensor& read) {
  ENGINE_CHECK(overlap_status(written, read) != Overlap::Partial, std::runtime_error,
               "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
               "memory location. Please clone() the tensor before performing the operation.");
}

}  // namespace engine
