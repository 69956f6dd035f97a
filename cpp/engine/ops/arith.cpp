// Binary arithmetic: + - * / ** where maximum minimum, with broadcasting and type promotion.
#include <cmath>

#include "engine/autograd/grad_mode.h"
#include "engine/core/error.h"
#include "engine/core/layout.h"
#include "engine/kernels/elementwise.h"
#include "engine/kernels/strided_loop.h"
#include "engine/ops/complex.h"
#include "engine/ops/lerp_addc_nodes.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

using kernels::BinaryOp;

namespace {

// A copy in another dtype that records nothing: operands are converted to the computation dtype
// before a kernel runs, and the op's own node accounts for the whole computation.
Tensor cast(const Tensor& t, DType d) {
  if (t.dtype() == d) return t;
  Tensor out = empty_like_operands(t.shape(), d, {&t});
  kernels::copy(out, t);
  return out;
}

Tensor binary_kernel(BinaryOp op, const Tensor& a, const Tensor& b, DType compute, DType out_dtype) {
  Dims shape = broadcast_shapes(a.shape(), b.shape());
  Tensor out = empty_like_operands(shape, out_dtype, {&a, &b});
  kernels::binary(op, out, cast(a, compute), cast(b, compute));
  return out;
}

double scalar_value(const Tensor& t) { return kernels::read_double(t, 0); }

// a + alpha * b in one pass over the operands (sub passes -alpha): no alpha * b temporary.
Tensor add_scaled_kernel(const Tensor& a, const Tensor& b, double alpha, DType dt) {
  Dims shape = broadcast_shapes(a.shape(), b.shape());
  Tensor out = empty_like_operands(shape, dt, {&a, &b});
  kernels::add_scaled(out, cast(a, dt), cast(b, dt), alpha);
  return out;
}


// A Python number an op wrapped, as the number (PowBackward0's exponent, PowBackward2's self).
SavedValue wrapped_value(const Tensor& t) {
  if (is_floating(t.dtype())) return scalar_value(t);
  return SavedValue::scalar_int(kernels::read_int(t, 0));
}

struct AddBackward0 : BuiltinNode<AddBackward0> {
  static constexpr const char* kName = "AddBackward0";
  double alpha = 1.0;
  void visit_saved_values(const SavedValueVisitor& visit) const override { visit("alpha", saved_number(alpha)); }
  variable_list apply(variable_list&& g) override {
    return {g[0], should_compute_output(1) ? (alpha == 1.0 ? g[0] : g[0] * alpha) : Tensor()};
  }
};

struct SubBackward0 : BuiltinNode<SubBackward0> {
  static constexpr const char* kName = "SubBackward0";
  double alpha = 1.0;
  // A number minus a tensor (PyTorch's RsubBackward1): one edge, to the tensor.
  bool number_minus_tensor = false;
  void visit_saved_values(const SavedValueVisitor& visit) const override { visit("alpha", saved_number(alpha)); }
  variable_list apply(variable_list&& g) override {
    if (number_minus_tensor) return {alpha == 1.0 ? -g[0] : g[0] * -alpha};
    return {g[0], should_compute_output(1) ? (alpha == 1.0 ? -g[0] : g[0] * -alpha) : Tensor()};
  }
};

// neg's node: the gradient negated.
struct NegBackward0 : BuiltinNode<NegBackward0> {
  static constexpr const char* kName = "NegBackward0";
  variable_list apply(variable_list&& g) override { return {-g[0]}; }
};

}  // namespace

Tensor number_as_tensor(double v, DType number_dtype, DType tensor_dtype) {
  const bool exact = tensor_dtype == DType::Float64 ||
                     (tensor_dtype == DType::Float32 && static_cast<double>(static_cast<float>(v)) == v);
  return exact ? wrapped_scalar_as(v, tensor_dtype, number_dtype) : wrapped_scalar(v, number_dtype);
}

