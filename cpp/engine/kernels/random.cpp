// Floating-point contraction must stay off in this file: PyTorch's values depend on exactly
// which multiply-adds are fused, so every fused one is an explicit std::fma/std::fmaf below and
// nothing else may be fused, whatever -m/-march flags the build passes. For the same reason
// CMake must never build this file with -ffast-math (or -Ofast, -funsafe-math-optimizations,
// -ffp-contract=fast): reassociation and dropped signed zeros change the bits.
// These pragmas come before every #include so that the inline functions of the standard headers
// get the same options as this file (GCC may refuse to inline across mismatched options).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#elif defined(_MSC_VER)
#pragma fp_contract(off)
#endif

#include "engine/kernels/random.h"

#include "engine/core/half.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

// With excess precision (x87), float expressions would be evaluated in long double and round
// differently from PyTorch's SSE/AVX arithmetic.
#if defined(FLT_EVAL_METHOD) && (FLT_EVAL_METHOD == 1 || FLT_EVAL_METHOD == 2)
#error "random.cpp needs float/double evaluated in their own precision (SSE2 or better)"
#endif

namespace engine {

namespace {

constexpr double kPi = 3.14159265358979323846;  // c10::pi<double>

uint32_t float_bits(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

float bits_float(uint32_t b) {
  float x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

}  // namespace

// ------------------------------------------------------------------------------------------
// Generator
// ------------------------------------------------------------------------------------------

Generator::Generator() : Generator(kDefaultSeed) {}

Generator::Generator(uint64_t seed) { manual_seed(seed); }

void Generator::manual_seed(uint64_t seed) {
  seed_ = seed;
  next_double_normal_.reset();
  next_float_normal_.reset();
  // init_genrand on the low word, as in at::mt19937's constructor.
  state_[0] = static_cast<uint32_t>(seed & 0xffffffffu);
  for (int i = 1; i < kN; ++i) {
    const uint32_t prev = state_[i - 1];
    state_[i] = 1812433253u * (prev ^ (prev >> 30)) + static_cast<uint32_t>(i);
  }
  next_ = kN;  // first draw twists, like at::mt19937 (left_ = 1)
}

namespace {

// PyTorch's CPUGeneratorImplState: the legacy TH generator record followed by the float cache.
struct TorchCpuGeneratorState {
  uint64_t the_initial_seed;
  int32_t left;
  int32_t seeded;
  uint64_t next;
  uint64_t state[624];
  double normal_x;
  double normal_y;
  double normal_rho;
  int32_t normal_is_valid;
  float next_float_normal_sample;
  bool is_next_float_normal_sample_valid;
};
static_assert(sizeof(TorchCpuGeneratorState) == Generator::kStateBytes, "PyTorch's generator state is 5056 bytes");

}  // namespace

void Generator::get_state(uint8_t* out) const {
  TorchCpuGeneratorState s{};
  s.the_initial_seed = seed_;
  // at::mt19937 counts down `left` to the next twist and reads state[next]: right after a
  // twist left is 624 and next 0; "twist before the next draw" is left == 1.
  s.left = next_ >= kN ? 1 : kN + 1 - next_;
  s.seeded = 1;
  s.next = static_cast<uint64_t>(next_ >= kN ? 0 : next_);
  for (int i = 0; i < kN; ++i) s.state[i] = state_[i];
  s.normal_is_valid = next_double_normal_.has_value();
  s.normal_y = next_double_normal_.value_or(0.0);
  s.is_next_float_normal_sample_valid = next_float_normal_.has_value();
  s.next_float_normal_sample = next_float_normal_.value_or(0.0f);
  std::memcpy(out, &s, sizeof(s));
}

void Generator::set_state(const uint8_t* in) {
  TorchCpuGeneratorState s;
  std::memcpy(&s, in, sizeof(s));
  seed_ = s.the_initial_seed;
  for (int i = 0; i < kN; ++i) state_[i] = static_cast<uint32_t>(s.state[i]);
  const bool twist_next = s.left <= 1 || s.left > kN || s.next >= static_cast<uint64_t>(kN);
  next_ = twist_next ? kN : static_cast<int>(s.next);
  next_double_normal_.reset();
  if (s.normal_is_valid) next_double_normal_ = s.normal_y;
  next_float_normal_.reset();
  if (s.is_next_float_normal_sample_valid) next_float_normal_ = s.next_float_normal_sample;
}

void Generator::twist() {
  constexpr int kM = 397;
  constexpr uint32_t kUpper = 0x80000000u;
  constexpr uint32_t kLower = 0x7fffffffu;
  constexpr uint32_t kMatrixA = 0x9908b0dfu;
  auto mix = [](uint32_t a, uint32_t b, uint32_t far) {
    const uint32_t y = (a & kUpper) | (b & kLower);
    return far ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
  };
  int i = 0;
  for (; i < kN - kM; ++i) state_[i] = mix(state_[i], state_[i + 1], state_[i + kM]);
  for (; i < kN - 1; ++i) state_[i] = mix(state_[i], state_[i + 1], state_[i + kM - kN]);
  state_[kN - 1] = mix(state_[kN - 1], state_[0], state_[kM - 1]);
  next_ = 0;
}

uint32_t Generator::random() {
  if (next_ >= kN) twist();
  uint32_t y = state_[next_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

uint64_t Generator::random64() {
  const uint64_t hi = random();
  const uint64_t lo = random();
  return (hi << 32) | lo;
}

double Generator::uniform_double() {
  constexpr uint64_t kMask = (uint64_t{1} << 53) - 1;
  return static_cast<double>(random64() & kMask) * (1.0 / 9007199254740992.0);
}

float Generator::uniform_float() {
  constexpr uint32_t kMask = (uint32_t{1} << 24) - 1;
  return static_cast<float>(random() & kMask) * (1.0f / 16777216.0f);
}

double Generator::normal_double() {
  if (next_double_normal_) {
    const double v = *next_double_normal_;
    next_double_normal_.reset();
    return v;
  }
  // at::normal_distribution<double>: the first uniform gives the angle, the second the radius.
  const double u1 = uniform_double();
  const double u2 = uniform_double();
  const double r = std::sqrt(-2.0 * std::log1p(-u2));
  const double theta = 2.0 * kPi * u1;
  next_double_normal_ = r * std::sin(theta);
  return r * std::cos(theta);
}

Generator& default_generator() {
  static Generator gen;
  return gen;
}

namespace kernels {

namespace {

// ------------------------------------------------------------------------------------------
// float32 normal, n >= 16: normal_fill_16_AVX2 with avx_mathfun.h's log256_ps/sincos256_ps,
// one lane at a time. The fmaf calls sit exactly where GCC fused PyTorch's mul+add pairs.
// ------------------------------------------------------------------------------------------

// avx_mathfun's constants are double literals rounded to float; writing them as float literals
// could round differently (decimal -> float directly), hence the casts.
constexpr float kSqrtHf = static_cast<float>(0.707106781186547524);
constexpr float kLogP0 = static_cast<float>(7.0376836292E-2);
constexpr float kLogP1 = static_cast<float>(-1.1514610310E-1);
constexpr float kLogP2 = static_cast<float>(1.1676998740E-1);
constexpr float kLogP3 = static_cast<float>(-1.2420140846E-1);
constexpr float kLogP4 = static_cast<float>(1.4249322787E-1);
constexpr float kLogP5 = static_cast<float>(-1.6668057665E-1);
constexpr float kLogP6 = static_cast<float>(2.0000714765E-1);
constexpr float kLogP7 = static_cast<float>(-2.4999993993E-1);
constexpr float kLogP8 = static_cast<float>(3.3333331174E-1);
constexpr float kLogQ1 = static_cast<float>(-2.12194440e-4);
constexpr float kLogQ2 = static_cast<float>(0.693359375);
constexpr float kMinusDp1 = static_cast<float>(-0.78515625);
constexpr float kMinusDp2 = static_cast<float>(-2.4187564849853515625e-4);
constexpr float kMinusDp3 = static_cast<float>(-3.77489497744594108e-8);
constexpr float kSinP0 = static_cast<float>(-1.9515295891E-4);
constexpr float kSinP1 = static_cast<float>(8.3321608736E-3);
constexpr float kSinP2 = static_cast<float>(-1.6666654611E-1);
constexpr float kCosP0 = static_cast<float>(2.443315711809948E-005);
constexpr float kCosP1 = static_cast<float>(-1.388731625493765E-003);
constexpr float kCosP2 = static_cast<float>(4.166664568298827E-002);
constexpr float kFourOverPi = static_cast<float>(1.27323954473516);
constexpr float kTwoPiF = static_cast<float>(2.0 * kPi);

// log256_ps for x in [2^-24, 1] (x = 1 - u with u a 24-bit uniform), so its clamp of
// denormals and its NaN mask for x <= 0 never apply.
inline float log_avx2(float x) {
  const uint32_t bits = float_bits(x);
  float e = static_cast<float>(static_cast<int32_t>(bits >> 23) - 0x7f);
  e = e + 1.0f;
  const float m = bits_float((bits & ~0x7f800000u) | float_bits(0.5f));  // in [0.5, 1)
  float t = m - 1.0f;
  if (m < kSqrtHf) {
    e = e - 1.0f;
    t = t + m;
  }
  const float z = t * t;
  float y = kLogP0;
  y = std::fmaf(y, t, kLogP1);
  y = std::fmaf(y, t, kLogP2);
  y = std::fmaf(y, t, kLogP3);
  y = std::fmaf(y, t, kLogP4);
  y = std::fmaf(y, t, kLogP5);
  y = std::fmaf(y, t, kLogP6);
  y = std::fmaf(y, t, kLogP7);
  y = std::fmaf(y, t, kLogP8);
  y = y * t;
  y = std::fmaf(y, z, e * kLogQ1);
  y = std::fmaf(-z, 0.5f, y);
  const float r = t + y;
  return std::fmaf(e, kLogQ2, r);
}

inline void sincos_avx2(float x, float* s, float* c) {
  bool neg_sin = std::signbit(x);
  x = std::fabs(x);
  int32_t j = static_cast<int32_t>(x * kFourOverPi);  // cvttps: truncation
  j = (j + 1) & ~1;
  const float jf = static_cast<float>(j);
  neg_sin = neg_sin != ((j & 4) != 0);
  const bool neg_cos = ((j - 2) & 4) == 0;
  const bool sin_poly_for_sin = (j & 2) == 0;

  x = std::fmaf(jf, kMinusDp1, x);
  x = std::fmaf(jf, kMinusDp2, x);
  x = std::fmaf(jf, kMinusDp3, x);
  const float z = x * x;

  float yc = std::fmaf(kCosP0, z, kCosP1);
  yc = std::fmaf(yc, z, kCosP2);
  yc = yc * z;
  yc = std::fmaf(yc, z, -(z * 0.5f));
  yc = yc + 1.0f;

  float ys = std::fmaf(kSinP0, z, kSinP1);
  ys = std::fmaf(ys, z, kSinP2);
  ys = ys * z;
  ys = std::fmaf(ys, x, x);

  // sincos256_ps selects by masking and adding +0.0f, which turns -0 into +0; "+ 0.0f" keeps
  // that (the compiler may not drop it without -fno-signed-zeros).
  float sv = (sin_poly_for_sin ? ys : yc) + 0.0f;
  float cv = (sin_poly_for_sin ? yc : ys) + 0.0f;
  if (neg_sin) sv = -sv;
  if (neg_cos) cv = -cv;
  *s = sv;
  *c = cv;
}

void normal_fill_16_avx2(float* d, float mean, float std) {
  for (int j = 0; j < 8; ++j) {
    const float u1 = 1.0f - d[j];  // (0, 1] for the log
    const float u2 = d[j + 8];
    const float radius = std::sqrt(-2.0f * log_avx2(u1));
    const float theta = kTwoPiF * u2;
    float s, c;
    sincos_avx2(theta, &s, &c);
    d[j] = std::fmaf(radius * c, std, mean);
    d[j + 8] = std::fmaf(radius * s, std, mean);
  }
}

// float64 normal, n >= 16: normal_fill_16<double>; the final "* std + mean" is fused.
void normal_fill_16_double(double* d, double mean, double std) {
  for (int j = 0; j < 8; ++j) {
    const double u1 = 1.0 - d[j];
    const double u2 = d[j + 8];
    const double radius = std::sqrt(-2.0 * std::log(u1));
    const double theta = 2.0 * kPi * u2;
    d[j] = std::fma(radius * std::cos(theta), std, mean);
    d[j + 8] = std::fma(radius * std::sin(theta), std, mean);
  }
}

// PyTorch's normal_fill / normal_fill_AVX2 skeleton: n uniforms first, every full block of 16
// transformed in place, then (n % 16 != 0) 16 fresh uniforms overwrite the last 16 slots.
template <typename T, typename Uniform, typename Block>
void normal_fill(T* out, int64_t n, Uniform uniform, Block block) {
  for (int64_t i = 0; i < n; ++i) out[i] = uniform();
  for (int64_t i = 0; i + 16 <= n; i += 16) block(out + i);
  if (n % 16 != 0) {
    T* tail = out + n - 16;
    for (int i = 0; i < 16; ++i) tail[i] = uniform();
    block(tail);
  }
}

template <typename T>
void normal_per_element(Generator& gen, T* out, int64_t n, double mean, double std) {
  for (int64_t i = 0; i < n; ++i) {
    out[i] = static_cast<T>(std::fma(gen.normal_double(), std, mean));
  }
}

// static_cast<int64_t> of an out-of-range float is UB in C++; PyTorch's update_from/update_to
// rely on what x86's cvttss2si/cvttsd2si return then (INT64_MIN), so that is reproduced.
template <typename F>
int64_t to_int64_like_x86(F v) {
  if (!(v >= static_cast<F>(-9223372036854775808.0) && v < static_cast<F>(9223372036854775808.0))) {
    return std::numeric_limits<int64_t>::min();
  }
  return static_cast<int64_t>(v);
}

int bit_length_minus_1(uint64_t v) {
  int n = 0;
  while (v >>= 1) ++n;
  return n;
}

uint64_t magnitude(int64_t v) {
  return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

template <typename F>
int64_t update_from(int64_t from) {
  constexpr int kDigits = std::numeric_limits<F>::digits;
  const int64_t from_plus_1 = static_cast<int64_t>(static_cast<uint64_t>(from) + 1);
  const int64_t rounded = to_int64_like_x86(static_cast<F>(from_plus_1));
  if (rounded < from) {
    const int shift = bit_length_minus_1(magnitude(from_plus_1)) - kDigits + 1;
    // Wrapping arithmetic, as PyTorch's two's-complement int64: no undefined overflow at the ends.
    if (shift >= 0) from = static_cast<int64_t>(static_cast<uint64_t>(rounded) + (uint64_t{1} << shift));
  }
  return from;
}

template <typename F>
int64_t update_to(int64_t to) {
  constexpr int kDigits = std::numeric_limits<F>::digits;
  const int64_t to_minus_1 = static_cast<int64_t>(static_cast<uint64_t>(to) - 1);
  const int64_t rounded = to_int64_like_x86(static_cast<F>(to_minus_1));
  if (rounded >= to) {
    const int shift = bit_length_minus_1(magnitude(to_minus_1)) - kDigits + 1;
    if (shift >= 0) to = static_cast<int64_t>(static_cast<uint64_t>(rounded) - (uint64_t{1} << shift));
  }
  return to;
}

template <typename T>
void random_from_to(Generator& gen, T* out, int64_t n, int64_t low, int64_t high) {
  if (!(low < high)) {
    throw std::runtime_error("random_ expects 'from' to be less than 'to', but got from=" +
                                std::to_string(low) + " >= to=" + std::to_string(high));
  }
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  const uint64_t base = static_cast<uint64_t>(low);
  // transformation::uniform_int_from_to: (w % range) + base, wrapped to int64, then cast.
  if (range >= (uint64_t{1} << 28)) {
    for (int64_t i = 0; i < n; ++i) {
      out[i] = static_cast<T>(static_cast<int64_t>(gen.random64() % range + base));
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      out[i] = static_cast<T>(static_cast<int64_t>(gen.random() % range + base));
    }
  }
}

}  // namespace

void fill_uniform(Generator& gen, float* out, int64_t n, double from, double to) {
  const float f = static_cast<float>(from);
  const float span = static_cast<float>(to) - f;
  for (int64_t i = 0; i < n; ++i) out[i] = std::fmaf(gen.uniform_float(), span, f);
}

void fill_uniform(Generator& gen, double* out, int64_t n, double from, double to) {
  const double span = to - from;
  for (int64_t i = 0; i < n; ++i) out[i] = std::fma(gen.uniform_double(), span, from);
}

void fill_normal(Generator& gen, float* out, int64_t n, double mean, double std,
                 bool vector_path_ok) {
  if (vector_path_ok && n >= 16) {
    const float m = static_cast<float>(mean);
    const float s = static_cast<float>(std);
    normal_fill(
        out, n, [&gen] { return gen.uniform_float(); },
        [m, s](float* block) { normal_fill_16_avx2(block, m, s); });
  } else {
    normal_per_element(gen, out, n, mean, std);
  }
}

void fill_normal(Generator& gen, double* out, int64_t n, double mean, double std,
                 bool vector_path_ok) {
  if (vector_path_ok && n >= 16) {
    normal_fill(
        out, n, [&gen] { return gen.uniform_double(); },
        [mean, std](double* block) { normal_fill_16_double(block, mean, std); });
  } else {
    normal_per_element(gen, out, n, mean, std);
  }
}

void fill_random_from_to(Generator& gen, int64_t* out, int64_t n, int64_t low, int64_t high) {
  random_from_to(gen, out, n, low, high);
}
void fill_random_from_to(Generator& gen, int32_t* out, int64_t n, int64_t low, int64_t high) {
  random_from_to(gen, out, n, low, high);
}
void fill_random_from_to(Generator& gen, float* out, int64_t n, int64_t low, int64_t high) {
  random_from_to(gen, out, n, low, high);
}
void fill_random_from_to(Generator& gen, double* out, int64_t n, int64_t low, int64_t high) {
  random_from_to(gen, out, n, low, high);
}

int64_t random_update_from_float32(int64_t from) { return update_from<float>(from); }
int64_t random_update_to_float32(int64_t to) { return update_to<float>(to); }
int64_t random_update_from_float64(int64_t from) { return update_from<double>(from); }
int64_t random_update_to_float64(int64_t to) { return update_to<double>(to); }
int64_t random_update_from_float16(int64_t from) { return update_from<Half>(from); }
int64_t random_update_to_float16(int64_t to) { return update_to<Half>(to); }
int64_t random_update_from_bfloat16(int64_t from) { return update_from<BFloat16>(from); }
int64_t random_update_to_bfloat16(int64_t to) { return update_to<BFloat16>(to); }

void fill_randperm(Generator& gen, int64_t* out, int64_t n) {
  constexpr int64_t kLarge = int64_t{0xFFFFFFFF} / 20;  // PyTorch: uint32 max / 20
  if (n < kLarge) {
    for (int64_t i = 0; i < n; ++i) out[i] = i;
    for (int64_t i = 0; i + 1 < n; ++i) {
      const int64_t z = static_cast<int64_t>(gen.random() % static_cast<uint64_t>(n - i));
      std::swap(out[i], out[z + i]);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t z = static_cast<int64_t>(gen.random64() % static_cast<uint64_t>(i + 1));
    out[i] = out[z];
    out[z] = i;
  }
}

}  // namespace kernels

}  // namespace engine
