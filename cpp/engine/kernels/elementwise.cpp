#include "engine/kernels/elementwise.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "engine/core/error.h"
#include "engine/kernels/complex_copy.h"
#include "engine/kernels/simd/table.h"
#include "engine/kernels/strided_loop.h"

namespace engine::kernels {

Dims broadcast_byte_strides(const Tensor& t, const Dims& shape) {
  Dims out(shape.size(), 0);
  const size_t off = shape.size() - t.shape().size();
  const int64_t isz = static_cast<int64_t>(itemsize(t.dtype()));
  for (size_t i = 0; i < t.shape().size(); ++i) {
    // Only an empty tensor can have a stride whose byte count overflows (a non-empty one stays
    // inside its storage); its strides are never used.
    int64_t bytes = 0;
    out[i + off] = t.shape()[i] == 1 || __builtin_mul_overflow(t.strides()[i], isz, &bytes) ? 0 : bytes;
  }
  return out;
}

namespace {

// Loop shapes. Ops the compiler vectorises get their own loops for the contiguous and the
// scalar-broadcast cases; ops that call into libm or divide per element (pow, atan2, fmod, exp,
// sin, ...) gain nothing from those and take the one strided loop (Loops::StridedOnly), which
// keeps the dtype x op instantiations of this file (its compile time) down at no cost in speed.
enum class Loops { Vectorised, StridedOnly };

template <typename A, typename B, typename R, Loops L, typename F>
inline void binary_run(char* o, char* a, char* b, int64_t so, int64_t sa, int64_t sb, int64_t n, F f) {
  R* out = reinterpret_cast<R*>(o);
  const A* pa = reinterpret_cast<const A*>(a);
  const B* pb = reinterpret_cast<const B*>(b);
  if constexpr (L == Loops::Vectorised) {
    if (so == sizeof(R) && sa == sizeof(A) && sb == sizeof(B)) {
      for (int64_t i = 0; i < n; ++i) out[i] = f(pa[i], pb[i]);
      return;
    }
    if (so == sizeof(R) && sa == sizeof(A) && sb == 0) {
      const B bv = *pb;
      for (int64_t i = 0; i < n; ++i) out[i] = f(pa[i], bv);
      return;
    }
    if (so == sizeof(R) && sa == 0 && sb == sizeof(B)) {
      const A av = *pa;
      for (int64_t i = 0; i < n; ++i) out[i] = f(av, pb[i]);
      return;
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<R*>(o + i * so) = f(*reinterpret_cast<const A*>(a + i * sa), *reinterpret_cast<const B*>(b + i * sb));
  }
}

// Small operands skip the general strided iteration (coalescing, splitting into runs and among
// threads), which costs more than the arithmetic on a few elements: when the output is contiguous
// and below the threading size, an input laid out like it is read with stride `item` and a single
// element with stride 0. Returns the input's byte stride for the direct loop, or -1.
int64_t direct_stride(const Tensor& in, const Tensor& out, int64_t item) {
  if (in.numel() == 1) return 0;
  return in.is_contiguous() && in.shape() == out.shape() ? item : -1;
}
bool direct_output(const Tensor& out) { return out.is_contiguous() && out.numel() < kParallelGrain; }

template <typename T, typename R, Loops L = Loops::Vectorised, typename F>
void binary_typed(const Tensor& out, const Tensor& a, const Tensor& b, F f) {
  if (direct_output(out)) {
    const int64_t sa = direct_stride(a, out, sizeof(T)), sb = direct_stride(b, out, sizeof(T));
    if (sa >= 0 && sb >= 0) {
      return binary_run<T, T, R, L>(static_cast<char*>(out.raw_data()), static_cast<char*>(a.raw_data()),
                                    static_cast<char*>(b.raw_data()), sizeof(R), sa, sb, out.numel(), f);
    }
  }
  StridedOperands<3> op;
  op.shape = out.shape();
  op.strides = {broadcast_byte_strides(out, out.shape()), broadcast_byte_strides(a, out.shape()),
                broadcast_byte_strides(b, out.shape())};
  op.data = {static_cast<char*>(out.raw_data()), static_cast<char*>(a.raw_data()), static_cast<char*>(b.raw_data())};
  parallel_for_each_block(op, [&](std::array<char*, 3> p, std::array<int64_t, 3> s, int64_t n,
                                  std::array<int64_t, 3> os, int64_t rows) {
    for (int64_t r = 0; r < rows; ++r) {
      binary_run<T, T, R, L>(p[0] + r * os[0], p[1] + r * os[1], p[2] + r * os[2], s[0], s[1], s[2], n, f);
    }
  });
}

// Whether the innermost runs (after merging dims) are short rows: a vectorised loop per run then
// costs more in calls and tail handling than the scalar loops of the typed kernels, which take the
// rows in blocks.
template <size_t N>
bool short_rows(StridedOperands<N> op) {
  order_by_first_operand(op);
  coalesce(op);
  return op.shape.size() >= 2 && op.shape.back() < 16;
}

// Integer arithmetic wraps like PyTorch's (two's complement); going through the unsigned type keeps
// overflow defined behaviour in C++.
template <typename T>
using U = std::make_unsigned_t<T>;

template <typename T>
T int_pow(T base, T exp) {
  if constexpr (std::is_same_v<T, bool>) {
    return exp ? base : true;
  } else {
    if (exp < 0) {
      // PyTorch's answer for integer bases with negative exponents that are not errors.
      if (base == 1) return 1;
      if (base == -1) return (exp % 2 == 0) ? 1 : -1;
      return 0;
    }
    U<T> result = 1, b = static_cast<U<T>>(base);
    while (exp) {
      if (exp & 1) result *= b;
      exp >>= 1;
      b *= b;
    }
    return static_cast<T>(result);
  }
}

// Integer division rounding toward negative infinity, and the matching modulus (sign of the divisor
// for remainder, of the dividend for fmod). y == 0 is refused by the ops layer; y == -1 avoids the
// overflow of INT_MIN / -1 (the result wraps, as PyTorch's does).
template <typename T>
T int_floor_div(T x, T y) {
  if (y == 0) return 0;
  if (y == -1) return T(U<T>(0) - U<T>(x));
  T q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
  return q;
}
template <typename T>
T int_mod(T x, T y, bool floor_mode) {
  if (y == 0 || y == -1) return 0;
  T r = x % y;
  if (floor_mode && r != 0 && ((r < 0) != (y < 0))) r += y;
  return r;
}
// PyTorch's div_floor for floating types: exact for representable quotients, y == 0 gives x / y.
template <typename T>
T float_floor_div(T x, T y) {
  if (y == 0) return x / y;
  T mod = std::fmod(x, y);
  T div = (x - mod) / y;
  if (mod != 0 && ((y < 0) != (mod < 0))) div -= T(1);
  if (div == 0) return std::copysign(T(0), x / y);
  T fl = std::floor(div);
  if (div - fl > T(0.5)) fl += T(1);
  return fl;
}

// PyTorch's shifts: a count outside [0, bits) shifts everything out, leaving 0 (left) or the
// sign (right); the left shift runs on 64 unsigned bits so no narrow type's shift overflows an int.
template <typename T>
T shift_left(T x, T n) {
  constexpr int kBits = sizeof(T) * 8;
  if constexpr (std::is_signed_v<T>) {
    if (n < 0) return 0;
  }
  if (n >= kBits) return 0;
  return static_cast<T>(static_cast<uint64_t>(static_cast<U<T>>(x)) << n);
}
template <typename T>
T shift_right(T x, T n) {
  constexpr int kBits = sizeof(T) * 8;
  if constexpr (std::is_signed_v<T>) {
    if (n < 0 || n >= kBits) return x < 0 ? T(-1) : T(0);
  } else {
    if (n >= kBits) return 0;
  }
  return static_cast<T>(x >> n);
}

// Runs a vectorised three-operand loop `run(o, a, b, so, sa, sb, n)` over out = f(a, b): one call
// where out is directly addressable and a, b have one stride each, otherwise over each contiguous
// run on the pool's threads. False (nothing written) where short strided rows suit the scalar path.
template <typename T, typename Run>
bool run_binary_simd(const Tensor& out, const Tensor& a, const Tensor& b, const Run& run) {
  if (direct_output(out)) {
    const int64_t sa = direct_stride(a, out, sizeof(T)), sb = direct_stride(b, out, sizeof(T));
    if (sa >= 0 && sb >= 0) {
      run(static_cast<char*>(out.raw_data()), static_cast<char*>(a.raw_data()), static_cast<char*>(b.raw_data()),
          int64_t(sizeof(T)), sa, sb, out.numel());
      return true;
    }
  }
  StridedOperands<3> ops;
  ops.shape = out.shape();
  ops.strides = {broadcast_byte_strides(out, out.shape()), broadcast_byte_strides(a, out.shape()),
                 broadcast_byte_strides(b, out.shape())};
  ops.data = {static_cast<char*>(out.raw_data()), static_cast<char*>(a.raw_data()), static_cast<char*>(b.raw_data())};
  if (short_rows(ops)) return false;
  parallel_for_each_run(ops, [&run](std::array<char*, 3> p, std::array<int64_t, 3> s, int64_t n) {
    run(p[0], p[1], p[2], s[0], s[1], s[2], n);
  });
  return true;
}

// The vectorised loop of the machine's instruction set, for the ops and dtypes that have one.
template <typename T>
bool binary_simd(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b) {
  const simd::BinaryLoop loop = simd::binary_loop<T>(op);
  return loop && run_binary_simd<T>(out, a, b, loop);
}

template <typename T>
bool unary_simd(UnaryOp op, const Tensor& out, const Tensor& a) {
  const simd::UnaryLoop loop = simd::unary_loop<T>(op);
  if (!loop) return false;
  if (direct_output(out) && direct_stride(a, out, sizeof(T)) == int64_t(sizeof(T))) {
    loop(static_cast<char*>(out.raw_data()), static_cast<char*>(a.raw_data()), sizeof(T), sizeof(T), out.numel());
    return true;
  }
  StridedOperands<2> ops;
  ops.shape = out.shape();
  ops.strides = {broadcast_byte_strides(out, out.shape()), broadcast_byte_strides(a, out.shape())};
  ops.data = {static_cast<char*>(out.raw_data()), static_cast<char*>(a.raw_data())};
  if (short_rows(ops)) return false;
  parallel_for_each_run(ops, [loop](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n) {
    loop(p[0], p[1], s[0], s[1], n);
  });
  return true;
}

template <typename T>
void binary_dispatch(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b) {
  using C = opmath_t<T>;  // float for the 16-bit floats: computed in float, rounded on store
  if (binary_simd<T>(op, out, a, b)) return;
  switch (op) {
    case BinaryOp::Add:
      if constexpr (std::is_same_v<T, bool>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(x || y); });
      else if constexpr (std::is_integral_v<T>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(U<T>(x) + U<T>(y)); });
      else return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(x + y); });
    case BinaryOp::Sub:
      if constexpr (std::is_same_v<T, bool>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(x != y); });
      else if constexpr (std::is_integral_v<T>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(U<T>(x) - U<T>(y)); });
      else return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(x - y); });
    case BinaryOp::Mul:
      if constexpr (std::is_same_v<T, bool>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(x && y); });
      else if constexpr (std::is_integral_v<T>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(U<T>(x) * U<T>(y)); });
      else return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(x * y); });
    case BinaryOp::Div:
      // Integer division is not routed here: the ops layer computes true division in floating point.
      if constexpr (std::is_floating_point_v<C>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(x / y); });
      break;
    case BinaryOp::Pow:
      if constexpr (std::is_floating_point_v<C>) {
        return binary_typed<T, T, Loops::StridedOnly>(out, a, b, [](C x, C y) { return C(std::pow(x, y)); });
      } else {
        return binary_typed<T, T, Loops::StridedOnly>(out, a, b, [](C x, C y) { return int_pow<T>(x, y); });
      }
    case BinaryOp::Maximum:
      return binary_typed<T, T>(out, a, b, [](C x, C y) {
        if constexpr (std::is_floating_point_v<C>) {
          if (std::isnan(x) || std::isnan(y)) return C(NAN);
        }
        return x > y ? x : y;
      });
    case BinaryOp::Minimum:
      return binary_typed<T, T>(out, a, b, [](C x, C y) {
        if constexpr (std::is_floating_point_v<C>) {
          if (std::isnan(x) || std::isnan(y)) return C(NAN);
        }
        return x < y ? x : y;
      });
    case BinaryOp::Eq: return binary_typed<T, bool>(out, a, b, [](C x, C y) { return x == y; });
    case BinaryOp::Ne: return binary_typed<T, bool>(out, a, b, [](C x, C y) { return x != y; });
    case BinaryOp::Lt: return binary_typed<T, bool>(out, a, b, [](C x, C y) { return x < y; });
    case BinaryOp::Le: return binary_typed<T, bool>(out, a, b, [](C x, C y) { return x <= y; });
    case BinaryOp::Gt: return binary_typed<T, bool>(out, a, b, [](C x, C y) { return x > y; });
    case BinaryOp::Ge: return binary_typed<T, bool>(out, a, b, [](C x, C y) { return x >= y; });
    case BinaryOp::Atan2:
      if constexpr (std::is_floating_point_v<C>) return binary_typed<T, T, Loops::StridedOnly>(out, a, b, [](C x, C y) { return C(std::atan2(x, y)); });
      break;
    case BinaryOp::Fmod:
      if constexpr (std::is_floating_point_v<C>) return binary_typed<T, T, Loops::StridedOnly>(out, a, b, [](C x, C y) { return C(std::fmod(x, y)); });
      else if constexpr (!std::is_same_v<T, bool>) return binary_typed<T, T, Loops::StridedOnly>(out, a, b, [](C x, C y) { return int_mod<T>(x, y, false); });
      break;
    case BinaryOp::Remainder:
      if constexpr (std::is_floating_point_v<C>) {
        return binary_typed<T, T, Loops::StridedOnly>(out, a, b, [](C x, C y) {
          C r = std::fmod(x, y);
          return (r != 0 && ((r < 0) != (y < 0))) ? C(r + y) : r;
        });
      } else if constexpr (!std::is_same_v<T, bool>) {
        return binary_typed<T, T, Loops::StridedOnly>(out, a, b, [](C x, C y) { return int_mod<T>(x, y, true); });
      }
      break;
    case BinaryOp::FloorDivide:
      if constexpr (std::is_floating_point_v<C>) return binary_typed<T, T, Loops::StridedOnly>(out, a, b, [](C x, C y) { return float_floor_div<C>(x, y); });
      else if constexpr (!std::is_same_v<T, bool>) return binary_typed<T, T, Loops::StridedOnly>(out, a, b, [](C x, C y) { return int_floor_div<T>(x, y); });
      break;
    case BinaryOp::BitAnd:
      if constexpr (std::is_same_v<T, bool>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(x && y); });
      else if constexpr (std::is_integral_v<T>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(x & y); });
      break;
    case BinaryOp::BitOr:
      if constexpr (std::is_same_v<T, bool>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(x || y); });
      else if constexpr (std::is_integral_v<T>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(x | y); });
      break;
    case BinaryOp::LeftShift:
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return shift_left<T>(x, y); });
      break;
    case BinaryOp::RightShift:
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return shift_right<T>(x, y); });
      break;
    case BinaryOp::BitXor:
      if constexpr (std::is_same_v<T, bool>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(x != y); });
      else if constexpr (std::is_integral_v<T>) return binary_typed<T, T>(out, a, b, [](C x, C y) { return C(x ^ y); });
      break;
    case BinaryOp::ReluGrad:
      if constexpr (std::is_floating_point_v<C>) return binary_typed<T, T>(out, a, b, [](C g, C y) { return y <= 0 ? C(0) : g; });
      break;
  }
  throw std::logic_error("binary kernel: unsupported dtype for this op");
}