namespace {

// A Python number an op applied as a value (tensor (op) number): kept as the number, and made
// PyTorch's wrapped 0-d tensor only when read through the node's `_saved_*` attribute.
struct KeptNumber {
  bool kept = false;
  bool released = false;
  double value = 0.0;
  DType number_dtype = DType::Float64, tensor_dtype = DType::Float32;
  void keep(double v, DType number, DType tensor) {
    kept = true;
    value = v;
    number_dtype = number;
    tensor_dtype = tensor;
  }
  // Fills `slot` with the wrapped tensor the first time the attribute is read (a released one
  // reads as freed, as the saved tensor would).
  void show_in(SavedTensor& slot) const {
    if (!kept || slot.defined()) return;
    slot = SavedTensor(number_as_tensor(value, number_dtype, tensor_dtype), false);
    if (released) slot.reset();
  }
  double get() const {
    ENGINE_CHECK(!released, std::runtime_error, kSavedTensorsFreedMessage);
    return value;
  }
};

struct MulBackward0 : BuiltinNode<MulBackward0> {
  static constexpr const char* kName = "MulBackward0";
  SavedTensor self_, other_;
  KeptNumber other_number;  // tensor * number (mul_number)
  void visit_saved(const SavedVisitor& visit) override {
    visit("self", self_);
    other_number.show_in(other_);
    visit("other", other_);
  }
  Tensor grad_self(const Tensor& g) {
    if (!other_number.kept) return g * other_.unpack(shared_from_this());
    return mul_number(g, other_number.get(), other_number.number_dtype);
  }
  variable_list apply(variable_list&& g) override {
    return {should_compute_output(0) ? grad_self(g[0]) : Tensor(),
            should_compute_output(1) ? g[0] * self_.unpack(shared_from_this()) : Tensor()};
  }
  void release_variables() override {
    self_.reset();
    other_.reset();
    other_number.released = true;
  }
};

// True division's gradients for both operands (DivBackward0, and DivBackward2 without rounding).
template <typename NodeT>
variable_list true_div_grads(NodeT& node, const Tensor& g, SavedTensor& self, SavedTensor& other) {
  auto me = node.shared_from_this();
  Tensor b = other.unpack(me);
  return {node.should_compute_output(0) ? g / b : Tensor(),
          node.should_compute_output(1) ? -(g * self.unpack(me)) / (b * b) : Tensor()};
}

struct DivBackward0 : BuiltinNode<DivBackward0> {
  static constexpr const char* kName = "DivBackward0";
  SavedTensor self_, other_;
  KeptNumber other_number;  // tensor / number (div_number): one gradient, g / number
  void visit_saved(const SavedVisitor& visit) override {
    visit("self", self_);
    other_number.show_in(other_);
    visit("other", other_);
  }
  variable_list apply(variable_list&& g) override {
    if (other_number.kept) return {div_number(g[0], other_number.get(), other_number.number_dtype), Tensor()};
    return true_div_grads(*this, g[0], self_, other_);
  }
  void release_variables() override {
    self_.reset();
    other_.reset();
    other_number.released = true;
  }
};

// div with a rounding_mode argument (None, "trunc" or "floor"), PyTorch's DivBackward2: true
// division's gradient without rounding; a rounded quotient is piecewise constant, so zero with it.
struct DivBackward2 : BuiltinNode<DivBackward2> {
  static constexpr const char* kName = "DivBackward2";
  SavedTensor self_, other_;
  bool rounded = false;
  void visit_saved(const SavedVisitor& visit) override {
    visit("other", other_);
    visit("self", self_);
  }
  variable_list apply(variable_list&& g) override {
    if (rounded) {
      return {should_compute_output(0) ? zeros(g[0].shape(), g[0].dtype()) : Tensor(),
              should_compute_output(1) ? zeros(g[0].shape(), g[0].dtype()) : Tensor()};
    }
    return true_div_grads(*this, g[0], self_, other_);
  }
  void release_variables() override {
    self_.reset();
    other_.reset();
  }
};

struct PowBackward : Node {
  const char* node_name = "PowBackward1";
  SavedTensor self_, exponent_, result_;
  // Which side is a Python number (0: self, PowBackward2; 1: the exponent, PowBackward0), or -1.
  // That side has no edge, as in PyTorch's Scalar overloads.
  int number_side = -1;
  bool computes_self() const { return number_side != 0 && should_compute_output(0); }
  bool computes_exponent() const { return number_side != 1 && should_compute_output(number_side == 0 ? 0 : 1); }
  // tensor ** number (pow_number): the exponent kept as the number (PowBackward0).
  KeptNumber exponent_number;
  std::string name() const override { return node_name; }
  // PyTorch's pow_backward for a Number exponent: zero for x ** 0, else g * (e * x ** (e - 1))
  // (the product of a number and a tensor is the tensor times the number); no mask, so a
  // create_graph backward saves no boolean tensor.
  Tensor grad_for_number_exponent(const Tensor& g) {
    const double e = exponent_number.get();
    const Tensor a = self_.unpack(shared_from_this());
    if (e == 0.0) return zeros(a.shape(), g.dtype());
    // e - 1 is a double, as PyTorch's Scalar arithmetic makes it (its node shows 1.0 for x ** 2).
    return g * mul_number(pow_number(a, e - 1.0, DType::Float64), e, DType::Float64);
  }
  variable_list apply(variable_list&& g) override {
    if (exponent_number.kept) return {computes_self() ? grad_for_number_exponent(g[0]) : Tensor()};
    auto me = shared_from_this();
    Tensor a = self_.unpack(me), b = exponent_.unpack(me);
    Tensor ga, gb;
    if (computes_self()) {
      Tensor zero = wrapped_scalar(0.0, DType::Float64);
      // A Python-number exponent stays a double: b - 1 between two wrapped numbers would round
      // to the default float dtype and cost float64 gradients their precision.
      Tensor b_minus_1 = b.is_wrapped_number() ? wrapped_scalar(scalar_value(b) - 1.0, DType::Float64)
                                               : b - wrapped_scalar(1.0, DType::Int64);
      if (b.is_wrapped_number()) {
        // PyTorch's formula for a Number exponent: zero for x ** 0, no mask otherwise, so a
        // create_graph backward saves no boolean tensor (saved_tensors_hooks would see it).
        ga = scalar_value(b) == 0.0 ? zeros(a.shape(), g[0].dtype()) : g[0] * (b * pow(a, b_minus_1));
      } else {
        ga = where(eq(b, zero), zero, g[0] * (b * pow(a, b_minus_1)));
      }
    }
    if (computes_exponent()) {
      Tensor zero = wrapped_scalar(0.0, DType::Float64);
      if (a.is_wrapped_number()) {
        // A number base: its log is a double (PyTorch's Scalar::log), as the result's factor.
        const double base = scalar_value(a);
        const Tensor scaled = mul_number(result_.unpack(me), std::log(base), DType::Float64);
        gb = g[0] * (base == 0.0 ? where(ge(b, zero), zero, scaled) : scaled);
      } else {
        // d(a^b)/db = a^b log a, defined as 0 where a == 0 and b >= 0 (the limit), as PyTorch does.
        Tensor mask = mul(eq(a, zero), ge(b, zero));
        gb = where(mask, zero, g[0] * (result_.unpack(me) * log(a)));
      }
    }
    if (number_side == 1) return {ga};
    if (number_side == 0) return {gb};
    return {ga, gb};
  }
  void release_variables() override {
    self_.reset();
    exponent_.reset();
    result_.reset();
    exponent_number.released = true;
  }
  SavedValue scalar;  // the Python number side (PowBackward0: exponent, PowBackward2: self)
  void visit_saved(const SavedVisitor& visit) override {
    const std::string n = node_name;
    if (n != "PowBackward2") visit("self", self_);
    if (n != "PowBackward0") visit("exponent", exponent_);
    if (result_.defined()) visit("result", result_);
  }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    const std::string n = node_name;
    if (n == "PowBackward0") visit("exponent", scalar);
    if (n == "PowBackward2") visit("self", scalar);
  }
};

