#pragma once
// The activation functions of nn.functional as single graph nodes with PyTorch's names and saved
// attributes (GeluBackward0, EluBackward0/1, LeakyReluBackward0/1, ...): one kernel pass forward,
// one backward, and a backward written with differentiable ops when a higher derivative is recorded.
#include <string>

#include "engine/autograd/node.h"
#include "engine/core/tensor.h"

namespace engine::ops {

// A number argument as the caller gave it: PyTorch's nodes show an int argument as an int.
struct GivenNumber {
  double value = 0.0;
  bool is_int = false;
  SavedValue saved() const {
    if (is_int) return static_cast<int64_t>(value);
    return value;
  }
};

// approximate: "none" or "tanh" (other strings raise PyTorch's RuntimeError).
Tensor gelu(const Tensor& x, const std::string& approximate);
Tensor silu(const Tensor& x);
Tensor mish(const Tensor& x);
Tensor hardsigmoid(const Tensor& x);
Tensor hardswish(const Tensor& x);
Tensor log_sigmoid(const Tensor& x);
Tensor elu(const Tensor& x, GivenNumber alpha, GivenNumber scale, GivenNumber input_scale);
Tensor leaky_relu(const Tensor& x, GivenNumber negative_slope);
Tensor softplus(const Tensor& x, GivenNumber beta, GivenNumber threshold);
Tensor hardtanh(const Tensor& x, GivenNumber min_val, GivenNumber max_val);

// In place. elu_ and leaky_relu_ save their result (EluBackward1, LeakyReluBackward1, as PyTorch);
// silu_ and hardtanh_ save a copy of the input.
Tensor& elu_(Tensor& x, GivenNumber alpha, GivenNumber scale, GivenNumber input_scale);
Tensor& leaky_relu_(Tensor& x, GivenNumber negative_slope);
Tensor& silu_(Tensor& x);
Tensor& hardtanh_(Tensor& x, GivenNumber min_val, GivenNumber max_val);

}  // namespace engine::ops
