#pragma once
// Vectorised inner loops for the hottest elementwise ops, compiled once per instruction set from
// simd/loops.inc into its own namespace (baseline: the portable build; avx2: AVX2+FMA; avx512:
// AVX-512 F/BW/DQ/VL), and picked at start-up from cpuid. ENGINE_SIMD=avx2 or ENGINE_SIMD=scalar
// caps the choice (the tests run every copy the machine has).
//
// A loop takes byte strides like the strided iteration's runs; contiguous and scalar-broadcast
// operands take the vector path, anything else a plain loop. Ops without an entry here run the
// generic loops of elementwise.cpp, so adding an op never requires touching this file.
#include <cstdint>

#include "engine/kernels/elementwise.h"

namespace engine::kernels::simd {

using BinaryLoop = void (*)(char* out, const char* a, const char* b, int64_t so, int64_t sa, int64_t sb, int64_t n);
using UnaryLoop = void (*)(char* out, const char* a, int64_t so, int64_t sa, int64_t n);
// out = a + alpha * b, alpha rounded to the element type first (as PyTorch's opmath does).
using AxpyLoop = void (*)(char* out, const char* a, const char* b, int64_t so, int64_t sa, int64_t sb, int64_t n,
                          double alpha);

struct Table {
  const char* name;
  BinaryLoop (*binary_f32)(BinaryOp);
  BinaryLoop (*binary_f64)(BinaryOp);
  UnaryLoop (*unary_f32)(UnaryOp);
  UnaryLoop (*unary_f64)(UnaryOp);
  double (*sum_f32)(const float* x, int64_t n);
  double (*sum_f64)(const double* x, int64_t n);
  // acc[i] += x[i] widened to double: a float32 sum over outer dims, row by row.
  void (*accumulate_f32)(double* acc, const float* x, int64_t n);
  AxpyLoop axpy_f32;
  AxpyLoop axpy_f64;
  // GELU over contiguous float32 (kernels/gelu_fit.h): with g null, out = x Phi(x); else
  // out = g (Phi(x) + x phi(x)).
  void (*gelu_f32)(float* out, const float* x, const float* g, int64_t n);
};

namespace baseline { extern const Table table; }
namespace avx2 { extern const Table table; }
namespace avx512 { extern const Table table; }

// The table for this machine, capped by ENGINE_SIMD.
const Table& active();

template <typename T>
BinaryLoop binary_loop(BinaryOp op) {
  if constexpr (std::is_same_v<T, float>) return active().binary_f32(op);
  else if constexpr (std::is_same_v<T, double>) return active().binary_f64(op);
  else return nullptr;
}

template <typename T>
AxpyLoop axpy_loop() {
  if constexpr (std::is_same_v<T, float>) return active().axpy_f32;
  else if constexpr (std::is_same_v<T, double>) return active().axpy_f64;
  else return nullptr;
}

template <typename T>
UnaryLoop unary_loop(UnaryOp op) {
  if constexpr (std::is_same_v<T, float>) return active().unary_f32(op);
  else if constexpr (std::is_same_v<T, double>) return active().unary_f64(op);
  else return nullptr;
}

}  // namespace engine::kernels::simd