// The vectorised a + alpha * b of the machine's instruction set (float and double).
template <typename T>
bool add_scaled_simd(const Tensor& out, const Tensor& a, const Tensor& b, double alpha) {
  const simd::AxpyLoop loop = simd::axpy_loop<T>();
  return loop && run_binary_simd<T>(out, a, b,
                                    [loop, alpha](char* o, char* x, char* y, int64_t so, int64_t sx, int64_t sy,
                                                  int64_t n) { loop(o, x, y, so, sx, sy, n, alpha); });
}

// An integer alpha as the element type, wrapping like the arithmetic (alpha_check let only whole
// numbers through for integer results; anything beyond int64 saturates instead of being UB).
template <typename T>
U<T> integer_alpha(double alpha) {
  constexpr double kTop = 9223372036854775808.0;  // 2^63
  const int64_t v = alpha >= kTop ? std::numeric_limits<int64_t>::max()
                    : alpha < -kTop || std::isnan(alpha) ? std::numeric_limits<int64_t>::min()
                                                         : static_cast<int64_t>(alpha);
  return static_cast<U<T>>(static_cast<uint64_t>(v));
}

template <typename T>
void add_scaled_dispatch(const Tensor& out, const Tensor& a, const Tensor& b, double alpha) {
  using C = opmath_t<T>;
  if (add_scaled_simd<T>(out, a, b, alpha)) return;
  if constexpr (std::is_same_v<T, bool>) {
    const bool s = alpha != 0;
    binary_typed<T, T>(out, a, b, [s](C x, C y) { return C(x || (s && y)); });
  } else if constexpr (std::is_integral_v<T>) {
    // In 64 unsigned bits: a 16-bit product would be promoted to (and overflow) a signed int.
    const uint64_t s = integer_alpha<T>(alpha);
    binary_typed<T, T>(out, a, b, [s](C x, C y) {
      return C(static_cast<U<T>>(uint64_t(U<T>(x)) + s * uint64_t(U<T>(y))));
    });
  } else {
    // The 16-bit floats compute in float (their opmath type) and round once on store.
    const C s = static_cast<C>(alpha);
    binary_typed<T, T>(out, a, b, [s](C x, C y) { return C(x + s * y); });
  }
}

