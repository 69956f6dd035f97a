#include "engine/kernels/complex_math.h"

#include <algorithm>
#include <cmath>
#include <complex>

#include "engine/core/error.h"
#include "engine/kernels/parallel.h"

namespace engine::kernels {

namespace {

// log(1 + z) without the cancellation of forming 1 + z for small z (PyTorch's formula).
template <typename T>
std::complex<T> log1p_of(std::complex<T> z) {
  const T x = z.real(), y = z.imag();
  const T theta = std::atan2(y, x + T(1));
  if (std::abs(z) < T(0.5)) {
    const T r = x * (T(2) + x) + y * y;
    if (r == T(0)) return {x, theta};
    return {std::log1p(r) / T(2), theta};
  }
  return {std::log(std::hypot(x + T(1), y)), theta};
}

// exp(z) - 1 as expm1(x) cos(y) - 2 sin^2(y/2) + i e^x sin(y): accurate near 0 (PyTorch's formula).
template <typename T>
std::complex<T> expm1_of(std::complex<T> z) {
  const T x = z.real(), y = z.imag();
  const T s = std::sin(y / T(2));
  return {std::expm1(x) * std::cos(y) - T(2) * s * s, std::exp(x) * std::sin(y)};
}

template <typename T>
std::complex<T> apply(ComplexFn fn, std::complex<T> z) {
  using C = std::complex<T>;
  constexpr T kLn2 = T(0.693147180559945309417232121458176568L);
  switch (fn) {
    case ComplexFn::Log: return std::log(z);
    case ComplexFn::Log2: return std::log(z) / kLn2;
    case ComplexFn::Log10: return std::log10(z);
    case ComplexFn::Log1p: return log1p_of(z);
    case ComplexFn::Sqrt: return std::sqrt(z);
    case ComplexFn::Rsqrt: return T(1) / std::sqrt(z);
    case ComplexFn::Reciprocal: return T(1) / z;
    case ComplexFn::Exp2: return std::pow(T(2), z);
    case ComplexFn::Expm1: return expm1_of(z);
    case ComplexFn::Sin: return std::sin(z);
    case ComplexFn::Cos: return std::cos(z);
    case ComplexFn::Tan: return std::tan(z);
    case ComplexFn::Sinh: return std::sinh(z);
    case ComplexFn::Cosh: return std::cosh(z);
    case ComplexFn::Tanh: return std::tanh(z);
    case ComplexFn::Sigmoid: return T(1) / (T(1) + std::exp(-z));
    case ComplexFn::Asin: return std::asin(z);
    case ComplexFn::Acos: return std::acos(z);
    case ComplexFn::Atan: return std::atan(z);
    case ComplexFn::Asinh: return std::asinh(z);
    case ComplexFn::Acosh: return std::acosh(z);
    case ComplexFn::Atanh: return std::atanh(z);
    case ComplexFn::Sgn: {
      const T a = std::abs(z);
      return a == T(0) ? C(0, 0) : z / a;
    }
  }
  return z;
}

// Complex transcendentals cost tens of simple operations each: chunks this long keep every
// thread busy long enough to pay for the split.
constexpr int64_t kComplexGrain = 1 << 12;

template <typename T>
void unary_loop(ComplexFn fn, const Tensor& out, const Tensor& in) {
  auto* o = out.data<std::complex<T>>();
  const auto* x = in.data<std::complex<T>>();
  const int64_t n = in.numel();
  ReleaseInterpreterLock unlocked(n);
  parallel_for(n, kComplexGrain, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) o[i] = apply(fn, x[i]);
  });
}

template <typename T>
void pow_loop(const Tensor& out, const Tensor& base, const Tensor& exponent) {
  auto* o = out.data<std::complex<T>>();
  const auto* b = base.data<std::complex<T>>();
  const auto* e = exponent.data<std::complex<T>>();
  const int64_t n = out.numel();
  ReleaseInterpreterLock unlocked(n);
  parallel_for(n, kComplexGrain, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) o[i] = std::pow(b[i], e[i]);
  });
}

// The textbook complex product (as PyTorch's c10::complex): std::complex's operator* takes the
// C library's slow path (__mulsc3) to handle infinities.
template <typename T>
inline void times(T& re, T& im, std::complex<T> v) {
  const T next_re = re * v.real() - im * v.imag();
  im = re * v.imag() + im * v.real();
  re = next_re;
}

// One row's product with four independent running products (the chain of dependent multiplies
// otherwise bounds the speed), combined at the end.
template <typename T>
std::complex<T> row_product(const std::complex<T>* x, int64_t n) {
  T re[4] = {1, 1, 1, 1}, im[4] = {0, 0, 0, 0};
  int64_t j = 0;
  for (; j + 4 <= n; j += 4)
    for (int k = 0; k < 4; ++k) times(re[k], im[k], x[j + k]);
  for (; j < n; ++j) times(re[0], im[0], x[j]);
  for (int k = 1; k < 4; ++k) times(re[0], im[0], std::complex<T>(re[k], im[k]));
  return {re[0], im[0]};
}

template <typename T>
void row_products_loop(const Tensor& out, const Tensor& in, int64_t outer, int64_t inner, bool cumulative) {
  auto* o = out.data<std::complex<T>>();
  const auto* x = in.data<std::complex<T>>();
  ReleaseInterpreterLock unlocked(outer * inner);
  const int64_t rows_per_chunk = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(inner, 1));
  if (!cumulative) {
    parallel_for(outer, rows_per_chunk, [&](int64_t lo, int64_t hi) {
      for (int64_t r = lo; r < hi; ++r) o[r] = row_product(x + r * inner, inner);
    });
    return;
  }
  for (int64_t r = 0; r < outer; ++r) {
    T re = 1, im = 0;
    for (int64_t j = 0; j < inner; ++j) {
      times(re, im, x[r * inner + j]);
      o[r * inner + j] = {re, im};
    }
  }
}

void check_operand(const Tensor& out, const Tensor& t) {
  ENGINE_ASSERT(t.dtype() == out.dtype() && t.is_contiguous() && t.numel() == out.numel());
}

}  // namespace

void complex_unary(ComplexFn fn, const Tensor& out, const Tensor& in) {
  check_operand(out, in);
  ENGINE_ASSERT(out.is_contiguous());
  if (out.numel() == 0) return;
  if (out.dtype() == DType::Complex128) unary_loop<double>(fn, out, in);
  else unary_loop<float>(fn, out, in);
}

void complex_row_products(const Tensor& out, const Tensor& in, int64_t outer, int64_t inner, bool cumulative) {
  ENGINE_ASSERT(out.dtype() == in.dtype() && out.is_contiguous() && in.is_contiguous());
  if (outer == 0) return;
  if (out.dtype() == DType::Complex128) row_products_loop<double>(out, in, outer, inner, cumulative);
  else row_products_loop<float>(out, in, outer, inner, cumulative);
}

void complex_pow(const Tensor& out, const Tensor& base, const Tensor& exponent) {
  check_operand(out, base);
  check_operand(out, exponent);
  ENGINE_ASSERT(out.is_contiguous());
  if (out.numel() == 0) return;
  if (out.dtype() == DType::Complex128) pow_loop<double>(out, base, exponent);
  else pow_loop<float>(out, base, exponent);
}

}  // namespace engine::kernels
