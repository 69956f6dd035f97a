// Matrix products.
#include <algorithm>

#include "engine/core/checked.h"
#include "engine/core/error.h"
#include "engine/kernels/matmul.h"
#include "engine/ops/complex.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

struct MmBackward0 : BuiltinNode<MmBackward0> {
  static constexpr const char* kName = "MmBackward0";
  SavedTensor self_, other_;
  Dims self_sizes, self_strides, mat2_sizes, mat2_strides;
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    return {should_compute_output(0) ? mm(g[0], t(other_.unpack(me))) : Tensor(),
            should_compute_output(1) ? mm(t(self_.unpack(me)), g[0]) : Tensor()};
  }
  void release_variables() override {
    self_.reset();
    other_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("self", self_);
    visit("mat2", other_);
  }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    visit("mat2_sym_sizes", saved_ints(mat2_sizes));
    visit("mat2_sym_strides", saved_ints(mat2_strides));
    visit("self_sym_sizes", saved_ints(self_sizes));
    visit("self_sym_strides", saved_ints(self_strides));
  }
};

// The operand as BLAS sees it: row-major with leading dimension `ld`, or the transpose of one.
Tensor gemm_operand(const Tensor& x, bool& trans, int64_t& ld) {
  const int64_t rows = x.shape()[0], cols = x.shape()[1];
  const int64_t s0 = x.strides()[0], s1 = x.strides()[1];
  if ((s1 == 1 || cols <= 1) && s0 >= std::max<int64_t>(cols, 1)) {
    trans = false;
    ld = rows <= 1 ? std::max<int64_t>(cols, 1) : s0;
    return x;
  }
  if ((s0 == 1 || rows <= 1) && s1 >= std::max<int64_t>(rows, 1)) {
    trans = true;
    ld = cols <= 1 ? std::max<int64_t>(rows, 1) : s1;
    return x;
  }
  trans = false;
  ld = std::max<int64_t>(cols, 1);
  return contiguous(x);
}

Tensor batched_matmul(const Tensor& a, const Tensor& b);

}  // namespace

Tensor mm(const Tensor& a, const Tensor& b) {
  ENGINE_CHECK(a.dim() == 2, std::runtime_error, "self must be a matrix");
  ENGINE_CHECK(b.dim() == 2, std::runtime_error, "mat2 must be a matrix");
  ENGINE_CHECK(a.shape()[1] == b.shape()[0], std::runtime_error, "mat1 and mat2 shapes cannot be multiplied (",
               a.shape()[0], "x", a.shape()[1], " and ", b.shape()[0], "x", b.shape()[1], ")");
  if (any_complex(a, b)) return complex_matmul(a, b);
  ENGINE_CHECK(a.dtype() == b.dtype(), std::runtime_error, "expected m1 and m2 to have the same dtype, but got: ",
               cpp_type_name(a.dtype()), " != ", cpp_type_name(b.dtype()));
  ENGINE_CHECK(a.dtype() != DType::Bool, NotImplementedError, "\"addmm_impl_cpu_\" not implemented for 'Bool'");
  const int64_t M = a.shape()[0], K = a.shape()[1], N = b.shape()[1];
  // Row-major operands, and transposed ones (a.t() in backward formulas), go to the kernel as they
  // are; any other layout is copied first.
  bool ta = false, tb = false;
  int64_t lda = 0, ldb = 0;
  Tensor ac = gemm_operand(a, ta, lda), bc = gemm_operand(b, tb, ldb);
  Tensor out = Tensor::empty({M, N}, a.dtype());
  ENGINE_DISPATCH_ALL(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      kernels::gemm_ex<T>(M, N, K, ac.data<T>(), ta, lda, bc.data<T>(), tb, ldb, out.data<T>());
    }
  });
  if (auto node = make_node<MmBackward0>({&a, &b})) {
    if (node->should_compute_output(1)) node->self_ = SavedTensor(a, false);
    if (node->should_compute_output(0)) node->other_ = SavedTensor(b, false);
    node->self_sizes = a.shape();
    node->self_strides = a.strides();
    node->mat2_sizes = b.shape();
    node->mat2_strides = b.strides();
    set_history(out, node);
  }
  return out;
}