template <typename T, Loops L = Loops::Vectorised, typename F>
void unary_typed(const Tensor& out, const Tensor& a, F f) {
  if (direct_output(out) && direct_stride(a, out, sizeof(T)) == int64_t(sizeof(T))) {
    T* o = static_cast<T*>(out.raw_data());
    const T* x = static_cast<const T*>(a.raw_data());
    for (int64_t i = 0, n = out.numel(); i < n; ++i) o[i] = f(x[i]);
    return;
  }
  StridedOperands<2> op;
  op.shape = out.shape();
  op.strides = {broadcast_byte_strides(out, out.shape()), broadcast_byte_strides(a, out.shape())};
  op.data = {static_cast<char*>(out.raw_data()), static_cast<char*>(a.raw_data())};
  parallel_for_each_block(op, [&](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n,
                                  std::array<int64_t, 2> os, int64_t rows) {
    for (int64_t r = 0; r < rows; ++r) {
      char* po = p[0] + r * os[0];
      const char* pa = p[1] + r * os[1];
      if constexpr (L == Loops::Vectorised) {
        if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
          T* o = reinterpret_cast<T*>(po);
          const T* x = reinterpret_cast<const T*>(pa);
          for (int64_t i = 0; i < n; ++i) o[i] = f(x[i]);
          continue;
        }
      }
      for (int64_t i = 0; i < n; ++i) {
        *reinterpret_cast<T*>(po + i * s[0]) = f(*reinterpret_cast<const T*>(pa + i * s[1]));
      }
    }
  });
}

