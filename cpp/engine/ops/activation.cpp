// nn.functional's activations as one node each. Forward: one kernel pass (kernels/activation.cpp).
// Backward: one fused pass computing grad * f'(x); when the gradient itself is being recorded
// (create_graph, forward-mode AD through the double-vjp rule) the same derivative is written with
// differentiable ops instead, so every order of derivative keeps working.
#include "engine/ops/activation.h"

#include "engine/autograd/grad_mode.h"
#include "engine/core/error.h"
#include "engine/core/layout.h"
#include "engine/kernels/activation.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

using kernels::Activation;
using kernels::ActivationArgs;

namespace {

constexpr double kActSqrt1_2 = 0.707106781186547524400844362104849039;
constexpr double kActNormalPdf = 0.398942280401432677939946059934381868;
constexpr double kActGeluBeta = 0.797884560802865355879892119868763737;
constexpr double kActGeluKappa = 0.044715;

// 16-bit floats compute in float32 and round once, as the other pointwise kernels do.
DType activation_kernel_dtype(DType dt) { return dt == DType::Float64 ? DType::Float64 : DType::Float32; }

Tensor activation_cast(const Tensor& t, DType d) {
  if (t.dtype() == d) return t;
  Tensor out = empty_like_operands(t.shape(), d, {&t});
  kernels::copy(out, t);
  return out;
}

Tensor act_scalar(double v) { return wrapped_scalar(v, DType::Float64); }
Tensor act_zero() { return wrapped_scalar(0.0, DType::Int64); }

// grad * f'(x), written with differentiable ops (the recorded path of the backward).
Tensor composed_grad(Activation op, const ActivationArgs& p, const Tensor& g, const Tensor& x) {
  switch (op) {
    case Activation::Gelu: {
      Tensor cdf = erfc(x * -kActSqrt1_2) * 0.5;
      Tensor pdf = exp(x * x * -0.5) * kActNormalPdf;
      return g * (cdf + x * pdf);
    }
    case Activation::GeluTanh: {
      Tensor x2 = x * x;
      Tensor t = tanh((x + x2 * x * kActGeluKappa) * kActGeluBeta);
      Tensor dinner = (x2 * (3.0 * kActGeluKappa) + 1.0) * kActGeluBeta;
      return g * ((t + 1.0) * 0.5 + x * 0.5 * (1.0 - t * t) * dinner);
    }
    case Activation::Silu: {
      Tensor s = sigmoid(x);
      return g * (s * (x * (1.0 - s) + 1.0));
    }
    case Activation::Elu: {
      // The negative branch sees only x <= 0, so exp cannot overflow into a NaN gradient.
      Tensor nonpositive = le(x, act_zero());
      Tensor xn = where(nonpositive, x, act_zero());
      return where(nonpositive, g * exp(xn * p.c) * (p.c * p.a * p.b), g * p.b);
    }
    case Activation::EluResult:
      return where(le(x, act_zero()), g * (x + p.a * p.b) * p.c, g * p.b);
    case Activation::LeakyRelu: return where(gt(x, act_zero()), g, g * p.a);
    case Activation::Softplus: {
      Tensor scaled = x * p.a;
      return where(gt(scaled, act_scalar(p.b)), g, g * sigmoid(scaled));
    }
    case Activation::Hardtanh:
      return where(logical_and(gt(x, act_scalar(p.a)), lt(x, act_scalar(p.b))), g, act_zero());
    case Activation::Mish: {
      GivenNumber one{1.0, true}, twenty{20.0, true};
      Tensor t = tanh(softplus(x, one, twenty));
      return g * (t + x * sigmoid(x) * (1.0 - t * t));
    }
    case Activation::Hardsigmoid: {
      Tensor inside = logical_and(gt(x, act_scalar(-3.0)), lt(x, act_scalar(3.0)));
      return where(inside, g * static_cast<double>(1.0f / 6.0f), act_zero());
    }
    case Activation::Hardswish: {
      Tensor middle = g * (x * (1.0 / 3.0) + 0.5);
      return where(le(x, act_scalar(-3.0)), act_zero(), where(lt(x, act_scalar(3.0)), middle, g));
    }
    case Activation::LogSigmoid: return g * sigmoid(-x);
  }
  return Tensor();
}

Tensor activation_grad(Activation op, const ActivationArgs& p, const Tensor& g, const Tensor& x) {
  if (GradMode::is_enabled() && (requires_grad(g) || requires_grad(x))) return composed_grad(op, p, g, x);
  const DType kd = activation_kernel_dtype(x.dtype());
  Tensor gk = activation_cast(g, kd), xk = activation_cast(x, kd);
  // A summed loss hands down an expanded gradient: one copy lets the contiguous float32 loops run.
  if (kd == DType::Float32 && xk.is_contiguous() && !gk.is_contiguous()) gk = contiguous(gk);
  Tensor out = empty_like_operands(x.shape(), kd, {&xk, &gk});
  kernels::activation_grad(op, p, out, gk, xk);
  return activation_cast(out, g.dtype());
}

struct ActivationBackward : Node {
  const char* node_name = "";
  const char* saved_name = "self";  // "result" for the nodes that differentiate from the result
  Activation op = Activation::Gelu;
  ActivationArgs args;
  SavedTensor x_, buffer_;
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    Tensor x = x_.unpack(me);
    if (op == Activation::EluResult) {
      ENGINE_CHECK(args.a >= 0, std::runtime_error,
                   "In-place elu backward calculation is triggered with a negative slope which is not supported. "
                   "This is caused by calling in-place forward function with a negative slope, please call "
                   "out-of-place version instead.");
    }
    if (op == Activation::LeakyRelu && std::string_view(saved_name) == "result") {
      ENGINE_CHECK(args.a >= 0, std::runtime_error,
                   "In-place leakyReLu backward calculation is triggered with a negative slope which is not "
                   "supported. This is caused by calling in-place forward function with a negative slope, please "
                   "call out-of-place version instead. File an issue at https://github.com/pytorch/pytorch if you "
                   "do require supporting in-place leakRelu backward calculation with negative slope");
    }
    return {activation_grad(op, args, g[0], x)};
  }
  void release_variables() override {
    x_.reset();
    buffer_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    if (x_.defined()) visit(saved_name, x_);
    if (buffer_.defined()) visit("buffer", buffer_);
  }
};

