// The AVX-512 copy of the direct convolution (conv_direct.h); CMake compiles this file alone with
// -mavx512f -mfma. conv_direct_fits calls it only when the AVX-512 kernel table is active.
//
// Layout: sample n's channel c is copied into a zero-padded plane of Hp x Wp. With unit strides,
// output (y, x) reads padded (y + ky*dh, x + kx*dw): at flat position p = y*Wp + x of the padded
// plane, shifted by ky*dh*Wp + kx*dw. Computing every flat p in [0, (Ho-1)*Wp + Wo) lets one
// vector load cover 16 consecutive positions whatever the row width; the positions with x >= Wo
// (a few per row) are computed and dropped.
#include "engine/kernels/conv_direct.h"

#include <algorithm>
#include <vector>

#include "engine/core/allocator.h"
#include "engine/core/checked.h"
#include "engine/kernels/parallel.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace engine::kernels::conv_direct_avx512 {

#if defined(__AVX512F__)

const bool kCompiled = true;

namespace {

// The padded planes' geometry (two spatial dims; conv1d has H = Ho = kh = 1).
struct Plan {
  int64_t H, W, Ho, Wo, ph, pw, kh, kw, dh, dw;
  int64_t Hp, Wp, plane;  // padded plane, plane = Hp * Wp
  int64_t flat;           // flat positions from output (0, 0) to output (Ho-1, Wo-1), inclusive
};

Plan plan_of(const ConvGeometry& g) {
  Plan p{};
  p.H = g.in[1], p.W = g.in[2], p.Ho = g.out[1], p.Wo = g.out[2];
  p.ph = g.padding[1], p.pw = g.padding[2], p.kh = g.kernel[1], p.kw = g.kernel[2];
  p.dh = g.dilation[1], p.dw = g.dilation[2];
  p.Hp = p.H + 2 * p.ph, p.Wp = p.W + 2 * p.pw;
  p.plane = checked_mul(p.Hp, p.Wp, "conv2d");
  p.flat = (p.Ho - 1) * p.Wp + p.Wo;
  return p;
}

// Floats past the last padded plane that the kernels may read (they land on dropped positions
// or masked lanes): kept zero.
constexpr int64_t kSlack = 64;

// A scratch buffer from the caching allocator (the padded copies are needed on every call).
class Buffer {
 public:
  explicit Buffer(int64_t n) : bytes_(static_cast<size_t>(std::max<int64_t>(n, 1)) * sizeof(float)) {
    data_ = static_cast<float*>(allocate_buffer(bytes_));
  }
  ~Buffer() { free_buffer(data_, bytes_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  float* data() const { return data_; }

 private:
  size_t bytes_;
  float* data_;
};

// The lanes of a vector that the first n (< 16) elements fill.
inline __mmask16 first_lanes(int64_t n) { return static_cast<__mmask16>((1u << n) - 1); }

// Row copies and fills with vector stores: the rows are short (a 28-wide image row is 112 bytes),
// and a call to memcpy or memset per row took longer than the bytes.
inline void copy_row(float* dst, const float* src, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(dst + i, _mm512_loadu_ps(src + i));
  if (i < n) {
    const __mmask16 m = first_lanes(n - i);
    _mm512_mask_storeu_ps(dst + i, m, _mm512_maskz_loadu_ps(m, src + i));
  }
}

inline void zero_row(float* dst, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(dst + i, _mm512_setzero_ps());
  if (i < n) _mm512_mask_storeu_ps(dst + i, first_lanes(n - i), _mm512_setzero_ps());
}

// Copies `planes` planes of H x W into zero-padded planes of Hp x Wp (plus the zeroed slack).
void pad_planes(const float* src, int64_t planes, const Plan& p, float* dst) {
  parallel_for(planes, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(p.plane, 1)),
               [&](int64_t i0, int64_t i1) {
                 for (int64_t i = i0; i < i1; ++i) {
                   const float* s = src + i * p.H * p.W;
                   float* d = dst + i * p.plane;
                   zero_row(d, p.ph * p.Wp + p.pw);  // the top rows and the first row's left padding
                   for (int64_t y = 0; y < p.H; ++y) {
                     float* row = d + (p.ph + y) * p.Wp + p.pw;
                     copy_row(row, s + y * p.W, p.W);
                     // this row's right padding and the next row's left padding
                     zero_row(row + p.W, y + 1 < p.H ? 2 * p.pw : p.pw);
                   }
                   zero_row(d + (p.ph + p.H) * p.Wp, p.ph * p.Wp);
                 }
               });
  zero_row(dst + planes * p.plane, kSlack);
}

// The shift of each (channel, kernel offset) row within one sample's padded planes, in the
// order of the weight's (C/groups, kh, kw) dims.
std::vector<int64_t> row_offsets(int64_t channels, const Plan& p) {
  std::vector<int64_t> offs;
  offs.reserve(static_cast<size_t>(channels * p.kh * p.kw));
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t ky = 0; ky < p.kh; ++ky) {
      for (int64_t kx = 0; kx < p.kw; ++kx) offs.push_back(c * p.plane + ky * p.dh * p.Wp + kx * p.dw);
    }
  }
  return offs;
}

