// Special functions (gamma family, error-function inverses, Bessel, incomplete gamma) and the less
// common pointwise functions (copysign, heaviside, nextafter, fmax/fmin, logaddexp, gcd/lcm,
// shifts, frexp). Backward rules are written with differentiable ops, so higher derivatives work.
#include <cmath>
#include <functional>
#include <limits>

#include "engine/core/error.h"
#include "engine/core/layout.h"
#include "engine/kernels/elementwise.h"
#include "engine/kernels/special.h"
#include "engine/ops/node_util.h"
#include "engine/ops/complex.h"
#include "engine/ops/ops.h"

namespace engine::ops {

using kernels::SpecialBinaryOp;
using kernels::SpecialUnaryOp;

namespace {

constexpr double kPi = 3.14159265358979323846264338327950288;
constexpr double kLn2 = 0.693147180559945309417232121458176568;

// A copy in another dtype that records nothing (the op's own node covers the computation).
Tensor cast(const Tensor& t, DType d) {
  if (t.dtype() == d) return t;
  Tensor out = empty_like_operands(t.shape(), d, {&t});
  kernels::copy(out, t);
  return out;
}

void check_kernel_dtype(bool ok, const char* kernel, DType dt) {
  ENGINE_CHECK(ok, NotImplementedError, "\"", kernel, "\" not implemented for '", scalar_type_name(dt), "'");
}

// Floating functions compute integer and bool inputs in the default dtype, as PyTorch does.
DType float_compute_dtype(DType dt) { return is_floating(dt) ? dt : default_dtype(); }

// The dtype a kernel runs in: reduced-precision floating types compute in float32 and round once
// (the kernels are written for float and double).
DType kernel_dtype(DType dt) {
  return is_floating(dt) && dt != DType::Float32 && dt != DType::Float64 ? DType::Float32 : dt;
}

using UnaryRule = std::function<Tensor(const Tensor& grad, const Tensor& input, const Tensor& result)>;

struct SpecialUnaryBackward : Node {
  const char* node_name;
  UnaryRule rule;
  SavedTensor input_, result_;
  SpecialUnaryBackward(const char* n, UnaryRule r) : node_name(n), rule(std::move(r)) {}
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

// Records `out = f(a)` with `rule` when a requires grad; saves the input and/or the result.
Tensor record_unary(const Tensor& a, Tensor out, const char* name, UnaryRule rule, bool save_input, bool save_result) {
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<SpecialUnaryBackward>(name, std::move(rule));
    node->mutable_next_edges() = collect_next_edges({&a});
    if (save_input) node->input_ = SavedTensor(a, false);
    set_history(out, node);
    if (save_result) node->result_ = SavedTensor(out, true);
  }
  return out;
}

Tensor float_unary(SpecialUnaryOp op, const Tensor& a, const char* name, UnaryRule rule, bool save_input,
                   bool save_result) {
  const DType dt = float_compute_dtype(a.dtype()), kd = kernel_dtype(dt);
  Tensor out = empty_like_operands(a.shape(), kd, {&a});
  kernels::special_unary(op, out, cast(a, kd));
  return record_unary(a, cast(out, dt), name, std::move(rule), save_input, save_result);
}

Tensor zero_like(const Tensor& g) { return zeros(g.shape(), g.dtype()); }
Tensor scalar(double v) { return wrapped_scalar(v, DType::Float64); }

// A binary op's node: one rule per input, each returning the gradient for that input.
struct SpecialBinaryBackward : Node {
  using Rule = std::function<Tensor(const Tensor& grad, const Tensor& a, const Tensor& b, const Tensor& result)>;
  const char* node_name;
  Rule rule_a, rule_b;
  SavedTensor a_, b_, result_;
  // Which of them PyTorch's node shows as _saved_self, _saved_other, _saved_result.
  enum Shown : uint8_t { kNone = 0, kSelf = 1, kOther = 2, kResult = 4 };
  uint8_t shown = kNone;
  SpecialBinaryBackward(const char* n, Rule ra, Rule rb) : node_name(n), rule_a(std::move(ra)), rule_b(std::move(rb)) {}
  void visit_saved(const SavedVisitor& visit) override {
    if (shown & kSelf) visit("self", a_);
    if (shown & kOther) visit("other", b_);
    if (shown & kResult) visit("result", result_);
  }
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    Tensor a = a_.unpack(me), b = b_.unpack(me), r = result_.unpack(me);
    return {should_compute_output(0) && rule_a ? rule_a(g[0], a, b, r) : Tensor(),
            should_compute_output(1) && rule_b ? rule_b(g[0], a, b, r) : Tensor()};
  }
  void release_variables() override {
    a_.reset();
    b_.reset();
    result_.reset();
  }
};

Tensor record_binary(const Tensor& a, const Tensor& b, Tensor out, const char* name, SpecialBinaryBackward::Rule ra,
                     SpecialBinaryBackward::Rule rb, bool save_result = false, uint8_t shown = 0) {
  if (compute_requires_grad({&a, &b})) {
    auto node = std::make_shared<SpecialBinaryBackward>(name, std::move(ra), std::move(rb));
    // A Python number operand is not a saved tensor of PyTorch's node (its Scalar overloads).
    if (a.is_wrapped_number()) shown &= ~SpecialBinaryBackward::kSelf;
    if (b.is_wrapped_number()) shown &= ~SpecialBinaryBackward::kOther;
    node->shown = shown;
    node->mutable_next_edges() = collect_next_edges({&a, &b});
    node->a_ = SavedTensor(a, false);
    node->b_ = SavedTensor(b, false);
    set_history(out, node);
    if (save_result) node->result_ = SavedTensor(out, true);
  }
  return out;
}

Tensor binary_kernel(SpecialBinaryOp op, const Tensor& a, const Tensor& b, DType dt) {
  const DType kd = kernel_dtype(dt);
  Tensor out = empty_like_operands(broadcast_shapes(a.shape(), b.shape()), kd, {&a, &b});
  kernels::special_binary(op, out, cast(a, kd), cast(b, kd));
  return cast(out, dt);
}

}  // namespace

