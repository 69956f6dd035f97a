#include "engine/kernels/special.h"

#include <climits>
#include <cmath>
#include <stdexcept>
#include <type_traits>

#include "engine/kernels/elementwise.h"
#include "engine/kernels/special_functions.h"
#include "engine/kernels/strided_loop.h"

namespace engine::kernels {

namespace {

template <typename T>
constexpr bool kFloating = std::is_floating_point_v<T>;
template <typename T>
constexpr bool kInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// out[i] = f(a[i]) over strided operands (element types In -> Out).
template <typename In, typename Out, typename F>
void map1(const Tensor& out, const Tensor& a, F f) {
  StridedOperands<2> op;
  op.shape = out.shape();
  op.strides = {broadcast_byte_strides(out, out.shape()), broadcast_byte_strides(a, out.shape())};
  op.data = {static_cast<char*>(out.raw_data()), static_cast<char*>(a.raw_data())};
  parallel_for_each_run(op, [&](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      *reinterpret_cast<Out*>(p[0] + i * s[0]) = f(*reinterpret_cast<const In*>(p[1] + i * s[1]));
    }
  });
}

template <typename T, typename F>
void map2(const Tensor& out, const Tensor& a, const Tensor& b, F f) {
  StridedOperands<3> op;
  op.shape = out.shape();
  op.strides = {broadcast_byte_strides(out, out.shape()), broadcast_byte_strides(a, out.shape()),
                broadcast_byte_strides(b, out.shape())};
  op.data = {static_cast<char*>(out.raw_data()), static_cast<char*>(a.raw_data()), static_cast<char*>(b.raw_data())};
  parallel_for_each_run(op, [&](std::array<char*, 3> p, std::array<int64_t, 3> s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      *reinterpret_cast<T*>(p[0] + i * s[0]) =
          f(*reinterpret_cast<const T*>(p[1] + i * s[1]), *reinterpret_cast<const T*>(p[2] + i * s[2]));
    }
  });
}

// A double-precision function applied to a floating tensor, rounded once to its dtype.
template <typename T, typename F>
void map_double(const Tensor& out, const Tensor& a, F f) {
  map1<T, T>(out, a, [f](T x) { return static_cast<T>(f(static_cast<double>(x))); });
}

constexpr double kDegToRad = special::kPi / 180.0;

template <typename T>
void special_unary_typed(SpecialUnaryOp op, const Tensor& out, const Tensor& a) {
  namespace sp = special;
  switch (op) {
    case SpecialUnaryOp::Acosh: return map1<T, T>(out, a, [](T x) { return std::acosh(x); });
    case SpecialUnaryOp::Asinh: return map1<T, T>(out, a, [](T x) { return std::asinh(x); });
    case SpecialUnaryOp::Atanh: return map1<T, T>(out, a, [](T x) { return std::atanh(x); });
    case SpecialUnaryOp::Lgamma: return map_double<T>(out, a, [](double x) { return sp::lgamma(x); });
    case SpecialUnaryOp::Digamma: return map_double<T>(out, a, [](double x) { return sp::digamma(x); });
    // In double: float32's erfcf reaches 2.2 ulp in the tail (x > 8).
    case SpecialUnaryOp::Erfc: return map_double<T>(out, a, [](double x) { return std::erfc(x); });
    case SpecialUnaryOp::Erfinv: return map_double<T>(out, a, [](double x) { return sp::erfinv(x); });
    case SpecialUnaryOp::I0: return map_double<T>(out, a, [](double x) { return sp::bessel_i(0, x); });
    case SpecialUnaryOp::I1: return map_double<T>(out, a, [](double x) { return sp::bessel_i(1, x); });
    case SpecialUnaryOp::Sinc:
      // In the tensor's own precision, as PyTorch: float32 sinc(1) is sin(float(pi)) / float(pi).
      return map1<T, T>(out, a, [](T x) {
        if (x == T(0)) return T(1);
        const T px = T(sp::kPi) * x;
        return T(std::sin(px) / px);
      });
    case SpecialUnaryOp::Frac: return map1<T, T>(out, a, [](T x) { return T(x - std::trunc(x)); });
    case SpecialUnaryOp::Deg2rad: return map1<T, T>(out, a, [](T x) { return T(x * T(kDegToRad)); });
    case SpecialUnaryOp::Rad2deg: return map1<T, T>(out, a, [](T x) { return T(x * T(1.0 / kDegToRad)); });
  }
}