// A value loaded once and used by several multiply-adds stays in a register: GCC would otherwise
// fold the load into each of them, and the repeated loads, not the multiply-adds, set the pace.
inline void keep_in_register(__m512& v) { asm("" : "+v"(v)); }

// ---------------------------------------------------------------- forward

constexpr int kOutBlock = 8;   // output channels per register block
constexpr int kVecs = 3;       // 16-float vectors of positions per register block
constexpr int64_t kTile = kVecs * 16;

// acc[j][v] = sum over rows r of weight[r][j] * src[offs[r] + 16 v]: 24 accumulators, 3 loads of
// the input and 8 broadcasts of the weights per 24 multiply-adds.
inline void forward_tile(const float* src, const int64_t* offs, const float* packed, int64_t rows,
                         float (&result)[kOutBlock][kTile]) {
  __m512 acc[kOutBlock][kVecs];
#pragma GCC unroll 8
  for (int j = 0; j < kOutBlock; ++j) {
#pragma GCC unroll 3
    for (int v = 0; v < kVecs; ++v) acc[j][v] = _mm512_setzero_ps();
  }
  for (int64_t r = 0; r < rows; ++r) {
    const float* s = src + offs[r];
    const __m512 x0 = _mm512_loadu_ps(s), x1 = _mm512_loadu_ps(s + 16), x2 = _mm512_loadu_ps(s + 32);
    const float* w = packed + r * kOutBlock;
#pragma GCC unroll 8
    for (int j = 0; j < kOutBlock; ++j) {
      __m512 wj = _mm512_set1_ps(w[j]);
      keep_in_register(wj);
      acc[j][0] = _mm512_fmadd_ps(wj, x0, acc[j][0]);
      acc[j][1] = _mm512_fmadd_ps(wj, x1, acc[j][1]);
      acc[j][2] = _mm512_fmadd_ps(wj, x2, acc[j][2]);
    }
  }
#pragma GCC unroll 8
  for (int j = 0; j < kOutBlock; ++j) {
#pragma GCC unroll 3
    for (int v = 0; v < kVecs; ++v) _mm512_storeu_ps(result[j] + 16 * v, acc[j][v]);
  }
}

// The weights of each group's blocks of 8 output channels as packed[block][row][8], zero for the
// channels past the group's last.
std::vector<float> pack_weights(const float* weight, int64_t groups, int64_t Og, int64_t rows, int64_t blocks) {
  std::vector<float> packed(static_cast<size_t>(groups * blocks * rows * kOutBlock), 0.0f);
  for (int64_t grp = 0; grp < groups; ++grp) {
    for (int64_t o = 0; o < Og; ++o) {
      const float* w = weight + (grp * Og + o) * rows;
      float* dst = packed.data() + ((grp * blocks + o / kOutBlock) * rows) * kOutBlock + o % kOutBlock;
      for (int64_t r = 0; r < rows; ++r) dst[r * kOutBlock] = w[r];
    }
  }
  return packed;
}

}  // namespace

