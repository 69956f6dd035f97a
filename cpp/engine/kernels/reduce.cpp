#include "engine/kernels/reduce.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "engine/kernels/elementwise.h"
#include "engine/kernels/parallel.h"
#include "engine/kernels/simd/table.h"
#include "engine/kernels/strided_loop.h"

namespace engine::kernels {

namespace {

// a + b, wrapping like two's complement for integers (signed overflow is undefined in C++, and
// PyTorch's integer sums wrap).
template <typename A>
inline A add(A a, A b) {
  if constexpr (std::is_integral_v<A>) {
    return static_cast<A>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  } else {
    return a + b;
  }
}

// A contiguous run reduced into one accumulator. Floating types use the vectorised sums of the
// SIMD table (widened to double); integers keep eight independent partial sums, which the
// compiler vectorises without reassociating a single chain.
template <typename Acc, typename T>
Acc sum_run(const T* x, int64_t n) {
  if constexpr (std::is_same_v<T, float>) {
    return simd::active().sum_f32(x, n);
  } else if constexpr (std::is_same_v<T, double>) {
    return simd::active().sum_f64(x, n);
  } else {
    Acc p[8] = {};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
      for (int k = 0; k < 8; ++k) p[k] = add(p[k], static_cast<Acc>(x[i + k]));
    }
    for (; i < n; ++i) p[0] = add(p[0], static_cast<Acc>(x[i]));
    return add(add(add(p[0], p[1]), add(p[2], p[3])), add(add(p[4], p[5]), add(p[6], p[7])));
  }
}

// PyTorch's own order for the float sum of a contiguous run below its parallel grain (aten's
// cascade_sum on x86: the run read as rows of 8-lane vectors, four interleaved accumulators per
// row, partial sums promoted through four cascade levels, then the tail and the 8 lanes added in
// order), reproduced add for add so that a float32 loss prints the digits PyTorch prints. The
// lanes are plain float adds, so every instruction set gives the same bits.
namespace cascade {

constexpr int kLanes = 8;
// Above this many elements PyTorch splits the sum across its threads, and the result depends on
// their number: engine keeps its own (double-accumulated) sum there.
constexpr int64_t kTorchGrain = 32768;

struct Vec8 {
  float v[kLanes] = {};
  Vec8& operator+=(const Vec8& o) {
    for (int k = 0; k < kLanes; ++k) v[k] += o.v[k];
    return *this;
  }
};

inline void load(const float* p, float& out) { out = *p; }
inline void load(const float* p, Vec8& out) {
  for (int k = 0; k < kLanes; ++k) out.v[k] = p[k];
}

inline int64_t ceil_log2(int64_t x) {
  int64_t r = 0;
  while ((int64_t(1) << r) < x) ++r;
  return r;
}

// `nrows` sums over `size` rows, interleaved: row i, column k is the Acc at
// x + i * row_stride + k * col_stride (floats). aten's multi_row_sum.
template <typename Acc, int nrows>
void multi_row_sum(const float* x, int64_t row_stride, int64_t col_stride, int64_t size, Acc (&out)[nrows]) {
  constexpr int num_levels = 4;
  const int64_t level_power = std::max<int64_t>(4, ceil_log2(size) / num_levels);
  const int64_t level_step = int64_t(1) << level_power;
  const int64_t level_mask = level_step - 1;
  Acc value;
  if (size < level_step) {
    // No cascade step is reached: one level of sums, then the zeros of the others added once
    // (bitwise the same: x + 0 + 0 + 0 == x + 0, which only turns -0 into +0).
    Acc sums[nrows] = {};
    for (int64_t i = 0; i < size; ++i) {
      for (int k = 0; k < nrows; ++k) {
        load(x + i * row_stride + k * col_stride, value);
        sums[k] += value;
      }
    }
    for (int k = 0; k < nrows; ++k) {
      out[k] = sums[k];
      out[k] += Acc{};
    }
    return;
  }
  Acc acc[num_levels][nrows] = {};
  int64_t i = 0;
  for (; i + level_step <= size;) {
    for (int64_t j = 0; j < level_step; ++j, ++i) {
      for (int k = 0; k < nrows; ++k) {
        load(x + i * row_stride + k * col_stride, value);
        acc[0][k] += value;
      }
    }
    for (int j = 1; j < num_levels; ++j) {
      for (int k = 0; k < nrows; ++k) {
        acc[j][k] += acc[j - 1][k];
        acc[j - 1][k] = Acc{};
      }
      if ((i & (level_mask << (j * level_power))) != 0) break;
    }
  }
  for (; i < size; ++i) {
    for (int k = 0; k < nrows; ++k) {
      load(x + i * row_stride + k * col_stride, value);
      acc[0][k] += value;
    }
  }
  for (int j = 1; j < num_levels; ++j) {
    for (int k = 0; k < nrows; ++k) acc[0][k] += acc[j][k];
  }
  for (int k = 0; k < nrows; ++k) out[k] = acc[0][k];
}

// aten's row_sum: `size` Accs `stride` floats apart read as (size / 4, 4), the four column sums,
// the leftover into the first, then the four added in order.
template <typename Acc>
Acc row_sum(const float* x, int64_t stride, int64_t size) {
  constexpr int ilp = 4;
  const int64_t size_ilp = size / ilp;
  Acc partial[ilp];
  multi_row_sum<Acc, ilp>(x, stride * ilp, stride, size_ilp, partial);
  Acc value;
  for (int64_t i = size_ilp * ilp; i < size; ++i) {
    load(x + i * stride, value);
    partial[0] += value;
  }
  for (int k = 1; k < ilp; ++k) partial[0] += partial[k];
  return partial[0];
}

// A contiguous run (aten's vectorized_inner_sum, or scalar_inner_sum below 8 elements).
inline float sum(const float* x, int64_t n) {
  if (n < kLanes) return row_sum<float>(x, 1, n);
  const int64_t vec_size = n / kLanes;
  const Vec8 lanes = row_sum<Vec8>(x, kLanes, vec_size);
  float total = 0;
  for (int64_t k = vec_size * kLanes; k < n; ++k) total += x[k];
  for (int k = 0; k < kLanes; ++k) total += lanes.v[k];
  return total;
}

// The column sums of a contiguous (rows, cols) block (aten's vectorized_outer_sum, or
// scalar_outer_sum below 8 columns), into out[cols].
template <typename Out>
void column_sums(const float* x, int64_t rows, int64_t cols, Out* out) {
  int64_t j = 0;
  if (cols >= kLanes) {
    for (; j + 4 * kLanes <= cols; j += 4 * kLanes) {
      Vec8 sums[4];
      multi_row_sum<Vec8, 4>(x + j, cols, kLanes, rows, sums);
      for (int i = 0; i < 4; ++i) {
        for (int k = 0; k < kLanes; ++k) out[j + i * kLanes + k] = sums[i].v[k];
      }
    }
    for (; j + kLanes <= cols; j += kLanes) {
      const Vec8 s = row_sum<Vec8>(x + j, cols, rows);
      for (int k = 0; k < kLanes; ++k) out[j + k] = s.v[k];
    }
  } else {
    for (; j + 3 < cols; j += 4) {
      float sums[4];
      multi_row_sum<float, 4>(x + j, cols, 1, rows, sums);
      for (int k = 0; k < 4; ++k) out[j + k] = sums[k];
    }
  }
  for (; j < cols; ++j) out[j] = row_sum<float>(x + j, cols, rows);
}

// Whether a float sum over `reduce` of the contiguous `in` is one PyTorch computes in one of the
// orders above (size-1 dims aside: all dims reduced, or leading dims reduced and trailing kept, or
// the reverse): the shape as (outer, inner) and which of the two is reduced.
struct Plan {
  bool ok = false;
  int64_t outer = 1, inner = 1;
  bool reduce_outer = false, reduce_inner = false;
};

inline Plan plan(const Tensor& in, const std::vector<bool>& reduce) {
  Plan p;
  if (!in.is_contiguous() || in.numel() == 0 || in.numel() >= kTorchGrain) return p;
  // Runs of reduced / kept dims, size-1 dims dropped (PyTorch coalesces them away).
  std::vector<std::pair<bool, int64_t>> runs;
  for (size_t d = 0; d < reduce.size(); ++d) {
    const int64_t n = in.shape()[d];
    if (n == 1) continue;
    if (!runs.empty() && runs.back().first == reduce[d]) {
      runs.back().second *= n;
    } else {
      runs.push_back({reduce[d], n});
    }
  }
  if (runs.size() > 2) return p;
  p.ok = true;
  if (runs.size() == 1) {
    p.inner = runs[0].second;
    p.reduce_inner = runs[0].first;
  } else if (runs.size() == 2) {
    p.outer = runs[0].second;
    p.inner = runs[1].second;
    p.reduce_outer = runs[0].first;
    p.reduce_inner = runs[1].first;
  }
  return p;
}

}  // namespace cascade

// The sum of a large contiguous tensor: fixed-size blocks summed on the pool, then the block sums
// in order, so the result does not depend on the number of threads.
template <typename Acc, typename T>
Acc sum_contiguous(const T* x, int64_t n) {
  constexpr int64_t kBlock = int64_t(1) << 16;
  const int64_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<Acc> partial(blocks);
  ReleaseInterpreterLock unlocked(n);
  parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t start = b * kBlock;
      partial[b] = sum_run<Acc>(x + start, std::min(kBlock, n - start));
    }
  });
  Acc total = 0;
  for (Acc p : partial) total = add(total, p);
  return total;
}

