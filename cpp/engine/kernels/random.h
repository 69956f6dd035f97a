#pragma once
// PyTorch-compatible CPU random streams: the generator (MT19937, as in
// aten/src/ATen/CPUGeneratorImpl.cpp) and the fill kernels behind rand/randn/randint/uniform_/
// normal_. Values are bit-identical to PyTorch 2.13 on x86-64 with its AVX2 (or AVX512)
// kernels: the FMAs PyTorch's build contracts into those kernels are written out as explicit fma
// calls here, so the results do not depend on the ISA this file is built for or runs on. The one
// exception is inherited from torch: double normals (and the per-element normal path of any
// dtype) call the C library's log/log1p/sin/cos, whose last bit varies between libms and even
// between glibc's FMA and non-FMA variants (~0.05% of values), so they match torch running on
// the same machine rather than everywhere.
//
// Only standard headers on purpose: these kernels know nothing of tensors, so the callers decide
// layout, dtype dispatch and argument checking (PyTorch's messages belong to the callers).
#include <cstdint>
#include <mutex>
#include <optional>

namespace engine {

class Generator {
 public:
  // PyTorch's CPUGeneratorImpl default (c10::detail::default_rng_seed_val). Note that
  // torch's *global* generator is instead seeded from /dev/urandom at start-up, so an unseeded
  // engine stream can never match an unseeded torch stream anyway.
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;

  Generator();
  explicit Generator(uint64_t seed);
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  // Only the low 32 bits reach the engine (torch does the same), yet initial_seed() must return
  // what the user passed, wrapped to uint64 (manual_seed(-1) -> 2^64-1).
  void manual_seed(uint64_t seed);
  uint64_t initial_seed() const { return seed_; }

  // The whole state in PyTorch's CPU layout (CPUGeneratorImplState, 5056 bytes): what
  // torch.get_rng_state() returns, so states move between engine and PyTorch both ways.
  static constexpr size_t kStateBytes = 5056;
  void get_state(uint8_t* out) const;
  // Restores a state written by get_state (or by PyTorch); the caller checks the size.
  void set_state(const uint8_t* in);

  uint32_t random();
  uint64_t random64();        // earlier draw is the high half
  double uniform_double();    // [0,1), 53 bits, 2 draws
  float uniform_float();      // [0,1), 24 bits, 1 draw
  double normal_double();     // standard normal; Box-Muller with a one-value cache

  // The fill functions below do not lock, so that a caller can hold the lock across several
  // fills (PyTorch holds it for a whole kernel).
  std::mutex& mutex() { return mutex_; }

 private:
  static constexpr int kN = 624;
  void twist();

  uint32_t state_[kN];
  int next_ = kN;
  uint64_t seed_ = kDefaultSeed;
  std::optional<double> next_double_normal_;
  // torch keeps a float cache too (no CPU kernel reads it) and it is part of torch's 5056-byte
  // get_rng_state(); kept so that state can be mirrored faithfully.
  std::optional<float> next_float_normal_;
  std::mutex mutex_;
};

// The process-wide generator behind engine.manual_seed / rand / randn / randint.
Generator& default_generator();

namespace kernels {

// All fill functions write n elements to a contiguous buffer, in PyTorch's draw order.
//
// Non-contiguous destinations: PyTorch draws one value per element in TensorIterator order,
// which is *memory* order (dimensions sorted by stride), not the view's row-major order; e.g.
// torch.empty(4, 6).t().normal_() fills the underlying 4x6 storage row by row. Callers fill a
// buffer in that order and scatter it.

// uniform_(from, to): PyTorch computes fma(u, to - from, from) in the element type, with from
// and to first rounded to that type (TransformationHelper.h uniform_real, contracted by the
// compiler in the AVX2/AVX512 kernels). rand is from=0, to=1.
void fill_uniform(Generator& gen, float* out, int64_t n, double from, double to);
void fill_uniform(Generator& gen, double* out, int64_t n, double from, double to);

// normal_(mean, std) / randn. `vector_path_ok` must be false when the destination tensor is not
// contiguous (torch's is_contiguous()): PyTorch then uses the per-element cached Box-Muller
// path for every size. With it true, n >= 16 takes the block path, whose draws differ entirely.
void fill_normal(Generator& gen, float* out, int64_t n, double mean, double std,
                 bool vector_path_ok = true);
void fill_normal(Generator& gen, double* out, int64_t n, double mean, double std,
                 bool vector_path_ok = true);

// random_(low, high) / randint: out = (w % (high - low)) + low with w = random64() when the
// range is >= 2^28, else random() (PyTorch 2.13's DistributionsHelper.h; older releases used
// 2^32). Requires low < high; otherwise throws std::runtime_error with PyTorch's message.
// For floating outputs PyTorch first moves unrepresentable bounds inward: callers pass the
// bounds through the update_* helpers below before checking and calling.
// PyTorch's CPU randperm: a Fisher-Yates pass with random() % (n - i) per position, or past
// (2^32 - 1) / 20 elements an inside-out shuffle with random64() % (i + 1) (the modulo of a
// 32-bit draw would be visibly uneven there). Writes 0..n-1 permuted into out.
void fill_randperm(Generator& gen, int64_t* out, int64_t n);
void fill_random_from_to(Generator& gen, int64_t* out, int64_t n, int64_t low, int64_t high);
void fill_random_from_to(Generator& gen, int32_t* out, int64_t n, int64_t low, int64_t high);
void fill_random_from_to(Generator& gen, float* out, int64_t n, int64_t low, int64_t high);
void fill_random_from_to(Generator& gen, double* out, int64_t n, int64_t low, int64_t high);

// PyTorch's update_from / update_to (aten/src/ATen/native/DistributionTemplates.h) for float32
// and float64 outputs: identity for bounds the dtype represents exactly (|x| <= 2^24 / 2^53).
// Apply each once: they are not idempotent.
int64_t random_update_from_float32(int64_t from);
int64_t random_update_to_float32(int64_t to);
int64_t random_update_from_float64(int64_t from);
int64_t random_update_to_float64(int64_t to);
int64_t random_update_from_float16(int64_t from);
int64_t random_update_to_float16(int64_t to);
int64_t random_update_from_bfloat16(int64_t from);
int64_t random_update_to_bfloat16(int64_t to);

}  // namespace kernels
}  // namespace engine
