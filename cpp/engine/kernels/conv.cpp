#include "engine/kernels/conv.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "engine/core/allocator.h"
#include "engine/kernels/conv_direct.h"
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

namespace {

// One (channel, kernel offset) row of im2col over a plane of o0 for a window that moves by one
// pixel along the last two dims and has as many positions per row as the image has pixels (the
// "same" convolutions): the valid rows then read one contiguous stretch of the image shifted by
// the kernel offset, copied at once, and only the elements that wrapped around a row end are
// zeroed afterwards. (Copying row by row spends more on the calls than on the bytes.)
template <typename T>
void im2col_plane_same_rows(const T* src, const ConvGeometry& g, int64_t off1, int64_t off2, int64_t lo2, int64_t hi2,
                            T* dst) {
  const int64_t W = g.out[2], rows = g.out[1];
  int64_t lo1, hi1;
  valid_range(off1, 1, g.in[1], rows, lo1, hi1);
  std::fill(dst, dst + lo1 * W, T(0));
  std::fill(dst + hi1 * W, dst + rows * W, T(0));
  const int64_t begin = lo1 * W, end = hi1 * W, shift = off1 * W + off2;
  // Source indices k + shift outside the plane belong to wrapped elements, zeroed below anyway.
  const int64_t b = std::min(end, std::max(begin, -shift)), e = std::max(b, std::min(end, g.in[1] * W - shift));
  std::fill(dst + begin, dst + b, T(0));
  if (e > b) std::memcpy(dst + b, src + b + shift, sizeof(T) * static_cast<size_t>(e - b));
  std::fill(dst + e, dst + end, T(0));
  if (lo2 == 0 && hi2 == W) return;
  for (int64_t o1 = lo1; o1 < hi1; ++o1) {
    std::fill(dst + o1 * W, dst + o1 * W + lo2, T(0));
    std::fill(dst + o1 * W + hi2, dst + (o1 + 1) * W, T(0));
  }
}

}  // namespace

