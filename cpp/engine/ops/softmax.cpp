// softmax and log_softmax as single operators: one node each (SoftmaxBackward0,
// LogSoftmaxBackward0) that keeps the op's result, as PyTorch's does, so an in-place write to the
// result before backward is reported instead of silently giving wrong gradients.
#include <algorithm>
#include <limits>

#include "engine/autograd/grad_mode.h"
#include "engine/core/error.h"
#include "engine/core/shape.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

// The gradient reads only the saved result: softmax's is y * (g - sum(g * y)), log_softmax's is
// g - exp(y) * sum(g). Both are written with differentiable ops, so they differentiate again.
struct SoftmaxBackward : Node {
  bool log = false;
  int64_t given_dim = 0;  // as the caller wrote it: PyTorch shows _saved_dim unnormalised
  int64_t dim = 0;
  SavedTensor result_;
  std::string name() const override { return log ? "LogSoftmaxBackward0" : "SoftmaxBackward0"; }
  variable_list apply(variable_list&& g) override {
    Tensor y = result_.unpack(shared_from_this());
    if (log) return {g[0] - exp(y) * sum(g[0], {dim}, true)};
    return {y * (g[0] - sum(g[0] * y, {dim}, true))};
  }
  void release_variables() override { result_.reset(); }
  void visit_saved(const SavedVisitor& visit) override { visit("result", result_); }
  void visit_saved_values(const SavedValueVisitor& visit) const override { visit("dim", given_dim); }
};

// The values, without history: x shifted by its maximum along dim (which cancels), so exp cannot
// overflow. A maximum of -inf shifts by 0, so a row of -inf stays -inf rather than NaN.
Tensor softmax_values(const Tensor& x, int64_t dim, bool log) {
  AutoGradMode no_grad(false);
  Tensor s = x;
  if (x.numel() != 0) {
    Tensor m = amax(x, {dim}, true);
    m = where(eq(m, wrapped_scalar(-std::numeric_limits<double>::infinity(), DType::Float64)),
              wrapped_scalar(0.0, DType::Float64), m);
    s = x - m;
  }
  if (log) return s - ops::log(sum(exp(s), {dim}, true));
  Tensor e = exp(s);
  return e / sum(e, {dim}, true);
}

}  // namespace

Tensor softmax(const Tensor& a, int64_t dim, bool log) {
  const int64_t d = wrap_dim(dim, a.dim());
  // With no elements PyTorch runs no kernel: an empty integer or bool input gives an empty result
  // of its own dtype.
  if (a.numel() == 0 && !is_floating(a.dtype())) return Tensor::empty(a.shape(), a.dtype());
  // PyTorch's kernels exist for floating dtypes only; the name says which kernel was asked for.
  ENGINE_CHECK(is_floating(a.dtype()), NotImplementedError, "\"", log ? "log_softmax" : "softmax",
               d == std::max<int64_t>(a.dim() - 1, 0) ? "_lastdim" : "", "_kernel_impl\" not implemented for '",
               scalar_type_name(a.dtype()), "'");
  const Tensor& x = a;
  // PyTorch's softmax result is row-major whatever the input's layout.
  Tensor out = softmax_values(x.is_contiguous() ? x : contiguous(detach(x)), d, log);
  if (compute_requires_grad({&x})) {
    auto node = std::make_shared<SoftmaxBackward>();
    node->log = log;
    node->given_dim = dim;
    node->dim = d;
    node->mutable_next_edges() = collect_next_edges({&x});
    set_history(out, node);
    node->result_ = SavedTensor(out, true);
  }
  return out;
}

}  // namespace engine::ops
