// Max, average and adaptive pooling over 1-3 trailing spatial dims. The maximum and its argmax come
// from one native pass; its backward adds the gradient at the argmax (a native op whose own
// backward reads a gradient back at the same indices with gather, so every order works). The mean
// and its adjoint are native ops whose backward rules call each other.
#include <limits>
#include <memory>
#include <string>

#include "engine/autograd/grad_mode.h"
#include "engine/core/checked.h"
#include "engine/core/error.h"
#include "engine/kernels/pool.h"
#include "engine/ops/node_util.h"
#include "engine/ops/float_dispatch.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

using kernels::PoolAxis;
using kernels::PoolWindows;
using WindowsPtr = std::shared_ptr<const PoolWindows>;

// PyTorch's pooling_output_shape: windows whose start would lie past the input (ceil_mode) are
// dropped. Computed in 128 bits: kernel, stride and padding come from the caller unchecked.
int64_t pooled_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  const __int128 span = static_cast<__int128>(d) * (k - 1) + 1;
  const __int128 num = static_cast<__int128>(in) + 2 * static_cast<__int128>(p) - span + (ceil_mode ? s - 1 : 0);
  __int128 out = num / s;
  if (num % s != 0 && num < 0) --out;  // floor division
  out += 1;
  if (ceil_mode && (out - 1) * s >= static_cast<__int128>(in) + p) --out;
  if (out > in + 1) return in + 1;  // never reached for valid padding; keeps the cast exact
  return static_cast<int64_t>(out);
}

PoolAxis sliding_axis(int64_t in, int64_t out, int64_t k, int64_t s, int64_t p, int64_t d, bool count_include_pad) {
  PoolAxis a;
  a.in = in;
  a.out = out;
  a.step = d;
  a.kernel = k;
  a.stride = s;
  a.pad = p;
  a.begin.resize(out);
  a.end.resize(out);
  a.count.resize(out);
  for (int64_t o = 0; o < out; ++o) {
    const int64_t start = o * s - p;
    const int64_t first = start >= 0 ? start : start + (-start + d - 1) / d * d;
    a.begin[o] = first;
    const __int128 last = static_cast<__int128>(start) + static_cast<__int128>(k - 1) * d + 1;
    a.end[o] = std::max(first, static_cast<int64_t>(std::min<__int128>(last, in)));
    // The mean's divisor (dilation is 1 there): the window as clipped to the padded input, or to
    // the input itself.
    const int64_t win_end = static_cast<int64_t>(std::min<__int128>(static_cast<__int128>(start) + k, in + p));
    a.count[o] = count_include_pad ? win_end - start
                                   : std::max<int64_t>(std::min(win_end, in) - std::max<int64_t>(start, 0), 0);
  }
  return a;
}

PoolAxis adaptive_axis(int64_t in, int64_t out) {
  PoolAxis a;
  a.in = in;
  a.out = out;
  a.begin.resize(out);
  a.end.resize(out);
  a.count.resize(out);
  for (int64_t o = 0; o < out; ++o) {
    // floor(o * in / out) and ceil((o + 1) * in / out), exact in integers.
    a.begin[o] = checked_mul(o, in, "adaptive pooling") / out;
    a.end[o] = (checked_mul(o + 1, in, "adaptive pooling") + out - 1) / out;
    a.count[o] = a.end[o] - a.begin[o];
  }
  return a;
}

// The windows of `axes` placed at the trailing positions of three.
WindowsPtr make_windows(std::vector<PoolAxis> axes, int64_t divisor_override) {
  auto w = std::make_shared<PoolWindows>();
  const size_t lead = 3 - axes.size();
  for (size_t i = 0; i < axes.size(); ++i) w->axis[lead + i] = std::move(axes[i]);
  w->divisor_override = divisor_override;
  return w;
}

