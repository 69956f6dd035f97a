#pragma once
// trace, repeat and dist as one node each (TraceBackward0, RepeatBackward0, DistBackward0), with
// PyTorch's saved attributes. The values are computed without history by the caller
// (engine/_composite_ops.py, _shape_ops.py, _statistics.py keep the argument checks and
// messages); the node is attached here, its backward written with differentiable ops.
#include "engine/core/tensor.h"

namespace engine::ops {

// `out`: trace of the matrix `self`.
void record_trace(const Tensor& out, const Tensor& self);
// `out`: self repeated `repeats` times along each dim (leading repeats add dims).
void record_repeat(const Tensor& out, const Tensor& self, const Dims& repeats);
// `out`: the p-norm of self - other (broadcast), for a finite p > 0.
void record_dist(const Tensor& out, const Tensor& self, const Tensor& other, double p);

}  // namespace engine::ops