// ---- unary ----
Tensor acosh(const Tensor& a) {
  if (is_complex(a.dtype())) return complex_function(kernels::ComplexFn::Acosh, a, "AcoshBackward0");
  return float_unary(SpecialUnaryOp::Acosh, a, "AcoshBackward0",
                     [](const Tensor& g, const Tensor& x, const Tensor&) { return g * rsqrt((x + (-1.0)) * (x + 1.0)); },
                     true, false);
}
Tensor asinh(const Tensor& a) {
  if (is_complex(a.dtype())) return complex_function(kernels::ComplexFn::Asinh, a, "AsinhBackward0");
  return float_unary(SpecialUnaryOp::Asinh, a, "AsinhBackward0",
                     [](const Tensor& g, const Tensor& x, const Tensor&) { return g * rsqrt(x * x + 1.0); }, true,
                     false);
}
Tensor atanh(const Tensor& a) {
  if (is_complex(a.dtype())) return complex_function(kernels::ComplexFn::Atanh, a, "AtanhBackward0");
  return float_unary(SpecialUnaryOp::Atanh, a, "AtanhBackward0",
                     [](const Tensor& g, const Tensor& x, const Tensor&) { return g / (1.0 - x * x); }, true, false);
}
Tensor lgamma(const Tensor& a) {
  return float_unary(SpecialUnaryOp::Lgamma, a, "LgammaBackward0",
                     [](const Tensor& g, const Tensor& x, const Tensor&) { return g * digamma(x); }, true, false);
}
Tensor digamma(const Tensor& a) {
  return float_unary(SpecialUnaryOp::Digamma, a, "DigammaBackward0",
                     [](const Tensor& g, const Tensor& x, const Tensor&) { return g * polygamma(1, x); }, true, false);
}
Tensor polygamma(int64_t n, const Tensor& a) {
  ENGINE_CHECK(n >= 0, std::runtime_error, "polygamma(n, x) does not support negative n.");
  const DType dt = float_compute_dtype(a.dtype()), kd = kernel_dtype(dt);
  Tensor out = empty_like_operands(a.shape(), kd, {&a});
  kernels::polygamma(n, out, cast(a, kd));
  return record_unary(
      a, cast(out, dt), "PolygammaBackward0",
      [n](const Tensor& g, const Tensor& x, const Tensor&) {
        ENGINE_CHECK(n < std::numeric_limits<int64_t>::max(), std::runtime_error,
                     "polygamma: the derivative of order n + 1 = ", n, " + 1 does not fit in int64");
        return g * polygamma(n + 1, x);
      },
      true, false);
}
Tensor erfc(const Tensor& a) {
  return float_unary(SpecialUnaryOp::Erfc, a, "ErfcBackward0",
                     [](const Tensor& g, const Tensor& x, const Tensor&) {
                       return g * (exp(-(x * x)) * (-2.0 / std::sqrt(kPi)));
                     },
                     true, false);
}
Tensor erfinv(const Tensor& a) {
  // PyTorch's node saves the input and computes erfinv again in backward.
  return float_unary(SpecialUnaryOp::Erfinv, a, "ErfinvBackward0",
                     [](const Tensor& g, const Tensor& x, const Tensor&) {
                       const Tensor y = erfinv(x);
                       return g * (exp(y * y) * (std::sqrt(kPi) / 2.0));
                     },
                     true, false);
}
Tensor i0(const Tensor& a) {
  return float_unary(SpecialUnaryOp::I0, a, "I0Backward0",
                     [](const Tensor& g, const Tensor& x, const Tensor&) { return g * special_i1(x); }, true, false);
}
Tensor special_i1(const Tensor& a) {
  // i1'(x) = i0(x) - i1(x) / x, which tends to 1/2 at 0.
  return float_unary(SpecialUnaryOp::I1, a, "SpecialI1Backward0",
                     [](const Tensor& g, const Tensor& x, const Tensor& y) {
                       Tensor at_zero = eq(x, scalar(0.0));
                       return g * where(at_zero, scalar(0.5), i0(x) - y / x);
                     },
                     true, true);
}
Tensor sinc(const Tensor& a) {
  return float_unary(SpecialUnaryOp::Sinc, a, "SincBackward0",
                     [](const Tensor& g, const Tensor& x, const Tensor&) {
                       Tensor px = x * kPi;
                       Tensor d = (px * cos(px) - sin(px)) / (px * x);
                       return g * where(eq(x, scalar(0.0)), scalar(0.0), d);
                     },
                     true, false);
}
Tensor frac(const Tensor& a) {
  check_kernel_dtype(is_floating(a.dtype()), "frac_cpu", a.dtype());
  return float_unary(SpecialUnaryOp::Frac, a, "FracBackward0",
                     [](const Tensor& g, const Tensor&, const Tensor&) { return g; }, false, false);
}
Tensor deg2rad(const Tensor& a) {
  return float_unary(SpecialUnaryOp::Deg2rad, a, "Deg2RadBackward0",
                     [](const Tensor& g, const Tensor&, const Tensor&) { return g * (kPi / 180.0); }, false, false);
}
Tensor rad2deg(const Tensor& a) {
  return float_unary(SpecialUnaryOp::Rad2deg, a, "Rad2DegBackward0",
                     [](const Tensor& g, const Tensor&, const Tensor&) { return g * (180.0 / kPi); }, false, false);
}
Tensor signbit(const Tensor& a) {
  Tensor out = empty_like_operands(a.shape(), DType::Bool, {&a});
  kernels::signbit(out, a);
  return out;
}

