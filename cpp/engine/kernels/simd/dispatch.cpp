// Chooses the kernel table once: AVX2+FMA when the CPU (and OS) support it, unless ENGINE_SIMD=scalar.
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "engine/kernels/simd/table.h"

namespace engine::kernels::simd {

namespace {

const Table& choose() {
  const char* env = std::getenv("ENGINE_SIMD");
  if (env && (std::strcmp(env, "scalar") == 0 || std::strcmp(env, "baseline") == 0)) return baseline::table;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return avx2::table;
#endif
  return baseline::table;
}

}  // namespace

const Table& active() {
  static const Table& t = choose();
  return t;
}

}  // namespace engine::kernels::simd
