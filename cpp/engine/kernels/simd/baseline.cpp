// The portable copy of the vectorised loops (the baseline instruction set of the build).
#define ENGINE_SIMD_NS baseline
#include "engine/kernels/simd/loops.inc"
