#pragma once
// The sink of the backward graph for a leaf: sums incoming gradients into leaf.grad.
#include <mutex>

#include "engine/autograd/node.h"

namespace engine {

// Held while any `.grad` is read and replaced: backward passes on several threads may reach the
// same leaf, and each update must see the previous one. Never held while Python code runs.
std::mutex& grad_accumulation_mutex();

class AccumulateGrad : public Node {
 public:
  explicit AccumulateGrad(Tensor variable);
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "torch::autograd::AccumulateGrad"; }
  const Tensor& variable() const { return variable_; }
  // Tensor.register_hook callbacks of the leaf, which may replace `g`. Run by the engine before
  // apply, and also when autograd.grad captures the leaf's gradient without accumulating it.
  void run_leaf_hooks(Tensor& g) const;

 private:
  Tensor variable_;
};

}  // namespace engine