struct WhereBackward0 : BuiltinNode<WhereBackward0> {
  static constexpr const char* kName = "WhereBackward0";
  SavedTensor cond_;
  variable_list apply(variable_list&& g) override {
    Tensor c = cond_.unpack();
    Tensor zero = wrapped_scalar(0.0, DType::Float64);
    return {should_compute_output(0) ? where(c, g[0], zero) : Tensor(),
            should_compute_output(1) ? where(c, zero, g[0]) : Tensor()};
  }
  void release_variables() override { cond_.reset(); }
  void visit_saved(const SavedVisitor& visit) override { visit("condition", cond_); }
};

struct MaxMinBackward : Node {
  const char* node_name;
  bool is_max;
  SavedTensor self_, other_;
  explicit MaxMinBackward(bool max) : node_name(max ? "MaximumBackward0" : "MinimumBackward0"), is_max(max) {}
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& g) override {
    Tensor a = self_.unpack(), b = other_.unpack();
    Tensor zero = wrapped_scalar(0.0, DType::Float64);
    // Ties split the gradient evenly between both sides.
    Tensor half = g[0] * 0.5;
    Tensor a_wins = is_max ? gt(a, b) : lt(a, b), b_wins = is_max ? gt(b, a) : lt(b, a), tie = eq(a, b);
    return {should_compute_output(0) ? where(a_wins, g[0], where(tie, half, zero)) : Tensor(),
            should_compute_output(1) ? where(b_wins, g[0], where(tie, half, zero)) : Tensor()};
  }
  void release_variables() override {
    self_.reset();
    other_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("self", self_);
    visit("other", other_);
  }
};

// PyTorch refuses subtraction with a bool operand on either side, Python bools included.
void check_sub_operands(const Tensor& a, const Tensor& b) {
  const bool ab = a.dtype() == DType::Bool, bb = b.dtype() == DType::Bool;
  ENGINE_CHECK(!(ab && bb), std::runtime_error,
               "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
               "`logical_xor()` operator instead.");
  ENGINE_CHECK(!(ab || bb), std::runtime_error,
               "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a "
               "mask, use the `~` or `logical_not()` operator instead.");
}

// float16 / bfloat16 add, sub, mul and div as PyTorch's CPU kernels compute them: in float32 with
// one rounding at the end. A 0-d second operand (a Python number, say) takes part at float32
// precision instead of first being rounded to 16 bits; every other operand, and alpha * b, is
// rounded to the result dtype first (PyTorch 2.13's results, operand by operand).
Tensor arith_in_float32(BinaryOp op, const Tensor& a, const Tensor& b, DType dt, double alpha = 1.0) {
  Tensor a32 = cast(cast(a, dt), DType::Float32);
  Tensor b32 = cast(b.dim() == 0 && alpha == 1.0 ? b : cast(b, dt), DType::Float32);
  if (alpha != 1.0) {
    b32 = cast(cast(binary_kernel(BinaryOp::Mul, b32, wrapped_scalar(alpha, DType::Float64), DType::Float32, DType::Float32), dt),
               DType::Float32);
  }
  return cast(binary_kernel(op, a32, b32, DType::Float32, DType::Float32), dt);
}

}  // namespace

Tensor add(const Tensor& a, const Tensor& b, double alpha) {
  if (any_complex(a, b)) return complex_add(a, b, alpha);
  const DType dt = result_type(a, b);
  Tensor out;
  if (is_reduced_floating(dt)) {
    out = arith_in_float32(BinaryOp::Add, a, b, dt, alpha);
  } else {
    out = alpha == 1.0 ? binary_kernel(BinaryOp::Add, a, b, dt, dt) : add_scaled_kernel(a, b, alpha, dt);
  }
  if (auto node = make_node<AddBackward0>({&a, &b})) {
    node->alpha = alpha;
    set_history(out, node);
  }
  return out;
}

Tensor sub(const Tensor& a, const Tensor& b, double alpha) {
  check_sub_operands(a, b);
  if (any_complex(a, b)) return complex_sub(a, b, alpha);
  const DType dt = result_type(a, b);
  Tensor out;
  if (is_reduced_floating(dt)) {
    out = arith_in_float32(BinaryOp::Sub, a, b, dt, alpha);
  } else {
    out = alpha == 1.0 ? binary_kernel(BinaryOp::Sub, a, b, dt, dt) : add_scaled_kernel(a, b, -alpha, dt);
  }
  // A number minus a tensor is Tensor.__rsub__ (PyTorch's RsubBackward1, one edge).
  const bool rsub = a.is_wrapped_number();
  if (auto node = rsub ? make_node<SubBackward0>({&b}) : make_node<SubBackward0>({&a, &b})) {
    node->alpha = alpha;
    node->number_minus_tensor = rsub;
    set_history(out, node);
    if (rsub) node->set_display_name("RsubBackward1");
  }
  return out;
}

