// Complex arithmetic, reductions and matmul, written as real ops on the (real, imaginary) view.
// The real ops call these when an operand is complex; the nodes recorded are the real ops' own,
// so gradients follow PyTorch's convention without a rule of their own (see complex.h). abs and
// angle have nodes of their own: their compositions would give NaN gradients at 0.
#include "engine/autograd/grad_mode.h"
#include "engine/core/error.h"
#include "engine/kernels/complex_copy.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/complex.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

struct ComplexParts {
  Tensor re, im;
};

ComplexParts complex_parts(const Tensor& z) {
  Tensor r = view_as_real(z);
  return {select(r, -1, 0), select(r, -1, 1)};
}

Tensor complex_from_parts(const Tensor& re, const Tensor& im) { return complex_from_pairs(stack({re, im}, -1)); }

// An operand in the op's dtype: complex operands as `dt`, real ones as its value type (a Python
// number keeps its wrapped, 0-d form so it broadcasts without taking part in promotion again).
Tensor complex_operand(const Tensor& t, DType dt) {
  const DType want = is_complex(t.dtype()) ? dt : complex_value_type(dt);
  if (t.dtype() == want) return t;
  if (t.is_wrapped_number() && !is_complex(t.dtype())) return wrapped_scalar(kernels::read_double(t, 0), want);
  return to_dtype(t, want);
}

// A real operand against the (re, im) view of a complex one: one more trailing dim to broadcast
// over, except for 0-d operands, which broadcast as they are.
Tensor real_against_pairs(const Tensor& x) { return x.dim() == 0 ? x : unsqueeze(x, -1); }

std::vector<int64_t> complex_reduce_dims(const Tensor& z, const std::vector<int64_t>& dims) {
  std::vector<int64_t> out;
  const int64_t n = z.dim();
  if (dims.empty()) {
    for (int64_t d = 0; d < n; ++d) out.push_back(d);
    return out;
  }
  for (int64_t d : dims) {
    const int64_t lo = n == 0 ? -1 : -n, hi = n == 0 ? 0 : n - 1;
    ENGINE_CHECK(d >= lo && d <= hi, IndexError, "Dimension out of range (expected to be in range of [", lo, ", ",
                 hi, "], but got ", d, ")");
    out.push_back(d < 0 ? d + (n == 0 ? 1 : n) : d);
  }
  return out;
}

struct ComplexAbsBackward : BuiltinNode<ComplexAbsBackward> {
  static constexpr const char* kName = "AbsBackward0";
  SavedTensor self_, result_;
  void visit_saved(const SavedVisitor& visit) override { visit("self", self_); }
  variable_list apply(variable_list&& g) override {
    const Tensor z = self_.unpack(shared_from_this()), a = result_.unpack(shared_from_this());
    // g * z / |z| (PyTorch's sgn(z)), 0 where z is 0.
    const Tensor scale = where(eq(a, wrapped_scalar(0.0, DType::Float64)), zeros({}, a.dtype()), div(g[0], a));
    return {complex_from_pairs(contiguous(mul(view_as_real(z), unsqueeze(scale, -1))))};
  }
  void release_variables() override {
    self_.reset();
    result_.reset();
  }
};

struct ComplexAngleBackward : BuiltinNode<ComplexAngleBackward> {
  static constexpr const char* kName = "AngleBackward0";
  SavedTensor self_;
  void visit_saved(const SavedVisitor& visit) override { visit("self", self_); }
  variable_list apply(variable_list&& g) override {
    // d angle / dx = -y / |z|^2, d angle / dy = x / |z|^2; 0 where z is 0.
    const Tensor z = self_.unpack(shared_from_this());
    ComplexParts p = complex_parts(z);
    const Tensor norm2 = add(mul(p.re, p.re), mul(p.im, p.im));
    const Tensor scale =
        where(eq(norm2, wrapped_scalar(0.0, DType::Float64)), zeros({}, norm2.dtype()), div(g[0], norm2));
    return {complex_from_parts(mul(neg(p.im), scale), mul(p.re, scale))};
  }
  void release_variables() override { self_.reset(); }
};

}  // namespace

Tensor complex_add(const Tensor& a, const Tensor& b, double alpha) {
  const DType dt = result_type(a, b);
  // A real operand joins as complex (zero imaginary part): broadcasting then works on the pairs.
  const Tensor x = to_dtype(complex_operand(a, dt), dt), y = to_dtype(complex_operand(b, dt), dt);
  return named_history(complex_from_pairs(add(view_as_real(x), view_as_real(y), alpha)), "AddBackward0");
}

Tensor complex_sub(const Tensor& a, const Tensor& b, double alpha) {
  return named_history(complex_add(a, b, -alpha), "SubBackward0");
}

