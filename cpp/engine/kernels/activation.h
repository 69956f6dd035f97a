#pragma once
// The activation functions of nn.functional as single passes: the forward value, and the incoming
// gradient times the derivative (PyTorch's *_backward kernels). Operands are float32 or float64,
// of one dtype, broadcast to the output's shape.
#include "engine/core/tensor.h"

namespace engine::kernels {

enum class Activation {
  Gelu,         // x * Phi(x)
  GeluTanh,     // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
  Silu,         // x * sigmoid(x)
  Elu,          // a = alpha, b = scale, c = input_scale
  EluResult,    // elu's derivative read from its result (the in-place form saves the result)
  LeakyRelu,    // a = negative_slope; the same derivative from the input or the result
  Softplus,     // a = beta, b = threshold
  Hardtanh,     // a = min_val, b = max_val
  Mish,         // x * tanh(softplus(x))
  Hardsigmoid,  // relu6(x + 3) / 6
  Hardswish,    // x * relu6(x + 3) / 6
  LogSigmoid,   // log(sigmoid(x))
};

// The numbers an activation takes, in the order of the comments above.
struct ActivationArgs {
  double a = 0.0, b = 0.0, c = 0.0;
};

// out = f(x).
void activation(Activation op, const ActivationArgs& args, const Tensor& out, const Tensor& x);
// log_sigmoid's forward as PyTorch's CPU kernel writes it: out = min(x, 0) - log1p(buffer), with
// buffer = exp(-|x|) kept (its node shows it as _saved_buffer).
void log_sigmoid_forward(const Tensor& out, const Tensor& buffer, const Tensor& x);
// out = grad * f'(x), where x is the saved input (the result for EluResult and an in-place LeakyRelu).
void activation_grad(Activation op, const ActivationArgs& args, const Tensor& out, const Tensor& grad,
                     const Tensor& x);

}  // namespace engine::kernels
