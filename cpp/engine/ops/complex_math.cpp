// Transcendental functions and pow of complex tensors. The values come from std::complex (the
// C library's branch cuts and signed zeros, as NumPy's and PyTorch's); each gradient is PyTorch's
// rule for a holomorphic f, grad * conj(f'(z)), written with differentiable complex ops so that
// create_graph=True gives higher derivatives too.
#include <cmath>

#include "engine/autograd/grad_mode.h"
#include "engine/core/error.h"
#include "engine/kernels/complex_math.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/complex.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

using kernels::ComplexFn;

namespace {

constexpr double kLn2 = 0.693147180559945309417232121458176568;
constexpr double kLn10 = 2.30258509299404568401799145468436421;

Tensor number(double v) { return wrapped_scalar(v, DType::Float64); }

Tensor complex_apply(ComplexFn fn, const Tensor& z) {
  const Tensor in = contiguous(z);
  Tensor out = Tensor::empty(z.shape(), z.dtype());
  kernels::complex_unary(fn, out, in);
  return out;
}

// f'(z) of each function, from its input z or its result y.
Tensor derivative(ComplexFn fn, const Tensor& z, const Tensor& y) {
  switch (fn) {
    case ComplexFn::Log: return reciprocal(z);
    case ComplexFn::Log2: return reciprocal(mul(z, number(kLn2)));
    case ComplexFn::Log10: return reciprocal(mul(z, number(kLn10)));
    case ComplexFn::Log1p: return reciprocal(add(z, number(1.0)));
    case ComplexFn::Sqrt: return reciprocal(mul(y, number(2.0)));
    case ComplexFn::Rsqrt: return mul(mul(mul(y, y), y), number(-0.5));
    case ComplexFn::Reciprocal: return neg(mul(y, y));
    case ComplexFn::Exp2: return mul(y, number(kLn2));
    case ComplexFn::Expm1: return add(y, number(1.0));
    case ComplexFn::Sin: return cos(z);
    case ComplexFn::Cos: return neg(sin(z));
    case ComplexFn::Tan: return add(mul(y, y), number(1.0));
    case ComplexFn::Sinh: return cosh(z);
    case ComplexFn::Cosh: return sinh(z);
    case ComplexFn::Tanh: return sub(number(1.0), mul(y, y));
    case ComplexFn::Sigmoid: return mul(sub(number(1.0), y), y);
    case ComplexFn::Asin: return rsqrt(sub(number(1.0), mul(z, z)));
    case ComplexFn::Acos: return neg(rsqrt(sub(number(1.0), mul(z, z))));
    case ComplexFn::Atan: return reciprocal(add(mul(z, z), number(1.0)));
    case ComplexFn::Asinh: return rsqrt(add(mul(z, z), number(1.0)));
    // 1 / (sqrt(z - 1) sqrt(z + 1)): the branch of acosh itself (1 / sqrt(z^2 - 1) flips sign for Re z < 0).
    case ComplexFn::Acosh: return mul(rsqrt(sub(z, number(1.0))), rsqrt(add(z, number(1.0))));
    case ComplexFn::Atanh: return reciprocal(sub(number(1.0), mul(z, z)));
    case ComplexFn::Sgn: break;
  }
  ENGINE_ASSERT(false);
  return z;
}

// PyTorch's sgn_backward: (g - sgn^2 conj(g)) / (2 |z|), zero where z is 0 (sgn is not holomorphic).
Tensor sgn_grad(const Tensor& g, const Tensor& z, const Tensor& y) {
  const Tensor a = abs(z);
  const Tensor r = div(sub(g, mul(mul(y, y), conj_physical(g))), mul(a, number(2.0)));
  return where(eq(a, number(0.0)), zeros({}, z.dtype()), r);
}

struct ComplexUnaryBackward : Node {
  const char* node_name = "";
  ComplexFn fn = ComplexFn::Log;
  SavedTensor self_, result_;
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    const Tensor z = self_.unpack(me), y = result_.unpack(me);
    if (fn == ComplexFn::Sgn) return {sgn_grad(g[0], z, y)};
    return {mul(g[0], conj_physical(derivative(fn, z, y)))};
  }
  void release_variables() override {
    self_.reset();
    result_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("self", self_);
    visit("result", result_);
  }
};

bool complex_fn_of(kernels::UnaryOp op, ComplexFn& fn) {
  using U = kernels::UnaryOp;
  switch (op) {
    case U::Log: fn = ComplexFn::Log; return true;
    case U::Log2: fn = ComplexFn::Log2; return true;
    case U::Log10: fn = ComplexFn::Log10; return true;
    case U::Log1p: fn = ComplexFn::Log1p; return true;
    case U::Sqrt: fn = ComplexFn::Sqrt; return true;
    case U::Rsqrt: fn = ComplexFn::Rsqrt; return true;
    case U::Reciprocal: fn = ComplexFn::Reciprocal; return true;
    case U::Exp2: fn = ComplexFn::Exp2; return true;
    case U::Expm1: fn = ComplexFn::Expm1; return true;
    case U::Sin: fn = ComplexFn::Sin; return true;
    case U::Cos: fn = ComplexFn::Cos; return true;
    case U::Tan: fn = ComplexFn::Tan; return true;
    case U::Sinh: fn = ComplexFn::Sinh; return true;
    case U::Cosh: fn = ComplexFn::Cosh; return true;
    case U::Tanh: fn = ComplexFn::Tanh; return true;
    case U::Sigmoid: fn = ComplexFn::Sigmoid; return true;
    case U::Asin: fn = ComplexFn::Asin; return true;
    case U::Acos: fn = ComplexFn::Acos; return true;
    case U::Atan: fn = ComplexFn::Atan; return true;
    default: return false;
  }
}