template <typename T>
void unary_dispatch(UnaryOp op, const Tensor& out, const Tensor& a) {
  using C = opmath_t<T>;
  if (unary_simd<T>(op, out, a)) return;
  if constexpr (std::is_floating_point_v<C>) {
    switch (op) {
      case UnaryOp::Exp: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::exp(x); });
      case UnaryOp::Log: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::log(x); });
      case UnaryOp::Sqrt: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::sqrt(x); });
      case UnaryOp::Sin: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::sin(x); });
      case UnaryOp::Cos: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::cos(x); });
      case UnaryOp::Tanh: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::tanh(x); });
      case UnaryOp::Sigmoid:
        // float (and the 16-bit floats computed in it) in double, rounded once: in float the
        // roundings of exp, the sum and the quotient add up past 2 ulp. Same answer as the
        // vectorised loops' compensated form to within an ulp.
        return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) {
          if constexpr (std::is_same_v<C, float>) return C(1.0 / (1.0 + std::exp(-static_cast<double>(x))));
          else return C(C(1) / (C(1) + std::exp(-x)));
        });
      case UnaryOp::Reciprocal: return unary_typed<T>(out, a, [](C x) { return C(1) / x; });
      case UnaryOp::Exp2: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::exp2(x); });
      case UnaryOp::Expm1: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::expm1(x); });
      case UnaryOp::Log2: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::log2(x); });
      case UnaryOp::Log10:
        // float in double, rounded once: glibc's log10f reaches 2.01 ulp.
        return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) {
          if constexpr (std::is_same_v<C, float>) return C(std::log10(static_cast<double>(x)));
          else return C(std::log10(x));
        });
      case UnaryOp::Log1p: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::log1p(x); });
      case UnaryOp::Rsqrt: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return C(1) / std::sqrt(x); });
      case UnaryOp::Tan: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::tan(x); });
      case UnaryOp::Asin: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::asin(x); });
      case UnaryOp::Acos: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::acos(x); });
      case UnaryOp::Atan: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::atan(x); });
      case UnaryOp::Sinh: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::sinh(x); });
      case UnaryOp::Cosh: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::cosh(x); });
      case UnaryOp::Erf: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::erf(x); });
      case UnaryOp::Floor: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::floor(x); });
      case UnaryOp::Ceil: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::ceil(x); });
      case UnaryOp::Round: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::nearbyint(x); });  // half to even
      case UnaryOp::Trunc: return unary_typed<T, Loops::StridedOnly>(out, a, [](C x) { return std::trunc(x); });
      default: break;
    }
  }
  switch (op) {
    case UnaryOp::Neg:
      if constexpr (std::is_floating_point_v<C>) return unary_typed<T>(out, a, [](C x) { return C(-x); });
      else if constexpr (!std::is_same_v<T, bool>) return unary_typed<T>(out, a, [](C x) { return C(U<T>(0) - U<T>(x)); });
      break;
    case UnaryOp::Relu:
      // NaN propagates, as in PyTorch (x > 0 is false for NaN, so test the other way round).
      return unary_typed<T>(out, a, [](C x) { return x < C(0) ? C(0) : x; });
    case UnaryOp::Abs:
      if constexpr (std::is_floating_point_v<C>) return unary_typed<T>(out, a, [](C x) { return std::abs(x); });
      else if constexpr (std::is_same_v<T, bool>) return unary_typed<T>(out, a, [](C x) { return x; });
      else return unary_typed<T>(out, a, [](C x) { return C(x < 0 ? U<T>(0) - U<T>(x) : U<T>(x)); });
    case UnaryOp::Sign:
      if constexpr (std::is_same_v<T, bool>) return unary_typed<T>(out, a, [](C x) { return x; });
      else return unary_typed<T>(out, a, [](C x) { return C((T(0) < x) - (x < T(0))); });
    case UnaryOp::BitNot:
      if constexpr (std::is_same_v<T, bool>) return unary_typed<T>(out, a, [](C x) { return C(!x); });
      else if constexpr (std::is_integral_v<T>) return unary_typed<T>(out, a, [](C x) { return C(~x); });
      break;
    default: break;
  }
  throw std::logic_error("unary kernel: unsupported dtype for this op");
}

