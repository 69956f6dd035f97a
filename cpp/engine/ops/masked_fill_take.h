#pragma once
// The nodes of masked_fill and take (MaskedFillBackward0/1, TakeBackward0), attached to a value the
// caller computed without history.
#include "engine/core/tensor.h"

namespace engine::ops {

// `value`: the fill value as a 0-d tensor; given by the caller as a tensor (`tensor_value`), it is
// the node's second input (MaskedFillBackward1), as a number not (MaskedFillBackward0). `mask` is
// kept as given (grad_fn._saved_mask).
void record_masked_fill(const Tensor& out, const Tensor& self, const Tensor& mask, const Tensor& value,
                        bool tensor_value);

// `index` as given (grad_fn._saved_index); `flat_positions`: int64, the positions in self's
// row-major order, non-negative, one per element of out.
void record_take(const Tensor& out, const Tensor& self, const Tensor& index, const Tensor& flat_positions);

}  // namespace engine::ops
