#pragma once
// Dispatch for kernels that exist in float and double only (BLAS/LAPACK-backed, im2col, pooling):
// their ops run 16-bit inputs through float32 (see upcast_16bit), so the 16-bit branches of
// ENGINE_DISPATCH_FLOAT never reach them and are not instantiated.
#include <optional>

#include "engine/core/dtype.h"
#include "engine/core/error.h"
#include "engine/core/tensor.h"

#define ENGINE_DISPATCH_FLOAT32_64(DT, ...)                                                            \
  [&] {                                                                                                 \
    ENGINE_CHECK((DT) == ::engine::DType::Float32 || (DT) == ::engine::DType::Float64, std::runtime_error, \
                 "expected a float32 or float64 tensor, got ", ::engine::scalar_type_name(DT));         \
    if ((DT) == ::engine::DType::Float32) return (__VA_ARGS__)(float{});                                \
    return (__VA_ARGS__)(double{});                                                                     \
  }()

namespace engine::ops {

inline bool is_16bit_float(DType d) { return d == DType::Float16 || d == DType::BFloat16; }

}  // namespace engine::ops
