#include "engine/kernels/reduce.h"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "engine/kernels/elementwise.h"
#include "engine/kernels/parallel.h"
#include "engine/kernels/strided_loop.h"

namespace engine::kernels {

namespace {

// A contiguous run reduced into one accumulator: eight independent partial sums let the compiler
// vectorise without reassociating a single chain (and are also more accurate than one chain).
template <typename Acc, typename T>
Acc sum_run(const T* x, int64_t n) {
  Acc p[8] = {};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int k = 0; k < 8; ++k) p[k] += static_cast<Acc>(x[i + k]);
  }
  for (; i < n; ++i) p[0] += static_cast<Acc>(x[i]);
  return ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
}

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
  for (Acc p : partial) total += p;
  return total;
}

template <typename T>
void sum_typed(const Tensor& out, const Tensor& in, const std::vector<bool>& reduce) {
  using Acc = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;
  bool all = true;
  for (bool r : reduce) all = all && r;
  if (all && in.is_contiguous() && in.numel() >= kParallelGrain) {
    Tensor acc = Tensor::empty(out.shape(), dtype_of<Acc>::value);
    *acc.data<Acc>() = sum_contiguous<Acc>(in.data<T>(), in.numel());
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
      *a += sum_run<Acc>(reinterpret_cast<const T*>(p[1]), n);
    } else if (s[0] == 0) {
      Acc total = 0;
      for (int64_t i = 0; i < n; ++i) total += static_cast<Acc>(*reinterpret_cast<const T*>(p[1] + i * s[1]));
      *a += total;
    } else if (s[0] == sizeof(Acc) && s[1] == sizeof(T)) {
      const T* x = reinterpret_cast<const T*>(p[1]);
      for (int64_t i = 0; i < n; ++i) a[i] += static_cast<Acc>(x[i]);
    } else {
      for (int64_t i = 0; i < n; ++i) {
        *reinterpret_cast<Acc*>(p[0] + i * s[0]) += static_cast<Acc>(*reinterpret_cast<const T*>(p[1] + i * s[1]));
      }
    }
  });
  copy(out, acc);
}

}  // namespace

void sum(const Tensor& out, const Tensor& in, const std::vector<bool>& reduce) {
  ENGINE_DISPATCH_ALL(in.dtype(), [&](auto tag) { sum_typed<decltype(tag)>(out, in, reduce); });
}

}  // namespace engine::kernels
