// The nodes of trace, repeat and dist (trace_repeat_dist.h).
#include "engine/ops/trace_repeat_dist.h"

#include <cmath>

#include "engine/autograd/node.h"
#include "engine/autograd/saved_tensor.h"
#include "engine/autograd/variable.h"
#include "engine/core/error.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

Tensor dist_zero() { return wrapped_scalar(0.0, DType::Int64); }

// The gradient on the diagonal, zero elsewhere.
struct TraceBackward : Node {
  Dims input_shape;
  std::string name() const override { return "TraceBackward0"; }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    visit("self_sym_sizes", saved_ints(input_shape));
  }
  variable_list apply(variable_list&& g) override {
    const Tensor rows = unsqueeze(arange(int64_t{0}, input_shape[0], int64_t{1}, DType::Int64), 1);
    const Tensor cols = unsqueeze(arange(int64_t{0}, input_shape[1], int64_t{1}, DType::Int64), 0);
    return {where(eq(rows, cols), g[0], dist_zero())};
  }
};

// Each copy's gradient summed back: the gradient seen as (r0, s0, r1, s1, ...) summed over the r's.
struct RepeatBackward : Node {
  Dims input_shape, repeats;
  std::string name() const override { return "RepeatBackward0"; }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    visit("repeats", saved_ints(repeats));
    visit("self_sym_sizes", saved_ints(input_shape));
  }
  variable_list apply(variable_list&& g) override {
    const size_t lead = repeats.size() - input_shape.size();
    Dims split;
    std::vector<int64_t> summed;
    for (size_t d = 0; d < repeats.size(); ++d) {
      const int64_t size = d < lead ? 1 : input_shape[d - lead];
      summed.push_back(static_cast<int64_t>(split.size()));
      split.push_back(repeats[d]);
      split.push_back(size);
    }
    Tensor grad = sum(reshape(g[0], split), summed, false);
    return {reshape(grad, input_shape)};
  }
};

// PyTorch's norm_backward of d = self - other: g * d |d|^(p-2) / result^(p-1), zero where the
// distance is 0; self gets it, other its negation.
struct DistBackward : Node {
  double p = 2.0;
  SavedTensor self_, other_, result_;
  std::string name() const override { return "DistBackward0"; }
  void release_variables() override {
    self_.reset();
    other_.reset();
    result_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("other", other_);
    visit("result", result_);
    visit("self", self_);
  }
  void visit_saved_values(const SavedValueVisitor& visit) const override { visit("p", saved_number(p)); }
  variable_list apply(variable_list&& grads) override {
    auto me = shared_from_this();
    const Tensor d = self_.unpack(me) - other_.unpack(me);
    const Tensor r = result_.unpack(me), g = grads[0];
    Tensor scale;
    if (p == 1.0) {
      scale = sign(d);
    } else if (p == 2.0) {
      scale = d / r;
    } else {
      scale = d * pow_number(abs(d), p - 2.0, DType::Float64) / pow_number(r, p - 1.0, DType::Float64);
    }
    Tensor grad = where(eq(r, dist_zero()), dist_zero(), scale * g);
    variable_list out(2);
    if (should_compute_output(0)) out[0] = grad;
    if (should_compute_output(1)) out[1] = -grad;
    return out;
  }
};

}  // namespace

void record_trace(const Tensor& out, const Tensor& self) {
  if (!compute_requires_grad({&self})) return;
  check_unrecorded(out, "_record_trace");
  check_recordable(self.dim() == 2, "_record_trace", "`self` must be a matrix");
  auto node = std::make_shared<TraceBackward>();
  node->mutable_next_edges() = collect_next_edges({&self});
  node->input_shape = self.shape();
  set_history(out, node);
}

void record_repeat(const Tensor& out, const Tensor& self, const Dims& repeats) {
  if (!compute_requires_grad({&self})) return;
  check_unrecorded(out, "_record_repeat");
  check_recordable(repeats.size() >= self.shape().size(), "_record_repeat",
                   "`repeats` must have at least as many entries as `self` has dims");
  auto node = std::make_shared<RepeatBackward>();
  node->mutable_next_edges() = collect_next_edges({&self});
  node->input_shape = self.shape();
  node->repeats = repeats;
  set_history(out, node);
}

void record_dist(const Tensor& out, const Tensor& self, const Tensor& other, double p) {
  if (!compute_requires_grad({&self, &other})) return;
  check_unrecorded(out, "_record_dist");
  check_recordable(std::isfinite(p) && p > 0, "_record_dist", "`p` must be finite and positive");
  auto node = std::make_shared<DistBackward>();
  node->mutable_next_edges() = collect_next_edges({&self, &other});
  node->p = p;
  node->self_ = SavedTensor(self, false);
  node->other_ = SavedTensor(other, false);
  set_history(out, node);
  node->result_ = SavedTensor(out, true);
}

}  // namespace engine::ops
