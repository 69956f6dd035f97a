// The AVX2+FMA copy of the direct convolution (conv_direct.h); CMake compiles this file alone with
// -mavx2 -mfma. conv_direct_fits calls it only when the AVX2 kernel table is active.
//
// The same layout and the same order of every sum as the AVX-512 copy (conv_direct_avx512.cpp:
// each output or weight-gradient element is one chain of multiply-adds over the same terms in the
// same order), with 8-float vectors and register blocks sized for 16 vector registers: forward
// tiles of 4 output channels x 24 positions, weight-gradient tiles of 4 kernel rows x 24 output
// channels.
#include "engine/kernels/conv_direct.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "engine/core/allocator.h"
#include "engine/core/checked.h"
#include "engine/kernels/parallel.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace engine::kernels::conv_direct_avx2 {

#if defined(__AVX2__) && defined(__FMA__)

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

// Floats past the last padded plane that the forward tiles read (up to 23: they feed dropped
// positions only): kept zero.
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

// Row copies and fills with vector stores (short rows: a call to memcpy per row costs more);
// only the last few floats of a row go through memcpy / memset.
inline void copy_row(float* dst, const float* src, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, _mm256_loadu_ps(src + i));
  if (i < n) std::memcpy(dst + i, src + i, static_cast<size_t>(n - i) * sizeof(float));
}

inline void zero_row(float* dst, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, _mm256_setzero_ps());
  if (i < n) std::memset(dst + i, 0, static_cast<size_t>(n - i) * sizeof(float));
}

// Copies `planes` planes of H x W into zero-padded planes of Hp x Wp (the slack after them is
// the caller's: zeroing it here would race with the next sample's copy).
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

// A value loaded once and used by several multiply-adds stays in a register (GCC would otherwise
// fold the load into each of them).
inline void keep_in_register(__m256& v) { asm("" : "+x"(v)); }

// ---------------------------------------------------------------- forward

constexpr int kOutBlock = 4;  // output channels per register block
constexpr int kVecs = 3;      // 8-float vectors of positions per register block
constexpr int64_t kTile = kVecs * 8;

// acc[j][v] = sum over rows r of weight[r][j] * src[offs[r] + 8 v]: 12 accumulators, 3 loads of
// the input and 4 broadcasts of the weights per 12 multiply-adds (16 registers in all).
inline void forward_tile(const float* src, const int64_t* offs, const float* packed, int64_t rows,
                         float (&result)[kOutBlock][kTile]) {
  __m256 acc[kOutBlock][kVecs];
#pragma GCC unroll 4
  for (int j = 0; j < kOutBlock; ++j) {
#pragma GCC unroll 3
    for (int v = 0; v < kVecs; ++v) acc[j][v] = _mm256_setzero_ps();
  }
  for (int64_t r = 0; r < rows; ++r) {
    const float* s = src + offs[r];
    const __m256 x0 = _mm256_loadu_ps(s), x1 = _mm256_loadu_ps(s + 8), x2 = _mm256_loadu_ps(s + 16);
    const float* w = packed + r * kOutBlock;
#pragma GCC unroll 4
    for (int j = 0; j < kOutBlock; ++j) {
      __m256 wj = _mm256_broadcast_ss(w + j);
      keep_in_register(wj);
      acc[j][0] = _mm256_fmadd_ps(wj, x0, acc[j][0]);
      acc[j][1] = _mm256_fmadd_ps(wj, x1, acc[j][1]);
      acc[j][2] = _mm256_fmadd_ps(wj, x2, acc[j][2]);
    }
  }
#pragma GCC unroll 4
  for (int j = 0; j < kOutBlock; ++j) {
#pragma GCC unroll 3
    for (int v = 0; v < kVecs; ++v) _mm256_storeu_ps(result[j] + 8 * v, acc[j][v]);
  }
}

// The weights of each group's blocks of 4 output channels as packed[block][row][4], zero for the
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
  const std::vector<int64_t> offs = row_offsets(Cg, p);
  const std::vector<float> packed = pack_weights(weight, groups, Og, rows, blocks);
  // Output channels [o0, o0 + 4) of sample n from the group's padded planes `src`: the tiles
  // run over them (in cache) once per block.
  auto run_block = [&](const float* src, int64_t n, int64_t grp, int64_t blk) {
    const float* w = packed.data() + (grp * blocks + blk) * rows * kOutBlock;
    const int64_t o0 = grp * Og + blk * kOutBlock, count = std::min<int64_t>(kOutBlock, Og - blk * kOutBlock);
    float* dst = out + (n * out_channels + o0) * L;
    alignas(32) float result[kOutBlock][kTile];
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
  };
  const int64_t group_floats = checked_mul(Cg, p.plane, "conv2d") + kSlack;
  if (batch * groups >= 2 * num_threads()) {
    // One item per (sample, group), enough for every thread: the item pads its planes into a
    // buffer of its own just before the blocks read them, so they are still in cache.
    parallel_for_items(batch * groups, [&](int64_t item) {
      const int64_t n = item / groups, grp = item % groups;
      Buffer padded(group_floats);
      pad_planes(input + (n * in_channels + grp * Cg) * p.H * p.W, Cg, p, padded.data());
      zero_row(padded.data() + Cg * p.plane, kSlack);
      for (int64_t blk = 0; blk < blocks; ++blk) run_block(padded.data(), n, grp, blk);
    });
    return;
  }
  // Few samples: all of them padded first, then one item per (sample, group, block).
  Buffer padded(checked_mul(checked_mul(batch, in_channels, "conv2d"), p.plane, "conv2d") + kSlack);
  pad_planes(input, batch * in_channels, p, padded.data());
  zero_row(padded.data() + batch * in_channels * p.plane, kSlack);
  parallel_for_items(batch * groups * blocks, [&](int64_t item) {
    const int64_t n = item / (groups * blocks), grp = item / blocks % groups, blk = item % blocks;
    run_block(padded.data() + (n * in_channels + grp * Cg) * p.plane, n, grp, blk);
  });
}

