#pragma once
// lerp, addcmul and addcdiv as one node each (LerpBackward0/1, AddcmulBackward0,
// AddcdivBackward0), with PyTorch's edges (one per tensor input) and saved attributes, attached to
// a value computed without history. Backwards are written with differentiable ops.
#include "engine/autograd/node.h"
#include "engine/core/tensor.h"

namespace engine::ops {

// `out` = start + weight (end - start); a wrapped-number weight gives LerpBackward0 (which shows
// the number), a tensor weight LerpBackward1 (a third input).
void record_lerp(const Tensor& out, const Tensor& start, const Tensor& end, const Tensor& weight);

// `out` = input + value * tensor1 (* or /) tensor2; `value` as the caller gave it.
void record_addc(const Tensor& out, bool divide, const Tensor& input, const Tensor& tensor1, const Tensor& tensor2,
                 const SavedValue& value, double value_number);

}  // namespace engine::ops