// Whether v < 0, without a comparison that is always false for unsigned types.
template <typename T>
constexpr bool is_negative(T v) {
  if constexpr (std::is_signed_v<T>) {
    return v < 0;
  } else {
    (void)v;
    return false;
  }
}

// |v| in the unsigned type, so that the most negative value does not overflow.
template <typename T>
std::make_unsigned_t<T> magnitude(T v) {
  using U = std::make_unsigned_t<T>;
  return is_negative(v) ? U(U(0) - U(v)) : U(v);
}

template <typename T>
T int_gcd(T x, T y) {
  using U = std::make_unsigned_t<T>;
  U a = magnitude(x), b = magnitude(y);
  while (b != 0) {
    const U r = a % b;
    a = b;
    b = r;
  }
  return static_cast<T>(a);
}

template <typename T>
T int_lcm(T x, T y) {
  using U = std::make_unsigned_t<T>;
  const T g = int_gcd(x, y);
  if (g == 0) return 0;
  const U ax = magnitude(x), ay = magnitude(y);
  return static_cast<T>(U(ax / U(g)) * ay);  // wraps on overflow, as PyTorch's does
}

// NaN loses to a number; ties (0 and -0 included) give the first operand, as PyTorch's kernels.
template <typename T>
T float_fmax(T x, T y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  return x < y ? y : x;
}
template <typename T>
T float_fmin(T x, T y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  return y < x ? y : x;
}

template <typename T>
T log_add_exp(T x, T y, bool base2) {
  // Equal infinities would give inf - inf = NaN below; their sum is that infinity.
  if (std::isinf(x) && x == y) return x;
  const T m = x > y ? x : y;
  const T d = -std::fabs(x - y);
  if (base2) return T(m + std::log1p(std::exp2(d)) / T(0.693147180559945309417232121458176568));
  return T(m + std::log1p(std::exp(d)));
}

template <typename T>
void special_binary_typed(SpecialBinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b) {
  if constexpr (kFloating<T>) {
    switch (op) {
      case SpecialBinaryOp::Copysign: return map2<T>(out, a, b, [](T x, T y) { return std::copysign(x, y); });
      case SpecialBinaryOp::Nextafter: return map2<T>(out, a, b, [](T x, T y) { return std::nextafter(x, y); });
      case SpecialBinaryOp::Fmax: return map2<T>(out, a, b, [](T x, T y) { return float_fmax(x, y); });
      case SpecialBinaryOp::Fmin: return map2<T>(out, a, b, [](T x, T y) { return float_fmin(x, y); });
      case SpecialBinaryOp::Igamma:
        return map2<T>(out, a, b, [](T x, T y) { return T(special::igamma(double(x), double(y))); });
      case SpecialBinaryOp::Igammac:
        return map2<T>(out, a, b, [](T x, T y) { return T(special::igammac(double(x), double(y))); });
      case SpecialBinaryOp::Logaddexp: return map2<T>(out, a, b, [](T x, T y) { return log_add_exp(x, y, false); });
      case SpecialBinaryOp::Logaddexp2: return map2<T>(out, a, b, [](T x, T y) { return log_add_exp(x, y, true); });
      case SpecialBinaryOp::Hypot: return map2<T>(out, a, b, [](T x, T y) { return std::hypot(x, y); });
      case SpecialBinaryOp::Xlogy:
        // 0 * log(y) is 0 for every y but NaN (log(0) = -inf would make it NaN otherwise).
        return map2<T>(out, a, b, [](T x, T y) {
          if (std::isnan(y)) return y;
          if (x == T(0)) return T(0);
          return T(x * std::log(y));
        });
      default: break;
    }
  }
  if constexpr (kInteger<T>) {
    switch (op) {
      case SpecialBinaryOp::Gcd: return map2<T>(out, a, b, [](T x, T y) { return int_gcd(x, y); });
      case SpecialBinaryOp::Lcm: return map2<T>(out, a, b, [](T x, T y) { return int_lcm(x, y); });
      case SpecialBinaryOp::Fmax: return map2<T>(out, a, b, [](T x, T y) { return x < y ? y : x; });
      case SpecialBinaryOp::Fmin: return map2<T>(out, a, b, [](T x, T y) { return y < x ? y : x; });
      default: break;
    }
  }
  if constexpr (std::is_same_v<T, bool>) {
    switch (op) {
      case SpecialBinaryOp::Fmax: return map2<T>(out, a, b, [](T x, T y) { return T(x || y); });
      case SpecialBinaryOp::Fmin: return map2<T>(out, a, b, [](T x, T y) { return T(x && y); });
      default: break;
    }
  }
  if (op == SpecialBinaryOp::Heaviside) {
    // heaviside(x, v): v where x == 0, else whether x > 0 (NaN > 0 is false).
    return map2<T>(out, a, b, [](T x, T y) { return x == T(0) ? y : T(x > T(0)); });
  }
  throw std::logic_error("special binary kernel: unsupported dtype for this op");
}

}  // namespace