// ---------------------------------------------------------------- weight gradient
//
// grad_weight[o][r] = sum over samples and output positions (y, x) of grad_out[o][y][x] *
// padded[offs[r] + y*Wp + x], the output gradient first transposed to (position, channel) with
// the group's channels padded to a multiple of 8 (see the AVX-512 copy).

namespace {

constexpr int kGradRows = 4;  // (input channel, kernel offset) rows per register block
constexpr int kGradVecs = 3;  // at most this many vectors of 8 output channels per register block

// acc[i][v] += sum over positions of padded[src[i] + y*Wp + x] * gradT[(y*Wo + x)*ld + 8 v ..],
// acc being accum[(i * V + v) * 8 ..]: V loads and 4 broadcasts per 4 V multiply-adds.
template <int V>
void weight_grad_tile(const float* const (&src)[kGradRows], const float* gradT, int64_t ld, const Plan& p,
                      float* accum) {
  __m256 acc[kGradRows][V];
#pragma GCC unroll 4
  for (int i = 0; i < kGradRows; ++i) {
#pragma GCC unroll 3
    for (int v = 0; v < V; ++v) acc[i][v] = _mm256_loadu_ps(accum + (i * V + v) * 8);
  }
  for (int64_t y = 0; y < p.Ho; ++y) {
    const float* g = gradT + y * p.Wo * ld;
    const int64_t row = y * p.Wp;
    for (int64_t x = 0; x < p.Wo; ++x, g += ld) {
      __m256 gv[V];
#pragma GCC unroll 3
      for (int v = 0; v < V; ++v) {
        gv[v] = _mm256_loadu_ps(g + 8 * v);
        keep_in_register(gv[v]);
      }
#pragma GCC unroll 4
      for (int i = 0; i < kGradRows; ++i) {
        __m256 xi = _mm256_broadcast_ss(src[i] + row + x);
        keep_in_register(xi);
#pragma GCC unroll 3
        for (int v = 0; v < V; ++v) acc[i][v] = _mm256_fmadd_ps(xi, gv[v], acc[i][v]);
      }
    }
  }
#pragma GCC unroll 4
  for (int i = 0; i < kGradRows; ++i) {
#pragma GCC unroll 3
    for (int v = 0; v < V; ++v) _mm256_storeu_ps(accum + (i * V + v) * 8, acc[i][v]);
  }
}

// out[c] = column c of the 8 x 8 matrix whose rows are r[0..7].
inline void transpose8(const __m256 (&r)[8], __m256 (&out)[8]) {
  __m256 t[8], u[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  // u[4k + j], 128-bit lane l: column 4l + j, rows 4k .. 4k + 3
  for (int k = 0; k < 2; ++k) {
    u[4 * k] = _mm256_shuffle_ps(t[4 * k], t[4 * k + 2], 0x44);
    u[4 * k + 1] = _mm256_shuffle_ps(t[4 * k], t[4 * k + 2], 0xEE);
    u[4 * k + 2] = _mm256_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0x44);
    u[4 * k + 3] = _mm256_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0xEE);
  }
  for (int j = 0; j < 4; ++j) {
    out[j] = _mm256_permute2f128_ps(u[j], u[4 + j], 0x20);
    out[4 + j] = _mm256_permute2f128_ps(u[j], u[4 + j], 0x31);
  }
}

// dst[q * ld + o] = src[o * L + q] for the `channels` rows of src, zero for o in [channels, ld);
// ld is a multiple of 8. Blocks of 8 channels x 8 positions are transposed in registers.
void transpose_to_channels_last(const float* src, int64_t channels, int64_t L, float* dst, int64_t ld) {
  int64_t q0 = 0;
  for (; q0 + 8 <= L; q0 += 8) {
    for (int64_t o0 = 0; o0 < ld; o0 += 8) {
      __m256 r[8], c[8];
      for (int i = 0; i < 8; ++i) r[i] = o0 + i < channels ? _mm256_loadu_ps(src + (o0 + i) * L + q0) : _mm256_setzero_ps();
      transpose8(r, c);
      for (int q = 0; q < 8; ++q) _mm256_storeu_ps(dst + (q0 + q) * ld + o0, c[q]);
    }
  }
  // The last positions (fewer than 8) one by one.
  for (int64_t q = q0; q < L; ++q) {
    for (int64_t o = 0; o < ld; ++o) dst[q * ld + o] = o < channels ? src[o * L + q] : 0.0f;
  }
}

