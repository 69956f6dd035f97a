// F.linear as one op: y = x @ w^T + b over the rows of x, one GEMM and one node instead of
// transpose, matmul and add. The node is PyTorch's: AddmmBackward0 of (bias, x, w.t()), the
// transpose a TBackward0 view as in PyTorch's graph, with its saved attributes. Inputs outside the
// fast path (vectors, mixed dtypes, integer or 16-bit tensors) take the composed route, so every
// case keeps the composed ops' semantics and messages.
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

// beta * self + alpha * (mat1 @ mat2); inputs in PyTorch's order: 0 self (linear's bias), 1 mat1
// (linear's input), 2 mat2 (linear's weight transposed).
struct AddmmBackward : BuiltinNode<AddmmBackward> {
  static constexpr const char* kName = "AddmmBackward0";
  SavedTensor mat1_, mat2_;
  Dims self_sizes, mat1_sizes, mat1_strides, mat2_sizes, mat2_strides;
  double alpha = 1.0, beta = 1.0;
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    variable_list out(3);
    const Tensor& grad = g[0];
    if (needs_input_grad(*this, 0)) out[0] = sum_to(beta == 1.0 ? grad : mul(grad, wrapped_scalar(beta, DType::Float64)), self_sizes);
    // Unpacked up front in PyTorch's order (mat1, then mat2), which saved-tensor unpack hooks observe.
    const Tensor mat1 = mat1_.unpack(me), mat2 = mat2_.unpack(me);
    const Tensor ga = alpha == 1.0 ? grad : mul(grad, wrapped_scalar(alpha, DType::Float64));
    if (needs_input_grad(*this, 1)) out[1] = mm(ga, t(mat2));
    // Laid out like mat2 (for linear a transposed weight, whose gradient then comes out contiguous).
    if (needs_input_grad(*this, 2)) out[2] = t(mm(t(ga), mat1));
    return out;
  }
  void release_variables() override {
    mat1_.reset();
    mat2_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("mat1", mat1_);
    visit("mat2", mat2_);
  }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    visit("alpha", saved_number(alpha));
    visit("beta", saved_number(beta));
    visit("mat1_sym_sizes", saved_ints(mat1_sizes));
    visit("mat1_sym_strides", saved_ints(mat1_strides));
    visit("mat2_sym_sizes", saved_ints(mat2_sizes));
    visit("mat2_sym_strides", saved_ints(mat2_strides));
  }
};

bool fast_path(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b) {
  const DType d = x.dtype();
  if (!(d == DType::Float32 || d == DType::Float64) || w.dtype() != d || x.dim() < 2 || w.dim() != 2) return false;
  if (x.shape().back() != w.shape()[1]) return false;  // the composed route reports the mismatch
  if (b && (b->dtype() != d || b->dim() != 1 || b->shape()[0] != w.shape()[0])) return false;
  return true;
}

// x (M, K) @ w^T (K, N) + b: one GEMM onto the bias rows, under one node.
Tensor linear_2d(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b) {
  if (!b) return mm(x, t(w));  // MmBackward0, as PyTorch's linear without bias
  const int64_t M = x.shape()[0], K = x.shape()[1], N = w.shape()[0];
  Tensor xc = x.is_contiguous() ? x : contiguous(detach(x));
  Tensor wc = w.is_contiguous() ? w : contiguous(detach(w));
  Tensor out = Tensor::empty({M, N}, x.dtype());
  ENGINE_DISPATCH_FLOAT(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      // The bias rows are C and the product is added to them (BLAS's beta = 1), as PyTorch's addmm
      // does: one pass over the output instead of BLAS zeroing it and a second pass adding the bias.
      Tensor bc = b->is_contiguous() ? *b : contiguous(detach(*b));
      const T* bias = bc.data<T>();
      T* o = out.data<T>();
      for (int64_t i = 0; i < M; ++i) std::copy(bias, bias + N, o + i * N);
      kernels::gemm_ex<T>(M, N, K, xc.data<T>(), false, std::max<int64_t>(K, 1), wc.data<T>(), true,
                          std::max<int64_t>(K, 1), o, /*accumulate=*/true);
    }
  });
  if (compute_requires_grad({&x, &w, &*b})) record_addmm(out, *b, x, t(w), 1.0, 1.0);
  return out;
}

}  // namespace

void record_addmm(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2, double beta,
                  double alpha) {
  auto node = make_node<AddmmBackward>({&self, &mat1, &mat2});
  if (!node) return;
  if (node->should_compute_output(2)) node->mat1_ = SavedTensor(mat1, false);
  if (node->should_compute_output(1)) node->mat2_ = SavedTensor(mat2, false);
  node->self_sizes = self.shape();
  node->mat1_sizes = mat1.shape();
  node->mat1_strides = mat1.strides();
  node->mat2_sizes = mat2.shape();
  node->mat2_strides = mat2.strides();
  node->alpha = alpha;
  node->beta = beta;
  set_history(out, node);
}

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