template <typename D, typename S>
inline D convert(S v) {
  if constexpr (std::is_same_v<D, bool>) {
    return static_cast<opmath_t<S>>(v) != opmath_t<S>(0);
  } else if constexpr (std::is_integral_v<D> && is_float_type_v<S>) {
    // NaN and out-of-range values are undefined behaviour in a C++ cast. x86's conversion (and so
    // PyTorch on it) gives the minimum of int64 for int64 and of int32 otherwise; the narrower
    // types then keep the low bits of that int32 (300.0 -> uint8 44, -1.0 -> uint8 255).
    using Wide = std::conditional_t<sizeof(D) == 8, int64_t, int32_t>;
    constexpr double lo = static_cast<double>(std::numeric_limits<Wide>::min());  // -2^(bits-1), exact
    const double d = static_cast<double>(v);
    const Wide w = (d >= lo && d < -lo) ? static_cast<Wide>(d) : std::numeric_limits<Wide>::min();
    return static_cast<D>(w);
  } else if constexpr (is_reduced_float_v<D> && !is_reduced_float_v<S>) {
    // Through float, as c10::Half(double) does (so a double is rounded twice, as in PyTorch).
    return D(static_cast<float>(v));
  } else {
    return static_cast<D>(static_cast<opmath_t<S>>(v));
  }
}

}  // namespace