namespace {
Tensor complex_mul_value(const Tensor& a, const Tensor& b) {
  const DType dt = result_type(a, b);
  const Tensor x = complex_operand(a, dt), y = complex_operand(b, dt);
  if (!is_complex(y.dtype())) return complex_from_pairs(mul(view_as_real(x), real_against_pairs(y)));
  if (!is_complex(x.dtype())) return complex_from_pairs(mul(real_against_pairs(x), view_as_real(y)));
  ComplexParts p = complex_parts(x), q = complex_parts(y);
  return complex_from_parts(sub(mul(p.re, q.re), mul(p.im, q.im)), add(mul(p.re, q.im), mul(p.im, q.re)));
}
}  // namespace

Tensor complex_mul(const Tensor& a, const Tensor& b) {
  return named_history(complex_mul_value(a, b), "MulBackward0");
}

namespace {
Tensor complex_div_value(const Tensor& a, const Tensor& b) {
  const DType dt = result_type(a, b);
  const Tensor x = complex_operand(a, dt), y = complex_operand(b, dt);
  if (!is_complex(y.dtype())) return complex_from_pairs(div(view_as_real(x), real_against_pairs(y)));
  ComplexParts q = complex_parts(y);
  const Tensor den = add(mul(q.re, q.re), mul(q.im, q.im));
  if (!is_complex(x.dtype())) return complex_from_parts(div(mul(x, q.re), den), div(neg(mul(x, q.im)), den));
  ComplexParts p = complex_parts(x);
  return complex_from_parts(div(add(mul(p.re, q.re), mul(p.im, q.im)), den),
                            div(sub(mul(p.im, q.re), mul(p.re, q.im)), den));
}
}  // namespace

Tensor complex_div(const Tensor& a, const Tensor& b) {
  return named_history(complex_div_value(a, b), "DivBackward0");
}

namespace {
Tensor complex_neg_value(const Tensor& z) { return complex_from_pairs(neg(view_as_real(z))); }
}  // namespace

Tensor complex_neg(const Tensor& z) { return named_history(complex_neg_value(z), "NegBackward0"); }

Tensor conj_physical(const Tensor& z) {
  if (!is_complex(z.dtype())) return z;
  ComplexParts p = complex_parts(z);
  return complex_from_parts(p.re, neg(p.im));
}

Tensor complex_abs(const Tensor& z) {
  Tensor out;
  {
    AutoGradMode no_grad(false);
    ComplexParts p = complex_parts(z);
    out = sqrt(add(mul(p.re, p.re), mul(p.im, p.im)));
  }
  if (auto node = make_node<ComplexAbsBackward>({&z})) {
    node->self_ = SavedTensor(z, false);
    set_history(out, node);
    node->result_ = SavedTensor(out, true);
  }
  return out;
}

Tensor complex_angle(const Tensor& z) {
  Tensor out;
  {
    AutoGradMode no_grad(false);
    ComplexParts p = complex_parts(z);
    out = atan2(p.im, p.re);
  }
  if (auto node = make_node<ComplexAngleBackward>({&z})) {
    node->self_ = SavedTensor(z, false);
    set_history(out, node);
  }
  return out;
}

Tensor complex_exp(const Tensor& z) {
  ComplexParts p = complex_parts(z);
  const Tensor e = exp(p.re);
  return named_history(complex_from_parts(mul(e, cos(p.im)), mul(e, sin(p.im))), "ExpBackward0");
}

// A 0-d tensor reduced over its own (single, implicit) dim is itself: the pair dim of its real
// view must not be reduced instead.
namespace {
// The sum of every element of z as a (real, imaginary) pair of shape [2]. Summing the [n, 2] real
// view over dim 0 runs the reduction two elements wide; rows of 1024 reals (512 pairs) are summed
// over dim 0 first instead, then the 512 pairs, then the rows left over.
Tensor all_pairs_sum(const Tensor& z) {
  constexpr int64_t kRow = 1024;
  const Tensor flat = reshape(view_as_real(contiguous(z)), {-1});
  const int64_t n = flat.shape()[0], rows = n / kRow, head = rows * kRow;
  Tensor total;
  if (rows > 0) {
    const Tensor columns = sum(reshape(narrow(flat, 0, 0, head), {rows, kRow}), {0}, false);
    total = sum(reshape(columns, {kRow / 2, 2}), {0}, false);
  }
  if (n > head) {
    const Tensor rest = sum(reshape(narrow(flat, 0, head, n - head), {-1, 2}), {0}, false);
    total = total.defined() ? add(total, rest) : rest;
  }
  return total.defined() ? total : zeros({2}, complex_value_type(z.dtype()));
}
}  // namespace

Tensor complex_sum(const Tensor& z, const std::vector<int64_t>& dims, bool keepdim) {
  const std::vector<int64_t> d = complex_reduce_dims(z, dims);
  if (z.dim() == 0) return complex_from_pairs(clone(view_as_real(z)));
  const char* name = dims.empty() && !keepdim ? "SumBackward0" : "SumBackward1";
  if (static_cast<int64_t>(d.size()) == z.dim() && z.numel() >= 4096) {
    Dims shape = keepdim ? Dims(z.shape().size(), 1) : Dims{};
    shape.push_back(2);
    return named_history(complex_from_pairs(reshape(all_pairs_sum(z), shape)), name);
  }
  return named_history(complex_from_pairs(sum(view_as_real(z), d, keepdim)), name);
}

