#pragma once
// The two 16-bit floating types: IEEE binary16 (Half) and bfloat16 (BFloat16, the top half of a
// float32). Both store 16 bits and compute in float32, as PyTorch's CPU kernels do: each converts
// to float implicitly, and a float converts back with round-to-nearest-even (NaN stays NaN,
// overflow becomes infinity). Arithmetic on them is therefore float arithmetic rounded on store.
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace engine {

namespace half_bits {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

// float -> binary16, rounding to nearest even; NaN keeps a quiet payload, overflow gives infinity,
// tiny values become subnormals (rounded once) or signed zero.
inline uint16_t from_float(float f) {
  const uint32_t x = float_bits(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or NaN
    return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x0200u | ((abs >> 13) & 0x3ffu) : 0u));
  }
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to >= 65520: inf
  if (abs < 0x38800000u) {
    // Below the smallest normal half (2^-14): the result is a multiple of 2^-24. Adding 0.5f
    // aligns the float so its low mantissa bits hold that multiple, rounded by the FPU to even.
    const float aligned = bits_float(abs) + 0.5f;
    return static_cast<uint16_t>(sign | (float_bits(aligned) - float_bits(0.5f)));
  }
  // Normal range: rebias the exponent (127 -> 15) and round the 13 dropped bits to nearest even.
  const uint32_t odd = (abs >> 13) & 1u;
  const uint32_t rounded = abs + 0xfffu + odd;
  return static_cast<uint16_t>(sign | ((rounded - (112u << 23)) >> 13));
}

inline float to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t man = h & 0x3ffu;
  if (exp == 0x1fu) return bits_float(sign | 0x7f800000u | (man << 13));  // inf / NaN
  if (exp == 0) {
    // Zero or subnormal: man * 2^-24, exact in float.
    const float v = static_cast<float>(man) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  return bits_float(sign | ((exp + 112u) << 23) | (man << 13));
}

// float -> bfloat16: the top 16 bits, rounded to nearest even; NaN stays a quiet NaN.
inline uint16_t bf16_from_float(float f) {
  const uint32_t x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x0040u);
  const uint32_t rounded = x + 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(rounded >> 16);
}

inline float bf16_to_float(uint16_t b) { return bits_float(static_cast<uint32_t>(b) << 16); }

}  // namespace half_bits

// Shared by both types: construction from any arithmetic value goes through float (as
// c10::Half's does), compound assignment computes in float and rounds once.
template <typename Self>
struct Float16Ops {
  Self& self() { return static_cast<Self&>(*this); }
  Self& operator+=(float o) { return self() = Self(float(self()) + o); }
  Self& operator-=(float o) { return self() = Self(float(self()) - o); }
  Self& operator*=(float o) { return self() = Self(float(self()) * o); }
  Self& operator/=(float o) { return self() = Self(float(self()) / o); }
};

struct Half : Float16Ops<Half> {
  uint16_t bits;
  Half() = default;
  Half(float f) : bits(half_bits::from_float(f)) {}  // NOLINT: implicit, like c10::Half
  static Half from_bits(uint16_t b) {
    Half h;
    h.bits = b;
    return h;
  }
  operator float() const { return half_bits::to_float(bits); }  // NOLINT
};

struct BFloat16 : Float16Ops<BFloat16> {
  uint16_t bits;
  BFloat16() = default;
  BFloat16(float f) : bits(half_bits::bf16_from_float(f)) {}  // NOLINT
  static BFloat16 from_bits(uint16_t b) {
    BFloat16 h;
    h.bits = b;
    return h;
  }
  operator float() const { return half_bits::bf16_to_float(bits); }  // NOLINT
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2, "16-bit floats must be two bytes");

// Whether T is one of the 16-bit floats, and the type kernels compute T in ("opmath", as PyTorch
// calls it): float for those two, T itself otherwise.
template <typename T> inline constexpr bool is_reduced_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
template <typename T> using opmath_t = std::conditional_t<is_reduced_float_v<T>, float, T>;
// Floating in the kernels' sense: the C++ floating types and the two 16-bit ones.
template <typename T> inline constexpr bool is_float_type_v = std::is_floating_point_v<T> || is_reduced_float_v<T>;

}  // namespace engine

// numeric_limits for the 16-bit floats, for code written against std::numeric_limits<T>.
namespace std {
template <> class numeric_limits<engine::Half> {
 public:
  static constexpr bool is_specialized = true, is_signed = true, is_integer = false, has_infinity = true,
                        has_quiet_NaN = true;
  static constexpr int digits = 11;
  static engine::Half lowest() { return engine::Half::from_bits(0xfbff); }
  static engine::Half max() { return engine::Half::from_bits(0x7bff); }
  static engine::Half min() { return engine::Half::from_bits(0x0400); }
  static engine::Half epsilon() { return engine::Half::from_bits(0x1400); }
  static engine::Half infinity() { return engine::Half::from_bits(0x7c00); }
  static engine::Half quiet_NaN() { return engine::Half::from_bits(0x7e00); }
};
template <> class numeric_limits<engine::BFloat16> {
 public:
  static constexpr bool is_specialized = true, is_signed = true, is_integer = false, has_infinity = true,
                        has_quiet_NaN = true;
  static constexpr int digits = 8;
  static engine::BFloat16 lowest() { return engine::BFloat16::from_bits(0xff7f); }
  static engine::BFloat16 max() { return engine::BFloat16::from_bits(0x7f7f); }
  static engine::BFloat16 min() { return engine::BFloat16::from_bits(0x0080); }
  static engine::BFloat16 epsilon() { return engine::BFloat16::from_bits(0x3c00); }
  static engine::BFloat16 infinity() { return engine::BFloat16::from_bits(0x7f80); }
  static engine::BFloat16 quiet_NaN() { return engine::BFloat16::from_bits(0x7fc0); }
};
}  // namespace std