void binary(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b) {
  ENGINE_DISPATCH_ALL(a.dtype(), [&](auto tag) { binary_dispatch<decltype(tag)>(op, out, a, b); });
}

void add_scaled(const Tensor& out, const Tensor& a, const Tensor& b, double alpha) {
  ENGINE_DISPATCH_ALL(a.dtype(), [&](auto tag) { add_scaled_dispatch<decltype(tag)>(out, a, b, alpha); });
}

namespace {
// out = a (op) b, or b (op) a when number_first (Sub and Div; Add and Mul commute).
template <typename T>
bool number_run(BinaryOp op, T* out, const T* a, T b, int64_t n, bool number_first) {
  switch (op) {
    case BinaryOp::Add: for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b; return true;
    case BinaryOp::Mul: for (int64_t i = 0; i < n; ++i) out[i] = a[i] * b; return true;
    case BinaryOp::Sub:
      if (number_first) for (int64_t i = 0; i < n; ++i) out[i] = b - a[i];
      else for (int64_t i = 0; i < n; ++i) out[i] = a[i] - b;
      return true;
    case BinaryOp::Div:
      if (number_first) for (int64_t i = 0; i < n; ++i) out[i] = b / a[i];
      else for (int64_t i = 0; i < n; ++i) out[i] = a[i] / b;
      return true;
    default: return false;
  }
}
}  // namespace

