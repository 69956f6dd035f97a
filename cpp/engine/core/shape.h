#pragma once
// Shapes and strides (in elements), broadcasting, and their printed form.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/small_vector.h"

namespace engine {

// Shapes and strides: up to 6 dimensions without a heap allocation.
using Dims = SmallVector<int64_t, 6>;

int64_t numel_of(const Dims& shape);
Dims contiguous_strides(const Dims& shape);
// PyTorch's "[2, 3]" form used in error messages.
std::string dims_str(const Dims& d);
// NumPy broadcasting; `op` names the operation for the error message.
Dims broadcast_shapes(const Dims& a, const Dims& b);
// True when a tensor of shape `from` can be expanded to shape `to`.
bool is_expandable_to(const Dims& from, const Dims& to);
// Wraps a possibly negative dim into [0, ndim); ndim 0 accepts -1 and 0 as PyTorch does.
int64_t wrap_dim(int64_t dim, int64_t ndim);

}  // namespace engine