Tensor mul(const Tensor& a, const Tensor& b) {
  if (any_complex(a, b)) return complex_mul(a, b);
  const DType dt = result_type(a, b);
  Tensor out = is_reduced_floating(dt) ? arith_in_float32(BinaryOp::Mul, a, b, dt) : binary_kernel(BinaryOp::Mul, a, b, dt, dt);
  if (auto node = make_node<MulBackward0>({&a, &b})) {
    // Each side is needed only for the other's gradient.
    if (node->should_compute_output(1)) node->self_ = SavedTensor(a, false);
    if (node->should_compute_output(0)) node->other_ = SavedTensor(b, false);
    set_history(out, node);
  }
  return out;
}

// ---- a Python number as an operand: applied as a value for float32 and float64 tensors ----
// (PyTorch rounds the number to the computation dtype, the tensor's, before the arithmetic; every
// other dtype keeps the wrapped 0-d tensor, whose promotion rules it needs.)
namespace {
bool takes_number_directly(const Tensor& a) { return a.dtype() == DType::Float32 || a.dtype() == DType::Float64; }

// a (op) v, or v (op) a when number_first, for a float32 / float64 a.
Tensor number_kernel(BinaryOp op, const Tensor& a, double v, bool number_first = false) {
  const DType dt = a.dtype();
  const double rounded = dt == DType::Float32 ? static_cast<double>(static_cast<float>(v)) : v;
  Tensor out = empty_like_operands(a.shape(), dt, {&a});
  if (!kernels::binary_number(op, out, a, rounded, number_first)) {
    const Tensor n = wrapped_scalar(rounded, dt);
    kernels::binary(op, out, number_first ? n : a, number_first ? a : n);
  }
  return out;
}

const Tensor kNoEdge;  // the number's side of a node: no edge, as in PyTorch's graph
}  // namespace

Tensor mul_number(const Tensor& a, double v, DType number_dtype) {
  if (!takes_number_directly(a)) return mul(a, number_as_tensor(v, number_dtype, a.dtype()));
  Tensor out = number_kernel(BinaryOp::Mul, a, v);
  if (auto node = make_node<MulBackward0>({&a, &kNoEdge})) {
    if (node->should_compute_output(0)) node->other_number.keep(v, number_dtype, a.dtype());
    set_history(out, node);
  }
  return out;
}

Tensor add_number(const Tensor& a, double v, DType number_dtype) {
  if (!takes_number_directly(a)) return add(a, number_as_tensor(v, number_dtype, a.dtype()));
  Tensor out = number_kernel(BinaryOp::Add, a, v);
  if (auto node = make_node<AddBackward0>({&a, &kNoEdge})) set_history(out, node);
  return out;
}

Tensor sub_number(const Tensor& a, double v, DType number_dtype) {
  if (!takes_number_directly(a)) return sub(a, number_as_tensor(v, number_dtype, a.dtype()));
  Tensor out = number_kernel(BinaryOp::Sub, a, v);
  if (auto node = make_node<SubBackward0>({&a, &kNoEdge})) set_history(out, node);
  return out;
}

Tensor rsub_number(double v, DType number_dtype, const Tensor& a) {
  if (!takes_number_directly(a)) return sub(number_as_tensor(v, number_dtype, a.dtype()), a);
  Tensor out = number_kernel(BinaryOp::Sub, a, v, /*number_first=*/true);
  if (auto node = make_node<SubBackward0>({&a})) {
    node->number_minus_tensor = true;
    set_history(out, node);
    node->set_display_name("RsubBackward1");
  }
  return out;
}

Tensor div_number(const Tensor& a, double v, DType number_dtype) {
  if (!takes_number_directly(a)) return div(a, number_as_tensor(v, number_dtype, a.dtype()));
  Tensor out = number_kernel(BinaryOp::Div, a, v);
  if (auto node = make_node<DivBackward0>({&a, &kNoEdge})) {
    node->other_number.keep(v, number_dtype, a.dtype());
    set_history(out, node);
  }
  return out;
}

Tensor div(const Tensor& a, const Tensor& b) {
  if (any_complex(a, b)) return complex_div(a, b);
  DType dt = result_type(a, b);
  if (!is_floating(dt)) dt = default_dtype();  // true division
  Tensor out = is_reduced_floating(dt) ? arith_in_float32(BinaryOp::Div, a, b, dt) : binary_kernel(BinaryOp::Div, a, b, dt, dt);
  if (auto node = make_node<DivBackward0>({&a, &b})) {
    if (node->should_compute_output(1)) node->self_ = SavedTensor(a, false);
    node->other_ = SavedTensor(b, false);
    set_history(out, node);
  }
  return out;
}

// The quotient of div(a, b, rounding_mode=mode), computed without recording (the rounding modes
// are composed in Python), given PyTorch's one node for it: edges to a and b themselves.
Tensor with_div_mode_history(const Tensor& quotient, const Tensor& a, const Tensor& b,
                             const std::optional<std::string>& mode) {
  ENGINE_CHECK(!grad_fn(quotient), std::runtime_error, "_with_div_mode_history(): the quotient already has history");
  if (auto node = make_node<DivBackward2>({&a, &b})) {
    node->rounded = mode.has_value();
    if (node->should_compute_output(1)) node->self_ = SavedTensor(a, false);
    node->other_ = SavedTensor(b, false);
    node->saved_values.add("rounding_mode", mode ? SavedValue(*mode) : SavedValue());
    set_history(quotient, node);
  }
  return quotient;
}