void check_pool_input(const Tensor& x, size_t nsp, const char* fname) {
  ENGINE_CHECK(nsp >= 1 && nsp <= 3 && x.dim() >= static_cast<int64_t>(nsp) + 1, std::runtime_error, fname,
               ": expected an input with ", nsp, " spatial dims and a channel dim, but got input of size: ",
               dims_str(x.shape()));
  ENGINE_CHECK(is_floating(x.dtype()), NotImplementedError, "\"", fname, "\" not implemented for '",
               scalar_type_name(x.dtype()), "'");
  for (int64_t d = x.dim() - static_cast<int64_t>(nsp); d < x.dim(); ++d) {
    ENGINE_CHECK(x.shape()[d] > 0, std::runtime_error, fname, ": Expected input's non-batch dimensions to have "
                 "positive length, but input has a shape of ", dims_str(x.shape()));
  }
}

Dims pooled_shape(const Tensor& x, const PoolWindows& w, size_t nsp) {
  Dims s(x.shape().begin(), x.shape().end() - nsp);
  for (size_t i = 3 - nsp; i < 3; ++i) s.push_back(w.axis[i].out);
  return s;
}

// A bool vector over the flat output positions marking windows with no element, or an undefined
// tensor when every window has one.
Tensor empty_windows(const PoolWindows& w) {
  const PoolAxis &a0 = w.axis[0], &a1 = w.axis[1], &a2 = w.axis[2];
  Tensor mask = Tensor::empty({w.out_numel()}, DType::Bool);
  bool* m = mask.data<bool>();
  bool any = false;
  for (int64_t o0 = 0; o0 < a0.out; ++o0) {
    for (int64_t o1 = 0; o1 < a1.out; ++o1) {
      for (int64_t o2 = 0; o2 < a2.out; ++o2) {
        const bool e = a0.begin[o0] >= a0.end[o0] || a1.begin[o1] >= a1.end[o1] || a2.begin[o2] >= a2.end[o2];
        m[(o0 * a1.out + o1) * a2.out + o2] = e;
        any = any || e;
      }
    }
  }
  return any ? mask : Tensor();
}

// What the max-pool nodes of one call share: the windows, the input's shape and PyTorch's name.
struct MaxPoolInfo {
  WindowsPtr windows;
  Dims input_shape;
  size_t nsp = 0;
  bool adaptive = false;
  std::string node_name(const char* suffix) const {
    const std::string dims = std::to_string(nsp) + "D";
    return (adaptive ? "AdaptiveMaxPool" + dims : "MaxPool" + dims + "WithIndices") + suffix;
  }
};
using MaxPoolInfoPtr = std::shared_ptr<const MaxPoolInfo>;

Tensor max_pool_adjoint(const Tensor& g, const Tensor& indices, const MaxPoolInfoPtr& info, const Edge& input_edge);

// The gradient of a pooled maximum: the output gradient added at the argmax positions. The indices
// are saved as PyTorch saves them (result1), so an in-place write to a returned index tensor is
// caught on backward.
struct MaxPoolWithIndicesBackward0 : Node {
  SavedTensor indices_;
  MaxPoolInfoPtr info;
  std::string name() const override { return info->node_name("Backward0"); }
  variable_list apply(variable_list&& g) override {
    return {max_pool_adjoint(g[0], indices_.unpack(shared_from_this()), info, next_edges_[0])};
  }
  void visit_saved(const SavedVisitor& visit) override { visit("result1", indices_); }
  void release_variables() override { indices_.reset(); }
};

