#include "engine/kernels/conv.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "engine/kernels/matmul.h"
#include "engine/kernels/parallel.h"

namespace engine::kernels {

namespace {

// The window positions o in [0, out) whose input coordinate o * stride + offset lies inside
// [0, in): [lo, hi). Outside that range the column holds padding.
inline void valid_range(int64_t offset, int64_t stride, int64_t in, int64_t out, int64_t& lo, int64_t& hi) {
  lo = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  hi = offset >= in ? 0 : (in - 1 - offset) / stride + 1;
  lo = std::min(lo, out);
  hi = std::max(std::min(hi, out), lo);
}

// Visits every (row of cols, image plane, kernel offsets) once; `body` gets the row's start in
// cols, the channel's plane and the kernel offset of each dim.
template <typename F>
void for_each_kernel_row(int64_t channels, const ConvGeometry& g, F body) {
  const int64_t K = g.kernel_numel();
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t k0 = 0; k0 < g.kernel[0]; ++k0) {
      for (int64_t k1 = 0; k1 < g.kernel[1]; ++k1) {
        for (int64_t k2 = 0; k2 < g.kernel[2]; ++k2) {
          const int64_t row = c * K + (k0 * g.kernel[1] + k1) * g.kernel[2] + k2;
          body(row, c, k0, k1, k2);
        }
      }
    }
  }
}

}  // namespace

template <typename T>
void im2col(const T* image, int64_t channels, const ConvGeometry& g, T* cols) {
  const int64_t L = g.out_numel(), plane = g.in_numel();
  for_each_kernel_row(channels, g, [&](int64_t row, int64_t c, int64_t k0, int64_t k1, int64_t k2) {
    T* dst = cols + row * L;
    const T* src = image + c * plane;
    const int64_t off0 = k0 * g.dilation[0] - g.padding[0], off1 = k1 * g.dilation[1] - g.padding[1],
                  off2 = k2 * g.dilation[2] - g.padding[2];
    int64_t lo2, hi2;
    valid_range(off2, g.stride[2], g.in[2], g.out[2], lo2, hi2);
    for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
      const int64_t i0 = o0 * g.stride[0] + off0;
      for (int64_t o1 = 0; o1 < g.out[1]; ++o1) {
        const int64_t i1 = o1 * g.stride[1] + off1;
        T* d = dst + (o0 * g.out[1] + o1) * g.out[2];
        if (i0 < 0 || i0 >= g.in[0] || i1 < 0 || i1 >= g.in[1]) {
          std::fill(d, d + g.out[2], T(0));
          continue;
        }
        const T* s = src + (i0 * g.in[1] + i1) * g.in[2];
        std::fill(d, d + lo2, T(0));
        if (g.stride[2] == 1) {
          std::memcpy(d + lo2, s + lo2 + off2, sizeof(T) * static_cast<size_t>(hi2 - lo2));
        } else {
          for (int64_t o2 = lo2; o2 < hi2; ++o2) d[o2] = s[o2 * g.stride[2] + off2];
        }
        std::fill(d + hi2, d + g.out[2], T(0));
      }
    }
  });
}

template <typename T>
void col2im(const T* cols, int64_t channels, const ConvGeometry& g, T* image) {
  const int64_t L = g.out_numel(), plane = g.in_numel();
  std::fill(image, image + channels * plane, T(0));
  for_each_kernel_row(channels, g, [&](int64_t row, int64_t c, int64_t k0, int64_t k1, int64_t k2) {
    const T* src = cols + row * L;
    T* dst = image + c * plane;
    const int64_t off0 = k0 * g.dilation[0] - g.padding[0], off1 = k1 * g.dilation[1] - g.padding[1],
                  off2 = k2 * g.dilation[2] - g.padding[2];
    int64_t lo2, hi2;
    valid_range(off2, g.stride[2], g.in[2], g.out[2], lo2, hi2);
    for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
      const int64_t i0 = o0 * g.stride[0] + off0;
      if (i0 < 0 || i0 >= g.in[0]) continue;
      for (int64_t o1 = 0; o1 < g.out[1]; ++o1) {
        const int64_t i1 = o1 * g.stride[1] + off1;
        if (i1 < 0 || i1 >= g.in[1]) continue;
        const T* s = src + (o0 * g.out[1] + o1) * g.out[2];
        T* d = dst + (i0 * g.in[1] + i1) * g.in[2];
        for (int64_t o2 = lo2; o2 < hi2; ++o2) d[o2 * g.stride[2] + off2] += s[o2];
      }
    }
  });
}

