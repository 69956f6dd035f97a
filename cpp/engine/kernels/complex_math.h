#pragma once
// Elementwise functions of complex numbers, computed with std::complex (the C library's complex
// functions: C99 Annex G branch cuts and signed zeros, as NumPy and PyTorch use them).
#include "engine/core/tensor.h"

namespace engine::kernels {

enum class ComplexFn {
  Log, Log2, Log10, Log1p, Sqrt, Rsqrt, Reciprocal, Exp2, Expm1,
  Sin, Cos, Tan, Sinh, Cosh, Tanh, Sigmoid, Asin, Acos, Atan, Asinh, Acosh, Atanh, Sgn
};

// out = fn(in); both contiguous, of one complex dtype and one shape.
void complex_unary(ComplexFn fn, const Tensor& out, const Tensor& in);
// out = base ** exponent; all three contiguous, of one complex dtype and one shape.
void complex_pow(const Tensor& out, const Tensor& base, const Tensor& exponent);

// Products along the rows of contiguous `in` (outer rows of `inner` elements): out[r] = the
// product of row r (cumulative = false, out has `outer` elements), or out = the running products
// of each row (cumulative = true, out shaped as in). One complex dtype throughout.
void complex_row_products(const Tensor& out, const Tensor& in, int64_t outer, int64_t inner, bool cumulative);

}  // namespace engine::kernels
