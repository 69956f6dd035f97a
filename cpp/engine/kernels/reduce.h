#pragma once
// Sum reduction over any set of dimensions, accumulated in double (floats) or int64 (integers).
#include <vector>

#include "engine/core/tensor.h"

namespace engine::kernels {

// out has in's shape with reduced dims set to 1 (keepdim layout), any dtype; `reduce[d]` marks the
// dims to reduce.
void sum(const Tensor& out, const Tensor& in, const std::vector<bool>& reduce);

}  // namespace engine::kernels
