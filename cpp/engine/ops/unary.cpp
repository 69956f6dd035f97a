// Pointwise functions of one tensor.
#include <cctype>
#include <cmath>
#include <string>

#include "engine/autograd/grad_mode.h"
#include "engine/core/error.h"
#include "engine/core/layout.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/complex.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

using kernels::UnaryOp;

namespace {

// Floating functions of integer tensors compute in the default dtype, as PyTorch does.
Tensor unary_kernel(UnaryOp op, const Tensor& a, bool float_op) {
  DType dt = a.dtype();
  if (float_op && !is_floating(dt)) dt = default_dtype();
  Tensor in = a;
  if (dt != a.dtype()) {
    in = empty_like_operands(a.shape(), dt, {&a});
    kernels::copy(in, a);
  }
  Tensor out = empty_like_operands(a.shape(), dt, {&a});
  kernels::unary(op, out, in);
  return out;
}

// One node type per function: the rule reads the saved input or output.
struct UnaryBackward : Node {
  using Rule = Tensor (*)(const Tensor& grad, const Tensor& input, const Tensor& result);
  const char* node_name;
  Rule rule;
  SavedTensor input_, result_;
  UnaryBackward(const char* n, Rule r) : node_name(n), rule(r) {}
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    return {rule(g[0], input_.unpack(me), result_.unpack(me))};
  }
  void release_variables() override {
    input_.reset();
    result_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    if (input_.defined()) visit("self", input_);
    if (result_.defined()) visit("result", result_);
  }
};

Tensor unary(UnaryOp op, const Tensor& a, bool float_op, const char* name, UnaryBackward::Rule rule,
             bool save_input, bool save_result) {
  if (is_complex(a.dtype())) return complex_unary(op, a, name);
  Tensor out = unary_kernel(op, a, float_op);
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<UnaryBackward>(name, rule);
    node->mutable_next_edges() = collect_next_edges({&a});
    if (save_input) node->input_ = SavedTensor(a, false);
    set_history(out, node);
    if (save_result) node->result_ = SavedTensor(out, true);
  }
  return out;
}

}  // namespace

