#include "engine/kernels/pool.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/kernels/parallel.h"

namespace engine::kernels {

namespace {

// Calls body(o, flat output position) and, inside, visit(flat input position) for every element of
// window o; planes are spread over threads.
template <typename Plane>
void for_each_plane(int64_t planes, const PoolWindows& w, Plane plane) {
  const int64_t work = std::max<int64_t>(w.in_numel() + w.out_numel(), 1);
  ReleaseInterpreterLock unlocked(planes * work);
  parallel_for(planes, std::max<int64_t>(1, kParallelGrain / work), [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) plane(p);
  });
}

// Visits the windows of one plane: f(output position, visit) where visit(g) calls g(input position)
// for each element of the window.
template <typename F>
void for_each_window(const PoolWindows& w, F f) {
  const PoolAxis &a0 = w.axis[0], &a1 = w.axis[1], &a2 = w.axis[2];
  for (int64_t o0 = 0; o0 < a0.out; ++o0) {
    for (int64_t o1 = 0; o1 < a1.out; ++o1) {
      for (int64_t o2 = 0; o2 < a2.out; ++o2) {
        const int64_t o = (o0 * a1.out + o1) * a2.out + o2;
        auto visit = [&](auto g) {
          for (int64_t i0 = a0.begin[o0]; i0 < a0.end[o0]; i0 += a0.step) {
            for (int64_t i1 = a1.begin[o1]; i1 < a1.end[o1]; i1 += a1.step) {
              const int64_t row = (i0 * a1.in + i1) * a2.in;
              for (int64_t i2 = a2.begin[o2]; i2 < a2.end[o2]; i2 += a2.step) g(row + i2);
            }
          }
        };
        const int64_t divisor =
            w.divisor_override != 0 ? w.divisor_override : a0.count[o0] * a1.count[o1] * a2.count[o2];
        f(o, visit, divisor);
      }
    }
  }
}

// The flat position of window o's first element (its clipped start in every dim).
int64_t first_position(const PoolWindows& w, int64_t o) {
  const PoolAxis &a0 = w.axis[0], &a1 = w.axis[1], &a2 = w.axis[2];
  const int64_t o2 = o % a2.out, o1 = (o / a2.out) % a1.out, o0 = o / (a2.out * a1.out);
  return (a0.begin[o0] * a1.in + a1.begin[o1]) * a2.in + a2.begin[o2];
}

}  // namespace

template <typename T>
void max_pool(const T* input, int64_t planes, const PoolWindows& w, T* out, int64_t* indices) {
  const int64_t in = w.in_numel(), on = w.out_numel();
  for_each_plane(planes, w, [&](int64_t p) {
    const T* x = input + p * in;
    for_each_window(w, [&](int64_t o, auto visit, int64_t) {
      T best = -std::numeric_limits<T>::infinity();
      int64_t arg = -1;
      // PyTorch's rule: the first position until a larger value or a NaN (the last NaN wins).
      visit([&](int64_t i) {
        const T v = x[i];
        if (arg < 0) arg = i;
        if (v > best || std::isnan(v)) {
          best = v;
          arg = i;
        }
      });
      out[p * on + o] = best;
      // A window wholly in the padding reports its first in-range start, as PyTorch does.
      indices[p * on + o] = arg >= 0 ? arg : first_position(w, o);
    });
  });
}

template <typename T>
void avg_pool(const T* input, int64_t planes, const PoolWindows& w, T* out) {
  const int64_t in = w.in_numel(), on = w.out_numel();
  for_each_plane(planes, w, [&](int64_t p) {
    const T* x = input + p * in;
    for_each_window(w, [&](int64_t o, auto visit, int64_t divisor) {
      T acc = 0;
      bool any = false;
      visit([&](int64_t i) {
        acc += x[i];
        any = true;
      });
      // A window wholly in the padding (possible with ceil_mode) averages to zero.
      out[p * on + o] = any ? acc / static_cast<T>(divisor) : T(0);
    });
  });
}

template <typename T>
void avg_pool_adjoint(const T* grad, int64_t planes, const PoolWindows& w, T* grad_input) {
  const int64_t in = w.in_numel(), on = w.out_numel();
  for_each_plane(planes, w, [&](int64_t p) {
    T* gx = grad_input + p * in;
    std::fill(gx, gx + in, T(0));
    for_each_window(w, [&](int64_t o, auto visit, int64_t divisor) {
      const T g = grad[p * on + o] / static_cast<T>(divisor);
      visit([&](int64_t i) { gx[i] += g; });
    });
  });
}

#define ENGINE_POOL_KERNELS(T)                                                         \
  template void max_pool<T>(const T*, int64_t, const PoolWindows&, T*, int64_t*);      \
  template void avg_pool<T>(const T*, int64_t, const PoolWindows&, T*);                \
  template void avg_pool_adjoint<T>(const T*, int64_t, const PoolWindows&, T*);
ENGINE_POOL_KERNELS(float)
ENGINE_POOL_KERNELS(double)
#undef ENGINE_POOL_KERNELS

}  // namespace engine::kernels