template <typename T>
void sum_typed(const Tensor& out, const Tensor& in, const std::vector<bool>& reduce) {
  using Acc = std::conditional_t<is_float_type_v<T>, double, int64_t>;
  if constexpr (std::is_same_v<T, float>) {
    // Below PyTorch's parallel grain, in PyTorch's own order where its kernel has one (so float32
    // losses and gradients print PyTorch's digits); the double buffer holds the float results exactly.
    const cascade::Plan p = cascade::plan(in, reduce);
    if (p.ok && (p.reduce_outer || p.reduce_inner)) {
      Tensor acc = Tensor::empty(out.shape(), dtype_of<Acc>::value);
      const float* x = in.data<float>();
      Acc* a = acc.data<Acc>();
      if (p.reduce_outer && (p.reduce_inner || p.inner == 1)) {
        *a = cascade::sum(x, in.numel());
      } else if (p.reduce_outer) {
        cascade::column_sums(x, p.outer, p.inner, a);
      } else {  // rows reduced (a single row when outer is 1)
        for (int64_t r = 0; r < p.outer; ++r) a[r] = cascade::sum(x + r * p.inner, p.inner);
      }
      copy(out, acc);
      return;
    }
  }
  bool all = true;
  for (bool r : reduce) all = all && r;
  if (all && in.is_contiguous()) {
    // One run: on the pool when large, else straight (no strided walk for a few elements).
    Tensor acc = Tensor::empty(out.shape(), dtype_of<Acc>::value);
    const int64_t n = in.numel();
    *acc.data<Acc>() = n >= kParallelGrain ? sum_contiguous<Acc>(in.data<T>(), n) : sum_run<Acc>(in.data<T>(), n);
    copy(out, acc);
    return;
  }
  // Accumulate into a buffer laid out like `out` (keepdim shape), then cast once.
  Tensor acc = Tensor::empty(out.shape(), dtype_of<Acc>::value);
  fill(acc, 0.0);
  StridedOperands<2> op;
  op.shape = in.shape();
  Dims acc_strides = broadcast_byte_strides(acc, in.shape());
  for (size_t d = 0; d < reduce.size(); ++d) {
    if (reduce[d]) acc_strides[d] = 0;
  }
  op.strides = {acc_strides, broadcast_byte_strides(in, in.shape())};
  op.data = {static_cast<char*>(acc.raw_data()), static_cast<char*>(in.raw_data())};
  for_each_run(op, [&](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n) {
    Acc* a = reinterpret_cast<Acc*>(p[0]);
    if (s[0] == 0 && s[1] == sizeof(T)) {
      *a = add(*a, sum_run<Acc>(reinterpret_cast<const T*>(p[1]), n));
    } else if (s[0] == 0) {
      Acc total = 0;
      for (int64_t i = 0; i < n; ++i) total = add(total, static_cast<Acc>(*reinterpret_cast<const T*>(p[1] + i * s[1])));
      *a = add(*a, total);
    } else if (s[0] == sizeof(Acc) && s[1] == sizeof(T)) {
      const T* x = reinterpret_cast<const T*>(p[1]);
      if constexpr (std::is_same_v<T, float>) {
        simd::active().accumulate_f32(a, x, n);
      } else {
        for (int64_t i = 0; i < n; ++i) a[i] = add(a[i], static_cast<Acc>(x[i]));
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        Acc& dst = *reinterpret_cast<Acc*>(p[0] + i * s[0]);
        dst = add(dst, static_cast<Acc>(*reinterpret_cast<const T*>(p[1] + i * s[1])));
      }
    }
  });
  copy(out, acc);
}

}  // namespace

