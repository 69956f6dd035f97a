// Conversions and copies: to(dtype), clone, contiguous.
#include "engine/core/layout.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/complex.h"
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
  // complex -> real keeps the real part (the Python layer warns, as PyTorch does); its gradient
  // flows back through the real view.
  if (is_complex(t.dtype()) && !is_complex(dtype)) return to_dtype(real(t), dtype);
  Tensor out = empty_like_operands(t.shape(), dtype, {&t});
  kernels::copy(out, t);
  if (is_floating(dtype) || is_complex(dtype)) {
    if (auto node = make_node<ToCopyBackward0>({&t})) {
      node->src_dtype = t.dtype();
      set_history(out, node);
    }
  }
  return out;
}

namespace {
Tensor copy_into(Tensor out, const Tensor& t) {
  kernels::copy(out, t);
  if (auto node = make_node<CloneBackward0>({&t})) set_history(out, node);
  return out;
}
}  // namespace

// PyTorch's preserve_format: a dense input keeps its strides, others get its dimension order.
Tensor clone(const Tensor& t) { return copy_into(empty_like_operands(t.shape(), t.dtype(), {&t}), t); }

Tensor contiguous(const Tensor& t) { return t.is_contiguous() ? t : copy_into(Tensor::empty(t.shape(), t.dtype()), t); }

}  // namespace engine::ops
