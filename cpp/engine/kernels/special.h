#pragma once
// Elementwise kernels of the special and less common pointwise functions. Like elementwise.h:
// operands arrive promoted to the computation dtype and broadcast to the output's shape.
#include "engine/core/tensor.h"

namespace engine::kernels {

// Floating functions of one floating tensor (out has a's dtype).
enum class SpecialUnaryOp { Acosh, Asinh, Atanh, Lgamma, Digamma, Erfc, Erfinv, I0, I1, Sinc, Frac, Deg2rad, Rad2deg };
void special_unary(SpecialUnaryOp op, const Tensor& out, const Tensor& a);
// psi^(n)(a) for a floating tensor, n >= 0.
void polygamma(int64_t n, const Tensor& out, const Tensor& a);
// log(a / (1 - a)) with a clamped to [eps, 1 - eps] first when eps >= 0 (floating a).
void logit(const Tensor& out, const Tensor& a, double eps);
// Whether the sign bit is set (out is bool; a of any dtype).
void signbit(const Tensor& out, const Tensor& a);
// mantissa in [0.5, 1) (a's dtype) and int32 exponent with a = mantissa * 2^exponent.
void frexp(const Tensor& mantissa, const Tensor& exponent, const Tensor& a);

// Functions of two tensors of one dtype (out has that dtype). Copysign, Nextafter, Igamma,
// Igammac, Logaddexp(2), Hypot, Xlogy are floating only; Gcd, Lcm and the shifts integral only.
enum class SpecialBinaryOp {
  Copysign, Heaviside, Nextafter, Fmax, Fmin, Igamma, Igammac, Logaddexp, Logaddexp2, Hypot, Xlogy,
  Gcd, Lcm
};
void special_binary(SpecialBinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b);

}  // namespace engine::kernels