void check_floating(const Tensor& x, const char* kernel) {
  ENGINE_CHECK(is_floating(x.dtype()), NotImplementedError, "\"", kernel, "\" not implemented for '",
               scalar_type_name(x.dtype()), "'");
}

// f(x) in one pass, in x's layout.
Tensor activation_forward(Activation op, const ActivationArgs& p, const Tensor& x) {
  const DType kd = activation_kernel_dtype(x.dtype());
  Tensor xk = activation_cast(x, kd);
  Tensor out = empty_like_operands(x.shape(), kd, {&x});
  kernels::activation(op, p, out, xk);
  return activation_cast(out, x.dtype());
}

// The node for `out = f(x)`, saving x (or, with save_result, out itself).
std::shared_ptr<ActivationBackward> record(Activation op, const ActivationArgs& p, const char* name, const Tensor& x,
                                           const Tensor& out, bool save_result = false) {
  if (!compute_requires_grad({&x})) return nullptr;
  auto node = std::make_shared<ActivationBackward>();
  node->mutable_next_edges() = collect_next_edges({&x});
  node->node_name = name;
  node->op = op;
  node->args = p;
  set_history(out, node);
  if (save_result) {
    node->saved_name = "result";
    node->x_ = SavedTensor(out, true);
  } else {
    node->x_ = SavedTensor(x, false);
  }
  return node;
}

Tensor simple_activation(Activation op, const Tensor& x, const char* kernel, const char* name) {
  check_floating(x, kernel);
  Tensor out = activation_forward(op, {}, x);
  record(op, {}, name, x, out);
  return out;
}

Tensor elu_impl(const Tensor& x, GivenNumber alpha, GivenNumber scale, GivenNumber input_scale, bool save_result) {
  check_floating(x, "elu_cpu");
  const ActivationArgs p{alpha.value, scale.value, input_scale.value};
  Tensor out = activation_forward(Activation::Elu, p, x);
  auto node = record(save_result ? Activation::EluResult : Activation::Elu, p,
                     save_result ? "EluBackward1" : "EluBackward0", x, out, save_result);
  if (node) {
    node->saved_values.add("alpha", alpha.saved());
    node->saved_values.add("input_scale", input_scale.saved());
    node->saved_values.add("scale", scale.saved());
  }
  return out;
}

