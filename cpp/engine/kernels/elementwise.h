#pragma once
// Elementwise kernels over strided tensors. Operands arrive already promoted to the computation
// dtype and broadcast (stride 0) to the output's shape; kernels never allocate.
#include "engine/core/tensor.h"

namespace engine::kernels {

enum class BinaryOp {
  Add, Sub, Mul, Div, Pow, Eq, Ne, Lt, Le, Gt, Ge, Maximum, Minimum,
  // Integer FloorDivide / Remainder / Fmod expect a nonzero divisor (the ops layer checks).
  Atan2, Fmod, Remainder, FloorDivide, BitAnd, BitOr, BitXor,
  LeftShift, RightShift,  // integral types only (the ops layer refuses bool and floating)
  // a where b > 0 or b is NaN, else 0: relu's gradient (a the incoming gradient, b relu's result),
  // PyTorch's threshold_backward at 0. Floating types only.
  ReluGrad
};
enum class UnaryOp {
  Neg, Exp, Log, Sqrt, Sin, Cos, Tanh, Sigmoid, Relu, Abs, Sign, Reciprocal,
  Exp2, Expm1, Log2, Log10, Log1p, Rsqrt, Tan, Asin, Acos, Atan, Sinh, Cosh, Erf,
  Floor, Ceil, Round, Trunc, BitNot  // rounding: floating only; BitNot: integral and bool only
};

// out = a (op) b; comparison ops write bool into `out`, the others write a's dtype.
void binary(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b);
// out = a + alpha * b in one pass (add and sub with alpha; sub passes -alpha), all three of one
// dtype: alpha is rounded to that dtype first (an integer alpha for integer types, true or false
// for bool) and floating types round once, as PyTorch's fused multiply-add does.
void add_scaled(const Tensor& out, const Tensor& a, const Tensor& b, double alpha);
// out = a (op) b for a Python number b (b (op) a when number_first), applied as a value rather than
// a 0-d operand: Add, Sub, Mul and Div on float32 and float64, when `out` (a's dtype) is small and
// contiguous and `a` is laid out like it (out may be a itself: an in-place write). b must already be
// rounded to a's dtype. Returns false, writing nothing, otherwise.
bool binary_number(BinaryOp op, const Tensor& out, const Tensor& a, double b, bool number_first = false);
// out = op(a); out and a share a dtype.
void unary(UnaryOp op, const Tensor& out, const Tensor& a);
// dst = src, converting dtypes; src is broadcast to dst's shape.
void copy(const Tensor& dst, const Tensor& src);
void fill(const Tensor& dst, double value);
// The element at a flat row-major position, as a double / int64 (for item() and printing).
double read_double(const Tensor& t, int64_t flat_index);
int64_t read_int(const Tensor& t, int64_t flat_index);

// Byte strides of `t` viewed with shape `shape` (broadcast dims get 0).
Dims broadcast_byte_strides(const Tensor& t, const Dims& shape);

}  // namespace engine::kernels