bool binary_number(BinaryOp op, const Tensor& out, const Tensor& a, double b, bool number_first) {
  const DType dt = a.dtype();
  if (out.dtype() != dt || !direct_output(out) || !a.is_contiguous() || a.shape() != out.shape()) return false;
  if (dt == DType::Float32) {
    return number_run(op, out.data<float>(), a.data<float>(), static_cast<float>(b), out.numel(), number_first);
  }
  if (dt == DType::Float64) return number_run(op, out.data<double>(), a.data<double>(), b, out.numel(), number_first);
  return false;
}

void unary(UnaryOp op, const Tensor& out, const Tensor& a) {
  ENGINE_DISPATCH_ALL(a.dtype(), [&](auto tag) { unary_dispatch<decltype(tag)>(op, out, a); });
}

void copy(const Tensor& dst, const Tensor& src) {
  if (is_complex(dst.dtype()) || is_complex(src.dtype())) {
    copy_complex(dst, src);
    return;
  }
  ENGINE_DISPATCH_ALL(dst.dtype(), [&](auto dtag) {
    using D = decltype(dtag);
    ENGINE_DISPATCH_ALL(src.dtype(), [&](auto stag) {
      using S = decltype(stag);
      if (direct_output(dst)) {
        const int64_t ss = direct_stride(src, dst, sizeof(S));
        if (ss >= 0) {
          D* o = static_cast<D*>(dst.raw_data());
          const char* x = static_cast<const char*>(src.raw_data());
          for (int64_t i = 0, n = dst.numel(); i < n; ++i) o[i] = convert<D>(*reinterpret_cast<const S*>(x + i * ss));
          return;
        }
      }
      StridedOperands<2> op;
      op.shape = dst.shape();
      op.strides = {broadcast_byte_strides(dst, dst.shape()), broadcast_byte_strides(src, dst.shape())};
      op.data = {static_cast<char*>(dst.raw_data()), static_cast<char*>(src.raw_data())};
      parallel_for_each_block(op, [&](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n,
                                      std::array<int64_t, 2> os, int64_t rows) {
        for (int64_t r = 0; r < rows; ++r) {
          char* po = p[0] + r * os[0];
          const char* ps = p[1] + r * os[1];
          if (s[0] == sizeof(D) && s[1] == sizeof(S)) {
            D* o = reinterpret_cast<D*>(po);
            const S* x = reinterpret_cast<const S*>(ps);
            for (int64_t i = 0; i < n; ++i) o[i] = convert<D>(x[i]);
          } else if (s[0] == sizeof(D) && s[1] == 0) {  // a broadcast value (an expanded gradient)
            D* o = reinterpret_cast<D*>(po);
            std::fill(o, o + n, convert<D>(*reinterpret_cast<const S*>(ps)));
          } else {
            for (int64_t i = 0; i < n; ++i) {
              *reinterpret_cast<D*>(po + i * s[0]) = convert<D>(*reinterpret_cast<const S*>(ps + i * s[1]));
            }
          }
        }
      });
    });
  });
}

