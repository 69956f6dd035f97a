// out= of add, sub, mul, div and the common float functions (exp, log, sqrt, sin, cos, tanh,
// sigmoid) written by the kernel straight into out's memory: no fresh result
// and no second pass to copy it over (the path training loops take every step). Where it does not
// apply, the caller computes a fresh result and copies it, with every out= rule of that path.
#include "engine/core/layout.h"
#include "engine/core/overlap.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

// Reading `in` while `out` is written element by element gives the op's values: separate memory,
// or exactly the same elements in the same order (torch.mul(a, b, out=a)).
bool reads_safely(const Tensor& out, const Tensor& in) {
  const Overlap o = overlap_status(out, in);
  return o == Overlap::None || o == Overlap::Full;
}

// Whether the op's result (dtype `dt`, the broadcast shape of a and b) can be written into `out`
// as it is: same dtype and shape, no 16-bit float (those compute through float32 operand by operand,
// see arith.cpp), no bool (the ops' own refusals run on the fresh path), inputs safe to read.
bool writes_into(const Tensor& out, DType dt, const Tensor& a, const Tensor& b) {
  // Complex results take the general path (computed through the real view, then written).
  if (out.dtype() != dt || dt == DType::Bool || is_reduced_floating(dt) || is_complex(dt)) return false;
  if (a.dtype() == DType::Bool || b.dtype() == DType::Bool) return false;
  if (out.shape() != broadcast_shapes(a.shape(), b.shape())) return false;
  return reads_safely(out, a) && reads_safely(out, b);
}

// An operand in the computation dtype (a wrapped number costs one element; a tensor of another
// dtype a converted copy, as the fresh path makes too).
Tensor as_dtype(const Tensor& t, DType d) {
  if (t.dtype() == d) return t;
  Tensor c = empty_like_operands(t.shape(), d, {&t});
  kernels::copy(c, t);
  return c;
}

bool scaled_into(const Tensor& out, const Tensor& a, const Tensor& b, double alpha, kernels::BinaryOp plain) {
  const DType dt = result_type(a, b);
  if (!writes_into(out, dt, a, b)) return false;
  const Tensor x = as_dtype(a, dt), y = as_dtype(b, dt);
  if (alpha == 1.0) {
    kernels::binary(plain, out, x, y);
  } else {
    kernels::add_scaled(out, x, y, plain == kernels::BinaryOp::Sub ? -alpha : alpha);
  }
  return true;
}

}  // namespace

bool add_out(const Tensor& out, const Tensor& a, const Tensor& b, double alpha) {
  return scaled_into(out, a, b, alpha, kernels::BinaryOp::Add);
}

bool sub_out(const Tensor& out, const Tensor& a, const Tensor& b, double alpha) {
  return scaled_into(out, a, b, alpha, kernels::BinaryOp::Sub);
}

bool mul_out(const Tensor& out, const Tensor& a, const Tensor& b) { return scaled_into(out, a, b, 1.0, kernels::BinaryOp::Mul); }

bool unary_out(kernels::UnaryOp op, const Tensor& out, const Tensor& a) {
  // float32 / float64 only: integer inputs compute in the default dtype, 16-bit floats through
  // float32, complex inputs through their real view (all on the fresh path).
  const DType dt = a.dtype();
  if (dt != DType::Float32 && dt != DType::Float64) return false;
  if (out.dtype() != dt || out.shape() != a.shape() || out.is_meta() || a.is_meta()) return false;
  if (!reads_safely(out, a)) return false;
  kernels::unary(op, out, a);
  return true;
}

bool div_out(const Tensor& out, const Tensor& a, const Tensor& b) {
  const DType dt = result_type(a, b);
  if (!is_floating(dt) || !writes_into(out, dt, a, b)) return false;  // true division of integers: fresh path
  kernels::binary(kernels::BinaryOp::Div, out, as_dtype(a, dt), as_dtype(b, dt));
  return true;
}

}  // namespace engine::ops
