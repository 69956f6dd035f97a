#include "engine/core/layout.h"

#include "engine/core/overlap.h"

#include <algorithm>


namespace engine {

namespace {

// The stride of `t`'s dim aligned with dim `d` of an ndim-dimensional broadcast shape, 0 where
// `t` is broadcast along it.
int64_t broadcast_stride(const Tensor& t, size_t d, const Dims& shape) {
  const size_t off = shape.size() - t.shape().size();
  if (d < off) return 0;
  const size_t i = d - off;
  if (t.shape()[i] == 1 && shape[d] != 1) return 0;
  return t.strides()[i];
}

}  // namespace

Dims elementwise_strides(const Dims& shape, std::initializer_list<const Tensor*> inputs) {
  const size_t ndim = shape.size();
  if (ndim < 2) return {};
  bool all_contiguous = true, same_shape = true;
  for (const Tensor* t : inputs) {
    all_contiguous = all_contiguous && t->is_contiguous();
    same_shape = same_shape && t->shape() == shape;
  }
  if (all_contiguous) return {};
  for (int64_t s : shape) {
    if (s == 0) return {};
  }
  // Inputs of the result's shape sharing one dense layout: the result takes it as it is.
  if (same_shape) {
    const Tensor* first = *inputs.begin();
    bool shared = non_overlapping_and_dense(*first);
    for (const Tensor* t : inputs) shared = shared && t->strides() == first->strides();
    if (shared) return first->strides();
  }
  // TensorIterator's reorder_dimensions: an insertion sort of the dims, fastest first.
  auto should_swap = [&](size_t dim0, size_t dim1) {
    for (const Tensor* t : inputs) {
      const int64_t s0 = broadcast_stride(*t, dim0, shape), s1 = broadcast_stride(*t, dim1, shape);
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape[dim0] > shape[dim1]) return 1;
    }
    return 0;
  };
  Dims perm;
  for (size_t i = 0; i < ndim; ++i) perm.push_back(static_cast<int64_t>(ndim - 1 - i));
  for (size_t i = 1; i < ndim; ++i) {
    size_t dim1 = i;
    for (size_t dim0 = i; dim0-- > 0;) {
      const int cmp = should_swap(static_cast<size_t>(perm[dim0]), static_cast<size_t>(perm[dim1]));
      if (cmp > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (cmp < 0) {
        break;
      }
    }
  }
  bool row_major = true;
  for (size_t i = 0; i < ndim; ++i) row_major = row_major && perm[i] == static_cast<int64_t>(ndim - 1 - i);
  if (row_major) return {};
  Dims strides(ndim, 0);
  int64_t next = 1;
  for (int64_t d : perm) {
    strides[static_cast<size_t>(d)] = next;
    next *= shape[static_cast<size_t>(d)];  // a product of sizes: at most numel
  }
  return strides;
}

Tensor empty_dense_strided(const Dims& shape, const Dims& strides, DType dtype) {
  Tensor out = Tensor::empty(shape, dtype);
  out.get()->strides = strides;
  out.get()->refresh_layout();
  return out;
}

Tensor empty_like_operands(const Dims& shape, DType dtype, std::initializer_list<const Tensor*> inputs) {
  Dims strides = elementwise_strides(shape, inputs);
  if (strides.empty()) return Tensor::empty(shape, dtype);
  return empty_dense_strided(shape, strides, dtype);
}

}  // namespace engine
