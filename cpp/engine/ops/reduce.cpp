// Reductions: sum, mean, and sum_to (the inverse of broadcasting, used by the engine).
#include <algorithm>

#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/kernels/reduce.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

std::vector<bool> reduce_mask(const Tensor& a, const std::vector<int64_t>& dims) {
  std::vector<bool> mask(a.dim(), dims.empty());
  for (int64_t d : dims) {
    int64_t w = wrap_dim(d, a.dim());
    if (a.dim() == 0) continue;
    ENGINE_CHECK(!mask[w], std::runtime_error, "dim ", w, " appears multiple times in the list of dims");
    mask[w] = true;
  }
  return mask;
}

Dims keepdim_shape(const Tensor& a, const std::vector<bool>& mask) {
  Dims s = a.shape();
  for (size_t d = 0; d < s.size(); ++d) {
    if (mask[d]) s[d] = 1;
  }
  return s;
}

Dims squeezed_shape(const Tensor& a, const std::vector<bool>& mask) {
  Dims s;
  for (size_t d = 0; d < a.shape().size(); ++d) {
    if (!mask[d]) s.push_back(a.shape()[d]);
  }
  return s;
}

// Gradient of a reduction: bring the reduced dims back (as size 1) and broadcast to the input.
Tensor expand_reduced(const Tensor& g, const Dims& input_shape, const std::vector<bool>& mask, bool keepdim) {
  Tensor r = g;
  if (!keepdim) {
    Dims ks = input_shape;
    for (size_t d = 0; d < ks.size(); ++d) {
      if (mask[d]) ks[d] = 1;
    }
    r = reshape(r, ks);
  }
  return expand(r, input_shape);
}

struct SumBackward : Node {
  const char* node_name;
  Dims input_shape;
  std::vector<bool> mask;
  bool keepdim;
  double scale = 1.0;  // 1/count for mean
  explicit SumBackward(const char* n) : node_name(n) {}
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& g) override {
    Tensor r = expand_reduced(g[0], input_shape, mask, keepdim);
    return {scale == 1.0 ? r : r * scale};
  }
};

Tensor reduce_sum(const Tensor& a, const std::vector<bool>& mask, bool keepdim, DType out_dtype) {
  Tensor out = Tensor::empty(keepdim_shape(a, mask), out_dtype);
  kernels::sum(out, a, mask);
  if (!keepdim) {
    // The buffer is fresh and contiguous, so dropping the size-1 dims is only a change of metadata.
    TensorImpl* impl = out.get();
    impl->shape = squeezed_shape(a, mask);
    impl->strides = contiguous_strides(impl->shape);
    impl->refresh_layout();
  }
  return out;
}

}  // namespace

Tensor sum(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype) {
  const std::vector<bool> mask = reduce_mask(a, dims);
  DType out_dtype = dtype ? *dtype : (is_floating(a.dtype()) ? a.dtype() : DType::Int64);
  Tensor out = reduce_sum(a, mask, keepdim, out_dtype);
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<SumBackward>(dims.empty() && !keepdim ? "SumBackward0" : "SumBackward1");
    node->mutable_next_edges() = collect_next_edges({&a});
    node->input_shape = a.shape();
    node->mask = mask;
    node->keepdim = keepdim;
    set_history(out, node);
  }
  return out;
}

Tensor mean(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype) {
  DType dt = dtype ? *dtype : a.dtype();
  ENGINE_CHECK(is_floating(dt), std::runtime_error,
               "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
               "Got: ",
               scalar_type_name(dt));
  const std::vector<bool> mask = reduce_mask(a, dims);
  int64_t count = 1;
  for (size_t d = 0; d < mask.size(); ++d) {
    if (mask[d]) count *= a.shape()[d];
  }
  Tensor out = reduce_sum(a, mask, keepdim, dt);
  // The mean of nothing is NaN, as 0/0.
  const double scale = 1.0 / static_cast<double>(count);
  {
    Tensor s = Tensor::empty(out.shape(), dt);
    kernels::binary(kernels::BinaryOp::Div, s, out, full({}, static_cast<double>(count), dt));
    out = s;
  }
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<SumBackward>(dims.empty() && !keepdim ? "MeanBackward0" : "MeanBackward1");
    node->mutable_next_edges() = collect_next_edges({&a});
    node->input_shape = a.shape();
    node->mask = mask;
    node->keepdim = keepdim;
    node->scale = scale;
    set_history(out, node);
  }
  return out;
}

Tensor sum_to(const Tensor& a, const Dims& shape) {
  if (a.shape() == shape) return a;
  const int64_t lead = a.dim() - static_cast<int64_t>(shape.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (d < lead || (shape[d - lead] == 1 && a.shape()[d] != 1)) dims.push_back(d);
  }
  Tensor r = dims.empty() ? a : sum(a, dims, true);
  return r.shape() == shape ? r : reshape(r, shape);
}

}  // namespace engine::ops