void forward(const float* input, const float* weight, const float* bias, float* out, int64_t batch,
             int64_t in_channels, int64_t out_channels, int64_t groups, const ConvGeometry& g) {
  if (batch == 0 || out_channels == 0) return;
  const Plan p = plan_of(g);
  const int64_t Cg = in_channels / groups, Og = out_channels / groups, L = p.Ho * p.Wo;
  const int64_t rows = Cg * p.kh * p.kw;
  const int64_t blocks = (Og + kOutBlock - 1) / kOutBlock, tiles = (p.flat + kTile - 1) / kTile;
  ReleaseInterpreterLock unlocked(checked_mul(batch * out_channels, L, "conv2d"));
  Buffer padded(checked_mul(checked_mul(batch, in_channels, "conv2d"), p.plane, "conv2d") + kSlack);
  pad_planes(input, batch * in_channels, p, padded.data());
  const std::vector<int64_t> offs = row_offsets(Cg, p);
  const std::vector<float> packed = pack_weights(weight, groups, Og, rows, blocks);
  // One item per (sample, group, block of output channels): its tiles run over the sample's
  // padded planes (in cache) once per block.
  parallel_for_items(batch * groups * blocks, [&](int64_t item) {
    const int64_t n = item / (groups * blocks), grp = item / blocks % groups, blk = item % blocks;
    const float* src = padded.data() + (n * in_channels + grp * Cg) * p.plane;
    const float* w = packed.data() + (grp * blocks + blk) * rows * kOutBlock;
    const int64_t o0 = grp * Og + blk * kOutBlock, count = std::min<int64_t>(kOutBlock, Og - blk * kOutBlock);
    float* dst = out + (n * out_channels + o0) * L;
    alignas(64) float result[kOutBlock][kTile];
    for (int64_t t = 0; t < tiles; ++t) {
      const int64_t p0 = t * kTile, p1 = std::min(p.flat, p0 + kTile);
      forward_tile(src + p0, offs.data(), w, rows, result);
      // The tile's positions row by row, the dropped columns (x >= Wo) skipped.
      for (int64_t q = p0; q < p1;) {
        const int64_t y = q / p.Wp, x = q % p.Wp, row_end = std::min(p1, y * p.Wp + p.Wp);
        const int64_t valid_end = std::min(row_end, y * p.Wp + p.Wo);
        if (q < valid_end) {
          for (int64_t j = 0; j < count; ++j) {
            const float b = bias ? bias[o0 + j] : 0.0f;
            const float* r = result[j] + (q - p0);
            float* d = dst + j * L + y * p.Wo + x;
            for (int64_t i = 0; i < valid_end - q; ++i) d[i] = r[i] + b;
          }
        }
        q = row_end;
      }
    }
  });
}

// ---------------------------------------------------------------- weight gradient

namespace {

constexpr int kGradOut = 8;   // output channels per register block
constexpr int kGradRows = 3;  // (input channel, kernel offset) rows per register block

// acc[j][i] += sum over vectors v of grad[j][16 v ..] * src[i][16 v ..] (the source lanes masked to
// the kept positions): 24 accumulators, 4 + 6 loads per 24 multiply-adds.
inline void weight_grad_tile(const float* const (&grad)[kGradOut], const float* const (&src)[kGradRows],
                             const __mmask16* masks, int64_t vecs, float* accum) {
  __m512 acc[kGradOut][kGradRows];
#pragma GCC unroll 8
  for (int j = 0; j < kGradOut; ++j) {
#pragma GCC unroll 8
    for (int i = 0; i < kGradRows; ++i) acc[j][i] = _mm512_setzero_ps();
  }
  for (int64_t v = 0; v < vecs; ++v) {
    const __mmask16 m = masks[v];
    __m512 x[kGradRows];
#pragma GCC unroll 8
    for (int i = 0; i < kGradRows; ++i) x[i] = _mm512_maskz_loadu_ps(m, src[i] + 16 * v);
#pragma GCC unroll 8
    for (int j = 0; j < kGradOut; ++j) {
      __m512 gj = _mm512_loadu_ps(grad[j] + 16 * v);
      keep_in_register(gj);
#pragma GCC unroll 8
      for (int i = 0; i < kGradRows; ++i) acc[j][i] = _mm512_fmadd_ps(gj, x[i], acc[j][i]);
    }
  }
#pragma GCC unroll 8
  for (int j = 0; j < kGradOut; ++j) {
#pragma GCC unroll 8
    for (int i = 0; i < kGradRows; ++i) {
      float* a = accum + (j * kGradRows + i) * 16;
      _mm512_storeu_ps(a, _mm512_add_ps(_mm512_loadu_ps(a), acc[j][i]));
    }
  }
}

}  // namespace

