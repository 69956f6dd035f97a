#pragma once
// Sum reduction over any set of dimensions, accumulated in double (floats) or int64 (integers).
#include <vector>

#include "engine/core/tensor.h"

namespace engine::kernels {

// out has in's shape with reduced dims set to 1 (keepdim layout), any dtype; `reduce[d]` marks the
// dims to reduce.
void sum(const Tensor& out, const Tensor& in, const std::vector<bool>& reduce);

// Row reductions over a contiguous `in` viewed as [outer, inner]: one result per row, written to the
// contiguous `out` (outer elements). Max / Min propagate NaN and keep in's dtype; Prod accumulates
// in double (floats) or int64 (integers) and writes out's dtype.
enum class RowOp { Prod, Max, Min };
void reduce_rows(RowOp op, const Tensor& out, const Tensor& in, int64_t outer, int64_t inner);
// The index (int64) of the first maximum / minimum of each row (the first NaN, if any); `values`,
// when defined, receives the element there (in's dtype).
void arg_reduce_rows(bool is_max, const Tensor& indices, const Tensor& values, const Tensor& in, int64_t outer,
                     int64_t inner);
// Inclusive running sum / product along each row; out (contiguous, [outer, inner]) may have a
// wider dtype than in.
enum class ScanOp { CumSum, CumProd };
void scan_rows(ScanOp op, const Tensor& out, const Tensor& in, int64_t outer, int64_t inner);

}  // namespace engine::kernels