// 1-D operands are promoted to matrices and the added dimension removed afterwards, as in
// PyTorch; both steps are differentiable views, so one backward rule (mm's) serves all cases.
Tensor matmul(const Tensor& a, const Tensor& b) {
  ENGINE_CHECK(a.dim() >= 1 && b.dim() >= 1, std::runtime_error, "both arguments to matmul need to be at least 1D, but they are ",
               a.dim(), "D and ", b.dim(), "D");
  if (any_complex(a, b)) return complex_matmul(a, b);
  if (a.dim() > 2 || b.dim() > 2) return batched_matmul(a, b);
  if (a.dim() == 1 && b.dim() == 1) {
    ENGINE_CHECK(a.shape()[0] == b.shape()[0], std::runtime_error,
                 "inconsistent tensor size, expected tensor [", a.shape()[0], "] and src [", b.shape()[0],
                 "] to have the same number of elements, but got ", a.shape()[0], " and ", b.shape()[0],
                 " elements respectively");
    return named_history(reshape(mm(unsqueeze(a, 0), unsqueeze(b, 1)), {}), "DotBackward0");
  }
  // A size mismatch is reported as PyTorch reports it: by mm for vector @ matrix, and in
  // addmv's terms (input = the result's length) for matrix @ vector.
  if (a.dim() == 1) return named_history(squeeze(mm(unsqueeze(a, 0), b), 0), "SqueezeBackward4");
  if (b.dim() == 1) {
    ENGINE_CHECK(a.shape()[1] == b.shape()[0], std::runtime_error, "size mismatch, got input (", a.shape()[0],
                 "), mat (", a.shape()[0], "x", a.shape()[1], "), vec (", b.shape()[0], ")");
    return named_history(squeeze(mm(a, unsqueeze(b, 1)), 1), "MvBackward0");
  }
  return mm(a, b);
}

// ---- batched products: bmm, N-D matmul, mv, dot, outer ----

namespace {

struct BmmBackward0 : BuiltinNode<BmmBackward0> {
  static constexpr const char* kName = "BmmBackward0";
  SavedTensor self_, other_;
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    return {should_compute_output(0) ? bmm(g[0], transpose(other_.unpack(me), 1, 2)) : Tensor(),
            should_compute_output(1) ? bmm(transpose(self_.unpack(me), 1, 2), g[0]) : Tensor()};
  }
  void release_variables() override {
    self_.reset();
    other_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("self", self_);
    visit("mat2", other_);
  }
};

// Batch dims broadcast; 1-D operands gain (and then lose) a matrix dim as in the 2-D case. Every
// step is a differentiable view or reshape around one bmm, so bmm's rule serves all shapes.
Tensor batched_matmul(const Tensor& a, const Tensor& b) {
  Tensor x = a.dim() == 1 ? unsqueeze(a, 0) : a;
  Tensor y = b.dim() == 1 ? unsqueeze(b, 1) : b;
  const int64_t n = x.shape()[x.dim() - 2], k = x.shape()[x.dim() - 1];
  const int64_t k2 = y.shape()[y.dim() - 2], m = y.shape()[y.dim() - 1];
  Dims xb(x.shape().begin(), x.shape().end() - 2), yb(y.shape().begin(), y.shape().end() - 2);
  Dims batch = broadcast_shapes(xb, yb);
  int64_t nb = 1;
  for (int64_t s : batch) nb *= s;
  ENGINE_CHECK(k == k2, std::runtime_error, "Expected size for first two dimensions of batch2 tensor to be: [", nb,
               ", ", k, "] but got: [", nb, ", ", k2, "].");
  Dims xs = batch, ys = batch;
  xs.insert(xs.end(), {n, k});
  ys.insert(ys.end(), {k, m});
  Tensor out = bmm(reshape(expand(x, xs), {nb, n, k}), reshape(expand(y, ys), {nb, k, m}));
  Dims os = batch;
  os.insert(os.end(), {n, m});
  out = reshape(out, os);
  if (a.dim() == 1) out = squeeze(out, out.dim() - 2);
  if (b.dim() == 1) out = squeeze(out, out.dim() - 1);
  return out;
}

}  // namespace

