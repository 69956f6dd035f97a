// The AVX-512 copy of the vectorised loops (64-byte vectors); CMake compiles this file alone with
// -mavx512f -mavx512bw -mavx512dq -mavx512vl -mfma. dispatch.cpp picks it only when cpuid reports
// those extensions and the OS saves the zmm and mask registers.
#if defined(__x86_64__) || defined(__i386__)
#define ENGINE_SIMD_NS avx512
#define ENGINE_SIMD_BYTES 64
// Streaming stores for large fresh outputs (loops.inc), through the compiler's builtins.
#define ENGINE_SIMD_STREAM 1
#define ENGINE_SIMD_STREAM_PS __builtin_ia32_movntps512
#define ENGINE_SIMD_STREAM_PD __builtin_ia32_movntpd512
#include "engine/kernels/simd/loops.inc"
#else
#include "engine/kernels/simd/table.h"
namespace engine::kernels::simd::avx512 {
extern const Table table;
const Table table = baseline::table;
}  // namespace engine::kernels::simd::avx512
#endif
