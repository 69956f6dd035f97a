#pragma once
// Which elements PyTorch's CPU topk and kthvalue pick, and in what order. Among equal values (and
// NaNs) the answer depends on the exact selection algorithm, so these run the same ones:
// std::partial_sort / std::nth_element (+ std::sort) for topk, a median-of-three quickselect for
// kthvalue. Both take rows (a contiguous 2-D tensor, one slice per row) and return int64
// positions within each row; the callers gather the values.
#include <cstdint>

#include "engine/core/tensor.h"

namespace engine::ops {

// (rows, k) positions of each row's k largest (or smallest) values, NaN counted as the largest.
Tensor topk_positions(const Tensor& rows, int64_t k, bool largest, bool sorted);
// (rows,) position of each row's k-th smallest value (k counted from 1), NaN counted as the largest.
Tensor kthvalue_positions(const Tensor& rows, int64_t k);

}  // namespace engine::ops