Tensor bmm(const Tensor& a, const Tensor& b) {
  ENGINE_CHECK(a.dim() == 3, std::runtime_error, "batch1 must be a 3D tensor");
  ENGINE_CHECK(b.dim() == 3, std::runtime_error, "batch2 must be a 3D tensor");
  if (any_complex(a, b)) return complex_matmul(a, b);
  const int64_t B = a.shape()[0], M = a.shape()[1], K = a.shape()[2], N = b.shape()[2];
  ENGINE_CHECK(b.shape()[0] == B && b.shape()[1] == K, std::runtime_error,
               "Expected size for first two dimensions of batch2 tensor to be: [", B, ", ", K, "] but got: [",
               b.shape()[0], ", ", b.shape()[1], "].");
  if (a.dtype() != b.dtype()) {
    // PyTorch's message depends on the kernel its CPU bmm picks: below 400 multiply-adds per batch
    // entry the loop kernel reads batch2 as batch1's type; above, the per-entry matmul either reads
    // batch1 as a float / double batch2's type or refuses the pair as addmm does.
    int64_t mk = 0, mkn = 0;
    if (mul_fits(M, K, &mk) && mul_fits(mk, N, &mkn) && mkn < 400) {
      throw std::runtime_error(std::string("expected scalar type ") + scalar_type_name(a.dtype()) + " but found " +
                               scalar_type_name(b.dtype()));
    }
    ENGINE_CHECK(b.dtype() != DType::Float32 && b.dtype() != DType::Float64, std::runtime_error,
                 "expected scalar type ", scalar_type_name(b.dtype()), " but found ", scalar_type_name(a.dtype()));
    ENGINE_CHECK(false, std::runtime_error, "expected m1 and m2 to have the same dtype, but got: ",
                 cpp_type_name(a.dtype()), " != ", cpp_type_name(b.dtype()));
  }
  ENGINE_CHECK(a.dtype() != DType::Bool, NotImplementedError, "\"bmm\" not implemented for 'Bool'");
  Tensor ac = contiguous(detach(a)), bc = contiguous(detach(b));
  Tensor out = Tensor::empty({B, M, N}, a.dtype());
  ENGINE_DISPATCH_ALL(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      for (int64_t i = 0; i < B; ++i) {
        kernels::gemm_ex<T>(M, N, K, ac.data<T>() + i * M * K, false, K, bc.data<T>() + i * K * N, false, N, out.data<T>() + i * M * N);
      }
    }
  });
  if (auto node = make_node<BmmBackward0>({&a, &b})) {
    if (node->should_compute_output(1)) node->self_ = SavedTensor(a, false);
    if (node->should_compute_output(0)) node->other_ = SavedTensor(b, false);
    set_history(out, node);
  }
  return out;
}

Tensor mv(const Tensor& a, const Tensor& v) {
  ENGINE_CHECK(a.dim() == 2 && v.dim() == 1, std::runtime_error, "vector + matrix @ vector expected, got 1, ", a.dim(),
               ", ", v.dim());
  return matmul(a, v);
}

Tensor dot(const Tensor& a, const Tensor& b) {
  ENGINE_CHECK(a.dim() == 1 && b.dim() == 1, std::runtime_error, "1D tensors expected, but got ", a.dim(), "D and ",
               b.dim(), "D tensors");
  ENGINE_CHECK(a.dtype() == b.dtype(), std::runtime_error, "dot : expected both vectors to have same dtype, but found ",
               scalar_type_name(a.dtype()), " and ", scalar_type_name(b.dtype()));
  return matmul(a, b);
}

Tensor outer(const Tensor& a, const Tensor& b) {
  ENGINE_CHECK(a.dim() == 1, std::runtime_error, "outer: Expected 1-D argument self, but got ", a.dim(), "-D");
  ENGINE_CHECK(b.dim() == 1, std::runtime_error, "outer: Expected 1-D argument vec2, but got ", b.dim(), "-D");
  // As PyTorch: self as a column times vec2 (its graph: MulBackward0 over a ViewBackward0).
  return mul(reshape(a, Dims{a.shape()[0], 1}), b);
}

}  // namespace engine::ops