namespace {
struct FrexpBackward0 : BuiltinNode<FrexpBackward0> {
  static constexpr const char* kName = "FrexpBackward0";
  SavedTensor exponent_;
  variable_list apply(variable_list&& g) override { return {g[0] / exp2(exponent_.unpack())}; }
  void release_variables() override { exponent_.reset(); }
  void visit_saved(const SavedVisitor& visit) override { visit("exponent", exponent_); }
};
}  // namespace

std::pair<Tensor, Tensor> frexp(const Tensor& a) {
  ENGINE_CHECK(is_floating(a.dtype()), std::runtime_error, "torch.frexp() only supports floating-point dtypes");
  const DType kd = kernel_dtype(a.dtype());
  Tensor mantissa = empty_like_operands(a.shape(), kd, {&a}), exponent = empty_like_operands(a.shape(), DType::Int32, {&a});
  kernels::frexp(mantissa, exponent, cast(a, kd));
  mantissa = cast(mantissa, a.dtype());  // exact: the mantissa has no more digits than a
  if (auto node = make_node<FrexpBackward0>({&a})) {
    node->exponent_ = SavedTensor(exponent, false);
    set_history(mantissa, node);
  }
  return {mantissa, exponent};
}

// ---- binary ----
namespace {

// The node PyTorch attaches where no derivative exists: backward through it is an error.
struct NotImplementedBackward : Node {
  std::string op;
  explicit NotImplementedBackward(std::string o) : op(std::move(o)) {}
  std::string name() const override { return "NotImplemented"; }
  variable_list apply(variable_list&&) override {
    throw std::runtime_error("derivative for aten::" + op + " is not implemented");
  }
};

// d/dx of P(a, x): x^(a-1) e^-x / Gamma(a).
Tensor igamma_density(const Tensor& a, const Tensor& x) { return exp((a + (-1.0)) * log(x) - x - lgamma(a)); }

Tensor igamma_family(const Tensor& a, const Tensor& b, bool upper) {
  const DType dt = result_type(a, b);
  const char* name = upper ? "igammac" : "igamma";
  check_kernel_dtype(is_floating(dt), upper ? "igammac_cpu" : "igamma_cpu", dt);
  Tensor out = binary_kernel(upper ? SpecialBinaryOp::Igammac : SpecialBinaryOp::Igamma, a, b, dt);
  auto self_rule = [name](const Tensor&, const Tensor&, const Tensor&, const Tensor&) -> Tensor {
    throw NotImplementedError(std::string("the derivative for '") + name + ": input' is not implemented.");
  };
  auto other_rule = [upper](const Tensor& g, const Tensor& x, const Tensor& y, const Tensor&) {
    Tensor d = g * igamma_density(x, y);
    return upper ? -d : d;
  };
  return record_binary(a, b, out, upper ? "IgammacBackward0" : "IgammaBackward0", self_rule, other_rule);
}

Tensor log_add_exp(const Tensor& a, const Tensor& b, bool base2) {
  const DType dt = result_type(a, b);
  check_kernel_dtype(is_floating(dt), base2 ? "logaddexp2_cpu" : "logaddexp_cpu", dt);
  Tensor out = binary_kernel(base2 ? SpecialBinaryOp::Logaddexp2 : SpecialBinaryOp::Logaddexp, a, b, dt);
  // d/da = 1 / (1 + base^(b - a)) = sigmoid((a - b) ln base)
  const double scale = base2 ? kLn2 : 1.0;
  auto rule_a = [scale](const Tensor& g, const Tensor& x, const Tensor& y, const Tensor&) {
    return g * sigmoid((x - y) * scale);
  };
  auto rule_b = [scale](const Tensor& g, const Tensor& x, const Tensor& y, const Tensor&) {
    return g * sigmoid((y - x) * scale);
  };
  return record_binary(a, b, out, base2 ? "Logaddexp2Backward0" : "LogaddexpBackward0", rule_a, rule_b, false,
                       SpecialBinaryBackward::kSelf | SpecialBinaryBackward::kOther);
}

Tensor fmax_fmin(const Tensor& a, const Tensor& b, bool is_max) {
  const DType dt = result_type(a, b);
  Tensor out = binary_kernel(is_max ? SpecialBinaryOp::Fmax : SpecialBinaryOp::Fmin, a, b, dt);
  // The gradient goes to the side chosen: a where it wins or ties or b is NaN, else b.
  auto a_chosen = [is_max](const Tensor& x, const Tensor& y) {
    return logical_or(is_max ? ge(x, y) : le(x, y), isnan(y));
  };
  auto rule_a = [a_chosen](const Tensor& g, const Tensor& x, const Tensor& y, const Tensor&) {
    return where(a_chosen(x, y), g, scalar(0.0));
  };
  auto rule_b = [a_chosen](const Tensor& g, const Tensor& x, const Tensor& y, const Tensor&) {
    return where(a_chosen(x, y), scalar(0.0), g);
  };
  return record_binary(a, b, out, is_max ? "FmaxBackward0" : "FminBackward0", rule_a, rule_b, false,
                       SpecialBinaryBackward::kSelf | SpecialBinaryBackward::kOther);
}

Tensor integer_binary(SpecialBinaryOp op, const Tensor& a, const Tensor& b, const char* kernel) {
  const DType dt = result_type(a, b);
  check_kernel_dtype(is_integral(dt, false), kernel, dt);
  return binary_kernel(op, a, b, dt);
}

}  // namespace

