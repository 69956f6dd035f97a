#pragma once
// F.linear as one op (linear.cpp).
#include <optional>

#include "engine/core/tensor.h"

namespace engine::ops {

// x @ w^T + b in one GEMM and one node for float32/float64 inputs; other inputs are composed
// from matmul and add, with their semantics.
Tensor linear(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b);

// Makes `out` (beta * self + alpha * (mat1 @ mat2), computed without recording) the output of an
// AddmmBackward0 node of (self, mat1, mat2), as PyTorch records addmm, when any of them requires
// grad and grad mode is on.
void record_addmm(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2, double beta,
                  double alpha);

}  // namespace engine::ops
