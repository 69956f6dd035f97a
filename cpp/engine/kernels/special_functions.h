#pragma once
// Scalar special functions in double precision, with PyTorch's values at poles and domain edges.
// Float tensors compute through these and round once at the end, which keeps float32 results
// within an ulp or two of the exact value.
#include <cmath>
#include <cstdint>
#include <limits>

namespace engine::kernels::special {

constexpr double kPi = 3.14159265358979323846264338327950288;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// log|Gamma(x)| without touching the global `signgam` that std::lgamma writes (a data race when
// kernels run on several threads).
inline double lgamma(double x) {
#if defined(__GLIBC__)
  int sign = 0;
  return ::lgamma_r(x, &sign);
#else
  return std::lgamma(x);
#endif
}

// psi(x): reflection for negative x, recurrence up to 10, then the asymptotic series.
inline double digamma(double x) {
  if (x == 0) return std::copysign(kInf, -x);  // +-0 -> -+inf, as C++ and SciPy
  if (std::isnan(x)) return x;
  if (x < 0) {
    if (x == std::trunc(x)) return kNaN;  // poles at the negative integers (and -inf)
    double whole;
    const double frac = std::modf(x, &whole);  // tan(pi * frac) is more accurate than tan(pi * x)
    return digamma(1 - x) - kPi / std::tan(kPi * frac);
  }
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  if (x == 10) return result + 2.25175258906672110764;  // psi(10)
  double tail = 0;
  if (x < 1e17) {
    // Bernoulli-number series in 1/x^2: B2k / (2k).
    static const double kB[] = {8.33333333333333333333E-2, -8.33333333333333333333E-3, 3.96825396825396825397E-3,
                                -4.16666666666666666667E-3, 7.57575757575757575758E-3, -2.10927960927960927961E-2,
                                8.33333333333333333333E-2};
    const double z = 1 / (x * x);
    double p = 0, zk = z;
    for (double b : kB) {
      p += b * zk;
      zk *= z;
    }
    tail = p;
  }
  return result + std::log(x) - 0.5 / x - tail;
}

// psi'(x): reflection below 1/2, the recurrence up to 20, then the asymptotic series (Bernoulli
// numbers up to B10, whose next term is below 1e-16 relative there).
// `sin_pi_x` is sin(pi x) as the caller's precision gives it (PyTorch's float32 kernels compute it
// in float32, which turns the poles at negative integers into large finite values).
inline double trigamma(double x, double sin_pi_x) {
  if (std::isnan(x)) return x;
  double sign = 1, result = 0;
  if (x < 0.5) {
    sign = -1;
    const double s = sin_pi_x;
    result -= kPi * kPi / (s * s);
    x = 1 - x;
  }
  while (x < 20) {
    result += 1 / (x * x);
    x += 1;
  }
  const double ixx = 1 / (x * x);
  const double series = 1. / 6 - ixx * (1. / 30 - ixx * (1. / 42 - ixx * (1. / 30 - ixx * (5. / 66))));
  result += (1 + 1 / (2 * x) + ixx * series) / x;
  return sign * result;
}

// Hurwitz zeta(s, q) = sum_k (k + q)^-s for s > 1: direct terms, then Euler-Maclaurin.
inline double hurwitz_zeta(double s, double q) {
  static const double kA[] = {12.0,
                              -720.0,
                              30240.0,
                              -1209600.0,
                              47900160.0,
                              -1.8924375803183791606e9,
                              7.47242496e10,
                              -2.950130727918164224e12,
                              1.1646782814350067249e14,
                              -4.5979787224074726105e15,
                              1.8152105401943546773e17,
                              -7.1661652561756670113e18};
  if (s == 1) return kInf;
  if (s < 1) return kNaN;
  if (q <= 0) {
    if (q == std::floor(q)) return kInf;  // a pole
    if (s != std::floor(s)) return kNaN;  // q^-s is not real
  }
  double sum = std::pow(q, -s), a = q, b = 0;
  int i = 0;
  while (i < 9 || a <= 9) {
    i += 1;
    a += 1;
    b = std::pow(a, -s);
    sum += b;
    if (std::fabs(b / sum) < 1e-17) return sum;
  }
  const double w = a;
  sum += b * w / (s - 1) - 0.5 * b;
  double fac = 1, k = 0;
  for (double coef : kA) {
    fac *= s + k;
    b /= w;
    const double t = fac * b / coef;
    sum += t;
    if (std::fabs(t / sum) < 1e-17) break;
    k += 1;
    fac *= s + k;
    b /= w;
    k += 1;
  }
  return sum;
}

// The n-th derivative of digamma (n >= 0; the caller refuses negative n); sin_pi_x as for trigamma.
inline double polygamma(int64_t n, double x, double sin_pi_x) {
  if (n == 0) return digamma(x);
  if (n == 1) return trigamma(x, sin_pi_x);
  // psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x)
  const double nd = static_cast<double>(n);
  const double factorial = std::exp(lgamma(nd + 1));
  return ((n % 2) ? 1.0 : -1.0) * factorial * hurwitz_zeta(nd + 1, x);
}

// erf^-1(y): Giles' single-precision approximation as a first guess, refined by two Newton steps
// in double. Near |y| = 1 the steps solve erfc(x) = 1 - |y| instead, since 1 - |y| is exact there
// while erf(x) - y would cancel.
inline double erfinv(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return kNaN;
  if (y == 1) return kInf;
  if (y == -1) return -kInf;
  const double ay = std::fabs(y);
  double w = -std::log((1 - ay) * (1 + ay)), p;
  if (w < 5) {
    w -= 2.5;
    p = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503, -0.00417768164,
                     0.246640727, 1.50140941}) {
      p = c + p * w;
    }
  } else {
    w = std::sqrt(w) - 3;
    p = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613, 0.00943887047,
                     1.00167406, 2.83297682}) {
      p = c + p * w;
    }
  }
  double x = p * ay;
  constexpr double kTwoOverSqrtPi = 1.12837916709551257389615890312154517;
  for (int i = 0; i < 2; ++i) {
    const double slope = kTwoOverSqrtPi * std::exp(-x * x);
    if (slope == 0) break;
    const double residual = ay > 0.5 ? (1 - ay) - std::erfc(x) : std::erf(x) - ay;
    x -= residual / slope;
  }
  return std::copysign(x, y);
}

