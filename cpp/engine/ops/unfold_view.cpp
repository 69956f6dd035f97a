// Tensor.unfold(dimension, size, step): overlapping windows as a strided view, no copy.
#include "engine/core/error.h"
#include "engine/ops/ops.h"

namespace engine::ops {

Tensor unfold_view(const Tensor& a, int64_t dim, int64_t size, int64_t step) {
  const int64_t nd = a.dim();
  dim = wrap_dim(dim, nd);
  const int64_t n = nd == 0 ? 1 : a.shape()[dim];
  ENGINE_CHECK(size >= 0, std::runtime_error, "size is ", size, " but must be >= 0");
  ENGINE_CHECK(size <= n, std::runtime_error, "maximum size for tensor at dimension ", dim, " is ", n,
               " but size is ", size);
  ENGINE_CHECK(step > 0, std::runtime_error, "step is ", step, " but must be > 0");
  const int64_t windows = (n - size) / step + 1;
  return strided_view(a, [nd, dim, size, step, windows](const Dims& sh, const Dims& st, int64_t off) {
    ViewGeom g{sh, st, off};
    const int64_t stride = nd == 0 ? 1 : st[dim];
    if (nd > 0) {
      g.shape[dim] = windows;
      // Below the dim's size whenever there are two windows or more, so no overflow.
      if (windows > 1) g.strides[dim] = stride * step;
    }
    g.shape.push_back(size);
    g.strides.push_back(stride);
    return g;
  }, "UnfoldBackward0");
}

}  // namespace engine::ops