using WeightGradTile = void (*)(const float* const (&)[kGradRows], const float*, int64_t, const Plan&, float*);

WeightGradTile weight_grad_tile_for(int64_t vecs) {
  switch (vecs) {
    case 1: return &weight_grad_tile<1>;
    case 2: return &weight_grad_tile<2>;
    default: return &weight_grad_tile<3>;
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
  ReleaseInterpreterLock unlocked(checked_mul(batch * out_channels, L, "conv2d"));
  // The input in padded planes, and the output gradient as gradT[n][group][position][channel]
  // with the channels padded with zeros to ld; one sample per task, both in one parallel region.
  const int64_t vecs = (Og + 7) / 8, ld = vecs * 8;
  Buffer padded(checked_mul(checked_mul(batch, in_channels, "conv2d"), p.plane, "conv2d") + kSlack);
  Buffer gradT(checked_mul(checked_mul(batch * groups, L, "conv2d"), ld, "conv2d"));
  zero_row(padded.data() + batch * in_channels * p.plane, kSlack);
  const int64_t per_sample = in_channels * p.plane + groups * L * ld;
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(per_sample, 1));
  parallel_for(batch, grain, [&](int64_t n0, int64_t n1) {
    for (int64_t n = n0; n < n1; ++n) {
      float* planes = padded.data() + n * in_channels * p.plane;
      pad_planes(input + n * in_channels * p.H * p.W, in_channels, p, planes);
      for (int64_t grp = 0; grp < groups; ++grp) {
        const int64_t i = n * groups + grp;  // (n, group) blocks of the output gradient are consecutive
        transpose_to_channels_last(grad_out + i * Og * L, Og, L, gradT.data() + i * L * ld, ld);
      }
    }
  });
  const std::vector<int64_t> offs = row_offsets(Cg, p);
  const int64_t row_blocks = (rows + kGradRows - 1) / kGradRows;
  const int64_t out_blocks = (vecs + kGradVecs - 1) / kGradVecs;
  const int64_t tiles = groups * out_blocks * row_blocks;
  const int64_t tile_floats = kGradRows * kGradVecs * 8;
  // Tiles are split into ranges, two per thread, claimed one at a time; each range runs sample
  // by sample, the tiles' sums kept in `accum` between samples. Every sum runs over samples, then
  // positions, in order, whichever thread runs it.
  Buffer accum(checked_mul(tiles, tile_floats, "conv2d"));
  zero_row(accum.data(), tiles * tile_floats);
  const int64_t ranges = std::min<int64_t>(tiles, 2 * num_threads()), span = (tiles + ranges - 1) / ranges;
  parallel_for_items(ranges, [&](int64_t range) {
    const int64_t t0 = range * span, t1 = std::min(tiles, t0 + span);
    for (int64_t n = 0; n < batch; ++n) {
      for (int64_t t = t0; t < t1; ++t) {
        const int64_t grp = t / (out_blocks * row_blocks), ob = t / row_blocks % out_blocks, rb = t % row_blocks;
        const int64_t v0 = ob * kGradVecs, nv = std::min<int64_t>(kGradVecs, vecs - v0);
        const float* base = padded.data() + (n * in_channels + grp * Cg) * p.plane;
        const float* src[kGradRows];
        for (int i = 0; i < kGradRows; ++i) {
          src[i] = base + offs[static_cast<size_t>(std::min(rb * kGradRows + i, rows - 1))];  // past the end: dropped
        }
        const float* gT = gradT.data() + (n * groups + grp) * L * ld + v0 * 8;
        weight_grad_tile_for(nv)(src, gT, ld, p, accum.data() + t * tile_floats);
      }
    }
  });
  for (int64_t t = 0; t < tiles; ++t) {
    const int64_t grp = t / (out_blocks * row_blocks), ob = t / row_blocks % out_blocks, rb = t % row_blocks;
    const int64_t v0 = ob * kGradVecs, nv = std::min<int64_t>(kGradVecs, vecs - v0);
    const float* a = accum.data() + t * tile_floats;
    for (int64_t i = 0; i < kGradRows && rb * kGradRows + i < rows; ++i) {
      const int64_t r = rb * kGradRows + i;
      for (int64_t l = 0; l < nv * 8; ++l) {
        const int64_t o = v0 * 8 + l;
        if (o < Og) grad_weight[(grp * Og + o) * rows + r] = a[i * nv * 8 + l];
      }
    }
  }
}

#else  // no AVX2+FMA compiler support: conv_direct_fits never picks these

const bool kCompiled = false;
void forward(const float*, const float*, const float*, float*, int64_t, int64_t, int64_t, int64_t,
             const ConvGeometry&) {}
void weight_grad(const float*, const float*, float*, int64_t, int64_t, int64_t, int64_t, const ConvGeometry&) {}

#endif

}  // namespace engine::kernels::conv_direct_avx2
