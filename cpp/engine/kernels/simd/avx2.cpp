// The AVX2+FMA copy of the vectorised loops; CMake compiles this file alone with -mavx2 -mfma.
#if defined(__x86_64__) || defined(__i386__)
#define ENGINE_SIMD_NS avx2
// Streaming stores for large fresh outputs (loops.inc), through the compiler's builtins.
#define ENGINE_SIMD_STREAM 1
#define ENGINE_SIMD_STREAM_PS __builtin_ia32_movntps256
#define ENGINE_SIMD_STREAM_PD __builtin_ia32_movntpd256
#include "engine/kernels/simd/loops.inc"
#else
#include "engine/kernels/simd/table.h"
namespace engine::kernels::simd::avx2 {
extern const Table table;
const Table table = baseline::table;
}  // namespace engine::kernels::simd::avx2
#endif