Tensor copysign(const Tensor& a, const Tensor& b) {
  const DType dt = float_compute_dtype(result_type(a, b));
  Tensor out = binary_kernel(SpecialBinaryOp::Copysign, a, b, dt);
  // d/da = copysign(1, a) * copysign(1, b) = result / a (0 where a is 0); b gets no gradient.
  auto rule_a = [](const Tensor& g, const Tensor& x, const Tensor&, const Tensor& r) {
    return g * where(eq(x, scalar(0.0)), scalar(0.0), r / x);
  };
  auto rule_b = [](const Tensor& g, const Tensor&, const Tensor&, const Tensor&) { return zero_like(g); };
  return record_binary(a, b, out, b.is_wrapped_number() ? "CopysignBackward1" : "CopysignBackward0", rule_a, rule_b,
                       true, SpecialBinaryBackward::kSelf | SpecialBinaryBackward::kResult);
}

Tensor heaviside(const Tensor& a, const Tensor& b) {
  ENGINE_CHECK(a.dtype() == b.dtype(), std::runtime_error,
               "heaviside is not yet implemented for tensors with different dtypes.");
  Tensor out = binary_kernel(SpecialBinaryOp::Heaviside, a, b, a.dtype());
  if (compute_requires_grad({&a, &b})) {
    auto node = std::make_shared<NotImplementedBackward>("heaviside");
    node->mutable_next_edges() = collect_next_edges({&a, &b});
    set_history(out, node);
  }
  return out;
}