namespace {

// A 1x1 kernel with unit stride and no padding reads the image itself as its columns.
bool is_pointwise(const ConvGeometry& g) {
  for (int d = 0; d < 3; ++d) {
    if (g.kernel[d] != 1 || g.stride[d] != 1 || g.padding[d] != 0 || g.in[d] != g.out[d]) return false;
  }
  return true;
}

template <typename T>
void add_bias(T* out, const T* bias, int64_t channels, int64_t plane) {
  if (!bias) return;
  for (int64_t c = 0; c < channels; ++c) {
    T* p = out + c * plane;
    const T b = bias[c];
    for (int64_t i = 0; i < plane; ++i) p[i] += b;
  }
}

// Samples per task: enough work that waking a thread pays off, one sample at least.
int64_t batch_grain(int64_t work_per_sample) {
  return std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(work_per_sample, 1));
}

}  // namespace

template <typename T>
void conv_forward(const T* input, const T* weight, const T* bias, T* out, int64_t batch, int64_t in_channels,
                  int64_t out_channels, int64_t groups, const ConvGeometry& g) {
  const int64_t Cg = in_channels / groups, Og = out_channels / groups;
  const int64_t K = g.kernel_numel(), L = g.out_numel(), P = g.in_numel();
  const int64_t rows = Cg * K;
  const bool pointwise = is_pointwise(g);
  ReleaseInterpreterLock unlocked(batch * out_channels * L * std::max<int64_t>(rows, 1));
  parallel_for(batch, batch_grain(out_channels * L * rows), [&](int64_t n0, int64_t n1) {
    std::vector<T> cols(pointwise ? 0 : static_cast<size_t>(rows * L));
    for (int64_t n = n0; n < n1; ++n) {
      for (int64_t grp = 0; grp < groups; ++grp) {
        const T* x = input + (n * in_channels + grp * Cg) * P;
        const T* c = x;
        if (!pointwise) {
          im2col(x, Cg, g, cols.data());
          c = cols.data();
        }
        T* y = out + (n * out_channels + grp * Og) * L;
        if (rows == 0) {
          std::fill(y, y + Og * L, T(0));
        } else {
          gemm_ex<T>(Og, L, rows, weight + grp * Og * rows, false, rows, c, false, L, y);
        }
      }
      add_bias(out + n * out_channels * L, bias, out_channels, L);
    }
  });
}

template <typename T>
void conv_transpose_forward(const T* input, const T* weight, const T* bias, T* out, int64_t batch,
                            int64_t in_channels, int64_t out_channels, int64_t groups, const ConvGeometry& g) {
  const int64_t Cg = in_channels / groups, Og = out_channels / groups;
  const int64_t K = g.kernel_numel(), L = g.out_numel(), P = g.in_numel();
  const int64_t rows = Og * K;
  ReleaseInterpreterLock unlocked(batch * in_channels * L * std::max<int64_t>(rows, 1));
  parallel_for(batch, batch_grain(in_channels * L * rows), [&](int64_t n0, int64_t n1) {
    std::vector<T> cols(static_cast<size_t>(rows * L));
    for (int64_t n = n0; n < n1; ++n) {
      for (int64_t grp = 0; grp < groups; ++grp) {
        const T* x = input + (n * in_channels + grp * Cg) * L;
        if (Cg == 0) {
          std::fill(cols.begin(), cols.end(), T(0));
        } else {
          // weight[grp] is (Cg, Og*K) row-major; its transpose times x gives the columns.
          gemm_ex<T>(rows, L, Cg, weight + grp * Cg * rows, true, rows, x, false, L, cols.data());
        }
        col2im(cols.data(), Og, g, out + (n * out_channels + grp * Og) * P);
      }
      add_bias(out + n * out_channels * P, bias, out_channels, P);
    }
  });
}

#define ENGINE_CONV_KERNELS(T)                                                                                   \
  template void im2col<T>(const T*, int64_t, const ConvGeometry&, T*);                                          \
  template void col2im<T>(const T*, int64_t, const ConvGeometry&, T*);                                          \
  template void conv_forward<T>(const T*, const T*, const T*, T*, int64_t, int64_t, int64_t, int64_t,           \
                                const ConvGeometry&);                                                           \
  template void conv_transpose_forward<T>(const T*, const T*, const T*, T*, int64_t, int64_t, int64_t, int64_t, \
                                          const ConvGeometry&);
ENGINE_CONV_KERNELS(float)
ENGINE_CONV_KERNELS(double)
#undef ENGINE_CONV_KERNELS

}  // namespace engine::kernels