// The derivatives of that adjoint. With respect to the output gradient: the new gradient read at
// the same indices (zero for empty windows), written with gather and where so that it
// differentiates again. With respect to the pooled input (PyTorch's second edge): zero, the
// indices being locally constant.
struct MaxPoolWithIndicesBackwardBackward0 : Node {
  Tensor indices;  // the forward's indices (never differentiable)
  MaxPoolInfoPtr info;
  std::string name() const override { return info->node_name("BackwardBackward0"); }
  variable_list apply(variable_list&& gg) override {
    variable_list out(2);
    if (should_compute_output(0)) out[0] = pooled_gradient(gg[0]);
    if (should_compute_output(1)) out[1] = zeros(info->input_shape, gg[0].dtype());
    return out;
  }
  Tensor pooled_gradient(const Tensor& x) const {
    const PoolWindows& w = *info->windows;
    const int64_t lead = x.dim() - static_cast<int64_t>(info->nsp);
    Dims flat_in(x.shape().begin(), x.shape().begin() + lead), flat_out = flat_in;
    flat_in.push_back(w.in_numel());
    flat_out.push_back(w.out_numel());
    Tensor index = reshape(indices, flat_out);
    Tensor empty = empty_windows(w);
    if (!empty.defined()) return reshape(gather(reshape(x, flat_in), lead, index), indices.shape());
    Tensor picked = gather(reshape(x, flat_in), lead, where(empty, zeros({}, DType::Int64), index));
    return reshape(where(empty, zeros({}, x.dtype()), picked), indices.shape());
  }
};

Tensor max_pool_adjoint(const Tensor& g, const Tensor& indices, const MaxPoolInfoPtr& info, const Edge& input_edge) {
  Tensor out = Tensor::empty(info->input_shape, g.dtype());
  Tensor gc = contiguous(detach(g)), ic = contiguous(indices);
  const PoolWindows& w = *info->windows;
  const int64_t planes = w.in_numel() == 0 ? 0 : out.numel() / w.in_numel();
  bool in_range = true;
  ENGINE_DISPATCH_FLOAT32_64(g.dtype(), [&](auto tag) {
    using T = decltype(tag);
    in_range = kernels::max_pool_adjoint<T>(gc.data<T>(), ic.data<int64_t>(), planes, w, out.data<T>());
  });
  ENGINE_CHECK(in_range, std::runtime_error, "max_pool backward: an index lies outside its input plane");
  // Recorded (under create_graph) when the output gradient requires grad or the pooled input
  // does, as PyTorch's node has both edges.
  if (compute_requires_grad({&g}) || (GradMode::is_enabled() && input_edge.is_valid())) {
    auto node = std::make_shared<MaxPoolWithIndicesBackwardBackward0>();
    node->mutable_next_edges() = {gradient_edge(g), input_edge};
    node->indices = ic;
    node->info = info;
    set_history(out, node);
  }
  return out;
}

// Values and argmax of the windows in one pass; when x requires grad the values get a node whose
// backward scatters by the indices.
std::pair<Tensor, Tensor> window_max(const Tensor& x, const WindowsPtr& w, size_t nsp, bool adaptive) {
  const Dims oshape = pooled_shape(x, *w, nsp);
  Tensor values = Tensor::empty(oshape, x.dtype()), indices = Tensor::empty(oshape, DType::Int64);
  Tensor xc = contiguous(detach(x));
  const int64_t planes = w->in_numel() == 0 ? 0 : x.numel() / w->in_numel();
  ENGINE_DISPATCH_FLOAT32_64(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    kernels::max_pool<T>(xc.data<T>(), planes, *w, values.data<T>(), indices.data<int64_t>());
  });
  if (auto node = make_node<MaxPoolWithIndicesBackward0>({&x})) {
    auto info = std::make_shared<MaxPoolInfo>();
    info->windows = w;
    info->input_shape = x.shape();
    info->nsp = nsp;
    info->adaptive = adaptive;
    node->info = std::move(info);
    node->indices_ = SavedTensor(indices, false);
    set_history(values, node);
  }
  return {values, indices};
}

Tensor window_mean(const Tensor& x, const WindowsPtr& w, size_t nsp);
Tensor window_mean_adjoint(const Tensor& g, const WindowsPtr& w, const Dims& input_shape, size_t nsp);

