// Conversions and copies: to(dtype), clone, contiguous.
#include "engine/kernels/elementwise.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {
struct ToCopyBackward0 : BuiltinNode<ToCopyBackward0> {
  static constexpr const char* kName = "ToCopyBackward0";
  DType src_dtype;
  variable_list apply(variable_list&& g) override { return {to_dtype(g[0], src_dtype)}; }
};
struct CloneBackward0 : BuiltinNode<CloneBackward0> {
  static constexpr const char* kName = "CloneBackward0";
  variable_list apply(variable_list&& g) override { return {g[0]}; }
};
}  // namespace

Tensor to_dtype(const Tensor& t, DType dtype) {
  if (t.dtype() == dtype) return t;
  Tensor out = Tensor::empty(t.shape(), dtype);
  kernels::copy(out, t);
  if (is_floating(dtype)) {
    if (auto node = make_node<ToCopyBackward0>({&t})) {
      node->src_dtype = t.dtype();
      set_history(out, node);
    }
  }
  return out;
}

Tensor clone(const Tensor& t) {
  Tensor out = Tensor::empty(t.shape(), t.dtype());
  kernels::copy(out, t);
  if (auto node = make_node<CloneBackward0>({&t})) set_history(out, node);
  return out;
}

Tensor contiguous(const Tensor& t) { return t.is_contiguous() ? t : clone(t); }

}  // namespace engine::ops