namespace {
// PyTorch's pow(Tensor, Scalar) evaluates these exponents by formula instead of the libm call
// (x * x, x * x * x, 1 / x, 1 / (x * x), 1 / sqrt(x)); engine does too, for PyTorch's exact bits.
// float16 computes in float32 and rounds once; bfloat16 rounds after each step, as PyTorch's do.
bool pow_has_formula(double e) { return e == 2.0 || e == 3.0 || e == -1.0 || e == -2.0 || e == -0.5; }

Tensor pow_by_formula(const Tensor& a, double e, DType dt) {
  const DType cd = dt == DType::Float16 ? DType::Float32 : dt;
  const Tensor x = cast(a, cd);
  auto mul = [cd](const Tensor& p, const Tensor& q) { return binary_kernel(BinaryOp::Mul, p, q, cd, cd); };
  auto unary = [cd](kernels::UnaryOp op, const Tensor& p) {
    Tensor o = empty_like_operands(p.shape(), cd, {&p});
    kernels::unary(op, o, p);
    return o;
  };
  Tensor r;
  if (e == 2.0) r = mul(x, x);
  else if (e == 3.0) r = mul(mul(x, x), x);
  else if (e == -1.0) r = unary(kernels::UnaryOp::Reciprocal, x);
  else if (e == -2.0) r = unary(kernels::UnaryOp::Reciprocal, mul(x, x));
  else r = unary(kernels::UnaryOp::Rsqrt, x);
  return cd == dt ? r : cast(r, dt);
}
}  // namespace

Tensor pow(const Tensor& a, const Tensor& b) {
  if (any_complex(a, b)) return complex_pow(a, b);
  const DType dt = result_type(a, b);
  // A bool tensor may be raised to a Python bool (PyTorch's pow(Tensor, Scalar)), nothing else.
  ENGINE_CHECK(dt != DType::Bool || b.is_wrapped_number(), NotImplementedError, "\"pow\" not implemented for 'Bool'");
  if (!is_floating(dt) && b.is_wrapped_number()) {
    ENGINE_CHECK(kernels::read_int(b, 0) >= 0, std::runtime_error,
                 "Integers to negative integer powers are not allowed.");
  }
  Tensor out;
  if (b.is_wrapped_number() && is_floating(dt) && pow_has_formula(scalar_value(b))) {
    out = pow_by_formula(a, scalar_value(b), dt);
  } else {
    out = binary_kernel(BinaryOp::Pow, a, b, dt, dt);
  }
  if (compute_requires_grad({&a, &b})) {
    auto node = std::make_shared<PowBackward>();
    node->number_side = b.is_wrapped_number() ? 1 : a.is_wrapped_number() ? 0 : -1;
    node->mutable_next_edges() = node->number_side == 1   ? collect_next_edges({&a})
                                 : node->number_side == 0 ? collect_next_edges({&b})
                                                          : collect_next_edges({&a, &b});
    node->node_name = b.is_wrapped_number() ? "PowBackward0" : a.is_wrapped_number() ? "PowBackward2" : "PowBackward1";
    if (b.is_wrapped_number()) node->scalar = wrapped_value(b);
    else if (a.is_wrapped_number()) node->scalar = wrapped_value(a);
    node->self_ = SavedTensor(a, false);
    node->exponent_ = SavedTensor(b, false);
    set_history(out, node);
    if (node->computes_exponent()) node->result_ = SavedTensor(out, true);
  }
  return out;
}

Tensor pow_number(const Tensor& a, double e, DType number_dtype) {
  if (is_complex(a.dtype())) return complex_pow(a, number_as_tensor(e, number_dtype, a.dtype()));
  if (!takes_number_directly(a)) return pow(a, number_as_tensor(e, number_dtype, a.dtype()));
  const DType dt = a.dtype();
  Tensor out = pow_has_formula(e) ? pow_by_formula(a, e, dt)
                                  : binary_kernel(BinaryOp::Pow, a, number_as_tensor(e, number_dtype, dt), dt, dt);
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<PowBackward>();
    node->number_side = 1;
    node->mutable_next_edges() = collect_next_edges({&a});
    node->node_name = "PowBackward0";
    node->scalar = number_dtype == DType::Float64 ? SavedValue(e) : SavedValue::scalar_int(static_cast<int64_t>(e));
    node->self_ = SavedTensor(a, false);
    node->exponent_number.keep(e, number_dtype, dt);
    set_history(out, node);
  }
  return out;
}

