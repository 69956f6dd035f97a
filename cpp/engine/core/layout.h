#pragma once
// The memory layout of an elementwise result. PyTorch's TensorIterator gives a fresh output the
// dimension order of its inputs (a transposed input makes a transposed result) rather than
// row-major order; results of engine's elementwise ops follow the same rule so that strides and
// is_contiguous() agree with PyTorch's.
#include <initializer_list>

#include "engine/core/tensor.h"

namespace engine {

// Strides (in elements) of a fresh dense tensor of `shape` laid out like `inputs` (broadcast to
// `shape`), by TensorIterator's rules: inputs that are all contiguous give row-major strides;
// inputs of `shape` that share one dense layout give that layout; otherwise dimensions are ordered
// by the inputs' strides, the first input that tells two dimensions apart deciding (broadcast
// dimensions tell nothing). Returns an empty Dims for row-major order.
Dims elementwise_strides(const Dims& shape, std::initializer_list<const Tensor*> inputs);

// A fresh, uninitialised tensor of `shape` and `dtype` with elementwise_strides' layout.
Tensor empty_like_operands(const Dims& shape, DType dtype, std::initializer_list<const Tensor*> inputs);

// A fresh, uninitialised tensor of `shape` whose strides are a permutation of dense strides.
Tensor empty_dense_strided(const Dims& shape, const Dims& strides, DType dtype);

}  // namespace engine
