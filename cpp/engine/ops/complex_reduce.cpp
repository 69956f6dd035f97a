// Products, scans and variances of complex tensors, written as differentiable ops on complex
// tensors or on their (real, imaginary) view, so gradients follow PyTorch's convention (and stay
// right where elements are 0, which a rule dividing by the input would not).
#include <algorithm>

#include "engine/core/error.h"
#include "engine/kernels/complex_math.h"
#include "engine/ops/complex.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

int64_t wrap_complex_dim(int64_t d, int64_t n) {
  const int64_t lo = n == 0 ? -1 : -n, hi = n == 0 ? 0 : n - 1;
  ENGINE_CHECK(d >= lo && d <= hi, IndexError, "Dimension out of range (expected to be in range of [", lo, ", ", hi,
               "], but got ", d, ")");
  return d < 0 ? d + (n == 0 ? 1 : n) : d;
}

// The product along dim d, kept as size 1: pairs multiplied level by level (log2(n) ops).
Tensor tree_prod(Tensor x, int64_t d) {
  if (x.shape()[d] == 0) {
    // The empty product, 1, still joined to x's graph (its gradient is empty).
    return add(sum(x, {d}, true), wrapped_scalar(1.0, DType::Float64));
  }
  while (x.shape()[d] > 1) {
    const int64_t n = x.shape()[d], h = n / 2;
    Tensor paired = mul(narrow(x, d, 0, h), narrow(x, d, h, h));
    x = n % 2 ? cat({paired, narrow(x, d, 2 * h, 1)}, d) : paired;
  }
  return x;
}

// Without a graph to record: the products of rows in one pass (dim d moved last).
Tensor row_products(const Tensor& z, int64_t d, bool cumulative) {
  const int64_t last = z.dim() - 1;
  const Tensor moved = contiguous(transpose(detach(z), d, last));
  const int64_t inner = moved.shape()[last], outer = inner == 0 ? 0 : moved.numel() / inner;
  Dims shape = moved.shape();
  if (!cumulative) shape[last] = 1;
  Tensor out = Tensor::empty(shape, z.dtype());
  if (!cumulative && inner == 0) return contiguous(transpose(full(shape, 1.0, z.dtype()), d, last));
  if (moved.numel() == 0) return contiguous(transpose(out, d, last));
  kernels::complex_row_products(out, moved, outer, inner, cumulative);
  return contiguous(transpose(out, d, last));
}

}  // namespace

Tensor complex_prod(const Tensor& z, const std::vector<int64_t>& dims, bool keepdim) {
  const char* name = dims.empty() && !keepdim ? "ProdBackward0" : "ProdBackward1";
  if (z.dim() == 0) return named_history(clone(z), name);
  std::vector<int64_t> d;
  for (int64_t v : dims) d.push_back(wrap_complex_dim(v, z.dim()));
  if (d.empty())
    for (int64_t i = 0; i < z.dim(); ++i) d.push_back(i);
  std::sort(d.begin(), d.end());
  Tensor out = z;
  const bool record = compute_requires_grad({&z});
  for (int64_t v : d) out = record ? tree_prod(out, v) : row_products(out, v, false);
  if (!keepdim) out = squeeze_dims(out, d);
  return named_history(out, name);
}

Tensor complex_cumsum(const Tensor& z, int64_t dim) {
  if (z.dim() == 0) return named_history(clone(z), "CumsumBackward0");
  const int64_t d = wrap_complex_dim(dim, z.dim());
  return named_history(complex_from_pairs(cumsum(view_as_real(z), d)), "CumsumBackward0");
}

// An inclusive scan by doubling strides (Hillis-Steele): log2(n) complex products.
Tensor complex_cumprod(const Tensor& z, int64_t dim) {
  if (z.dim() == 0) return named_history(clone(z), "CumprodBackward0");
  const int64_t d = wrap_complex_dim(dim, z.dim());
  const int64_t n = z.shape()[d];
  if (!compute_requires_grad({&z})) return row_products(z, d, true);
  Tensor y = z;
  for (int64_t step = 1; step < n; step *= 2) {
    y = cat({narrow(y, d, 0, step), mul(narrow(y, d, step, n - step), narrow(y, d, 0, n - step))}, d);
  }
  return named_history(n <= 1 ? clone(z) : y, "CumprodBackward0");
}

// PyTorch's variance of complex numbers: the variances of the two parts added (a real result).
Tensor complex_var(const Tensor& z, const std::vector<int64_t>& dims, double correction, bool keepdim) {
  return named_history(add(var(real(z), dims, correction, keepdim), var(imag(z), dims, correction, keepdim)),
                       "VarBackward0");
}

}  // namespace engine::ops
