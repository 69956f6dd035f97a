// masked_fill and take as one node each (MaskedFillBackward0/1, TakeBackward0), as PyTorch records
// them. The values are computed without history by the caller (engine/_shape_ops.py, which keeps
// the argument checks and messages); the node is attached here. Backwards use differentiable ops.
#include "engine/ops/masked_fill_take.h"

#include "engine/autograd/node.h"
#include "engine/autograd/saved_tensor.h"
#include "engine/autograd/variable.h"
#include "engine/core/error.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

Tensor fill_zero() { return wrapped_scalar(0.0, DType::Int64); }

// masked_fill(self, mask, value): self's gradient is zero where the mask is set; a tensor value
// (MaskedFillBackward1) receives the sum of the gradient there.
struct MaskedFillBackward : Node {
  SavedTensor mask_;
  std::string name() const override { return num_outputs() == 2 ? "MaskedFillBackward1" : "MaskedFillBackward0"; }
  void release_variables() override { mask_.reset(); }
  void visit_saved(const SavedVisitor& visit) override { visit("mask", mask_); }
  variable_list apply(variable_list&& g) override {
    const Tensor mask = mask_.unpack(shared_from_this());
    variable_list out(num_outputs());
    if (should_compute_output(0)) out[0] = where(mask, fill_zero(), g[0]);
    if (num_outputs() == 2 && should_compute_output(1)) out[1] = sum_to(where(mask, g[0], fill_zero()), Dims{});
    return out;
  }
};

// take(self, index): the gradient added back at the taken positions (repeated ones accumulate).
struct TakeBackward : Node {
  SavedTensor self_, index_;
  Tensor flat_positions;  // the index made non-negative and flat: not shown, never written
  std::string name() const override { return "TakeBackward0"; }
  void release_variables() override {
    self_.reset();
    index_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("index", index_);
    visit("self", self_);
  }
  variable_list apply(variable_list&& g) override {
    const Dims shape = self_.unpack(shared_from_this()).shape();
    Tensor flat = index_add(zeros({numel_of(shape)}, g[0].dtype()), 0, flat_positions, reshape(g[0], Dims{-1}));
    return {reshape(flat, shape)};
  }
};

}  // namespace

void record_masked_fill(const Tensor& out, const Tensor& self, const Tensor& mask, const Tensor& value,
                        bool tensor_value) {
  if (!compute_requires_grad({&self, &value})) return;
  check_unrecorded(out, "_record_masked_fill");
  auto node = std::make_shared<MaskedFillBackward>();
  node->mutable_next_edges() = tensor_value ? collect_next_edges({&self, &value}) : collect_next_edges({&self});
  node->mask_ = SavedTensor(mask, false);
  set_history(out, node);
}

void record_take(const Tensor& out, const Tensor& self, const Tensor& index, const Tensor& flat_positions) {
  if (!compute_requires_grad({&self})) return;
  check_unrecorded(out, "_record_take");
  auto node = std::make_shared<TakeBackward>();
  node->mutable_next_edges() = collect_next_edges({&self});
  node->self_ = SavedTensor(self, false);
  node->index_ = SavedTensor(index, false);
  node->flat_positions = flat_positions;
  set_history(out, node);
}

}  // namespace engine::ops
