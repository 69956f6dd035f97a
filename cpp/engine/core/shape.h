#pragma once
// Shapes and strides (in elements), broadcasting, and their printed form.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/small_vector.h"

namespace engine {

// Shapes and strides: up to 6 dimensions without a heap allocation.
using Dims = SmallVector<int64_t, 6>;

// The number of elements of `shape`: 0 when any size is 0, else the product of the sizes, checked
// ("numel: integer multiplication overflow", PyTorch's words). Sizes must be non-negative.
int64_t numel_of(const Dims& shape);
// Row-major strides; "Stride calculation overflowed" when they do not fit in int64.
Dims contiguous_strides(const Dims& shape);
// One past the largest element offset a view of (shape, strides, offset) reaches: the number of
// elements its storage must hold (0 for an empty view). Raises "Storage size calculation
// overflowed with sizes=[...]" when that count does not fit in int64.
int64_t storage_extent(const Dims& shape, const Dims& strides, int64_t offset);
// The same for a contiguous tensor, in bytes of `itemsize` each: what Tensor::empty allocates.
int64_t contiguous_nbytes(const Dims& shape, int64_t itemsize);
// PyTorch's "[2, 3]" form used in error messages.
std::string dims_str(const Dims& d);
// NumPy broadcasting; `op` names the operation for the error message.
Dims broadcast_shapes(const Dims& a, const Dims& b);
// True when a tensor of shape `from` can be expanded to shape `to`.
bool is_expandable_to(const Dims& from, const Dims& to);
// Wraps a possibly negative dim into [0, ndim); ndim 0 accepts -1 and 0 as PyTorch does.
int64_t wrap_dim(int64_t dim, int64_t ndim);

}  // namespace engine