template <typename T>
void im2col(const T* image, int64_t channels, const ConvGeometry& g, T* cols, int64_t ld) {
  const int64_t L = ld, plane = g.in_numel();
  const bool same_rows = g.stride[1] == 1 && g.stride[2] == 1 && g.out[2] == g.in[2];
  for_each_kernel_row(channels, g, [&](int64_t row, int64_t c, int64_t k0, int64_t k1, int64_t k2) {
    T* dst = cols + row * L;
    const T* src = image + c * plane;
    const int64_t off0 = k0 * g.dilation[0] - g.padding[0], off1 = k1 * g.dilation[1] - g.padding[1],
                  off2 = k2 * g.dilation[2] - g.padding[2];
    int64_t lo2, hi2;
    valid_range(off2, g.stride[2], g.in[2], g.out[2], lo2, hi2);
    for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
      const int64_t i0 = o0 * g.stride[0] + off0;
      if (same_rows) {
        T* d = dst + o0 * g.out[1] * g.out[2];
        if (i0 < 0 || i0 >= g.in[0]) {
          std::fill(d, d + g.out[1] * g.out[2], T(0));
        } else {
          im2col_plane_same_rows(src + i0 * g.in[1] * g.in[2], g, off1, off2, lo2, hi2, d);
        }
        continue;
      }
      for (int64_t o1 = 0; o1 < g.out[1]; ++o1) {
        const int64_t i1 = o1 * g.stride[1] + off1;
        T* d = dst + (o0 * g.out[1] + o1) * g.out[2];
        if (i0 < 0 || i0 >= g.in[0] || i1 < 0 || i1 >= g.in[1]) {
          std::fill(d, d + g.out[2], T(0));
          continue;
        }
        const T* s = src + (i0 * g.in[1] + i1) * g.in[2];
        std::fill(d, d + lo2, T(0));
        if (hi2 == lo2) {
          // the whole row lies in the padding
        } else if (g.stride[2] == 1) {
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
void col2im(const T* cols, int64_t ld, int64_t channels, const ConvGeometry& g, T* image) {
  const int64_t L = ld, plane = g.in_numel();
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
        if (g.stride[2] == 1) {
          for (int64_t o2 = lo2; o2 < hi2; ++o2) d[o2 + off2] += s[o2];  // vectorises
        } else {
          for (int64_t o2 = lo2; o2 < hi2; ++o2) d[o2 * g.stride[2] + off2] += s[o2];
        }
      }
    }
  });
}

namespace {

// A scratch buffer from the caching allocator: column buffers are large and needed on every call,
// so reusing them saves the page faults a fresh allocation would take.
template <typename T>
class Scratch {
 public:
  explicit Scratch(int64_t n) : bytes_(static_cast<size_t>(std::max<int64_t>(n, 1)) * sizeof(T)) {
    data_ = static_cast<T*>(allocate_buffer(bytes_));
  }
  ~Scratch() { free_buffer(data_, bytes_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  T* data() const { return data_; }

 private:
  size_t bytes_;
  T* data_;
};

// Column buffers hold about this many elements (the batch is processed in blocks of samples):
// 1 MB of float32, so that im2col writes and the matrix product reads them from cache.
constexpr int64_t kColumnBudget = int64_t(1) << 18;

int64_t block_of_samples(int64_t batch, int64_t per_sample) {
  // Column buffers that stay in cache, but at least one sample per thread for im2col to share.
  const int64_t fits = std::max<int64_t>(num_threads(), kColumnBudget / std::max<int64_t>(per_sample, 1));
  return std::max<int64_t>(1, std::min<int64_t>(batch, fits));
}

// Samples per task: enough work that waking a thread pays off, one sample at least.
int64_t sample_grain(int64_t work_per_sample) {
  return std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(work_per_sample, 1));
}


// im2col of samples [n0, n0 + nb) of group `grp`, the samples shared among threads: sample j's
// columns start at cols + j * offset, their rows `ld` apart (one block of samples side by side,
// or each sample's columns on their own).
template <typename T>
void im2col_samples(const T* input, int64_t n0, int64_t nb, int64_t in_channels, int64_t grp, int64_t Cg,
                    const ConvGeometry& g, T* cols, int64_t offset, int64_t ld) {
  const int64_t P = g.in_numel(), work = Cg * g.kernel_numel() * g.out_numel();
  parallel_for(nb, sample_grain(work), [&](int64_t j0, int64_t j1) {
    for (int64_t j = j0; j < j1; ++j) im2col(input + ((n0 + j) * in_channels + grp * Cg) * P, Cg, g, cols + j * offset, ld);
  });
}

// Positions per sample from which each sample's product is wide enough on its own.
constexpr int64_t kDirectPositions = 256;

// conv_forward for many positions per sample: each sample's product is written straight into its
// output (then the bias added while it is in cache), with no product buffer to copy back from.
template <typename T>
void conv_forward_direct(const T* input, const T* weight, const T* bias, T* out, int64_t batch, int64_t in_channels,
                         int64_t out_channels, int64_t groups, const ConvGeometry& g) {
  const int64_t Cg = in_channels / groups, Og = out_channels / groups;
  const int64_t K = g.kernel_numel(), L = g.out_numel();
  const int64_t rows = Cg * K;
  const int64_t block = block_of_samples(batch, rows * L);
  Scratch<T> cols(rows * block * L);
  for (int64_t n0 = 0; n0 < batch; n0 += block) {
    const int64_t nb = std::min(block, batch - n0);
    for (int64_t grp = 0; grp < groups; ++grp) {
      im2col_samples(input, n0, nb, in_channels, grp, Cg, g, cols.data(), rows * L, L);
      for (int64_t j = 0; j < nb; ++j) {
        T* dst = out + ((n0 + j) * out_channels + grp * Og) * L;
        // K == 0 (no input channels in the group) gives zeros.
        gemm_ex<T>(Og, L, rows, weight + grp * Og * rows, false, std::max<int64_t>(rows, 1), cols.data() + j * rows * L,
                   false, L, dst);
        if (!bias) continue;
        for (int64_t o = 0; o < Og; ++o) {
          const T b = bias[grp * Og + o];
          for (int64_t l = 0; l < L; ++l) dst[o * L + l] += b;
        }
      }
    }
  }
}

// conv_forward over `batch` samples on the calling thread (its im2col and products thread
// themselves when it runs outside a parallel region).
template <typename T>
void conv_forward_samples(const T* input, const T* weight, const T* bias, T* out, int64_t batch,
                          int64_t in_channels, int64_t out_channels, int64_t groups, const ConvGeometry& g) {
  const int64_t Cg = in_channels / groups, Og = out_channels / groups;
  const int64_t K = g.kernel_numel(), L = g.out_numel();
  const int64_t rows = Cg * K;
  if (L >= kDirectPositions) {
    conv_forward_direct(input, weight, bias, out, batch, in_channels, out_channels, groups, g);
    return;
  }
  const int64_t block = block_of_samples(batch, rows * L);
  Scratch<T> cols(rows * block * L), prod(Og * block * L);
  for (int64_t n0 = 0; n0 < batch; n0 += block) {
    const int64_t nb = std::min(block, batch - n0), width = nb * L;
    for (int64_t grp = 0; grp < groups; ++grp) {
      im2col_samples(input, n0, nb, in_channels, grp, Cg, g, cols.data(), L, width);
      if (rows == 0) {
        std::fill(prod.data(), prod.data() + Og * width, T(0));
      } else {
        gemm_ex<T>(Og, width, rows, weight + grp * Og * rows, false, rows, cols.data(), false, width, prod.data());
      }
      // prod is (Og, nb * L); the output wants (nb, Og, L), with the bias added on the way.
      parallel_for(nb, sample_grain(Og * L), [&](int64_t j0, int64_t j1) {
        for (int64_t j = j0; j < j1; ++j) {
          for (int64_t o = 0; o < Og; ++o) {
            const T* src = prod.data() + o * width + j * L;
            T* dst = out + ((n0 + j) * out_channels + grp * Og + o) * L;
            const T b = bias ? bias[grp * Og + o] : T(0);
            for (int64_t l = 0; l < L; ++l) dst[l] = src[l] + b;
          }
        }
      });
    }
  }
}

// conv_transpose_forward over `batch` samples on the calling thread.
template <typename T>
void conv_transpose_samples(const T* input, const T* weight, const T* bias, T* out, int64_t batch,
                            int64_t in_channels, int64_t out_channels, int64_t groups, const ConvGeometry& g) {
  const int64_t Cg = in_channels / groups, Og = out_channels / groups;
  const int64_t K = g.kernel_numel(), L = g.out_numel(), P = g.in_numel();
  const int64_t rows = Og * K;
  const int64_t block = block_of_samples(batch, (rows + Cg) * L);
  Scratch<T> cols(rows * block * L), x(Cg * block * L);
  for (int64_t n0 = 0; n0 < batch; n0 += block) {
    const int64_t nb = std::min(block, batch - n0), width = nb * L;
    for (int64_t grp = 0; grp < groups; ++grp) {
      // The block's inputs side by side: (Cg, nb * L).
      for (int64_t j = 0; j < nb; ++j) {
        for (int64_t c = 0; c < Cg; ++c) {
          const T* src = input + ((n0 + j) * in_channels + grp * Cg + c) * L;
          std::copy(src, src + L, x.data() + c * width + j * L);
        }
      }
      if (Cg == 0) {
        std::fill(cols.data(), cols.data() + rows * width, T(0));
      } else {
        // weight[grp] is (Cg, Og*K) row-major; its transpose times x gives the columns.
        gemm_ex<T>(rows, width, Cg, weight + grp * Cg * rows, true, rows, x.data(), false, width, cols.data());
      }
      parallel_for(nb, sample_grain(rows * L), [&](int64_t j0, int64_t j1) {
        for (int64_t j = j0; j < j1; ++j) {
          T* img = out + ((n0 + j) * out_channels + grp * Og) * P;
          col2im(cols.data() + j * L, width, Og, g, img);
          if (bias) {
            for (int64_t o = 0; o < Og; ++o) {
              const T b = bias[grp * Og + o];
              for (int64_t i = 0; i < P; ++i) img[o * P + i] += b;
            }
          }
        }
      });
    }
  }
}

// The transposed weight gradient (per group, rows x Og) over `batch` samples on the calling
// thread. Per sample, im2col(input[n]) (rows, L) and grad_out[n] (Og, L) are the GEMM's operands
// in place, so each sample's product is added straight into the result: no copy of the output
// gradient into a block layout. Transposed because the product with the long side (rows) first
// runs about a fifth faster in OpenBLAS than the one with the short side first.
template <typename T>
void conv_weight_grad_samples(const T* input, const T* grad_out, T* grad_weight_t, int64_t batch,
                              int64_t in_channels, int64_t out_channels, int64_t groups, const ConvGeometry& g) {
  const int64_t Cg = in_channels / groups, Og = out_channels / groups;
  const int64_t K = g.kernel_numel(), L = g.out_numel();
  const int64_t rows = Cg * K;
  std::fill(grad_weight_t, grad_weight_t + out_channels * rows, T(0));
  const int64_t block = block_of_samples(batch, rows * L);
  Scratch<T> cols(rows * block * L);
  for (int64_t n0 = 0; n0 < batch; n0 += block) {
    const int64_t nb = std::min(block, batch - n0);
    for (int64_t grp = 0; grp < groups; ++grp) {
      im2col_samples(input, n0, nb, in_channels, grp, Cg, g, cols.data(), rows * L, L);
      // (rows, L) @ (Og, L)^T per sample, added into the group's block.
      T* dst = grad_weight_t + grp * rows * Og;
      for (int64_t j = 0; j < nb; ++j) {
        const T* go = grad_out + ((n0 + j) * out_channels + grp * Og) * L;
        gemm_ex<T>(rows, Og, L, cols.data() + j * rows * L, false, L, go, true, L, dst, true);
      }
    }
  }
}

// Multiply-adds below which a convolution stays on the calling thread.
constexpr int64_t kSampleParallelWork = int64_t(1) << 20;

// How many chunks of whole samples the batch is split into: two per thread when there is work
// enough (so that a thread that starts late, or runs slower, leaves its second chunk to the
// others). Each chunk runs the serial kernel on its thread with one BLAS thread, so the threads
// never wait on one another inside a call (per-sample products are too small for the BLAS's own
// threads to pay). A single chunk (little work, one thread, one sample) leaves the BLAS free to
// thread a product that is large on its own.
int64_t sample_chunks(int64_t batch, int64_t macs_per_sample) {
  if (num_threads() <= 1 ||
      static_cast<double>(batch) * static_cast<double>(macs_per_sample) < static_cast<double>(kSampleParallelWork)) {
    return 1;
  }
  const int64_t wanted = std::max<int64_t>(1, std::min<int64_t>(batch, 2 * num_threads()));
  const int64_t step = (batch + wanted - 1) / wanted;
  return (batch + step - 1) / step;  // every chunk non-empty (5 samples in 4 wanted: 3 chunks of 2, 2, 1)
}

// Runs body(chunk, first sample, samples) for each chunk, the chunks on parallel threads. The
// split depends only on the batch and the chunk count, so results are the same on every run with
// the same thread count.
template <typename F>
void over_sample_chunks(int64_t batch, int64_t chunks, F body) {
  const int64_t step = (batch + chunks - 1) / chunks;
  if (chunks > 1) one_blas_thread();
  parallel_for_items(chunks, [&](int64_t c) {
    const int64_t n0 = c * step, n1 = std::min(batch, n0 + step);
    if (n0 < n1) body(c, n0, n1 - n0);
  });
}

}  // namespace

template <typename T>
void conv_forward(const T* input, const T* weight, const T* bias, T* out, int64_t batch, int64_t in_channels,
                  int64_t out_channels, int64_t groups, const ConvGeometry& g) {
  if (batch == 0 || out_channels == 0) return;
  const int64_t L = g.out_numel(), P = g.in_numel(), rows = in_channels / groups * g.kernel_numel();
  if constexpr (std::is_same_v<T, float>) {
    if (conv_direct_fits(g, rows, out_channels / groups)) {
      conv_direct_forward(input, weight, bias, out, batch, in_channels, out_channels, groups, g);
      return;
    }
  }
  ReleaseInterpreterLock unlocked(batch * out_channels * L);  // the output's size: checked, and a fair measure
  over_sample_chunks(batch, sample_chunks(batch, out_channels * rows * L), [&](int64_t, int64_t n0, int64_t nb) {
    conv_forward_samples(input + n0 * in_channels * P, weight, bias, out + n0 * out_channels * L, nb, in_channels,
                         out_channels, groups, g);
  });
}

template <typename T>
void conv_transpose_forward(const T* input, const T* weight, const T* bias, T* out, int64_t batch,
                            int64_t in_channels, int64_t out_channels, int64_t groups, const ConvGeometry& g) {
  if (batch == 0 || out_channels == 0) return;
  const int64_t L = g.out_numel(), P = g.in_numel(), rows = out_channels / groups * g.kernel_numel();
  ReleaseInterpreterLock unlocked(batch * out_channels * P);  // the output's size: checked, and a fair measure
  over_sample_chunks(batch, sample_chunks(batch, in_channels * rows * L), [&](int64_t, int64_t n0, int64_t nb) {
    conv_transpose_samples(input + n0 * in_channels * L, weight, bias, out + n0 * out_channels * P, nb, in_channels,
                           out_channels, groups, g);
  });
}

// Each chunk of samples sums its products into a (transposed) weight gradient of its own; the
// partial sums are added in chunk order on the way into the result.
template <typename T>
void conv_weight_grad(const T* input, const T* grad_out, T* grad_weight, int64_t batch, int64_t in_channels,
                      int64_t out_channels, int64_t groups, const ConvGeometry& g) {
  const int64_t L = g.out_numel(), P = g.in_numel(), rows = in_channels / groups * g.kernel_numel();
  const int64_t Og = out_channels / groups, size = out_channels * rows;
  std::fill(grad_weight, grad_weight + size, T(0));
  if (batch == 0 || rows == 0 || out_channels == 0) return;
  if constexpr (std::is_same_v<T, float>) {
    if (conv_direct_fits(g, rows, out_channels / groups)) {
      conv_direct_weight_grad(input, grad_out, grad_weight, batch, in_channels, out_channels, groups, g);
      return;
    }
  }
  ReleaseInterpreterLock unlocked(size + batch * in_channels * P);
  const int64_t chunks = sample_chunks(batch, size * L);
  Scratch<T> partial(chunks * size);
  over_sample_chunks(batch, chunks, [&](int64_t c, int64_t n0, int64_t nb) {
    conv_weight_grad_samples(input + n0 * in_channels * P, grad_out + n0 * out_channels * L, partial.data() + c * size,
                             nb, in_channels, out_channels, groups, g);
  });
  for (int64_t grp = 0; grp < groups; ++grp) {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t o = 0; o < Og; ++o) {
        const int64_t at = (grp * rows + r) * Og + o;
        T v = partial.data()[at];
        for (int64_t c = 1; c < chunks; ++c) v += partial.data()[c * size + at];
        grad_weight[(grp * Og + o) * rows + r] = v;
      }
    }
  }
}

#define ENGINE_CONV_KERNELS(T)                                                                                   \
  template void im2col<T>(const T*, int64_t, const ConvGeometry&, T*, int64_t);                                 \
  template void col2im<T>(const T*, int64_t, int64_t, const ConvGeometry&, T*);                                 \
  template void conv_forward<T>(const T*, const T*, const T*, T*, int64_t, int64_t, int64_t, int64_t,           \
                                const ConvGeometry&);                                                           \
  template void conv_transpose_forward<T>(const T*, const T*, const T*, T*, int64_t, int64_t, int64_t, int64_t, \
                                          const ConvGeometry&);                                                 \
  template void conv_weight_grad<T>(const T*, const T*, T*, int64_t, int64_t, int64_t, int64_t, const ConvGeometry&);
ENGINE_CONV_KERNELS(float)
ENGINE_CONV_KERNELS(double)
#undef ENGINE_CONV_KERNELS

}  // namespace engine::kernels
