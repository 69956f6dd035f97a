// F.linear as one op: y = x @ w^T + b over the rows of x, one GEMM and one node (AddmmBackward0,
// as PyTorch names it for a 2-D input with bias) instead of transpose, matmul and add. Inputs
// outside the fast path (vectors, mixed dtypes, integer or 16-bit tensors) take the composed route,
// so every case keeps the composed ops' semantics and messages.
#include <algorithm>
#include <type_traits>

#include "engine/autograd/edge_use.h"
#include "engine/core/error.h"
#include "engine/kernels/matmul.h"
#include "engine/ops/linear.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

struct LinearBackward : BuiltinNode<LinearBackward> {
  static constexpr const char* kName = "AddmmBackward0";
  SavedTensor input_, weight_;
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    variable_list out(3);
    if (needs_input_grad(*this, 0)) out[0] = mm(g[0], weight_.unpack(me));
    if (needs_input_grad(*this, 1)) out[1] = mm(t(g[0]), input_.unpack(me));
    if (needs_input_grad(*this, 2)) out[2] = sum(g[0], {0}, false);
    return out;
  }
  void release_variables() override {
    input_.reset();
    weight_.reset();
  }
};

bool fast_path(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b) {
  const DType d = x.dtype();
  if (!(d == DType::Float32 || d == DType::Float64) || w.dtype() != d || x.dim() < 2 || w.dim() != 2) return false;
  if (x.shape().back() != w.shape()[1]) return false;  // the composed route reports the mismatch
  if (b && (b->dtype() != d || b->dim() != 1 || b->shape()[0] != w.shape()[0])) return false;
  return true;
}

// x (M, K) @ w^T (K, N) + b: one GEMM, then the bias added to each row, under one node.
Tensor linear_2d(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b) {
  if (!b) return mm(x, t(w));  // MmBackward0, as PyTorch's linear without bias
  const int64_t M = x.shape()[0], K = x.shape()[1], N = w.shape()[0];
  Tensor xc = x.is_contiguous() ? x : contiguous(detach(x));
  Tensor wc = w.is_contiguous() ? w : contiguous(detach(w));
  Tensor out = Tensor::empty({M, N}, x.dtype());
  ENGINE_DISPATCH_FLOAT(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      kernels::gemm_ex<T>(M, N, K, xc.data<T>(), false, std::max<int64_t>(K, 1), wc.data<T>(), true,
                          std::max<int64_t>(K, 1), out.data<T>());
      Tensor bc = b->is_contiguous() ? *b : contiguous(detach(*b));
      const T* bias = bc.data<T>();
      T* o = out.data<T>();
      for (int64_t i = 0; i < M; ++i) {
        for (int64_t j = 0; j < N; ++j) o[i * N + j] += bias[j];
      }
    }
  });
  if (auto node = make_node<LinearBackward>({&x, &w, &*b})) {
    if (node->should_compute_output(1)) node->input_ = SavedTensor(x, false);
    if (node->should_compute_output(0)) node->weight_ = SavedTensor(w, false);
    set_history(out, node);
  }
  return out;
}

}  // namespace

Tensor linear(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b) {
  if (!fast_path(x, w, b)) {
    Tensor out = matmul(x, w.dim() == 2 ? t(w) : w);
    return b ? add(out, *b) : out;
  }
  if (x.dim() == 2) return linear_2d(x, w, b);
  // Leading dims fold into rows (a view for contiguous inputs) and unfold again afterwards.
  Dims rows_shape{-1, x.shape().back()};
  Dims out_shape(x.shape().begin(), x.shape().end() - 1);
  out_shape.push_back(w.shape()[0]);
  return reshape(linear_2d(reshape(x, rows_shape), w, b), out_shape);
}

}  // namespace engine::ops