Tensor nextafter(const Tensor& a, const Tensor& b) {
  const DType dt = result_type(a, b);
  check_kernel_dtype(is_floating(dt), "nextafter_cpu", dt);
  Tensor out = binary_kernel(SpecialBinaryOp::Nextafter, a, b, dt);
  // PyTorch records a node without a derivative: gradients through it are absent (zero).
  return record_binary(a, b, out, "NextafterBackward0", nullptr, nullptr);
}

Tensor fmax(const Tensor& a, const Tensor& b) { return fmax_fmin(a, b, true); }
Tensor fmin(const Tensor& a, const Tensor& b) { return fmax_fmin(a, b, false); }
Tensor igamma(const Tensor& a, const Tensor& b) { return igamma_family(a, b, false); }
Tensor igammac(const Tensor& a, const Tensor& b) { return igamma_family(a, b, true); }
Tensor logaddexp(const Tensor& a, const Tensor& b) { return log_add_exp(a, b, false); }
Tensor logaddexp2(const Tensor& a, const Tensor& b) { return log_add_exp(a, b, true); }
Tensor hypot(const Tensor& a, const Tensor& b) {
  const DType dt = result_type(a, b);
  check_kernel_dtype(is_floating(dt), "hypot_cpu", dt);
  Tensor out = binary_kernel(SpecialBinaryOp::Hypot, a, b, dt);
  auto rule_a = [](const Tensor& g, const Tensor& x, const Tensor&, const Tensor& r) { return g * x / r; };
  auto rule_b = [](const Tensor& g, const Tensor&, const Tensor& y, const Tensor& r) { return g * y / r; };
  return record_binary(a, b, out, "HypotBackward0", rule_a, rule_b, true,
                       SpecialBinaryBackward::kSelf | SpecialBinaryBackward::kOther | SpecialBinaryBackward::kResult);
}

Tensor xlogy(const Tensor& a, const Tensor& b) {
  const DType dt = float_compute_dtype(result_type(a, b));
  Tensor out = binary_kernel(SpecialBinaryOp::Xlogy, a, b, dt);
  // d/da = log(b), taken as 0 where a == 0 and b <= 0 (PyTorch's choice); d/db = a / b.
  auto rule_a = [](const Tensor& g, const Tensor& x, const Tensor& y, const Tensor&) {
    Tensor zero = scalar(0.0);
    return where(logical_and(eq(x, zero), le(y, zero)), zero, xlogy(g, y));
  };
  auto rule_b = [](const Tensor& g, const Tensor& x, const Tensor& y, const Tensor&) { return g * x / y; };
  const char* name = a.is_wrapped_number() ? "XlogyBackward1" : b.is_wrapped_number() ? "XlogyBackward2" : "XlogyBackward0";
  return record_binary(a, b, out, name, rule_a, rule_b, false,
                       SpecialBinaryBackward::kSelf | SpecialBinaryBackward::kOther);
}

Tensor logit(const Tensor& a, std::optional<double> eps) {
  const DType dt = float_compute_dtype(a.dtype()), kd = kernel_dtype(dt);
  Tensor out = empty_like_operands(a.shape(), kd, {&a});
  const double e = eps.value_or(-1.0);
  kernels::logit(out, cast(a, kd), e);
  out = cast(out, dt);
  // 1 / (x (1 - x)) inside the range; outside it NaN without eps, 0 (the clamp's flat part) with it.
  Tensor r = record_unary(
      a, out, "LogitBackward0",
      [e](const Tensor& g, const Tensor& x, const Tensor&) {
        const bool clamped = e >= 0;
        Tensor outside = logical_or(lt(x, scalar(clamped ? e : 0.0)), gt(x, scalar(clamped ? 1.0 - e : 1.0)));
        Tensor d = g / (x * (1.0 - x));
        return where(outside, scalar(clamped ? 0.0 : NAN), d);
      },
      true, false);
  if (compute_requires_grad({&a})) grad_fn(r)->saved_values.add("eps", eps ? SavedValue(*eps) : SavedValue());
  return r;
}

Tensor gcd(const Tensor& a, const Tensor& b) { return integer_binary(SpecialBinaryOp::Gcd, a, b, "gcd_cpu"); }
Tensor lcm(const Tensor& a, const Tensor& b) { return integer_binary(SpecialBinaryOp::Lcm, a, b, "lcm_cpu"); }

}  // namespace engine::ops
