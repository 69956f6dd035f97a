// The two views every complex op is built on (view_as_real, view_as_complex), and the views of one
// half (real, imag). Their gradients are each other: a real view's gradient read as complex is
// exactly PyTorch's complex gradient.
#include "engine/core/error.h"
#include "engine/kernels/complex_copy.h"
#include "engine/ops/complex.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

struct ViewAsRealBackward0 : BuiltinNode<ViewAsRealBackward0> {
  static constexpr const char* kName = "ViewAsRealBackward0";
  variable_list apply(variable_list&& g) override {
    // The incoming gradient may be expanded or strided; view_as_complex needs (re, im) pairs.
    const Tensor& grad = g[0];
    const bool pairs = grad.strides().back() == 1 && grad.offset() % 2 == 0;
    return {view_as_complex(pairs ? grad : contiguous(grad))};
  }
};

struct ViewAsComplexBackward0 : BuiltinNode<ViewAsComplexBackward0> {
  static constexpr const char* kName = "ViewAsComplexBackward0";
  variable_list apply(variable_list&& g) override { return {view_as_real(g[0])}; }
};

bool complex_pairs_layout_ok(const Tensor& r) {
  for (int64_t d = 0; d + 1 < r.dim(); ++d) {
    if (r.strides()[d] % 2 != 0) return false;
  }
  return true;
}

// r's (real, imaginary) pairs read as complex (layout already checked): a view of r, or (for the
// fresh result of a real op, which nobody else sees) a tensor of its own on the same storage, so
// that in-place ops treat it as the new tensor it is.
Tensor complex_pairs_read(const Tensor& r, bool as_view) {
  Dims shape(r.shape().begin(), r.shape().end() - 1), strides(r.strides().begin(), r.strides().end() - 1);
  for (auto& s : strides) s /= 2;
  const DType dt = complex_of(r.dtype());
  Tensor out;
  if (as_view) {
    // A view of the same storage, retyped: the layout addresses exactly the pairs r addresses.
    out = r.as_strided(r.shape(), r.strides(), r.offset());
    TensorImpl* impl = out.get();
    impl->dtype = dt;
    impl->shape = shape;
    impl->strides = strides;
    impl->offset = r.offset() / 2;
    impl->refresh_layout();
  } else {
    out = Tensor(std::make_shared<TensorImpl>(r.get()->storage, shape, strides, r.offset() / 2, dt));
    out.get()->is_inference = r.get()->is_inference;
  }
  if (auto node = make_node<ViewAsComplexBackward0>({&r})) set_history(out, node);
  return out;
}

}  // namespace

Tensor view_as_real(const Tensor& z) {
  ENGINE_CHECK(is_complex(z.dtype()), std::runtime_error, "view_as_real is only supported for complex tensors");
  Tensor out = kernels::complex_as_real(z);
  if (auto node = make_node<ViewAsRealBackward0>({&z})) set_history(out, node);
  return out;
}

Tensor view_as_complex(const Tensor& r) {
  const DType dt = r.dtype();
  ENGINE_CHECK(dt == DType::Float32 || dt == DType::Float64, std::runtime_error,
               "view_as_complex is only supported for float and double tensors, but got a tensor of scalar type: ",
               scalar_type_name(dt));
  ENGINE_CHECK(r.dim() > 0, std::runtime_error, "Input tensor must have one or more dimensions");
  ENGINE_CHECK(r.shape().back() == 2, std::runtime_error, "Tensor must have a last dimension of size 2");
  ENGINE_CHECK(r.strides().back() == 1, std::runtime_error, "Tensor must have a last dimension with stride 1");
  ENGINE_CHECK(complex_pairs_layout_ok(r), std::runtime_error,
               "Tensor must have a stride divisible by 2 for all but last dimension");
  ENGINE_CHECK(r.offset() % 2 == 0, std::runtime_error, "Tensor must have a storage_offset divisible by 2");
  return complex_pairs_read(r, true);
}

Tensor complex_from_pairs(const Tensor& pairs) {
  ENGINE_ASSERT(pairs.dim() > 0 && pairs.shape().back() == 2);
  const bool ok = pairs.strides().back() == 1 && complex_pairs_layout_ok(pairs) && pairs.offset() % 2 == 0;
  return complex_pairs_read(ok ? pairs : contiguous(pairs), false);
}

Tensor real(const Tensor& z) {
  if (!is_complex(z.dtype())) return z;
  return select(view_as_real(z), -1, 0);
}

Tensor imag(const Tensor& z) {
  ENGINE_CHECK(is_complex(z.dtype()), std::runtime_error,
               "imag is not implemented for tensors with non-complex dtypes.");
  return select(view_as_real(z), -1, 1);
}

}  // namespace engine::ops
