#include "engine/kernels/pool.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

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

// Marks (1) the flat output positions whose window has no element in the input.
std::vector<char> empty_window_mask(const PoolWindows& w) {
  const PoolAxis &a0 = w.axis[0], &a1 = w.axis[1], &a2 = w.axis[2];
  std::vector<char> mask(static_cast<size_t>(w.out_numel()), 0);
  for (int64_t o0 = 0; o0 < a0.out; ++o0) {
    for (int64_t o1 = 0; o1 < a1.out; ++o1) {
      for (int64_t o2 = 0; o2 < a2.out; ++o2) {
        mask[(o0 * a1.out + o1) * a2.out + o2] =
            a0.begin[o0] >= a0.end[o0] || a1.begin[o1] >= a1.end[o1] || a2.begin[o2] >= a2.end[o2];
      }
    }
  }
  return mask;
}

}  // namespace

bool has_empty_window(const PoolWindows& w) {
  for (const PoolAxis& a : w.axis) {
    for (int64_t o = 0; o < a.out; ++o) {
      if (a.begin[o] >= a.end[o]) return true;
    }
  }
  return false;
}

// One candidate of a window: PyTorch's rule keeps the first position until a larger value or a
// NaN (so the last NaN wins). Written with masks, not branches: on random data which element of a
// small window wins is unpredictable, and mispredicted branches were most of this kernel's time
// (the compiler turns a plain `take ? v : best` back into a branch).
template <typename T>
inline void max_candidate(T v, int64_t i, T& best, int64_t& arg) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  const bool take = (v > best) | (v != v);
  const Bits mask = Bits(0) - Bits(take);
  Bits vb, bb;
  std::memcpy(&vb, &v, sizeof(T));
  std::memcpy(&bb, &best, sizeof(T));
  bb = (vb & mask) | (bb & ~mask);
  std::memcpy(&best, &bb, sizeof(T));
  const uint64_t imask = uint64_t(0) - uint64_t(take);
  arg = static_cast<int64_t>((static_cast<uint64_t>(i) & imask) | (static_cast<uint64_t>(arg) & ~imask));
}

// The outputs [lo, hi) of a sliding axis whose windows lie wholly inside the input.
void interior(const PoolAxis& a, int64_t& lo, int64_t& hi) {
  lo = hi = 0;
  if (a.kernel == 0) return;
  lo = std::min(a.out, (a.pad + a.stride - 1) / a.stride);
  // o * stride - pad + (kernel - 1) * step <= in - 1
  const int64_t room = a.in - 1 + a.pad - (a.kernel - 1) * a.step;
  hi = room < 0 ? 0 : std::min(a.out, room / a.stride + 1);
  hi = std::max(hi, lo);
}

// Candidates of the interior windows [lo, hi) of one window row `xr` (at flat position `row`),
// K elements per window: the window loop unrolled for the usual widths, so that the loop over
// outputs is straight-line code.
template <int K, typename T>
void interior_row(const T* xr, int64_t row, int64_t lo, int64_t hi, int64_t stride, int64_t pad, int64_t step,
                  int64_t kernel, T* best, int64_t* arg) {
  for (int64_t o = lo; o < hi; ++o) {
    T b = best[o];
    int64_t a = arg[o];
    const int64_t first = o * stride - pad;
    if constexpr (K > 0) {
      for (int j = 0; j < K; ++j) max_candidate(xr[first + j * step], row + first + j * step, b, a);
    } else {
      for (int64_t j = 0; j < kernel; ++j) max_candidate(xr[first + j * step], row + first + j * step, b, a);
    }
    best[o] = b;
    arg[o] = a;
  }
}

