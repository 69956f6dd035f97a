// The nodes of lerp, addcmul and addcdiv (lerp_addc_nodes.h): PyTorch's derivatives.yaml rules.
#include "engine/ops/lerp_addc_nodes.h"

#include "engine/autograd/saved_tensor.h"
#include "engine/autograd/variable.h"
#include "engine/core/error.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

// start: grad (1 - weight); end: grad weight; a tensor weight: grad (end - start).
struct LerpBackward : Node {
  bool tensor_weight = false;
  double weight_number = 0.0;
  SavedTensor start_, end_, weight_;
  std::string name() const override { return tensor_weight ? "LerpBackward1" : "LerpBackward0"; }
  void release_variables() override {
    start_.reset();
    end_.reset();
    weight_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    if (!tensor_weight) return;
    visit("end", end_);
    visit("self", start_);
    visit("weight", weight_);
  }
  variable_list apply(variable_list&& grads) override {
    auto me = shared_from_this();
    const Tensor& g = grads[0];
    variable_list out(num_outputs());
    if (!tensor_weight) {
      if (should_compute_output(0)) out[0] = g * (1.0 - weight_number);
      if (should_compute_output(1)) out[1] = g * weight_number;
      return out;
    }
    const Tensor w = weight_.unpack(me);
    if (should_compute_output(0)) out[0] = g * (1.0 - w);
    if (should_compute_output(1)) out[1] = g * w;
    if (should_compute_output(2)) out[2] = g * (end_.unpack(me) - start_.unpack(me));
    return out;
  }
};

// self: grad; tensor1 / tensor2: grad value times the other factor (addcmul) or the quotient's
// derivatives (addcdiv: value / t2, -value t1 / t2^2).
struct AddcBackward : Node {
  bool divide = false;
  double value = 1.0;
  SavedTensor t1_, t2_;
  std::string name() const override { return divide ? "AddcdivBackward0" : "AddcmulBackward0"; }
  void release_variables() override {
    t1_.reset();
    t2_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("tensor1", t1_);
    visit("tensor2", t2_);
  }
  variable_list apply(variable_list&& grads) override {
    auto me = shared_from_this();
    const Tensor& g = grads[0];
    variable_list out(3);
    if (should_compute_output(0)) out[0] = g;
    if (!should_compute_output(1) && !should_compute_output(2)) return out;
    const Tensor t1 = t1_.unpack(me), t2 = t2_.unpack(me), gv = g * value;
    if (divide) {
      if (should_compute_output(1)) out[1] = gv / t2;
      if (should_compute_output(2)) out[2] = -gv * t1 / (t2 * t2);
    } else {
      if (should_compute_output(1)) out[1] = gv * t2;
      if (should_compute_output(2)) out[2] = gv * t1;
    }
    return out;
  }
};

}  // namespace

void record_lerp(const Tensor& out, const Tensor& start, const Tensor& end, const Tensor& weight) {
  const bool tensor_weight = !weight.is_wrapped_number();
  if (!compute_requires_grad({&start, &end, &weight})) return;
  check_unrecorded(out, "lerp");
  auto node = std::make_shared<LerpBackward>();
  node->tensor_weight = tensor_weight;
  if (tensor_weight) {
    node->mutable_next_edges() = collect_next_edges({&start, &end, &weight});
    node->start_ = SavedTensor(start, false);
    node->end_ = SavedTensor(end, false);
    node->weight_ = SavedTensor(weight, false);
  } else {
    node->mutable_next_edges() = collect_next_edges({&start, &end});
    node->weight_number = to_dtype(weight, DType::Float64).data<double>()[0];
    // The number as given: an int shows as an int (PyTorch's Scalar).
    node->saved_values.add("weight", is_floating(weight.dtype()) ? SavedValue(node->weight_number)
                                                                 : saved_number(node->weight_number));
  }
  set_history(out, node);
}

void record_addc(const Tensor& out, bool divide, const Tensor& input, const Tensor& tensor1, const Tensor& tensor2,
                 const SavedValue& value, double value_number) {
  if (!compute_requires_grad({&input, &tensor1, &tensor2})) return;
  check_unrecorded(out, "_record_addc");
  auto node = std::make_shared<AddcBackward>();
  node->mutable_next_edges() = collect_next_edges({&input, &tensor1, &tensor2});
  node->divide = divide;
  node->value = value_number;
  node->t1_ = SavedTensor(tensor1, false);
  node->t2_ = SavedTensor(tensor2, false);
  node->saved_values.add("value", value);
  set_history(out, node);
}

}  // namespace engine::ops
