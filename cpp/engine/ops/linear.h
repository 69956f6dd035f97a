#pragma once
// F.linear as one op (linear.cpp).
#include <optional>

#include "engine/core/tensor.h"

namespace engine::ops {

// x @ w^T + b in one GEMM and one node for float32/float64 inputs; other inputs are composed
// from matmul and add, with their semantics.
Tensor linear(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b);

}  // namespace engine::ops