// Row by row: every output of a row of windows starts at -inf (its index at the window's clipped
// start, which is what an empty window reports, as PyTorch does), then each input row the windows
// share offers its candidates in order, so every window still sees its elements in PyTorch's
// order. Interior windows run through interior_row, the clipped ones at the edges element by
// element.
template <typename T>
void max_pool(const T* input, int64_t planes, const PoolWindows& w, T* out, int64_t* indices) {
  const int64_t in = w.in_numel(), on = w.out_numel();
  const PoolAxis &a0 = w.axis[0], &a1 = w.axis[1], &a2 = w.axis[2];
  const int64_t s0 = a0.step, s1 = a1.step, s2 = a2.step;
  int64_t lo = 0, hi = 0;
  interior(a2, lo, hi);
  for_each_plane(planes, w, [&](int64_t p) {
    const T* x = input + p * in;
    for (int64_t o0 = 0; o0 < a0.out; ++o0) {
      const int64_t b0 = a0.begin[o0], e0 = a0.end[o0];
      for (int64_t o1 = 0; o1 < a1.out; ++o1) {
        const int64_t b1 = a1.begin[o1], e1 = a1.end[o1];
        T* best = out + p * on + (o0 * a1.out + o1) * a2.out;
        int64_t* arg = indices + p * on + (o0 * a1.out + o1) * a2.out;
        const int64_t start = (b0 * a1.in + b1) * a2.in;
        for (int64_t o2 = 0; o2 < a2.out; ++o2) {
          best[o2] = -std::numeric_limits<T>::infinity();
          arg[o2] = start + a2.begin[o2];
        }
        for (int64_t i0 = b0; i0 < e0; i0 += s0) {
          for (int64_t i1 = b1; i1 < e1; i1 += s1) {
            const int64_t row = (i0 * a1.in + i1) * a2.in;
            const T* xr = x + row;
            auto edge = [&](int64_t o2) {
              for (int64_t i2 = a2.begin[o2]; i2 < a2.end[o2]; i2 += s2) max_candidate(xr[i2], row + i2, best[o2], arg[o2]);
            };
            for (int64_t o2 = 0; o2 < lo; ++o2) edge(o2);
            switch (a2.kernel) {
              case 2: interior_row<2>(xr, row, lo, hi, a2.stride, a2.pad, s2, 2, best, arg); break;
              case 3: interior_row<3>(xr, row, lo, hi, a2.stride, a2.pad, s2, 3, best, arg); break;
              default: interior_row<0>(xr, row, lo, hi, a2.stride, a2.pad, s2, a2.kernel, best, arg); break;
            }
            for (int64_t o2 = std::max(hi, lo); o2 < a2.out; ++o2) edge(o2);
          }
        }
      }
    }
  });
}

template <typename T>
bool max_pool_adjoint(const T* grad, const int64_t* indices, int64_t planes, const PoolWindows& w, T* grad_input) {
  const int64_t in = w.in_numel(), on = w.out_numel();
  const std::vector<char> empty = has_empty_window(w) ? empty_window_mask(w) : std::vector<char>();
  std::atomic<bool> in_range{true};
  for_each_plane(planes, w, [&](int64_t p) {
    T* gx = grad_input + p * in;
    const T* g = grad + p * on;
    const int64_t* idx = indices + p * on;
    std::fill(gx, gx + in, T(0));
    for (int64_t o = 0; o < on; ++o) {
      if (!empty.empty() && empty[o]) continue;
      const int64_t i = idx[o];
      if (i < 0 || i >= in) {
        in_range.store(false, std::memory_order_relaxed);
        continue;
      }
      gx[i] += g[o];
    }
  });
  return in_range.load();
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
  template bool max_pool_adjoint<T>(const T*, const int64_t*, int64_t, const PoolWindows&, T*); \
  template void avg_pool<T>(const T*, int64_t, const PoolWindows&, T*);                \
  template void avg_pool_adjoint<T>(const T*, int64_t, const PoolWindows&, T*);
ENGINE_POOL_KERNELS(float)
ENGINE_POOL_KERNELS(double)
#undef ENGINE_POOL_KERNELS

}  // namespace engine::kernels