void special_unary(SpecialUnaryOp op, const Tensor& out, const Tensor& a) {
  ENGINE_DISPATCH_ALL(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (kFloating<T>) {
      special_unary_typed<T>(op, out, a);
    } else {
      throw std::logic_error("special unary kernel: floating dtypes only");
    }
  });
}

void polygamma(int64_t n, const Tensor& out, const Tensor& a) {
  ENGINE_DISPATCH_ALL(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (kFloating<T>) {
      // The reflection's sin(pi x) in T, so that float32 poles give PyTorch's large finite values.
      map1<T, T>(out, a, [n](T x) {
        const double sin_pi_x = static_cast<double>(std::sin(T(special::kPi) * x));
        return static_cast<T>(special::polygamma(n, static_cast<double>(x), sin_pi_x));
      });
    } else {
      throw std::logic_error("polygamma kernel: floating dtypes only");
    }
  });
}

void logit(const Tensor& out, const Tensor& a, double eps) {
  ENGINE_DISPATCH_ALL(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (kFloating<T>) {
      const T lo = static_cast<T>(eps), hi = static_cast<T>(1 - eps);
      const bool clamp = eps >= 0;
      map1<T, T>(out, a, [=](T x) {
        // NaN stays NaN through the clamp (neither comparison holds).
        const T z = clamp ? (x < lo ? lo : (x > hi ? hi : x)) : x;
        // In double: 1 - z and the quotient are then exact enough that log's argument near 1
        // (z near 0.5) keeps its digits; float32 lost up to 2800 ulp there.
        const double zd = static_cast<double>(z);
        return static_cast<T>(std::log(zd / (1.0 - zd)));
      });
    } else {
      throw std::logic_error("logit kernel: floating dtypes only");
    }
  });
}

void signbit(const Tensor& out, const Tensor& a) {
  ENGINE_DISPATCH_ALL(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (kFloating<T>) {
      map1<T, bool>(out, a, [](T x) { return std::signbit(x); });
    } else if constexpr (kInteger<T>) {
      map1<T, bool>(out, a, [](T x) { return is_negative(x); });
    } else if constexpr (std::is_same_v<T, bool>) {
      map1<T, bool>(out, a, [](T) { return false; });
    } else {  // float16 / bfloat16: the sign survives the exact widening to float (-0.0 and NaN's too)
      map1<T, bool>(out, a, [](T x) { return std::signbit(static_cast<float>(x)); });
    }
  });
}

void frexp(const Tensor& mantissa, const Tensor& exponent, const Tensor& a) {
  ENGINE_DISPATCH_ALL(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (kFloating<T>) {
      StridedOperands<3> op;
      op.shape = a.shape();
      op.strides = {broadcast_byte_strides(mantissa, a.shape()), broadcast_byte_strides(exponent, a.shape()),
                    broadcast_byte_strides(a, a.shape())};
      op.data = {static_cast<char*>(mantissa.raw_data()), static_cast<char*>(exponent.raw_data()),
                 static_cast<char*>(a.raw_data())};
      parallel_for_each_run(op, [](std::array<char*, 3> p, std::array<int64_t, 3> s, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
          const T x = *reinterpret_cast<const T*>(p[2] + i * s[2]);
          int e = 0;
          // The exponent of inf and NaN is unspecified in C++; PyTorch reports 0.
          const T m = std::isfinite(x) ? std::frexp(x, &e) : x;
          *reinterpret_cast<T*>(p[0] + i * s[0]) = m;
          *reinterpret_cast<int32_t*>(p[1] + i * s[1]) = std::isfinite(x) ? e : 0;
        }
      });
    } else {
      throw std::logic_error("frexp kernel: floating dtypes only");
    }
  });
}

void special_binary(SpecialBinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b) {
  ENGINE_DISPATCH_ALL(a.dtype(), [&](auto tag) { special_binary_typed<decltype(tag)>(op, out, a, b); });
}

}  // namespace engine::kernels