void sum(const Tensor& out, const Tensor& in, const std::vector<bool>& reduce) {
  ENGINE_DISPATCH_ALL(in.dtype(), [&](auto tag) { sum_typed<decltype(tag)>(out, in, reduce); });
}

namespace {

template <typename T>
bool is_nan(T v) {
  if constexpr (is_float_type_v<T>) return std::isnan(v);
  else return false;
}

}  // namespace

void reduce_rows(RowOp op, const Tensor& out, const Tensor& in, int64_t outer, int64_t inner) {
  ENGINE_DISPATCH_ALL(in.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* x = in.data<T>();
    if (op == RowOp::Prod) {
      using Acc = std::conditional_t<is_float_type_v<T>, double, int64_t>;
      Tensor acc = Tensor::empty({outer}, dtype_of<Acc>::value);
      Acc* a = acc.data<Acc>();
      for (int64_t r = 0; r < outer; ++r) {
        Acc p = 1;
        for (int64_t i = 0; i < inner; ++i) {
          if constexpr (is_reduced_float_v<T>) {
            p = static_cast<float>(T(static_cast<float>(p) * static_cast<float>(x[r * inner + i])));  // PyTorch rounds each step
          } else if constexpr (std::is_integral_v<Acc>) {
            p = static_cast<Acc>(static_cast<uint64_t>(p) * static_cast<uint64_t>(static_cast<Acc>(x[r * inner + i])));
          } else {
            p *= static_cast<Acc>(x[r * inner + i]);
          }
        }
        a[r] = p;
      }
      copy(out, acc);  // out is [outer] too
      return;
    }
    T* o = out.data<T>();
    const bool is_max = op == RowOp::Max;
    for (int64_t r = 0; r < outer; ++r) {
      const T* row = x + r * inner;
      T best = row[0];
      for (int64_t i = 1; i < inner && !is_nan(best); ++i) {
        const T v = row[i];
        if (is_nan(v) || (is_max ? v > best : v < best)) best = v;
      }
      o[r] = best;
    }
  });
}