// Modified Bessel functions of the first kind, orders 0 and 1: the power series for moderate |x|,
// the asymptotic expansion (scaled to avoid overflowing before the result does) beyond.
inline double bessel_i(int order, double x) {
  if (std::isnan(x)) return x;
  const double ax = std::fabs(x);
  double result;
  if (ax <= 30) {
    const double q = 0.25 * x * x;
    double term = order == 0 ? 1.0 : 0.5 * ax, sum = term;
    for (int k = 1; k < 500; ++k) {
      term *= q / (static_cast<double>(k) * static_cast<double>(k + order));
      sum += term;
      if (term < sum * 1e-17) break;
    }
    result = sum;
  } else {
    const double mu = 4.0 * order * order;
    double term = 1, sum = 1;
    for (int k = 1; k < 30; ++k) {
      const double odd = 2.0 * k - 1;
      term *= -(mu - odd * odd) / (8.0 * k * ax);
      sum += term;
      if (std::fabs(term) < 1e-17 * std::fabs(sum)) break;
    }
    result = std::exp(ax - 0.5 * std::log(2 * kPi * ax)) * sum;
  }
  return (order == 1 && x < 0) ? -result : result;
}

// Regularised lower / upper incomplete gamma P(a, x), Q(a, x) with PyTorch's edge values.
namespace detail {
// P by its power series (x < a + 1).
inline double igamma_series(double a, double x) {
  double term = 1 / a, sum = term, ap = a;
  for (int n = 0; n < 10000; ++n) {
    ap += 1;
    term *= x / ap;
    sum += term;
    if (std::fabs(term) < std::fabs(sum) * 1e-17) break;
  }
  return sum * std::exp(a * std::log(x) - x - lgamma(a));
}
// Q by its continued fraction (x >= a + 1), evaluated with the modified Lentz method.
inline double igammac_fraction(double a, double x) {
  constexpr double kTiny = 1e-300;
  double b = x + 1 - a, c = 1 / kTiny, d = 1 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-16) break;
  }
  return std::exp(a * std::log(x) - x - lgamma(a)) * h;
}
}  // namespace detail

inline double igamma(double a, double x) {
  if (std::isnan(a) || std::isnan(x) || x < 0 || a < 0) return kNaN;
  if (a == 0) return x > 0 ? 1.0 : kNaN;
  if (x == 0) return 0.0;
  if (std::isinf(a)) return std::isinf(x) ? kNaN : 0.0;
  if (std::isinf(x)) return 1.0;
  return x < a + 1 ? detail::igamma_series(a, x) : 1 - detail::igammac_fraction(a, x);
}

inline double igammac(double a, double x) {
  if (std::isnan(a) || std::isnan(x) || x < 0 || a < 0) return kNaN;
  if (a == 0) return x > 0 ? 0.0 : kNaN;
  if (x == 0) return 1.0;
  if (std::isinf(a)) return std::isinf(x) ? kNaN : 1.0;
  if (std::isinf(x)) return 0.0;
  return x < a + 1 ? 1 - detail::igamma_series(a, x) : detail::igammac_fraction(a, x);
}

}  // namespace engine::kernels::special