void weight_grad(const float* input, const float* grad_out, float* grad_weight, int64_t batch, int64_t in_channels,
                 int64_t out_channels, int64_t groups, const ConvGeometry& g) {
  const Plan p = plan_of(g);
  const int64_t Cg = in_channels / groups, Og = out_channels / groups, L = p.Ho * p.Wo;
  const int64_t rows = Cg * p.kh * p.kw;
  std::fill(grad_weight, grad_weight + out_channels * rows, 0.0f);
  if (batch == 0 || out_channels == 0 || rows == 0) return;
  const int64_t vecs = (p.flat + 15) / 16, flat_len = vecs * 16;
  ReleaseInterpreterLock unlocked(checked_mul(batch * out_channels, L, "conv2d"));
  Buffer padded(checked_mul(checked_mul(batch, in_channels, "conv2d"), p.plane, "conv2d") + kSlack);
  pad_planes(input, batch * in_channels, p, padded.data());
  // The output gradient in the padded planes' row width (Wp), zero on the dropped columns and
  // past the last position, so that it lines up with the flat positions of the input.
  Buffer grad(checked_mul(batch * out_channels, flat_len, "conv2d"));
  parallel_for(batch * out_channels, std::max<int64_t>(1, kParallelGrain / flat_len), [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      const float* s = grad_out + i * L;
      float* d = grad.data() + i * flat_len;
      for (int64_t y = 0; y < p.Ho; ++y) {
        copy_row(d + y * p.Wp, s + y * p.Wo, p.Wo);
        zero_row(d + y * p.Wp + p.Wo, std::min(flat_len, (y + 1) * p.Wp) - (y * p.Wp + p.Wo));
      }
      zero_row(d + p.flat, flat_len - p.flat);
    }
  });
  // The kept lanes of each vector of positions: inside the plane and left of the dropped columns.
  // The input beyond them is masked out so that an inf there cannot turn a zero gradient into nan.
  std::vector<__mmask16> masks(static_cast<size_t>(vecs));
  for (int64_t v = 0; v < vecs; ++v) {
    unsigned m = 0;
    for (int64_t l = 0; l < 16; ++l) {
      const int64_t q = v * 16 + l;
      if (q < p.flat && q % p.Wp < p.Wo) m |= 1u << l;
    }
    masks[static_cast<size_t>(v)] = static_cast<__mmask16>(m);
  }
  const std::vector<int64_t> offs = row_offsets(Cg, p);
  const int64_t out_blocks = (Og + kGradOut - 1) / kGradOut, row_blocks = (rows + kGradRows - 1) / kGradRows;
  // Items: (group, block of output channels, range of row blocks), enough of them for every
  // thread; each item sums its weight-gradient entries over all samples in sample order.
  const int64_t wanted = std::max<int64_t>(1, 4 * num_threads());
  const int64_t splits = std::min<int64_t>(row_blocks, std::max<int64_t>(1, (wanted + groups * out_blocks - 1) /
                                                                                 (groups * out_blocks)));
  const int64_t span = (row_blocks + splits - 1) / splits;
  parallel_for_items(groups * out_blocks * splits, [&](int64_t item) {
    const int64_t grp = item / (out_blocks * splits), ob = item / splits % out_blocks, part = item % splits;
    const int64_t rb0 = part * span, rb1 = std::min(row_blocks, rb0 + span);
    if (rb0 >= rb1) return;
    std::vector<float> accum(static_cast<size_t>((rb1 - rb0) * kGradOut * kGradRows * 16), 0.0f);
    for (int64_t n = 0; n < batch; ++n) {
      const float* gr[kGradOut];
      for (int j = 0; j < kGradOut; ++j) {
        const int64_t o = std::min(ob * kGradOut + j, Og - 1);  // past the group's end: recomputed, dropped
        gr[j] = grad.data() + (n * out_channels + grp * Og + o) * flat_len;
      }
      const float* base = padded.data() + (n * in_channels + grp * Cg) * p.plane;
      for (int64_t rb = rb0; rb < rb1; ++rb) {
        const float* src[kGradRows];
        for (int i = 0; i < kGradRows; ++i) src[i] = base + offs[static_cast<size_t>(std::min(rb * kGradRows + i, rows - 1))];
        weight_grad_tile(gr, src, masks.data(), vecs, accum.data() + (rb - rb0) * kGradOut * kGradRows * 16);
      }
    }
    for (int64_t rb = rb0; rb < rb1; ++rb) {
      for (int j = 0; j < kGradOut; ++j) {
        const int64_t o = ob * kGradOut + j;
        if (o >= Og) break;
        for (int i = 0; i < kGradRows; ++i) {
          const int64_t r = rb * kGradRows + i;
          if (r >= rows) break;
          const float* a = accum.data() + (((rb - rb0) * kGradOut + j) * kGradRows + i) * 16;
          // The 16 lanes summed pairwise (GCC's _mm512_reduce_add_ps trips -Wmaybe-uninitialized).
          float lanes[16];
          std::copy(a, a + 16, lanes);
          for (int width = 8; width >= 1; width /= 2) {
            for (int l = 0; l < width; ++l) lanes[l] += lanes[l + width];
          }
          grad_weight[(grp * Og + o) * rows + r] = lanes[0];
        }
      }
    }
  });
}

#else  // no AVX-512 compiler support: conv_direct_fits never picks these

const bool kCompiled = false;
void forward(const float*, const float*, const float*, float*, int64_t, int64_t, int64_t, int64_t,
             const ConvGeometry&) {}
void weight_grad(const float*, const float*, float*, int64_t, int64_t, int64_t, int64_t, const ConvGeometry&) {}

#endif

}  // namespace engine::kernels::conv_direct_avx512
