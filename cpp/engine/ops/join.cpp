// Joining tensors: cat and stack. cat's gradient is a slice of the incoming gradient per input.
#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

struct CatBackward : BuiltinNode<CatBackward> {
  static constexpr const char* kName = "CatBackward0";
  int64_t dim;
  int64_t given_dim;  // as the caller wrote it (PyTorch shows that one)
  std::vector<int64_t> starts, lengths;  // length -1: a skipped legacy empty input
  std::vector<DType> dtypes;
  variable_list apply(variable_list&& g) override {
    variable_list out(starts.size());
    for (size_t i = 0; i < starts.size(); ++i) {
      if (!should_compute_output(i) || lengths[i] < 0) continue;
      out[i] = to_dtype(narrow(g[0], dim, starts[i], lengths[i]), dtypes[i]);
    }
    return out;
  }
  void visit_saved_values(const SavedValueVisitor& visit) const override { visit("dim", given_dim); }
};

// stack's gradient: entry i of the incoming gradient along dim, in input i's dtype.
struct StackBackward : BuiltinNode<StackBackward> {
  static constexpr const char* kName = "StackBackward0";
  int64_t dim;
  int64_t given_dim;
  std::vector<DType> dtypes;
  variable_list apply(variable_list&& g) override {
    variable_list out(dtypes.size());
    for (size_t i = 0; i < dtypes.size(); ++i) {
      if (should_compute_output(i)) out[i] = to_dtype(select(g[0], dim, static_cast<int64_t>(i)), dtypes[i]);
    }
    return out;
  }
  void visit_saved_values(const SavedValueVisitor& visit) const override { visit("dim", given_dim); }
};

// PyTorch still skips 1-D empty tensors in cat, whatever the other inputs' shapes.
bool legacy_empty(const Tensor& t) { return t.dim() == 1 && t.shape()[0] == 0; }

}  // namespace

Tensor cat(const TensorList& tensors, int64_t dim) {
  ENGINE_CHECK(!tensors.empty(), ValueError, "torch.cat(): expected a non-empty list of Tensors");
  const Tensor* ref = nullptr;
  DType dt = tensors[0].dtype();
  for (const auto& t : tensors) {
    if (!ref && !legacy_empty(t)) ref = &t;
    if (&t != &tensors[0]) dt = result_type(Tensor::empty({}, dt), Tensor::empty({}, t.dtype()));
  }
  if (!ref) ref = &tensors[0];
  ENGINE_CHECK(ref->dim() > 0, std::runtime_error, "zero-dimensional tensor (at position ", ref - &tensors[0],
               ") cannot be concatenated");
  const int64_t given_dim = dim;
  dim = wrap_dim(dim, ref->dim());
  Dims shape = ref->shape();
  shape[dim] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (legacy_empty(t) && &t != ref) continue;
    ENGINE_CHECK(t.dim() == ref->dim(), std::runtime_error, "Tensors must have same number of dimensions: got ",
                 ref->dim(), " and ", t.dim());
    for (int64_t d = 0; d < t.dim(); ++d) {
      ENGINE_CHECK(d == dim || t.shape()[d] == ref->shape()[d], std::runtime_error,
                   "Sizes of tensors must match except in dimension ", dim, ". Expected size ", ref->shape()[d],
                   " but got size ", t.shape()[d], " for tensor number ", i, " in the list.");
    }
    shape[dim] += t.shape()[dim];
  }
  Tensor out = Tensor::empty(shape, dt);
  auto node = std::make_shared<CatBackward>();
  node->dim = dim;
  node->given_dim = given_dim;
  bool records = false;
  int64_t pos = 0;
  for (const auto& t : tensors) {
    const bool skip = legacy_empty(t) && &t != ref;
    node->starts.push_back(pos);
    node->lengths.push_back(skip ? -1 : t.shape()[dim]);
    node->dtypes.push_back(t.dtype());
    node->mutable_next_edges().push_back(compute_requires_grad({&t}) ? gradient_edge(t) : Edge());
    records = records || compute_requires_grad({&t});
    if (skip) continue;
    Dims st = out.strides();
    Dims sh = shape;
    sh[dim] = t.shape()[dim];
    kernels::copy(out.as_strided(sh, st, pos * st[dim]), t);
    pos += t.shape()[dim];
  }
  if (records) set_history(out, node);
  return out;
}

Tensor stack(const TensorList& tensors, int64_t dim) {
  ENGINE_CHECK(!tensors.empty(), ValueError, "stack expects a non-empty TensorList");
  for (size_t i = 1; i < tensors.size(); ++i) {
    ENGINE_CHECK(tensors[i].shape() == tensors[0].shape(), std::runtime_error,
                 "stack expects each tensor to be equal size, but got ", dims_str(tensors[0].shape()),
                 " at entry 0 and ", dims_str(tensors[i].shape()), " at entry ", i);
  }
  const int64_t given_dim = dim;
  dim = wrap_dim(dim, tensors[0].dim() + 1);
  // The values come from cat; the graph gets one StackBackward0 whose edges are the inputs', as
  // PyTorch's (not a cat of unsqueezed views).
  TensorList parts;
  for (const auto& t : tensors) parts.push_back(unsqueeze(detach(t), dim));
  Tensor out = cat(parts, dim);
  auto node = std::make_shared<StackBackward>();
  node->dim = dim;
  node->given_dim = given_dim;
  bool records = false;
  for (const auto& t : tensors) {
    const bool rg = compute_requires_grad({&t});
    node->dtypes.push_back(t.dtype());
    node->mutable_next_edges().push_back(rg ? gradient_edge(t) : Edge());
    records = records || rg;
  }
  if (records) set_history(out, node);
  return out;
}

}  // namespace engine::ops