Tensor exp(const Tensor& a) {
  if (is_complex(a.dtype())) return complex_exp(a);
  return unary(UnaryOp::Exp, a, true, "ExpBackward0", [](const Tensor& g, const Tensor&, const Tensor& y) { return g * y; },
               false, true);
}
Tensor log(const Tensor& a) {
  return unary(UnaryOp::Log, a, true, "LogBackward0", [](const Tensor& g, const Tensor& x, const Tensor&) { return g / x; },
               true, false);
}
Tensor sqrt(const Tensor& a) {
  return unary(UnaryOp::Sqrt, a, true, "SqrtBackward0",
               [](const Tensor& g, const Tensor&, const Tensor& y) { return g / (y * 2.0); }, false, true);
}
Tensor sin(const Tensor& a) {
  return unary(UnaryOp::Sin, a, true, "SinBackward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g * cos(x); }, true, false);
}
Tensor cos(const Tensor& a) {
  return unary(UnaryOp::Cos, a, true, "CosBackward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g * -sin(x); }, true, false);
}
Tensor tanh(const Tensor& a) {
  return unary(UnaryOp::Tanh, a, true, "TanhBackward0",
               [](const Tensor& g, const Tensor&, const Tensor& y) { return g * (1.0 - y * y); }, false, true);
}
Tensor sigmoid(const Tensor& a) {
  return unary(UnaryOp::Sigmoid, a, true, "SigmoidBackward0",
               [](const Tensor& g, const Tensor&, const Tensor& y) { return g * ((1.0 - y) * y); }, false, true);
}
// PyTorch's threshold_backward at 0: the gradient where the result is positive or NaN, zero
// elsewhere (a NaN gradient is zeroed too, where multiplying by a mask would keep it). One fused
// kernel, unless a second derivative is being recorded through the gradient.
Tensor relu_grad(const Tensor& g, const Tensor& y) {
  if ((GradMode::is_enabled() && requires_grad(g)) || g.dtype() != y.dtype() || !is_floating(y.dtype())) {
    const Tensor zero = wrapped_scalar(0.0, DType::Int64);
    return named_history(where(le(y, zero), zero, g), "ThresholdBackwardBackward0");
  }
  Tensor out = Tensor::empty(y.shape(), y.dtype());
  kernels::binary(kernels::BinaryOp::ReluGrad, out, g, y);
  return out;
}

namespace {
// threshold's node keeps its input and the threshold; its backward is PyTorch's threshold_backward.
struct ThresholdBackward : Node {
  SavedTensor self_;
  double threshold = 0.0;
  std::string name() const override { return "ThresholdBackward0"; }
  variable_list apply(variable_list&& g) override { return {threshold_grad(g[0], self_.unpack(shared_from_this()), threshold)}; }
  void release_variables() override { self_.reset(); }
  void visit_saved(const SavedVisitor& visit) override {
    if (self_.defined()) visit("self", self_);
  }
};
}  // namespace

// The gradient where x is above the threshold (or NaN), zero elsewhere: PyTorch's threshold_backward.
Tensor threshold_grad(const Tensor& g, const Tensor& x, double threshold) {
  const Tensor zero = wrapped_scalar(0.0, DType::Int64);
  Tensor out = where(le(x, wrapped_scalar(threshold, DType::Float64)), zero, g);
  return requires_grad(out) ? named_history(out, "ThresholdBackwardBackward0") : out;
}

Tensor threshold(const Tensor& a, double threshold, double value) {
  ENGINE_CHECK(a.dtype() != DType::Bool, std::runtime_error, "\"threshold_cpu\" not implemented for 'Bool'");
  Tensor out;
  {
    AutoGradMode no_grad(false);
    out = where(le(a, wrapped_scalar(threshold, DType::Float64)), full(a.shape(), value, a.dtype()), a);
  }
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<ThresholdBackward>();
    node->mutable_next_edges() = collect_next_edges({&a});
    node->self_ = SavedTensor(a, false);
    node->threshold = threshold;
    node->saved_values.add("threshold", threshold);
    set_history(out, node);
  }
  return out;
}

Tensor relu(const Tensor& a) {
  ENGINE_CHECK(!is_complex(a.dtype()), NotImplementedError, "clamp is not supported for complex types");
  ENGINE_CHECK(a.dtype() != DType::Bool, std::runtime_error, "Boolean inputs not supported for relu");
  return unary(UnaryOp::Relu, a, false, "ReluBackward0",
               [](const Tensor& g, const Tensor&, const Tensor& y) { return relu_grad(g, y); }, false, true);
}
Tensor abs(const Tensor& a) {
  ENGINE_CHECK(a.dtype() != DType::Bool, NotImplementedError, "\"abs_cpu\" not implemented for 'Bool'");
  if (is_complex(a.dtype())) return complex_abs(a);
  return unary(UnaryOp::Abs, a, false, "AbsBackward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g * sign(x); }, true, false);
}
Tensor sign(const Tensor& a) {
  ENGINE_CHECK(!is_complex(a.dtype()), NotImplementedError,
               "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.");
  return unary(UnaryOp::Sign, a, false, "SignBackward0",
               [](const Tensor& g, const Tensor&, const Tensor&) { return zeros(g.shape(), g.dtype()); }, false, false);
}

// torch.sgn: z / |z| for complex z (0 at 0), sign(x) for real x.
Tensor sgn(const Tensor& a) {
  if (!is_complex(a.dtype())) return sign(a);
  return complex_function(kernels::ComplexFn::Sgn, a, "SgnBackward0");
}

}  // namespace engine::ops

// ---- more pointwise functions ----
namespace engine::ops {

namespace {
constexpr double kLn2 = 0.693147180559945309417232121458176568;
constexpr double kLn10 = 2.30258509299404568401799145468436421;
constexpr double kTwoOverSqrtPi = 1.12837916709551257389615890312154517;

Tensor zero_rule(const Tensor& g, const Tensor&, const Tensor&) { return zeros(g.shape(), g.dtype()); }

// floor / ceil / round / trunc: integers come back unchanged (a copy); the gradient is zero.
Tensor rounding(UnaryOp op, const Tensor& a, const char* name, const char* kernel) {
  ENGINE_CHECK(a.dtype() != DType::Bool, NotImplementedError, "\"", kernel, "\" not implemented for 'Bool'");
  if (is_complex(a.dtype())) {
    // PyTorch words floor / ceil / trunc by op name, round by its kernel's.
    const std::string op = std::string(name).substr(0, std::string(name).find("Backward"));
    if (op == "Round") throw_not_implemented_for(kernel, a.dtype());
    std::string lower = op;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    ENGINE_CHECK(false, NotImplementedError, lower, " is not supported for complex inputs");
  }
  if (!is_floating(a.dtype())) return clone(a);
  return unary(op, a, false, name, zero_rule, false, false);
}
}  // namespace

Tensor exp2(const Tensor& a) {
  return unary(UnaryOp::Exp2, a, true, "Exp2Backward0",
               [](const Tensor& g, const Tensor&, const Tensor& y) { return g * (y * kLn2); }, false, true);
}
Tensor expm1(const Tensor& a) {
  return unary(UnaryOp::Expm1, a, true, "Expm1Backward0",
               [](const Tensor& g, const Tensor&, const Tensor& y) { return g * (y + 1.0); }, false, true);
}
Tensor log2(const Tensor& a) {
  return unary(UnaryOp::Log2, a, true, "Log2Backward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g / (x * kLn2); }, true, false);
}
Tensor log10(const Tensor& a) {
  return unary(UnaryOp::Log10, a, true, "Log10Backward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g / (x * kLn10); }, true, false);
}
Tensor log1p(const Tensor& a) {
  return unary(UnaryOp::Log1p, a, true, "Log1PBackward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g / (x + 1.0); }, true, false);
}
Tensor rsqrt(const Tensor& a) {
  return unary(UnaryOp::Rsqrt, a, true, "RsqrtBackward0",
               [](const Tensor& g, const Tensor&, const Tensor& y) { return g * (y * y * y * -0.5); }, false, true);
}
Tensor reciprocal(const Tensor& a) {
  return unary(UnaryOp::Reciprocal, a, true, "ReciprocalBackward0",
               [](const Tensor& g, const Tensor&, const Tensor& y) { return g * -(y * y); }, false, true);
}
Tensor tan(const Tensor& a) {
  return unary(UnaryOp::Tan, a, true, "TanBackward0",
               [](const Tensor& g, const Tensor&, const Tensor& y) { return g * (y * y + 1.0); }, false, true);
}
Tensor asin(const Tensor& a) {
  return unary(UnaryOp::Asin, a, true, "AsinBackward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g / sqrt(1.0 - x * x); }, true, false);
}
Tensor acos(const Tensor& a) {
  return unary(UnaryOp::Acos, a, true, "AcosBackward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return -g / sqrt(1.0 - x * x); }, true, false);
}
Tensor atan(const Tensor& a) {
  return unary(UnaryOp::Atan, a, true, "AtanBackward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g / (x * x + 1.0); }, true, false);
}
Tensor sinh(const Tensor& a) {
  return unary(UnaryOp::Sinh, a, true, "SinhBackward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g * cosh(x); }, true, false);
}
Tensor cosh(const Tensor& a) {
  return unary(UnaryOp::Cosh, a, true, "CoshBackward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g * sinh(x); }, true, false);
}
Tensor erf(const Tensor& a) {
  return unary(UnaryOp::Erf, a, true, "ErfBackward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g * (exp(-(x * x)) * kTwoOverSqrtPi); },
               true, false);
}
// PyTorch has no rounding kernels for bool: its messages name the kernel.
Tensor floor(const Tensor& a) { return rounding(UnaryOp::Floor, a, "FloorBackward0", "floor_vml_cpu"); }
Tensor ceil(const Tensor& a) { return rounding(UnaryOp::Ceil, a, "CeilBackward0", "ceil_vml_cpu"); }
Tensor trunc(const Tensor& a) { return rounding(UnaryOp::Trunc, a, "TruncBackward0", "trunc_vml_cpu"); }
Tensor round(const Tensor& a, int64_t decimals) {
  if (is_complex(a.dtype())) throw_not_implemented_for(decimals == 0 ? "round_vml_cpu" : "round_cpu", a.dtype());
  if (decimals == 0) return rounding(UnaryOp::Round, a, "RoundBackward0", "round_vml_cpu");
  ENGINE_CHECK(is_floating(a.dtype()), NotImplementedError, "\"round_cpu\" not implemented for '",
               scalar_type_name(a.dtype()), "'");
  // round(x * 10^d) / 10^d (or x / 10^-d ... * 10^-d), half to even, computed in a's dtype, or in
  // float32 for float16 / bfloat16 and rounded once, as PyTorch's kernel does.
  const bool widen = is_reduced_floating(a.dtype());
  Tensor x = widen ? to_dtype(detach(a), DType::Float32) : detach(a);
  Tensor ten = wrapped_scalar(std::pow(10.0, std::fabs(static_cast<double>(decimals))), DType::Float64);
  Tensor out = decimals > 0 ? div(unary_kernel(UnaryOp::Round, mul(x, ten), false), ten)
                            : mul(unary_kernel(UnaryOp::Round, div(x, ten), false), ten);
  if (widen) out = to_dtype(out, a.dtype());
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<UnaryBackward>("RoundBackward1", zero_rule);
    node->mutable_next_edges() = collect_next_edges({&a});
    set_history(out, node);
  }
  return out;
}

Tensor bitwise_not(const Tensor& a) {
  ENGINE_CHECK(!is_floating(a.dtype()), NotImplementedError, "\"bitwise_not_cpu\" not implemented for '",
               scalar_type_name(a.dtype()), "'");
  return unary_kernel(UnaryOp::BitNot, a, false);
}
Tensor logical_not(const Tensor& a) { return eq(detach(a), wrapped_scalar(0.0, DType::Int64)); }
Tensor isnan(const Tensor& a) {
  Tensor x = detach(a);
  return ne(x, x);
}
namespace {
// The answer for every element of an integer tensor, laid out like it (as PyTorch's result).
Tensor constant_mask(const Tensor& a, bool value) {
  Tensor out = empty_like_operands(a.shape(), DType::Bool, {&a});
  kernels::fill(out, value ? 1.0 : 0.0);
  return out;
}
}  // namespace

Tensor isinf(const Tensor& a) {
  if (!is_floating(a.dtype())) return constant_mask(a, false);
  return eq(abs(detach(a)), wrapped_scalar(INFINITY, DType::Float64));
}
Tensor isfinite(const Tensor& a) {
  if (!is_floating(a.dtype())) return constant_mask(a, true);
  Tensor x = detach(a);
  return eq(sub(x, x), wrapped_scalar(0.0, DType::Float64));  // inf - inf and NaN - NaN are NaN
}

}  // namespace engine::ops
