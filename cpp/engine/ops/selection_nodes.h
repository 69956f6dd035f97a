#pragma once
// Selections as one node each, with PyTorch's names and saved attributes, attached to values the
// caller computed without history (engine/_sorting.py, _scatter_ops.py, _shape_ops.py keep the
// argument checks): kthvalue / median along a dim (KthvalueBackward0, MedianBackward1), median
// of all elements (MedianBackward0), masked_select (MaskedSelectBackward0), roll (RollBackward0).
#include <cstdint>

#include "engine/core/tensor.h"

namespace engine::ops {

// `indices`: the positions picked along `dim` (wrapped), shaped like `out`; `given_dim` as the
// caller wrote it (shown as _saved_dim).
void record_value_selection(const Tensor& out, const char* name, const Tensor& self, const Tensor& indices,
                            int64_t dim, int64_t given_dim, bool keepdim);
// `out`: a 0-d value of `self` (its median); the gradient is shared by the elements equal to it.
void record_evenly_distributed(const Tensor& out, const char* name, const Tensor& self);
// `positions`: int64, the row-major positions taken in the broadcast shape of self and mask.
void record_masked_select(const Tensor& out, const Tensor& self, const Tensor& mask, const Tensor& positions);
// `out`: self rolled by shifts[i] along dims[i] (as given).
void record_roll(const Tensor& out, const Tensor& self, const Dims& shifts, const Dims& dims);

}  // namespace engine::ops