// PyTorch's names for the kernels that have no complex path, as its messages show them.
const char* kernel_name(kernels::UnaryOp op) {
  using U = kernels::UnaryOp;
  switch (op) {
    case U::Relu: return "clamp_min_scalar_cpu";
    case U::Erf: return "erf_vml_cpu";
    case U::Floor: return "floor_vml_cpu";
    case U::Ceil: return "ceil_vml_cpu";
    case U::Round: return "round_vml_cpu";
    case U::Trunc: return "trunc_vml_cpu";
    case U::BitNot: return "bitwise_not_cpu";
    default: return "unary";
  }
}

}  // namespace

Tensor complex_function(ComplexFn fn, const Tensor& z, const char* name) {
  Tensor out = complex_apply(fn, z);
  if (auto node = make_node<ComplexUnaryBackward>({&z})) {
    node->node_name = name;
    node->fn = fn;
    node->self_ = SavedTensor(z, false);
    set_history(out, node);
    node->result_ = SavedTensor(out, true);
  }
  return out;
}

Tensor complex_unary(kernels::UnaryOp op, const Tensor& z, const char* name) {
  ComplexFn fn;
  if (!complex_fn_of(op, fn)) throw_not_implemented_for(kernel_name(op), z.dtype());
  return complex_function(fn, z, name);
}

namespace {

// The gradient for a real input of an op computed in complex: its real part (PyTorch's
// handle_r_to_c).
Tensor real_if_needed(const Tensor& input, const Tensor& grad) {
  if (is_complex(input.dtype()) || !is_complex(grad.dtype())) return grad;
  return contiguous(real(grad));
}

struct ComplexPowBackward : Node {
  std::string node_name;
  bool self_edge = true, exponent_edge = true;
  SavedTensor self_, exponent_, result_;
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    const Tensor a = self_.unpack(me), b = exponent_.unpack(me);
    const Tensor zero = zeros({}, g[0].dtype());
    variable_list out;
    if (self_edge) {
      // PyTorch's pow_backward_self: g * conj(b * a^(b - 1)), zero where b == 0.
      // A real Python-number exponent stays a double (b - 1 of two wrapped numbers would round).
      const Tensor b_minus_1 = b.is_wrapped_number() && !is_complex(b.dtype())
                                   ? number(kernels::read_double(b, 0) - 1.0)
                                   : sub(b, number(1.0));
      const Tensor d = mul(b, pow(a, b_minus_1));
      out.push_back(real_if_needed(a, where(eq(b, number(0.0)), zero, mul(g[0], conj_physical(d)))));
    }
    if (exponent_edge) {
      // PyTorch's pow_backward_exponent: g * conj(a^b log a), zero where a == 0 and real(b) >= 0.
      const Tensor y = result_.unpack(me);
      const Tensor d = mul(y, log(to_dtype(a, result_type(a, y))));
      const Tensor mask = logical_and(eq(a, number(0.0)), ge(real(b), number(0.0)));
      out.push_back(real_if_needed(b, where(mask, zero, mul(g[0], conj_physical(d)))));
    }
    return out;
  }
  void release_variables() override {
    self_.reset();
    exponent_.reset();
    result_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("self", self_);
    visit("exponent", exponent_);
    visit("result", result_);
  }
};

// PyTorch's pow(Tensor, Scalar) evaluates these exponents by formula (z * z, 1 / sqrt(z), ...)
// rather than through exp(b log z): engine does too, for its exact values.
Tensor pow_value_by_formula(const Tensor& z, double e) {
  AutoGradMode no_grad(false);
  if (e == 0.0) return add(mul(z, number(0.0)), number(1.0));
  if (e == 1.0) return clone(z);
  if (e == 2.0) return mul(z, z);
  if (e == 3.0) return mul(mul(z, z), z);
  if (e == 0.5) return complex_apply(ComplexFn::Sqrt, z);
  if (e == -0.5) return complex_apply(ComplexFn::Rsqrt, z);
  if (e == -1.0) return complex_apply(ComplexFn::Reciprocal, z);
  if (e == -2.0) return complex_apply(ComplexFn::Reciprocal, mul(z, z));
  return Tensor();
}

}  // namespace

Tensor complex_pow(const Tensor& a, const Tensor& b) {
  const DType dt = result_type(a, b);
  Tensor out;
  if (b.is_wrapped_number() && !is_complex(b.dtype())) out = pow_value_by_formula(to_dtype(a, dt), kernels::read_double(b, 0));
  if (!out.defined()) {
    const Dims shape = broadcast_shapes(a.shape(), b.shape());
    const Tensor x = contiguous(expand(detach(to_dtype(a, dt)), shape));
    const Tensor y = contiguous(expand(detach(to_dtype(b, dt)), shape));
    out = Tensor::empty(shape, dt);
    kernels::complex_pow(out, x, y);
  }
  const bool number_exponent = b.is_wrapped_number(), number_base = a.is_wrapped_number();
  auto node = number_exponent ? make_node<ComplexPowBackward>({&a})
              : number_base   ? make_node<ComplexPowBackward>({&b})
                              : make_node<ComplexPowBackward>({&a, &b});
  if (node) {
    node->node_name = number_exponent ? "PowBackward0" : number_base ? "PowBackward2" : "PowBackward1";
    node->self_edge = !number_base;
    node->exponent_edge = !number_exponent;
    node->self_ = SavedTensor(a, false);
    node->exponent_ = SavedTensor(b, false);
    set_history(out, node);
    node->result_ = SavedTensor(out, true);
  }
  return out;
}

}  // namespace engine::ops
