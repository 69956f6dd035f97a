#pragma once
// im2col / col2im (vol2col / col2vol) for 1, 2 and 3 spatial dims, and the per-sample GEMM loops
// of convolution and transposed convolution built on them.
#include <cstdint>

namespace engine::kernels {

// The geometry of a sliding window over up to three spatial dims. Fewer dims are padded at the
// front with size-1 dims (in = out = kernel = stride = dilation = 1, padding = 0), so one loop
// nest serves conv1d, conv2d and conv3d alike.
struct ConvGeometry {
  int64_t in[3] = {1, 1, 1};      // spatial size of the image side
  int64_t out[3] = {1, 1, 1};     // number of window positions per dim
  int64_t kernel[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t padding[3] = {0, 0, 0};
  int64_t dilation[3] = {1, 1, 1};

  int64_t in_numel() const { return in[0] * in[1] * in[2]; }
  int64_t out_numel() const { return out[0] * out[1] * out[2]; }
  int64_t kernel_numel() const { return kernel[0] * kernel[1] * kernel[2]; }
};

// cols[(c * K + k) * ld + l] = the image element under kernel offset k at window position l of
// channel c (zero where the window hangs over the padding). image: channels x in, contiguous;
// ld (>= L, the number of window positions) is the distance between rows of cols.
template <typename T>
void im2col(const T* image, int64_t channels, const ConvGeometry& g, T* cols, int64_t ld);

// The adjoint of im2col: image (channels x in) = 0, then every column entry added back to the image
// element it was read from.
template <typename T>
void col2im(const T* cols, int64_t ld, int64_t channels, const ConvGeometry& g, T* image);

// out[n] = weight @ im2col(input[n]) per group, plus bias. input (N, C, in), weight (O, C/groups, K),
// out (N, O, out), all contiguous; bias is null or O long. Threads take whole samples (each with
// its own column buffer and one BLAS thread); with few positions per sample the columns of a
// block of samples sit side by side so that one product covers the block.
template <typename T>
void conv_forward(const T* input, const T* weight, const T* bias, T* out, int64_t batch, int64_t in_channels,
                  int64_t out_channels, int64_t groups, const ConvGeometry& g);

// The transposed convolution: out[n] = col2im(weight^T @ input[n]) per group, plus bias. Here g's
// `in` is the output's spatial size and `out` the input's. input (N, C, g.out), weight
// (C, O/groups, K), out (N, O, g.in), all contiguous.
template <typename T>
void conv_transpose_forward(const T* input, const T* weight, const T* bias, T* out, int64_t batch,
                            int64_t in_channels, int64_t out_channels, int64_t groups, const ConvGeometry& g);

// The weight gradient of conv_forward: grad_weight (O, C/groups, K) = sum over samples of
// grad_out[n] @ im2col(input[n])^T per group; input (N, C, g.in), grad_out (N, O, g.out). Also the
// weight gradient of conv_transpose_forward, with the output gradient as `input` and the
// transposed convolution's input as `grad_out`.
template <typename T>
void conv_weight_grad(const T* input, const T* grad_out, T* grad_weight, int64_t batch, int64_t in_channels,
                      int64_t out_channels, int64_t groups, const ConvGeometry& g);

}  // namespace engine::kernels