Tensor neg(const Tensor& a) {
  ENGINE_CHECK(a.dtype() != DType::Bool, std::runtime_error,
               "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
               "use the `~` or `logical_not()` operator instead.");
  if (is_complex(a.dtype())) return complex_neg(a);
  Tensor out;
  {
    AutoGradMode no_grad(false);
    out = mul(a, wrapped_scalar(-1.0, DType::Int64));
  }
  if (auto node = make_node<NegBackward0>({&a})) set_history(out, node);
  return out;
}

Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b) {
  ENGINE_CHECK(cond.dtype() == DType::Bool, std::runtime_error,
               "where expected condition to be a boolean tensor, but got a tensor with dtype ",
               scalar_type_name(cond.dtype()));
  if (any_complex(a, b)) return complex_where(cond, a, b);
  const DType dt = result_type(a, b);
  Dims shape = broadcast_shapes(broadcast_shapes(cond.shape(), a.shape()), b.shape());
  Tensor out = empty_like_operands(shape, dt, {&cond, &a, &b});
  Tensor ac = cast(a, dt), bc = cast(b, dt);
  ENGINE_DISPATCH_ALL(dt, [&](auto tag) {
    using T = decltype(tag);
    kernels::StridedOperands<4> op;
    op.shape = shape;
    op.strides = {kernels::broadcast_byte_strides(out, shape), kernels::broadcast_byte_strides(cond, shape),
                  kernels::broadcast_byte_strides(ac, shape), kernels::broadcast_byte_strides(bc, shape)};
    op.data = {static_cast<char*>(out.raw_data()), static_cast<char*>(cond.raw_data()),
               static_cast<char*>(ac.raw_data()), static_cast<char*>(bc.raw_data())};
    kernels::for_each_run(op, [](std::array<char*, 4> p, std::array<int64_t, 4> s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        *reinterpret_cast<T*>(p[0] + i * s[0]) = *reinterpret_cast<const bool*>(p[1] + i * s[1])
                                                     ? *reinterpret_cast<const T*>(p[2] + i * s[2])
                                                     : *reinterpret_cast<const T*>(p[3] + i * s[3]);
      }
    });
  });
  // Edges to a and b, as PyTorch's: the condition is boolean, never differentiable.
  if (auto node = make_node<WhereBackward0>({&a, &b})) {
    node->cond_ = SavedTensor(cond, false);
    set_history(out, node);
  }
  return out;
}

static Tensor max_min(const Tensor& a, const Tensor& b, bool is_max) {
  const DType dt = result_type(a, b);
  Tensor out = binary_kernel(is_max ? BinaryOp::Maximum : BinaryOp::Minimum, a, b, dt, dt);
  if (compute_requires_grad({&a, &b})) {
    auto node = std::make_shared<MaxMinBackward>(is_max);
    node->mutable_next_edges() = collect_next_edges({&a, &b});
    node->self_ = SavedTensor(a, false);
    node->other_ = SavedTensor(b, false);
    set_history(out, node);
  }
  return out;
}

Tensor maximum(const Tensor& a, const Tensor& b) { return max_min(a, b, true); }
Tensor minimum(const Tensor& a, const Tensor& b) { return max_min(a, b, false); }

Tensor operator*(const Tensor& a, double s) { return mul(a, wrapped_scalar(s, DType::Float64)); }
Tensor operator+(const Tensor& a, double s) { return add(a, wrapped_scalar(s, DType::Float64)); }
Tensor operator-(double s, const Tensor& a) { return sub(wrapped_scalar(s, DType::Float64), a); }

// ---- comparisons ----
namespace {
Tensor compare(BinaryOp op, const Tensor& a, const Tensor& b) {
  return binary_kernel(op, a, b, result_type(a, b), DType::Bool);
}
}  // namespace

Tensor eq(const Tensor& a, const Tensor& b) {
  return any_complex(a, b) ? complex_equal(a, b, true) : compare(BinaryOp::Eq, a, b);
}
Tensor ne(const Tensor& a, const Tensor& b) {
  return any_complex(a, b) ? complex_equal(a, b, false) : compare(BinaryOp::Ne, a, b);
}
Tensor lt(const Tensor& a, const Tensor& b) { return compare(BinaryOp::Lt, a, b); }
Tensor le(const Tensor& a, const Tensor& b) { return compare(BinaryOp::Le, a, b); }
Tensor gt(const Tensor& a, const Tensor& b) { return compare(BinaryOp::Gt, a, b); }
Tensor ge(const Tensor& a, const Tensor& b) { return compare(BinaryOp::Ge, a, b); }

}  // namespace engine::ops