void arg_reduce_rows(bool is_max, const Tensor& indices, const Tensor& values, const Tensor& in, int64_t outer,
                     int64_t inner) {
  ENGINE_DISPATCH_ALL(in.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* x = in.data<T>();
    int64_t* idx = indices.data<int64_t>();
    T* val = values.defined() ? values.data<T>() : nullptr;
    for (int64_t r = 0; r < outer; ++r) {
      const T* row = x + r * inner;
      int64_t k = 0;
      for (int64_t i = 1; i < inner && !is_nan(row[k]); ++i) {
        const T v = row[i];
        if (is_nan(v) || (is_max ? v > row[k] : v < row[k])) k = i;
      }
      idx[r] = k;
      if (val) val[r] = row[k];
    }
  });
}

void scan_rows(ScanOp op, const Tensor& out, const Tensor& in, int64_t outer, int64_t inner) {
  ENGINE_DISPATCH_ALL(out.dtype(), [&](auto otag) {
    using R = decltype(otag);
    ENGINE_DISPATCH_ALL(in.dtype(), [&](auto itag) {
      using T = decltype(itag);
      if constexpr (!std::is_same_v<R, bool>) {  // ops::scan refuses a bool result, as PyTorch
        using Acc = std::conditional_t<is_float_type_v<R>, double, int64_t>;
        const T* x = in.data<T>();
        R* o = out.data<R>();
        for (int64_t r = 0; r < outer; ++r) {
          Acc acc = op == ScanOp::CumSum ? 0 : 1;
          for (int64_t i = 0; i < inner; ++i) {
            const Acc v = static_cast<Acc>(x[r * inner + i]);
            if constexpr (std::is_integral_v<Acc>) {
              acc = op == ScanOp::CumSum ? static_cast<Acc>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(v))
                                         : static_cast<Acc>(static_cast<uint64_t>(acc) * static_cast<uint64_t>(v));
            } else {
              acc = op == ScanOp::CumSum ? acc + v : acc * v;
            }
            o[r * inner + i] = static_cast<R>(acc);
          }
        }
      }
    });
  });
}

}  // namespace engine::kernels