void fill(const Tensor& dst, double value) {
  if (is_complex(dst.dtype())) {
    fill_complex(dst, value, 0.0);
    return;
  }
  ENGINE_DISPATCH_ALL(dst.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T v = convert<T>(value);
    if (direct_output(dst)) {
      std::fill(static_cast<T*>(dst.raw_data()), static_cast<T*>(dst.raw_data()) + dst.numel(), v);
      return;
    }
    StridedOperands<1> op;
    op.shape = dst.shape();
    op.strides = {broadcast_byte_strides(dst, dst.shape())};
    op.data = {static_cast<char*>(dst.raw_data())};
    parallel_for_each_run(op, [&](std::array<char*, 1> p, std::array<int64_t, 1> s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(p[0] + i * s[0]) = v;
    });
  });
}

namespace {
char* element_ptr(const Tensor& t, int64_t flat) {
  int64_t off = 0;
  for (size_t d = t.shape().size(); d-- > 0;) {
    const int64_t s = t.shape()[d];
    off += (flat % s) * t.strides()[d];
    flat /= s;
  }
  return static_cast<char*>(t.raw_data()) + off * static_cast<int64_t>(itemsize(t.dtype()));
}
}  // namespace

double read_double(const Tensor& t, int64_t flat_index) {
  char* p = element_ptr(t, flat_index);
  return ENGINE_DISPATCH_ALL(t.dtype(), [&](auto tag) { return static_cast<double>(*reinterpret_cast<decltype(tag)*>(p)); });
}

int64_t read_int(const Tensor& t, int64_t flat_index) {
  char* p = element_ptr(t, flat_index);
  return ENGINE_DISPATCH_ALL(t.dtype(), [&](auto tag) { return static_cast<int64_t>(*reinterpret_cast<decltype(tag)*>(p)); });
}

}  // namespace engine::kernels