// ---- more binary functions: atan2 fmod remainder // bitwise and logical ops, clamp, lerp ----
namespace engine::ops {

namespace {

struct Atan2Backward0 : BuiltinNode<Atan2Backward0> {
  static constexpr const char* kName = "Atan2Backward0";
  SavedTensor self_, other_;
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    Tensor a = self_.unpack(me), b = other_.unpack(me);
    Tensor r = a * a + b * b;
    return {should_compute_output(0) ? g[0] * b / r : Tensor(), should_compute_output(1) ? g[0] * -a / r : Tensor()};
  }
  void release_variables() override {
    self_.reset();
    other_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("self", self_);
    visit("other", other_);
  }
};

// fmod and remainder: d/da = 1, d/db = -round(a / b) with trunc (fmod) or floor (remainder).
struct ModBackward : Node {
  const char* node_name;
  bool floor_mode;
  SavedTensor self_, other_;
  bool number_other = false;  // fmod / remainder by a number: one edge, to self (PyTorch's *Backward0)
  ModBackward(const char* n, bool f) : node_name(n), floor_mode(f) {}
  std::string name() const override { return node_name; }
  void visit_saved(const SavedVisitor& visit) override {
    if (number_other) return;
    visit("other", other_);
    visit("self", self_);
  }
  variable_list apply(variable_list&& g) override {
    if (number_other) return {g[0]};
    Tensor gb;
    if (should_compute_output(1)) {
      auto me = shared_from_this();
      Tensor q = div(self_.unpack(me), other_.unpack(me));
      gb = -g[0] * (floor_mode ? floor(q) : trunc(q));
    }
    return {g[0], gb};
  }
  void release_variables() override {
    self_.reset();
    other_.reset();
  }
};

void check_not_bool(DType dt, const char* kernel) {
  ENGINE_CHECK(dt != DType::Bool, NotImplementedError, "\"", kernel, "\" not implemented for 'Bool'");
}

// Integer division by zero is an error, as in PyTorch (floats give inf / NaN instead).
void check_int_divisor(DType dt, const Tensor& a, const Tensor& b) {
  broadcast_shapes(a.shape(), b.shape());  // a shape mismatch is reported first, as in PyTorch
  if (is_floating(dt) || b.numel() == 0) return;
  Tensor zero = eq(detach(b), wrapped_scalar(0.0, DType::Int64));
  ENGINE_CHECK(kernels::read_int(any(zero, {}, false), 0) == 0, ZeroDivisionError,
               "ZeroDivisionError: integer division or modulo by zero");  // PyTorch's message, then what it means
}

Tensor modulo(const Tensor& a, const Tensor& b, bool floor_mode) {
  const DType dt = result_type(a, b);
  check_not_bool(dt, floor_mode ? "remainder_cpu" : "fmod_cpu");
  check_int_divisor(dt, a, b);
  Tensor out = binary_kernel(floor_mode ? BinaryOp::Remainder : BinaryOp::Fmod, a, b, dt, dt);
  if (compute_requires_grad({&a, &b})) {
    const char* n = floor_mode ? (b.is_wrapped_number() ? "RemainderBackward0" : "RemainderBackward1")
                               : (b.is_wrapped_number() ? "FmodBackward0" : "FmodBackward1");
    auto node = std::make_shared<ModBackward>(n, floor_mode);
    node->number_other = b.is_wrapped_number();
    node->mutable_next_edges() = node->number_other ? collect_next_edges({&a}) : collect_next_edges({&a, &b});
    if (node->should_compute_output(1)) {
      node->self_ = SavedTensor(a, false);
      node->other_ = SavedTensor(b, false);
    }
    set_history(out, node);
  }
  return out;
}

Tensor bitwise(BinaryOp op, const Tensor& a, const Tensor& b, const char* kernel) {
  const DType dt = result_type(a, b);
  ENGINE_CHECK(!is_floating(dt), NotImplementedError, "\"", kernel, "\" not implemented for '", scalar_type_name(dt),
               "'");
  return binary_kernel(op, a, b, dt, dt);
}

Tensor truth(const Tensor& t) { return ne(detach(t), wrapped_scalar(0.0, DType::Int64)); }

}  // namespace

Tensor atan2(const Tensor& a, const Tensor& b) {
  DType dt = result_type(a, b);
  if (!is_floating(dt)) dt = default_dtype();
  Tensor out = binary_kernel(BinaryOp::Atan2, a, b, dt, dt);
  if (auto node = make_node<Atan2Backward0>({&a, &b})) {
    node->self_ = SavedTensor(a, false);
    node->other_ = SavedTensor(b, false);
    set_history(out, node);
  }
  return out;
}

Tensor fmod(const Tensor& a, const Tensor& b) { return modulo(a, b, false); }
Tensor remainder(const Tensor& a, const Tensor& b) { return modulo(a, b, true); }

Tensor floor_divide(const Tensor& a, const Tensor& b) {
  const DType dt = result_type(a, b);
  check_not_bool(dt, "div_floor_cpu");
  check_int_divisor(dt, a, b);
  return binary_kernel(BinaryOp::FloorDivide, a, b, dt, dt);
}

Tensor bitwise_and(const Tensor& a, const Tensor& b) { return bitwise(BinaryOp::BitAnd, a, b, "bitwise_and_cpu"); }
Tensor bitwise_or(const Tensor& a, const Tensor& b) { return bitwise(BinaryOp::BitOr, a, b, "bitwise_or_cpu"); }
Tensor bitwise_xor(const Tensor& a, const Tensor& b) { return bitwise(BinaryOp::BitXor, a, b, "bitwise_xor_cpu"); }
Tensor bitwise_left_shift(const Tensor& a, const Tensor& b) {
  ENGINE_CHECK(result_type(a, b) != DType::Bool, NotImplementedError, "\"lshift_cpu\" not implemented for 'Bool'");
  return bitwise(BinaryOp::LeftShift, a, b, "lshift_cpu");
}
Tensor bitwise_right_shift(const Tensor& a, const Tensor& b) {
  ENGINE_CHECK(result_type(a, b) != DType::Bool, NotImplementedError, "\"rshift_cpu\" not implemented for 'Bool'");
  return bitwise(BinaryOp::RightShift, a, b, "rshift_cpu");
}
Tensor logical_and(const Tensor& a, const Tensor& b) {
  return binary_kernel(BinaryOp::BitAnd, truth(a), truth(b), DType::Bool, DType::Bool);
}
Tensor logical_or(const Tensor& a, const Tensor& b) {
  return binary_kernel(BinaryOp::BitOr, truth(a), truth(b), DType::Bool, DType::Bool);
}
Tensor logical_xor(const Tensor& a, const Tensor& b) {
  return binary_kernel(BinaryOp::BitXor, truth(a), truth(b), DType::Bool, DType::Bool);
}

