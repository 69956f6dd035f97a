// Tensor.unfold(dimension, size, step): overlapping windows as a strided view, no copy. Windows
// may overlap, so the gradient sums every window's slice back (index_add), rather than writing
// through the view as the non-overlapping views do.
#include "engine/core/error.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

struct UnfoldBackward0 : BuiltinNode<UnfoldBackward0> {
  static constexpr const char* kName = "UnfoldBackward0";
  Dims input_shape;
  int64_t dim = 0, size = 0, step = 1;

  variable_list apply(variable_list&& grads) override {
    const Tensor& g = grads[0];  // input shape with shape[dim] = windows, then a trailing `size`
    const int64_t nd = static_cast<int64_t>(input_shape.size());
    if (nd == 0) return {sum(g, {}, false)};
    const int64_t windows = g.shape()[dim];
    // Bring each window's elements next to its window index: (..., windows, size, ...).
    Dims order;
    for (int64_t d = 0; d <= dim; ++d) order.push_back(d);
    order.push_back(nd);
    for (int64_t d = dim + 1; d < nd; ++d) order.push_back(d);
    Dims merged = input_shape;
    merged[dim] = windows * size;
    Tensor src = reshape(permute(g, order), merged);
    Tensor index = Tensor::empty({windows * size}, DType::Int64);
    int64_t* p = index.data<int64_t>();
    for (int64_t w = 0; w < windows; ++w) {
      for (int64_t j = 0; j < size; ++j) p[w * size + j] = w * step + j;
    }
    return {index_add(zeros(input_shape, g.dtype()), dim, index, src)};
  }
};

}  // namespace

Tensor unfold_view(const Tensor& a, int64_t dim, int64_t size, int64_t step) {
  const int64_t nd = a.dim();
  const int64_t given_dim = dim;
  dim = wrap_dim(dim, nd);
  const int64_t n = nd == 0 ? 1 : a.shape()[dim];
  ENGINE_CHECK(size >= 0, std::runtime_error, "size is ", size, " but must be >= 0");
  ENGINE_CHECK(size <= n, std::runtime_error, "maximum size for tensor at dimension ", dim, " is ", n,
               " but size is ", size);
  ENGINE_CHECK(step > 0, std::runtime_error, "step is ", step, " but must be > 0");
  const int64_t windows = (n - size) / step + 1;
  Dims shape = a.shape(), strides = a.strides();
  const int64_t stride = nd == 0 ? 1 : strides[dim];
  if (nd > 0) {
    shape[dim] = windows;
    // Below the dim's size whenever there are two windows or more, so no overflow.
    if (windows > 1) strides[dim] = stride * step;
  }
  shape.push_back(size);
  strides.push_back(stride);
  Tensor out = a.as_strided(shape, strides, a.offset());
  if (auto node = make_node<UnfoldBackward0>({&a})) {
    node->input_shape = a.shape();
    node->dim = dim;
    node->size = size;
    node->step = step;
    // PyTorch's saved attributes, the dimension as given.
    node->saved_values.add("dimension", given_dim);
    node->saved_values.add("self_sym_sizes", saved_ints(a.shape()));
    node->saved_values.add("size", size);
    node->saved_values.add("step", step);
    set_history(out, node);
  }
  return out;
}

}  // namespace engine::ops
