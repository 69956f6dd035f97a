#pragma once
// as_strided with autograd: a view of the input's storage with any size, strides and storage
// offset (PyTorch's AsStridedBackward0). Declared apart from ops.h: only its binding uses it.
#include <optional>

#include "engine/core/tensor.h"

namespace engine::ops {

// The view of `a`'s storage with the given layout; `storage_offset` defaults to a's own.
Tensor as_strided(const Tensor& a, const Dims& size, const Dims& stride, std::optional<int64_t> storage_offset);

}  // namespace engine::ops