struct AvgPoolBackward0 : BuiltinNode<AvgPoolBackward0> {
  static constexpr const char* kName = "AvgPoolBackward0";
  WindowsPtr windows;
  Dims input_shape;
  size_t lead = 0;  // batch and channel dims
  variable_list apply(variable_list&& g) override {
    return {window_mean_adjoint(g[0], windows, input_shape, input_shape.size() - lead)};
  }
};

struct AvgPoolBackwardBackward0 : BuiltinNode<AvgPoolBackwardBackward0> {
  static constexpr const char* kName = "AvgPoolBackwardBackward0";
  WindowsPtr windows;
  size_t nsp = 0;
  variable_list apply(variable_list&& g) override { return {window_mean(g[0], windows, nsp)}; }
};

Tensor window_mean(const Tensor& x, const WindowsPtr& w, size_t nsp) {
  Tensor out = Tensor::empty(pooled_shape(x, *w, nsp), x.dtype());
  Tensor xc = contiguous(detach(x));
  const int64_t planes = w->in_numel() == 0 ? 0 : x.numel() / w->in_numel();
  ENGINE_DISPATCH_FLOAT32_64(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    kernels::avg_pool<T>(xc.data<T>(), planes, *w, out.data<T>());
  });
  if (auto node = make_node<AvgPoolBackward0>({&x})) {
    node->windows = w;
    node->input_shape = x.shape();
    node->lead = x.shape().size() - nsp;
    set_history(out, node);
  }
  return out;
}

Tensor window_mean_adjoint(const Tensor& g, const WindowsPtr& w, const Dims& input_shape, size_t nsp) {
  Tensor out = Tensor::empty(input_shape, g.dtype());
  Tensor gc = contiguous(detach(g));
  // Counted on the input side: with an empty output (adaptive size 0) the gradient is all zeros.
  const int64_t planes = w->in_numel() == 0 ? 0 : numel_of(input_shape) / w->in_numel();
  ENGINE_DISPATCH_FLOAT32_64(g.dtype(), [&](auto tag) {
    using T = decltype(tag);
    kernels::avg_pool_adjoint<T>(gc.data<T>(), planes, *w, out.data<T>());
  });
  if (auto node = make_node<AvgPoolBackwardBackward0>({&g})) {
    node->windows = w;
    node->nsp = nsp;
    set_history(out, node);
  }
  return out;
}

struct SlidingArgs {
  Dims kernel, stride, padding, dilation;
};

std::vector<PoolAxis> sliding_axes(const Tensor& x, const SlidingArgs& a, bool ceil_mode, bool count_include_pad,
                                   const char* fname) {
  const size_t nsp = a.kernel.size();
  ENGINE_CHECK(a.stride.size() == nsp && a.padding.size() == nsp && a.dilation.size() == nsp, std::runtime_error,
               fname, ": kernel_size, stride, padding and dilation must have ", nsp, " values each");
  check_pool_input(x, nsp, fname);
  std::vector<PoolAxis> axes;
  Dims out(nsp);
  bool too_small = false;
  for (size_t i = 0; i < nsp; ++i) {
    const int64_t k = a.kernel[i], s = a.stride[i], p = a.padding[i], d = a.dilation[i];
    ENGINE_CHECK(k > 0, std::runtime_error, fname, ": kernel_size must be greater than zero, but got ", dims_str(a.kernel));
    ENGINE_CHECK(s > 0, std::runtime_error, "stride should not be zero");
    ENGINE_CHECK(d > 0, std::runtime_error, "dilation should be greater than zero, but got ", dims_str(a.dilation));
    ENGINE_CHECK(p >= 0 && p <= ((k - 1) * d + 1) / 2, std::runtime_error,
                 "pad should be at most half of effective kernel size, but got pad=", p, ", kernel_size=", k,
                 " and dilation=", d);
    const int64_t in = x.shape()[x.dim() - nsp + i];
    out[i] = pooled_size(in, k, s, p, d, ceil_mode);
    too_small = too_small || out[i] < 1;
  }
  if (too_small) {
    std::string in_s = x.dim() > static_cast<int64_t>(nsp) ? std::to_string(x.shape()[x.dim() - nsp - 1]) : "1";
    std::string out_s = in_s;
    for (size_t i = 0; i < nsp; ++i) {
      in_s += "x" + std::to_string(x.shape()[x.dim() - nsp + i]);
      out_s += "x" + std::to_string(out[i]);
    }
    ENGINE_CHECK(false, std::runtime_error, "Given input size: (", in_s, "). Calculated output size: (", out_s,
                 "). Output size is too small");
  }
  for (size_t i = 0; i < nsp; ++i) {
    axes.push_back(sliding_axis(x.shape()[x.dim() - nsp + i], out[i], a.kernel[i], a.stride[i], a.padding[i],
                                a.dilation[i], count_include_pad));
  }
  return axes;
}

