// The selection nodes (selection_nodes.h); backwards of differentiable ops.
#include "engine/ops/selection_nodes.h"

#include "engine/autograd/node.h"
#include "engine/autograd/saved_tensor.h"
#include "engine/autograd/variable.h"
#include "engine/core/error.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

Tensor selection_zero() { return wrapped_scalar(0.0, DType::Int64); }

// The gradient put back at the picked positions (PyTorch's value_selecting_reduction_backward).
struct ValueSelectionBackward : Node {
  const char* node_name = "";
  Dims input_shape;
  int64_t dim = 0, given_dim = 0;
  bool keepdim = false;
  SavedTensor indices_;
  std::string name() const override { return node_name; }
  void release_variables() override { indices_.reset(); }
  void visit_saved(const SavedVisitor& visit) override { visit("indices", indices_); }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    visit("dim", given_dim);
    visit("keepdim", keepdim);
    visit("self_sym_sizes", saved_ints(input_shape));
  }
  variable_list apply(variable_list&& g) override {
    if (input_shape.empty()) return {g[0]};
    Tensor idx = indices_.unpack(shared_from_this()), grad = g[0];
    if (!keepdim) {
      idx = unsqueeze(idx, dim);
      grad = unsqueeze(grad, dim);
    }
    return {scatter(zeros(input_shape, grad.dtype()), dim, idx, grad, false)};
  }
};

// The gradient shared equally by the elements equal to the result (NaN: by the NaNs).
struct EvenlyDistributedBackward : Node {
  const char* node_name = "";
  SavedTensor self_, result_;
  std::string name() const override { return node_name; }
  void release_variables() override {
    self_.reset();
    result_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("result", result_);
    visit("self", self_);
  }
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    const Tensor x = detach(self_.unpack(me)), r = detach(result_.unpack(me));
    const Tensor mask = logical_or(eq(x, r), logical_and(isnan(x), isnan(r)));
    const Tensor count = sum_to(to_dtype(mask, g[0].dtype()), Dims{});
    return {where(mask, g[0] / count, selection_zero())};
  }
};

// The gradient added back at the taken positions of the broadcast shape (summed to self's shape
// by the engine).
struct MaskedSelectBackward : Node {
  Dims shape;  // self and mask broadcast
  Tensor positions;
  SavedTensor self_, mask_;
  std::string name() const override { return "MaskedSelectBackward0"; }
  void release_variables() override {
    self_.reset();
    mask_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("mask", mask_);
    visit("self", self_);
  }
  variable_list apply(variable_list&& g) override {
    Tensor flat = index_add(zeros({numel_of(shape)}, g[0].dtype()), 0, positions, g[0]);
    return {reshape(flat, shape)};
  }
};

// The gradient rolled back: along each dim, position i takes the gradient of i + shift.
struct RollBackward : Node {
  Dims input_shape, shifts, dims;
  std::string name() const override { return "RollBackward0"; }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    visit("dims", saved_ints(dims));
    visit("shifts", saved_ints(shifts));
  }
  variable_list apply(variable_list&& g) override {
    Tensor grad = g[0];
    for (size_t k = 0; k < dims.size(); ++k) {
      const int64_t d = wrap_dim(dims[k], static_cast<int64_t>(input_shape.size()));
      const int64_t n = input_shape[d];
      if (n == 0) continue;
      Tensor idx = Tensor::empty({n}, DType::Int64);
      int64_t* p = idx.data<int64_t>();
      const int64_t s = ((shifts[k] % n) + n) % n;
      for (int64_t i = 0; i < n; ++i) p[i] = (i + s) % n;
      grad = index_select(grad, d, idx);
    }
    return {grad};
  }
};

}  // namespace

void record_value_selection(const Tensor& out, const char* name, const Tensor& self, const Tensor& indices,
                            int64_t dim, int64_t given_dim, bool keepdim) {
  if (!compute_requires_grad({&self})) return;
  check_unrecorded(out, "_record_value_selection");
  auto node = std::make_shared<ValueSelectionBackward>();
  node->mutable_next_edges() = collect_next_edges({&self});
  node->node_name = name;
  node->input_shape = self.shape();
  node->dim = dim;
  node->given_dim = given_dim;
  node->keepdim = keepdim;
  node->indices_ = SavedTensor(indices, false);
  set_history(out, node);
}

void record_evenly_distributed(const Tensor& out, const char* name, const Tensor& self) {
  if (!compute_requires_grad({&self})) return;
  check_unrecorded(out, "_record_median_all");
  auto node = std::make_shared<EvenlyDistributedBackward>();
  node->mutable_next_edges() = collect_next_edges({&self});
  node->node_name = name;
  node->self_ = SavedTensor(self, false);
  set_history(out, node);
  node->result_ = SavedTensor(out, true);
}

void record_masked_select(const Tensor& out, const Tensor& self, const Tensor& mask, const Tensor& positions) {
  if (!compute_requires_grad({&self})) return;
  check_unrecorded(out, "_record_masked_select");
  auto node = std::make_shared<MaskedSelectBackward>();
  node->mutable_next_edges() = collect_next_edges({&self});
  node->shape = broadcast_shapes(self.shape(), mask.shape());
  node->positions = positions;
  node->self_ = SavedTensor(self, false);
  node->mask_ = SavedTensor(mask, false);
  set_history(out, node);
}

void record_roll(const Tensor& out, const Tensor& self, const Dims& shifts, const Dims& dims) {
  if (!compute_requires_grad({&self})) return;
  check_unrecorded(out, "_record_roll");
  check_recordable(shifts.size() == dims.size(), "_record_roll", "`shifts` and `dims` must have the same length");
  auto node = std::make_shared<RollBackward>();
  node->mutable_next_edges() = collect_next_edges({&self});
  node->input_shape = self.shape();
  node->shifts = shifts;
  node->dims = dims;
  set_history(out, node);
}

}  // namespace engine::ops
