#include "engine/kernels/conv_direct.h"

#include "engine/kernels/simd/table.h"

namespace engine::kernels {

namespace {

// The copy of the direct kernels that goes with the active kernel table, and the flat positions
// its forward register block covers (3 vectors).
enum class DirectCopy { None, Avx2, Avx512 };

DirectCopy direct_copy() {
  const simd::Table* t = &simd::active();
  if (conv_direct_avx512::kCompiled && t == &simd::avx512::table) return DirectCopy::Avx512;
  if (conv_direct_avx2::kCompiled && t == &simd::avx2::table) return DirectCopy::Avx2;
  return DirectCopy::None;
}

int64_t forward_tile_width(DirectCopy copy) { return copy == DirectCopy::Avx512 ? 48 : 24; }

}  // namespace

bool conv_direct_fits(const ConvGeometry& g, int64_t rows, int64_t outputs) {
  const DirectCopy copy = direct_copy();
  if (copy == DirectCopy::None) return false;
  if (g.in[0] != 1 || g.out[0] != 1 || g.kernel[0] != 1) return false;  // conv3d
  if (g.stride[1] != 1 || g.stride[2] != 1 || g.out[1] < 1 || g.out[2] < 1) return false;
  // The padded plane is the output plane widened by the kernel's span. Where dilation or padding
  // make it far larger than the output, the direct kernel would mostly compute dropped positions
  // (and its padded copy could exceed the column matrix it replaces).
  // (in doubles: the flipped geometry of an input gradient pads by d(k-1) - p, which the caller's
  // checks bound only loosely)
  const auto side = [](int64_t in, int64_t pad) { return static_cast<double>(in) + 2.0 * static_cast<double>(pad); };
  const double padded = side(g.in[1], g.padding[1]) * side(g.in[2], g.padding[2]);
  const double out = static_cast<double>(g.out[1]) * static_cast<double>(g.out[2]);
  if (padded > 2 * out + 4096 || padded >= static_cast<double>(int64_t(1) << 40)) return false;
  // Where im2col + GEMM does better (measured on one core with the AVX-512 copy; the benchmark's
  // layer runs 0.8x): 1x1 kernels (the columns are the input itself), few products per output
  // (32 x 1 x 28 x 28 -> 16: the tiles' bookkeeping outweighs their 9 multiply-adds, 1.4 against
  // 0.8 ms), and small planes, whose blocks of flat positions are half dropped columns (512 x 7 x
  // 7: 111 against 74 ms), and fewer output channels than the 8 of a register block.
  if (g.kernel_numel() < 2 || rows < 32 || outputs < 8) return false;
  const int64_t tile = forward_tile_width(copy);
  const int64_t flat = (g.out[1] - 1) * (g.in[2] + 2 * g.padding[2]) + g.out[2];
  const int64_t computed = (flat + tile - 1) / tile * tile;
  return out >= 0.7 * static_cast<double>(computed);
}

void conv_direct_forward(const float* input, const float* weight, const float* bias, float* out, int64_t batch,
                         int64_t in_channels, int64_t out_channels, int64_t groups, const ConvGeometry& g) {
  if (direct_copy() == DirectCopy::Avx512) {
    conv_direct_avx512::forward(input, weight, bias, out, batch, in_channels, out_channels, groups, g);
  } else {
    conv_direct_avx2::forward(input, weight, bias, out, batch, in_channels, out_channels, groups, g);
  }
}

void conv_direct_weight_grad(const float* input, const float* grad_out, float* grad_weight, int64_t batch,
                             int64_t in_channels, int64_t out_channels, int64_t groups, const ConvGeometry& g) {
  if (direct_copy() == DirectCopy::Avx512) {
    conv_direct_avx512::weight_grad(input, grad_out, grad_weight, batch, in_channels, out_channels, groups, g);
  } else {
    conv_direct_avx2::weight_grad(input, grad_out, grad_weight, batch, in_channels, out_channels, groups, g);
  }
}

}  // namespace engine::kernels