Tensor leaky_relu_impl(const Tensor& x, GivenNumber slope, bool save_result) {
  check_floating(x, "leaky_relu_cpu");
  const ActivationArgs p{slope.value, 0.0, 0.0};
  Tensor out = activation_forward(Activation::LeakyRelu, p, x);
  auto node = record(Activation::LeakyRelu, p, save_result ? "LeakyReluBackward1" : "LeakyReluBackward0", x, out,
                     save_result);
  if (node) node->saved_values.add("negative_slope", slope.saved());
  return out;
}

}  // namespace

Tensor gelu(const Tensor& x, const std::string& approximate) {
  ENGINE_CHECK(approximate == "none" || approximate == "tanh", std::runtime_error,
               "approximate argument must be either none or tanh.");
  check_floating(x, "GeluKernelImpl");
  const Activation op = approximate == "tanh" ? Activation::GeluTanh : Activation::Gelu;
  Tensor out = activation_forward(op, {}, x);
  if (auto node = record(op, {}, "GeluBackward0", x, out)) node->saved_values.add("approximate", approximate);
  return out;
}

Tensor silu(const Tensor& x) { return simple_activation(Activation::Silu, x, "silu_cpu", "SiluBackward0"); }
Tensor mish(const Tensor& x) { return simple_activation(Activation::Mish, x, "mish_cpu", "MishBackward0"); }
Tensor hardsigmoid(const Tensor& x) {
  return simple_activation(Activation::Hardsigmoid, x, "hardsigmoid_cpu", "HardsigmoidBackward0");
}
Tensor hardswish(const Tensor& x) {
  return simple_activation(Activation::Hardswish, x, "hardswish_cpu", "HardswishBackward0");
}

Tensor log_sigmoid(const Tensor& x) {
  check_floating(x, "log_sigmoid_cpu");
  // PyTorch's kernel writes contiguous results whatever the input's layout.
  const DType kd = activation_kernel_dtype(x.dtype());
  Tensor xk = activation_cast(x, kd);
  Tensor out = Tensor::empty(x.shape(), kd), buffer = Tensor::empty(x.shape(), kd);
  kernels::log_sigmoid_forward(out, buffer, xk);
  out = activation_cast(out, x.dtype());
  if (auto node = record(Activation::LogSigmoid, {}, "LogSigmoidBackward0", x, out)) {
    node->buffer_ = SavedTensor(activation_cast(buffer, x.dtype()), false);
  }
  return out;
}

Tensor elu(const Tensor& x, GivenNumber alpha, GivenNumber scale, GivenNumber input_scale) {
  return elu_impl(x, alpha, scale, input_scale, false);
}

Tensor leaky_relu(const Tensor& x, GivenNumber negative_slope) { return leaky_relu_impl(x, negative_slope, false); }

Tensor softplus(const Tensor& x, GivenNumber beta, GivenNumber threshold) {
  check_floating(x, "softplus_cpu");
  const ActivationArgs p{beta.value, threshold.value, 0.0};
  Tensor out = activation_forward(Activation::Softplus, p, x);
  if (auto node = record(Activation::Softplus, p, "SoftplusBackward0", x, out)) {
    node->saved_values.add("beta", beta.saved());
    node->saved_values.add("threshold", threshold.saved());
  }
  return out;
}

Tensor hardtanh(const Tensor& x, GivenNumber min_val, GivenNumber max_val) {
  check_floating(x, "hardtanh_cpu");
  const ActivationArgs p{min_val.value, max_val.value, 0.0};
  Tensor out = activation_forward(Activation::Hardtanh, p, x);
  if (auto node = record(Activation::Hardtanh, p, "HardtanhBackward0", x, out)) {
    node->saved_values.add("max_val", max_val.saved());
    node->saved_values.add("min_val", min_val.saved());
  }
  return out;
}

Tensor& elu_(Tensor& x, GivenNumber alpha, GivenNumber scale, GivenNumber input_scale) {
  return apply_(x, [&](const Tensor& in) { return elu_impl(in, alpha, scale, input_scale, true); });
}
Tensor& leaky_relu_(Tensor& x, GivenNumber negative_slope) {
  return apply_(x, [&](const Tensor& in) { return leaky_relu_impl(in, negative_slope, true); });
}
Tensor& silu_(Tensor& x) {
  return apply_(x, [](const Tensor& in) { return silu(in); });
}
Tensor& hardtanh_(Tensor& x, GivenNumber min_val, GivenNumber max_val) {
  return apply_(x, [&](const Tensor& in) { return hardtanh(in, min_val, max_val); });
}

}  // namespace engine::ops
