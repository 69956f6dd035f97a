// Chooses the kernel table once, from cpuid and the register state the OS saves: AVX-512 (F, BW,
// DQ, VL), else AVX2+FMA, else the portable copy. ENGINE_SIMD=avx512|avx2|scalar caps the choice
// (tests run every copy this way); a copy the machine cannot run is never chosen, whatever is asked.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "engine/kernels/simd/table.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace engine::kernels::simd {

namespace {

enum class Level { Baseline = 0, Avx2 = 1, Avx512 = 2 };

#if defined(__x86_64__) || defined(__i386__)
// XCR0: which register files the OS saves on a context switch (instructions using unsaved ones
// fault). Read with the raw opcode's mnemonic so this file needs no -mxsave.
uint64_t xcr0() {
  uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

Level detect() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return Level::Baseline;
  const bool fma = c & bit_FMA, avx = c & bit_AVX, osxsave = c & bit_OSXSAVE;
  if (!osxsave || !avx || __get_cpuid_max(0, nullptr) < 7) return Level::Baseline;
  const uint64_t state = xcr0();
  const bool ymm_saved = (state & 0x6) == 0x6;     // SSE and AVX state
  const bool zmm_saved = (state & 0xe6) == 0xe6;   // and opmask, upper zmm0-15, zmm16-31
  __cpuid_count(7, 0, a, b, c, d);
  const bool avx2 = b & bit_AVX2;
  const bool avx512 = (b & bit_AVX512F) && (b & bit_AVX512BW) && (b & bit_AVX512DQ) && (b & bit_AVX512VL);
  if (!ymm_saved || !avx2 || !fma) return Level::Baseline;
  return avx512 && zmm_saved ? Level::Avx512 : Level::Avx2;
}
#else
Level detect() { return Level::Baseline; }
#endif

// The highest level ENGINE_SIMD allows (unset or unknown: no cap).
Level requested() {
  const char* env = std::getenv("ENGINE_SIMD");
  if (!env) return Level::Avx512;
  if (std::strcmp(env, "scalar") == 0 || std::strcmp(env, "baseline") == 0) return Level::Baseline;
  if (std::strcmp(env, "avx2") == 0) return Level::Avx2;
  return Level::Avx512;
}

const Table& choose() {
  const Level cpu = detect(), cap = requested();
  const Level level = static_cast<int>(cpu) < static_cast<int>(cap) ? cpu : cap;
  switch (level) {
    case Level::Avx512: return avx512::table;
    case Level::Avx2: return avx2::table;
    default: return baseline::table;
  }
}

}  // namespace

const Table& active() {
  static const Table& t = choose();
  return t;
}

}  // namespace engine::kernels::simd