namespace {

// clamp with number bounds (PyTorch's ClampBackward1, ClampMinBackward0, ClampMaxBackward0): one
// edge, to x; the gradient passes where min <= x <= max and is zero elsewhere, NaN x included
// (PyTorch's clamp_backward). One node, so an in-place clamp_ through a view runs it inside CopySlices.
struct ClampNumbersBackward : Node {
  const char* node_name = "ClampBackward1";
  SavedTensor self_;
  std::optional<double> min, max;
  std::string name() const override { return node_name; }
  void visit_saved(const SavedVisitor& visit) override { visit("self", self_); }
  variable_list apply(variable_list&& g) override {
    const Tensor x = self_.unpack(shared_from_this());
    Tensor keep;
    if (min) keep = ge(x, wrapped_scalar(*min, DType::Float64));
    if (max) {
      Tensor below = le(x, wrapped_scalar(*max, DType::Float64));
      keep = keep.defined() ? logical_and(keep, below) : below;
    }
    return {where(keep, g[0], wrapped_scalar(0.0, DType::Int64))};
  }
  void release_variables() override { self_.reset(); }
};

// A number bound as PyTorch's node shows it: an int for an integer number, else a float.
SavedValue bound_value(const std::optional<Tensor>& bound) {
  if (!bound) return SavedValue();
  if (is_floating(bound->dtype())) return scalar_value(*bound);
  return static_cast<int64_t>(scalar_value(*bound));
}

// `name`: the node's name for number bounds (clamp_min / clamp_max), or null for clamp's.
Tensor clamp_named(const Tensor& a, const std::optional<Tensor>& min, const std::optional<Tensor>& max,
                   const char* name) {
  ENGINE_CHECK(min || max, std::runtime_error, "torch.clamp: At least one of 'min' or 'max' must not be None");
  ENGINE_CHECK(a.dtype() != DType::Bool || (min && min->dtype() != DType::Bool) || (max && max->dtype() != DType::Bool),
               NotImplementedError, "\"clamp_cpu\" not implemented for 'Bool'");
  // PyTorch's names: ClampBackward1 for number bounds, ClampBackward0 for tensor bounds.
  const bool numbers = (!min || min->is_wrapped_number()) && (!max || max->is_wrapped_number());
  const bool own_node = numbers && compute_requires_grad({&a});
  // Two selections: with tensor bounds their nodes send the gradient to x inside [min, max] and to
  // the bound that clipped it. NaN in x stays NaN (neither comparison holds).
  Tensor r = a;
  {
    AutoGradMode recording(GradMode::is_enabled() && !own_node);
    if (min) r = where(lt(r, *min), *min, r);
    if (max) r = where(gt(r, *max), *max, r);
    if (r.get() == a.get()) r = clone(a);
  }
  if (!own_node) return named_history(r, numbers ? "ClampBackward1" : "ClampBackward0");
  auto node = std::make_shared<ClampNumbersBackward>();
  node->mutable_next_edges() = collect_next_edges({&a});
  node->self_ = SavedTensor(a, false);
  if (min) node->min = scalar_value(*min);
  if (max) node->max = scalar_value(*max);
  node->node_name = name ? name : "ClampBackward1";
  if (!name || min) node->saved_values.add("min", bound_value(min));
  if (!name || max) node->saved_values.add("max", bound_value(max));
  set_history(r, node);
  return r;
}

}  // namespace

Tensor clamp(const Tensor& a, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  return clamp_named(a, min, max, nullptr);
}

// clamp with one bound, under PyTorch's names for it (number or tensor bound).
Tensor clamp_min(const Tensor& a, const Tensor& min) {
  if (min.is_wrapped_number()) return clamp_named(a, min, std::nullopt, "ClampMinBackward0");
  return named_history(clamp(a, min, std::nullopt), "ClampMinBackward1");
}
Tensor clamp_max(const Tensor& a, const Tensor& max) {
  if (max.is_wrapped_number()) return clamp_named(a, std::nullopt, max, "ClampMaxBackward0");
  return named_history(clamp(a, std::nullopt, max), "ClampMaxBackward1");
}

Tensor lerp(const Tensor& start, const Tensor& end, const Tensor& weight) {
  // PyTorch names the C++ element types here ("expected dtype double for `end`").
  ENGINE_CHECK(start.dtype() == end.dtype(), std::runtime_error, "expected dtype ", cpp_type_name(start.dtype()),
               " for `end` but got dtype ", cpp_type_name(end.dtype()));
  ENGINE_CHECK(is_floating(start.dtype()) || is_complex(start.dtype()), NotImplementedError, "\"lerp_kernel_scalar\" not implemented for '",
               scalar_type_name(start.dtype()), "'");
  ENGINE_CHECK(weight.is_wrapped_number() || weight.dtype() == start.dtype(), std::runtime_error, "expected dtype ",
               cpp_type_name(start.dtype()), " for `weight` but got dtype ", cpp_type_name(weight.dtype()));
  // The node's rules are the real ones (a complex lerp's gradients take conjugates: composed).
  const bool records = compute_requires_grad({&start, &end, &weight}) && !is_complex(start.dtype()) &&
                       !is_complex(weight.dtype());
  Tensor out;
  {
    // One node, LerpBackward0/1, over the value computed without history (lerp_addc_nodes.h).
    AutoGradMode no_grad(records ? false : GradMode::is_enabled());
    out = start + weight * (end - start);
    out = out.dtype() == start.dtype() ? out : to_dtype(out, start.dtype());
  }
  if (records) {
    record_lerp(out, start, end, weight);
    return out;
  }
  return named_history(out, weight.is_wrapped_number() ? "LerpBackward0" : "LerpBackward1");
}

}  // namespace engine::ops
