#pragma once
// Direct float32 convolution for unit strides in one or two spatial dims: no column matrix. Each
// sample is copied once into zero-padded planes; an output value is then a sum over (input
// channel, kernel offset) of the padded plane read in place at a fixed shift, with a block of
// output channels and a run of positions held in vector registers. The weight gradient reads the
// same padded planes and the output gradient the same way. Two copies, chosen with the kernel
// table (simd/table.h): AVX-512 and AVX2+FMA (ENGINE_SIMD=avx2 forces the second, scalar turns
// both off); everything else takes the im2col + GEMM path of conv.cpp. Results depend only on the
// shapes, never on the thread count or the copy: every output element is one chain of
// multiply-adds over the same terms in the same order, run by one thread.
#include <cstdint>

#include "engine/kernels/conv.h"

namespace engine::kernels {

// Whether the direct kernels serve this geometry with `rows` (input channels per group * kernel
// size) products per output and `outputs` output channels per group: the AVX-512 or AVX2 table active,
// unit strides, at most two spatial dims, a kernel larger than 1x1, 32 products per output or
// more, 8 output channels or more, and a padded plane not much larger than the output plane.
bool conv_direct_fits(const ConvGeometry& g, int64_t rows, int64_t outputs);

// conv_forward's contract (input (N, C, in), weight (O, C/groups, K), out (N, O, out), bias null
// or O long), for geometries that conv_direct_fits.
void conv_direct_forward(const float* input, const float* weight, const float* bias, float* out, int64_t batch,
                         int64_t in_channels, int64_t out_channels, int64_t groups, const ConvGeometry& g);

// conv_weight_grad's contract for the plain convolution, for geometries that conv_direct_fits.
void conv_direct_weight_grad(const float* input, const float* grad_out, float* grad_weight, int64_t batch,
                             int64_t in_channels, int64_t out_channels, int64_t groups, const ConvGeometry& g);

namespace conv_direct_avx512 {
// Whether this build compiled the AVX-512 kernels (an x86-64 compiler that takes -mavx512f).
extern const bool kCompiled;
void forward(const float* input, const float* weight, const float* bias, float* out, int64_t batch,
             int64_t in_channels, int64_t out_channels, int64_t groups, const ConvGeometry& g);
void weight_grad(const float* input, const float* grad_out, float* grad_weight, int64_t batch, int64_t in_channels,
                 int64_t out_channels, int64_t groups, const ConvGeometry& g);
}  // namespace conv_direct_avx512

namespace conv_direct_avx2 {
// Whether this build compiled the AVX2+FMA kernels (an x86-64 compiler that takes -mavx2 -mfma).
extern const bool kCompiled;
void forward(const float* input, const float* weight, const float* bias, float* out, int64_t batch,
             int64_t in_channels, int64_t out_channels, int64_t groups, const ConvGeometry& g);
void weight_grad(const float* input, const float* grad_out, float* grad_weight, int64_t batch, int64_t in_channels,
                 int64_t out_channels, int64_t groups, const ConvGeometry& g);
}  // namespace conv_direct_avx2

}  // namespace engine::kernels