Tensor complex_mean(const Tensor& z, const std::vector<int64_t>& dims, bool keepdim) {
  const std::vector<int64_t> d = complex_reduce_dims(z, dims);
  if (z.dim() == 0) return complex_from_pairs(clone(view_as_real(z)));
  const char* name = dims.empty() && !keepdim ? "MeanBackward0" : "MeanBackward1";
  if (static_cast<int64_t>(d.size()) == z.dim() && z.numel() >= 4096) {  // complex_sum's fast path
    const Tensor total = complex_sum(z, dims, keepdim);
    return named_history(div(total, wrapped_scalar(static_cast<double>(z.numel()), DType::Float64)), name);
  }
  return named_history(complex_from_pairs(mean(view_as_real(z), d, keepdim)), name);
}

namespace {
Tensor complex_matmul_value(const Tensor& a, const Tensor& b) {
  ENGINE_CHECK(a.dtype() == b.dtype(), std::runtime_error, "expected m1 and m2 to have the same dtype, but got: ",
               cpp_type_name(a.dtype()), " != ", cpp_type_name(b.dtype()));
  ComplexParts p = complex_parts(a), q = complex_parts(b);
  return complex_from_parts(sub(matmul(p.re, q.re), matmul(p.im, q.im)), add(matmul(p.re, q.im), matmul(p.im, q.re)));
}
}  // namespace

Tensor complex_matmul(const Tensor& a, const Tensor& b) {
  // PyTorch's node for the shapes matmul dispatches on: dot and mv have their own.
  const char* name = a.dim() == 1 && b.dim() == 1 ? "DotBackward0" : a.dim() == 2 && b.dim() == 1 ? "MvBackward0" : "MmBackward0";
  return named_history(complex_matmul_value(a, b), name);
}

Tensor complex_equal(const Tensor& a, const Tensor& b, bool equal) {
  AutoGradMode no_grad(false);
  const DType dt = result_type(a, b);
  const Tensor x = complex_operand(a, dt), y = complex_operand(b, dt);
  const Tensor xc = is_complex(x.dtype()) ? x : to_dtype(x, dt), yc = is_complex(y.dtype()) ? y : to_dtype(y, dt);
  ComplexParts p = complex_parts(xc), q = complex_parts(yc);
  if (equal) return logical_and(eq(p.re, q.re), eq(p.im, q.im));
  return logical_or(ne(p.re, q.re), ne(p.im, q.im));
}

namespace {
Tensor complex_where_value(const Tensor& cond, const Tensor& a, const Tensor& b) {
  const DType dt = result_type(a, b);
  const Tensor x = to_dtype(complex_operand(a, dt), dt), y = to_dtype(complex_operand(b, dt), dt);
  return complex_from_pairs(contiguous(where(real_against_pairs(cond), view_as_real(x), view_as_real(y))));
}
}  // namespace

Tensor complex_where(const Tensor& cond, const Tensor& a, const Tensor& b) {
  return named_history(complex_where_value(cond, a, b), "WhereBackward0");
}

Tensor complex(const Tensor& re, const Tensor& im) {
  const DType a = re.dtype(), b = im.dtype();
  const bool ok = [](DType d) { return d == DType::Float16 || d == DType::Float32 || d == DType::Float64; }(a) &&
                  (b == DType::Float16 || b == DType::Float32 || b == DType::Float64);
  ENGINE_CHECK(ok, std::runtime_error, "Expected both inputs to be Half, Float or Double tensors but got ",
               scalar_type_name(a), " and ", scalar_type_name(b));
  ENGINE_CHECK(a == b, std::runtime_error, "Expected object of scalar type ", scalar_type_name(a),
               " but got scalar type ", scalar_type_name(b), " for second argument");
  ENGINE_CHECK(a != DType::Float16, std::runtime_error, "complex32 (ComplexHalf) is not supported");
  const Dims shape = broadcast_shapes(re.shape(), im.shape());
  return complex_from_parts(expand(re, shape), expand(im, shape));
}

Tensor complex_linspace(const Tensor& start, const Tensor& end, int64_t steps, DType dtype) {
  auto part = [](const Tensor& v, int p) {
    if (!is_complex(v.dtype())) return p == 0 ? kernels::read_double(v, 0) : 0.0;
    return kernels::read_double(kernels::complex_part(v, p), 0);
  };
  ENGINE_CHECK(is_complex(dtype), std::runtime_error, "torch.linspace(): inferred dtype c10::complex<",
               default_dtype() == DType::Float64 ? "double" : "float", "> can't be safely cast to passed dtype ",
               scalar_type_name(dtype));
  const DType vt = complex_value_type(dtype);
  return complex(linspace(part(start, 0), part(end, 0), steps, vt), linspace(part(start, 1), part(end, 1), steps, vt));
}

Tensor polar(const Tensor& abs, const Tensor& angle) {
  complex(abs, angle);  // the same dtype checks and messages
  return complex_from_parts(mul(abs, cos(angle)), mul(abs, sin(angle)));
}


}  // namespace engine::ops
