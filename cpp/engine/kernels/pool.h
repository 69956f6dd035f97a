#pragma once
// Pooling over windows of up to three spatial dims: the window maximum (with the argmax), the
// window mean and the mean's adjoint. The windows are described per axis, so max_pool, avg_pool
// and their adaptive forms share these loops.
#include <cstdint>
#include <vector>

namespace engine::kernels {

// One spatial axis: output position o reads input positions begin[o], begin[o] + step, ... below
// end[o] (already clipped to the input); `count[o]` is its factor of the mean's divisor.
// Sliding windows (not the adaptive ones) also say so: window o starts at o * stride - pad and has
// `kernel` elements `step` apart, which lets the max-pool kernel run its interior windows (those
// wholly inside the input) without per-window bounds. kernel == 0: not a sliding axis.
struct PoolAxis {
  int64_t in = 1, out = 1, step = 1;
  std::vector<int64_t> begin{0}, end{1}, count{1};
  int64_t kernel = 0, stride = 0, pad = 0;
};

// Three axes (leading ones of size 1 when the pooling has fewer dims). The mean divides by the
// product of the axes' counts, or by `divisor_override` when it is non-zero.
struct PoolWindows {
  PoolAxis axis[3];
  int64_t divisor_override = 0;
  int64_t in_numel() const { return axis[0].in * axis[1].in * axis[2].in; }
  int64_t out_numel() const { return axis[0].out * axis[1].out * axis[2].out; }
};

// Whether some window has no element in the input (wholly in the padding: ceil_mode, dilation).
bool has_empty_window(const PoolWindows& w);

// planes x in -> planes x out in one pass; indices are flat positions within a plane (PyTorch's
// convention). NaN wins the maximum (the last NaN of a window), as in PyTorch. An empty window
// holds -inf and the flat position of its clipped start, which may lie outside the plane.
template <typename T>
void max_pool(const T* input, int64_t planes, const PoolWindows& w, T* out, int64_t* indices);

// The adjoint of max_pool for its indices: grad_input (planes x in) = 0, then grad[o] added at
// indices[o] of its plane; empty windows contribute nothing. False (grad_input unspecified) when an
// index of a non-empty window lies outside the plane.
template <typename T>
bool max_pool_adjoint(const T* grad, const int64_t* indices, int64_t planes, const PoolWindows& w, T* grad_input);

template <typename T>
void avg_pool(const T* input, int64_t planes, const PoolWindows& w, T* out);

// grad_input (planes x in) = the adjoint of avg_pool applied to grad (planes x out).
template <typename T>
void avg_pool_adjoint(const T* grad, int64_t planes, const PoolWindows& w, T* grad_input);

}  // namespace engine::kernels
