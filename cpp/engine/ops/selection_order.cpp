#include "engine/ops/selection_order.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/core/error.h"

namespace engine::ops {

namespace {

// PyTorch compares half-precision values in float (its accumulate type), everything else as is.
// (bool rows are refused before; uint8 stands in for them only so that the dispatch compiles.)
template <typename T>
using Compared = std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float,
                                    std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>>;

template <typename V>
bool is_nan(V v) {
  if constexpr (std::is_floating_point_v<V>) {
    return std::isnan(v);
  } else {
    (void)v;
    return false;
  }
}

void check_rows(const Tensor& rows, const char* fname) {
  ENGINE_CHECK(rows.dim() == 2 && rows.is_contiguous(), std::runtime_error, fname,
               ": expected a contiguous 2-D tensor of rows");
  ENGINE_CHECK(rows.dtype() != DType::Bool, std::runtime_error, fname, ": bool rows are not supported");
}

}  // namespace

Tensor topk_positions(const Tensor& rows, int64_t k, bool largest, bool sorted) {
  check_rows(rows, "topk_positions");
  const int64_t r = rows.shape()[0], n = rows.shape()[1];
  ENGINE_CHECK(k >= 0 && k <= n, std::runtime_error, "selected index k out of range");
  Tensor out = Tensor::empty({r, k}, DType::Int64);
  if (k == 0 || r == 0) return out;
  int64_t* o = out.data<int64_t>();
  ENGINE_DISPATCH_ALL(rows.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using V = Compared<T>;
    using Elem = std::pair<V, int64_t>;
    const T* x = rows.data<T>();
    // PyTorch's comparators: NaN sorts as the top (before everything when largest, after when not).
    auto greater = [](const Elem& a, const Elem& b) {
      return (is_nan(a.first) && !is_nan(b.first)) || (a.first > b.first);
    };
    auto less = [](const Elem& a, const Elem& b) {
      return (!is_nan(a.first) && is_nan(b.first)) || (a.first < b.first);
    };
    std::vector<Elem> queue(static_cast<size_t>(n));
    const bool partial = k * 64 <= n;  // PyTorch's switch between the two algorithms
    for (int64_t i = 0; i < r; ++i) {
      for (int64_t j = 0; j < n; ++j) queue[static_cast<size_t>(j)] = {static_cast<V>(x[i * n + j]), j};
      auto run = [&](auto comp) {
        if (partial) {
          std::partial_sort(queue.begin(), queue.begin() + k, queue.end(), comp);
        } else {
          std::nth_element(queue.begin(), queue.begin() + (k - 1), queue.end(), comp);
          if (sorted) std::sort(queue.begin(), queue.begin() + (k - 1), comp);
        }
      };
      if (largest) run(greater);
      else run(less);
      for (int64_t j = 0; j < k; ++j) o[i * k + j] = queue[static_cast<size_t>(j)].second;
    }
  });
  return out;
}

Tensor kthvalue_positions(const Tensor& rows, int64_t k) {
  check_rows(rows, "kthvalue_positions");
  const int64_t r = rows.shape()[0], n = rows.shape()[1];
  ENGINE_CHECK(k >= 1 && k <= n, std::runtime_error, "kthvalue(): selected number k out of range");
  Tensor out = Tensor::empty({r}, DType::Int64);
  int64_t* o = out.data<int64_t>();
  ENGINE_DISPATCH_ALL(rows.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using V = Compared<T>;
    const T* x = rows.data<T>();
    std::vector<V> arr(static_cast<size_t>(n));
    std::vector<int64_t> pos(static_cast<size_t>(n));
    auto gt_or_nan = [](V a, V b) { return (is_nan(a) && !is_nan(b)) || (a > b); };
    auto swap_at = [&](int64_t a, int64_t b) {
      std::swap(arr[static_cast<size_t>(a)], arr[static_cast<size_t>(b)]);
      std::swap(pos[static_cast<size_t>(a)], pos[static_cast<size_t>(b)]);
    };
    auto at = [&](int64_t a) { return arr[static_cast<size_t>(a)]; };
    const int64_t target = k - 1;
    for (int64_t i = 0; i < r; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        arr[static_cast<size_t>(j)] = static_cast<V>(x[i * n + j]);
        pos[static_cast<size_t>(j)] = j;
      }
      // PyTorch's quickselect (median of three, Hoare partition), step for step.
      int64_t lo = 0, hi = n - 1;
      while (hi > lo) {
        if (hi == lo + 1) {
          if (gt_or_nan(at(lo), at(hi))) swap_at(lo, hi);
          break;
        }
        swap_at(lo + (hi - lo) / 2, lo + 1);
        if (gt_or_nan(at(lo + 1), at(hi))) swap_at(lo + 1, hi);
        if (gt_or_nan(at(lo), at(hi))) swap_at(lo, hi);
        if (gt_or_nan(at(lo + 1), at(lo))) swap_at(lo + 1, lo);
        int64_t a = lo + 1, b = hi;
        const V pivot = at(lo);
        while (true) {
          do ++a;
          while (gt_or_nan(pivot, at(a)));
          do --b;
          while (gt_or_nan(at(b), pivot));
          if (b < a) break;
          swap_at(a, b);
        }
        swap_at(lo, b);
        if (b <= target) lo = a;
        if (b >= target) hi = b - 1;
      }
      o[i] = pos[static_cast<size_t>(target)];
    }
  });
  return out;
}

}  // namespace engine::ops