std::vector<PoolAxis> adaptive_axes(const Tensor& x, const Dims& output_size, const char* fname) {
  const size_t nsp = output_size.size();
  check_pool_input(x, nsp, fname);
  std::vector<PoolAxis> axes;
  for (size_t i = 0; i < nsp; ++i) {
    ENGINE_CHECK(output_size[i] >= 0, std::runtime_error, fname, ": elements of output_size must be greater than or "
                 "equal to 0 but received ", output_size[i]);
    axes.push_back(adaptive_axis(x.shape()[x.dim() - nsp + i], output_size[i]));
  }
  return axes;
}

}  // namespace

std::pair<Tensor, Tensor> max_pool(const Tensor& x, const Dims& kernel, const Dims& stride, const Dims& padding,
                                   const Dims& dilation, bool ceil_mode) {
  if (is_16bit_float(x.dtype())) {  // computed in float32; the maxima convert back exactly
    auto [values, indices] = max_pool(to_dtype(x, DType::Float32), kernel, stride, padding, dilation, ceil_mode);
    return {to_dtype(values, x.dtype()), indices};
  }
  auto axes = sliding_axes(x, {kernel, stride, padding, dilation}, ceil_mode, false, "max_pool");
  return window_max(x, make_windows(std::move(axes), 0), kernel.size(), false);
}

std::pair<Tensor, Tensor> adaptive_max_pool(const Tensor& x, const Dims& output_size) {
  if (is_16bit_float(x.dtype())) {
    auto [values, indices] = adaptive_max_pool(to_dtype(x, DType::Float32), output_size);
    return {to_dtype(values, x.dtype()), indices};
  }
  return window_max(x, make_windows(adaptive_axes(x, output_size, "adaptive_max_pool"), 0), output_size.size(), true);
}

Tensor avg_pool(const Tensor& x, const Dims& kernel, const Dims& stride, const Dims& padding, bool ceil_mode,
                bool count_include_pad, std::optional<int64_t> divisor_override) {
  ENGINE_CHECK(!divisor_override || *divisor_override != 0, std::runtime_error, "divisor must be not zero");
  if (is_16bit_float(x.dtype())) {
    return to_dtype(avg_pool(to_dtype(x, DType::Float32), kernel, stride, padding, ceil_mode, count_include_pad,
                             divisor_override),
                    x.dtype());
  }
  Dims dilation(kernel.size(), 1);
  auto axes = sliding_axes(x, {kernel, stride, padding, dilation}, ceil_mode, count_include_pad, "avg_pool");
  return window_mean(x, make_windows(std::move(axes), divisor_override.value_or(0)), kernel.size());
}

Tensor adaptive_avg_pool(const Tensor& x, const Dims& output_size) {
  if (is_16bit_float(x.dtype())) {
    return to_dtype(adaptive_avg_pool(to_dtype(x, DType::Float32), output_size), x.dtype());
  }
  return window_mean(x, make_windows(adaptive_axes(x, output_size, "adaptive_avg_pool"), 0), output_size.size());
}

}  // namespace engine::ops
