// Reductions: sum, mean, and sum_to (the inverse of broadcasting, used by the engine).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/autograd/grad_mode.h"
#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/kernels/reduce.h"
#include "engine/ops/complex.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

// The reduced dims of a mask, as a list (what sum/prod take).
std::vector<int64_t> masked_dims(const std::vector<bool>& mask) {
  std::vector<int64_t> dims;
  for (size_t d = 0; d < mask.size(); ++d) {
    if (mask[d]) dims.push_back(static_cast<int64_t>(d));
  }
  return dims;
}

// How many elements each output of the reduction combines.
int64_t masked_count(const Dims& shape, const std::vector<bool>& mask) {
  int64_t count = 1;
  for (size_t d = 0; d < mask.size(); ++d) {
    if (mask[d]) count *= shape[d];
  }
  return count;
}

std::vector<bool> reduce_mask(const Tensor& a, const std::vector<int64_t>& dims) {
  std::vector<bool> mask(a.dim(), dims.empty());
  for (int64_t d : dims) {
    int64_t w = wrap_dim(d, a.dim());
    if (a.dim() == 0) continue;
    ENGINE_CHECK(!mask[w], std::runtime_error, "dim ", w, " appears multiple times in the list of dims");
    mask[w] = true;
  }
  return mask;
}

Dims keepdim_shape(const Tensor& a, const std::vector<bool>& mask) {
  Dims s = a.shape();
  for (size_t d = 0; d < s.size(); ++d) {
    if (mask[d]) s[d] = 1;
  }
  return s;
}

Dims squeezed_shape(const Tensor& a, const std::vector<bool>& mask) {
  Dims s;
  for (size_t d = 0; d < a.shape().size(); ++d) {
    if (!mask[d]) s.push_back(a.shape()[d]);
  }
  return s;
}

// Gradient of a reduction: bring the reduced dims back (as size 1) and broadcast to the input.
Tensor expand_reduced(const Tensor& g, const Dims& input_shape, const std::vector<bool>& mask, bool keepdim) {
  Tensor r = g;
  if (!keepdim) {
    Dims ks = input_shape;
    for (size_t d = 0; d < ks.size(); ++d) {
      if (mask[d]) ks[d] = 1;
    }
    r = reshape(r, ks);
  }
  return expand(r, input_shape);
}

struct SumBackward : Node {
  const char* node_name;
  Dims input_shape;
  std::vector<bool> mask;
  bool keepdim;
  double scale = 1.0;  // 1/count for mean
  std::optional<std::vector<int64_t>> dims;  // as given (SumBackward1, MeanBackward1); none: all dims
  explicit SumBackward(const char* n) : node_name(n) {}
  std::string name() const override { return node_name; }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    const bool by_dim = node_name[std::char_traits<char>::length(node_name) - 1] == '1';
    if (by_dim) {
      visit("dim", dims ? SavedValue(*dims) : SavedValue());
      visit("keepdim", keepdim);
    }
    if (scale != 1.0 || node_name[0] == 'M') visit("self_sym_numel", numel_of(input_shape));
    visit("self_sym_sizes", saved_ints(input_shape));
  }
  variable_list apply(variable_list&& g) override {
    Tensor r = expand_reduced(g[0], input_shape, mask, keepdim);
    return {scale == 1.0 ? r : r * scale};
  }
};

Tensor reduce_sum(const Tensor& a, const std::vector<bool>& mask, bool keepdim, DType out_dtype) {
  Tensor out = Tensor::empty(keepdim_shape(a, mask), out_dtype);
  kernels::sum(out, a, mask);
  if (!keepdim) {
    // The buffer is fresh and contiguous, so dropping the size-1 dims is only a change of metadata.
    TensorImpl* impl = out.get();
    impl->shape = squeezed_shape(a, mask);
    impl->strides = contiguous_strides(impl->shape);
    impl->refresh_layout();
  }
  return out;
}

}  // namespace

Tensor sum(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype) {
  if ((is_complex(a.dtype()) && !dtype) || (dtype && is_complex(*dtype))) {
    return complex_sum(dtype ? to_dtype(a, *dtype) : a, dims, keepdim);
  }
  const std::vector<bool> mask = reduce_mask(a, dims);
  DType out_dtype = dtype ? *dtype : (is_floating(a.dtype()) ? a.dtype() : DType::Int64);
  // With dtype=, PyTorch converts the elements first and adds them in dtype (x.sum(dtype=int32)
  // truncates each float).
  Tensor out = reduce_sum(dtype && *dtype != a.dtype() ? to_dtype(detach(a), *dtype) : a, mask, keepdim, out_dtype);
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<SumBackward>(dims.empty() && !keepdim ? "SumBackward0" : "SumBackward1");
    node->mutable_next_edges() = collect_next_edges({&a});
    node->input_shape = a.shape();
    node->mask = mask;
    node->keepdim = keepdim;
    if (!dims.empty()) node->dims = dims;
    set_history(out, node);
  }
  return out;
}

Tensor mean(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype) {
  DType dt = dtype ? *dtype : a.dtype();
  if (is_complex(a.dtype()) && is_complex(dt)) return complex_mean(to_dtype(a, dt), dims, keepdim);
  ENGINE_CHECK(is_floating(dt), std::runtime_error,
               "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
               "Got: ",
               scalar_type_name(dt));
  const std::vector<bool> mask = reduce_mask(a, dims);
  const int64_t count = masked_count(a.shape(), mask);
  // float16 / bfloat16 means are summed and divided in float32 and rounded once, as PyTorch's.
  const DType acc_dt = is_reduced_floating(dt) ? DType::Float32 : dt;
  // With dtype=, PyTorch converts the elements before adding them (a float32 input's mean in
  // float64 is summed in float64), as sum does; without it the kernel widens as it goes.
  Tensor out = reduce_sum(dtype && acc_dt != a.dtype() ? to_dtype(detach(a), acc_dt) : a, mask, keepdim, acc_dt);
  // The mean of nothing is NaN, as 0/0.
  const double scale = 1.0 / static_cast<double>(count);
  {
    Tensor s = Tensor::empty(out.shape(), acc_dt);
    kernels::binary(kernels::BinaryOp::Div, s, out, full({}, static_cast<double>(count), acc_dt));
    out = s;
  }
  if (acc_dt != dt) {
    Tensor rounded = Tensor::empty(out.shape(), dt);
    kernels::copy(rounded, out);
    out = rounded;
  }
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<SumBackward>(dims.empty() && !keepdim ? "MeanBackward0" : "MeanBackward1");
    node->mutable_next_edges() = collect_next_edges({&a});
    node->input_shape = a.shape();
    node->mask = mask;
    node->keepdim = keepdim;
    if (!dims.empty()) node->dims = dims;
    node->scale = scale;
    set_history(out, node);
  }
  return out;
}

Tensor sum_to(const Tensor& a, const Dims& shape) {
  if (a.shape() == shape) return a;
  const int64_t lead = a.dim() - static_cast<int64_t>(shape.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (d < lead || (shape[d - lead] == 1 && a.shape()[d] != 1)) dims.push_back(d);
  }
  Tensor r = dims.empty() ? a : sum(a, dims, true);
  return r.shape() == shape ? r : reshape(r, shape);
}

}  // namespace engine::ops

// ---- more reductions: prod, amax / amin, max / min, arg-reductions, var / std, norm, logsumexp,
// cumulative sums and products, all / any ----
namespace engine::ops {

namespace {

// a's values with the kept dims first and the reduced dims last, contiguous, as [outer, inner].
struct Rows {
  Tensor data;
  int64_t outer = 1, inner = 1;
};
Rows to_rows(const Tensor& a, const std::vector<bool>& mask) {
  Dims perm;
  Rows r;
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (!mask[d]) {
      perm.push_back(d);
      r.outer *= a.shape()[d];
    }
  }
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (mask[d]) {
      perm.push_back(d);
      r.inner *= a.shape()[d];
    }
  }
  Tensor x = detach(a);
  r.data = contiguous(a.dim() == 0 ? x : permute(x, perm));
  return r;
}

// A fresh [outer] result given the final shape (keepdim or squeezed). The buffer is fresh and
// contiguous, so this is a change of metadata, and the result is no view (as PyTorch's are not).
Tensor shaped(const Tensor& flat, const Tensor& a, const std::vector<bool>& mask, bool keepdim) {
  TensorImpl* impl = flat.get();
  impl->shape = keepdim ? keepdim_shape(a, mask) : squeezed_shape(a, mask);
  impl->strides = contiguous_strides(impl->shape);
  impl->refresh_layout();
  return flat;
}

void check_nonempty(const Tensor& a, const std::vector<bool>& mask, const std::vector<int64_t>& dims,
                    const char* name) {
  if (a.numel() != 0) return;
  ENGINE_CHECK(!dims.empty(), std::runtime_error, name, "(): Expected reduction dim to be specified for input.numel() == 0. "
               "Specify the reduction dim with the 'dim' argument.");
  for (int64_t d = 0; d < a.dim(); ++d) {
    ENGINE_CHECK(!(mask[d] && a.shape()[d] == 0), IndexError, name, "(): Expected reduction dim ", d,
                 " to have non-zero size.");
  }
}

// The gradient of a reduction whose value is attained by some elements (amax / amin / max()):
// shared evenly among the elements equal to the result.
// What a reduction's backward reads: the input, the result, and which dims were reduced.
struct ReductionBackward : Node {
  const char* node_name;
  std::vector<bool> mask;
  bool keepdim = false;
  SavedTensor self_, result_;
  explicit ReductionBackward(const char* n) : node_name(n) {}
  std::string name() const override { return node_name; }
  void release_variables() override {
    self_.reset();
    result_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("self", self_);
    visit("result", result_);
  }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    const std::string n = node_name;
    if (n == "AmaxBackward0" || n == "AminBackward0") {
      visit("dim", masked_dims(mask));
    } else if (n == "ProdBackward1") {
      const std::vector<int64_t> d = masked_dims(mask);
      visit("dim", d.empty() ? int64_t{0} : d[0]);
    } else {
      return;
    }
    visit("keepdim", keepdim);
  }
};

// Attaches a ReductionBackward of type N to `out`, the result of reducing `a` over `mask`.
template <typename N>
void record_reduction(const Tensor& a, const Tensor& out, const std::vector<bool>& mask, bool keepdim,
                      const char* node_name) {
  auto node = std::make_shared<N>(node_name);
  node->mutable_next_edges() = collect_next_edges({&a});
  node->mask = mask;
  node->keepdim = keepdim;
  node->self_ = SavedTensor(a, false);
  set_history(out, node);
  node->result_ = SavedTensor(out, true);
}

struct ExtremumBackward : ReductionBackward {
  using ReductionBackward::ReductionBackward;
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    Tensor x = self_.unpack(me);
    Tensor y = expand_reduced(result_.unpack(me), x.shape(), mask, keepdim);
    Tensor hit = to_dtype(eq(x, y), g[0].dtype());
    const std::vector<int64_t> dims = masked_dims(mask);
    Tensor count = dims.empty() ? hit : sum(hit, dims, true);
    return {expand_reduced(g[0], x.shape(), mask, keepdim) * hit / count};
  }
};

Tensor extremum(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim, bool is_max, const char* name,
                const char* node_name) {
  const std::vector<bool> mask = reduce_mask(a, dims);
  check_nonempty(a, mask, dims, name);
  Rows r = to_rows(a, mask);
  Tensor flat = Tensor::empty({r.outer}, a.dtype());
  if (r.outer > 0) kernels::reduce_rows(is_max ? kernels::RowOp::Max : kernels::RowOp::Min, flat, r.data, r.outer, r.inner);
  Tensor out = shaped(flat, a, mask, keepdim);
  if (compute_requires_grad({&a})) {
    record_reduction<ExtremumBackward>(a, out, mask, keepdim, node_name);
    if (!dims.empty()) show_given(out, "dim", dims, masked_dims(mask));  // amax / amin: as given
  }
  return out;
}

struct ProdBackward : ReductionBackward {
  using ReductionBackward::ReductionBackward;
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    Tensor x = self_.unpack(me);
    Tensor y = expand_reduced(result_.unpack(me), x.shape(), mask, keepdim);
    Tensor gx = expand_reduced(g[0], x.shape(), mask, keepdim);
    Tensor zero = wrapped_scalar(0.0, DType::Int64);
    Tensor is_zero = eq(x, zero);
    if (x.numel() == 0 || kernels::read_int(any(is_zero, {}, false), 0) == 0) return {gx * y / x};
    // With zeros: the product of the others is the product with the zeros replaced by one, where
    // the element is the only zero of its group, and 0 otherwise.
    const std::vector<int64_t> dims = masked_dims(mask);
    Tensor zeros_in_group = expand(sum(is_zero, dims, true), x.shape());
    Tensor others = where(is_zero, wrapped_scalar(1.0, DType::Int64), x);
    Tensor p_others = expand(prod(others, dims, true), x.shape());
    Tensor one_zero = eq(zeros_in_group, wrapped_scalar(1.0, DType::Int64));
    Tensor no_zero = eq(zeros_in_group, zero);
    Tensor grad = where(is_zero, where(one_zero, p_others, zero), where(no_zero, y / others, zero));
    return {gx * grad};
  }
};

// a[..., i, ...] where i runs along `dim` equals `idx` (keepdim layout): a bool mask of a's shape.
Tensor one_hot_along(const Dims& shape, int64_t dim, const Tensor& idx_keepdim) {
  Dims s(shape.size(), 1);
  s[dim] = shape[dim];
  Tensor pos = reshape(arange(int64_t{0}, shape[dim], int64_t{1}, DType::Int64), s);
  return eq(pos, idx_keepdim);
}

struct IndexReduceBackward : Node {
  const char* node_name;
  int64_t dim;
  bool keepdim;
  Dims input_shape;
  SavedTensor indices_;  // the op's indices output, freed with the graph as PyTorch's is
  explicit IndexReduceBackward(const char* n) : node_name(n) {}
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& g) override {
    Tensor idx = indices_.unpack(shared_from_this());
    Tensor gk = keepdim ? g[0] : unsqueeze(g[0], dim);
    if (!keepdim) idx = unsqueeze(idx, dim);
    return {where(one_hot_along(input_shape, dim, idx), gk, wrapped_scalar(0.0, DType::Float64))};
  }
  void release_variables() override { indices_.reset(); }
  void visit_saved(const SavedVisitor& visit) override { visit("indices", indices_); }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    visit("dim", dim);
    visit("keepdim", keepdim);
    visit("self_sym_sizes", saved_ints(input_shape));
  }
};

std::pair<Tensor, Tensor> extremum_dim(const Tensor& a, int64_t dim, bool keepdim, bool is_max) {
  const int64_t w = wrap_dim(dim, a.dim());
  if (a.dim() == 0) return extremum_dim(reshape(a, {1}), 0, false, is_max);  // a 0-d tensor is its own extremum
  std::vector<bool> mask(a.dim(), false);
  mask[w] = true;
  ENGINE_CHECK(a.shape()[w] != 0, IndexError, is_max ? "max" : "min", "(): Expected reduction dim ", w,
               " to have non-zero size.");
  Rows r = to_rows(a, mask);
  Tensor vals = Tensor::empty({r.outer}, a.dtype()), idx = Tensor::empty({r.outer}, DType::Int64);
  if (r.outer > 0) kernels::arg_reduce_rows(is_max, idx, vals, r.data, r.outer, r.inner);
  Tensor values = shaped(vals, a, mask, keepdim), indices = shaped(idx, a, mask, keepdim);
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<IndexReduceBackward>(is_max ? "MaxBackward0" : "MinBackward0");
    node->mutable_next_edges() = collect_next_edges({&a});
    node->dim = w;
    node->keepdim = keepdim;
    node->input_shape = a.shape();
    set_history(values, node);
    node->indices_ = SavedTensor(indices, false);  // no history: an int tensor, no cycle
    show_given(values, "dim", dim, w);
  }
  return {values, indices};
}

Tensor arg_extremum(const Tensor& a, std::optional<int64_t> dim, bool keepdim, bool is_max) {
  const char* name = is_max ? "argmax" : "argmin";
  ENGINE_CHECK(a.dtype() != DType::Bool, std::runtime_error, name, "(): does not support bool input");
  if (!dim) {
    ENGINE_CHECK(a.numel() > 0, IndexError, name, "(): Expected reduction dim to be specified for input.numel() == 0.");
    Tensor flat = Tensor::empty({1}, DType::Int64);
    kernels::arg_reduce_rows(is_max, flat, Tensor(), contiguous(reshape(detach(a), {-1})), 1, a.numel());
    return view(flat, keepdim ? Dims(a.dim(), 1) : Dims{});
  }
  const int64_t w = wrap_dim(*dim, a.dim());
  if (a.dim() == 0) return zeros({}, DType::Int64);
  ENGINE_CHECK(a.shape()[w] != 0, IndexError, name, "(): Expected reduction dim ", w, " to have non-zero size.");
  std::vector<bool> mask(a.dim(), false);
  mask[w] = true;
  Rows r = to_rows(a, mask);
  Tensor idx = Tensor::empty({r.outer}, DType::Int64);
  if (r.outer > 0) kernels::arg_reduce_rows(is_max, idx, Tensor(), r.data, r.outer, r.inner);
  return shaped(idx, a, mask, keepdim);
}

std::vector<int64_t> all_dims_if_empty(const Tensor& a, const std::vector<int64_t>& dims) {
  if (!dims.empty()) return dims;
  std::vector<int64_t> out;
  for (int64_t d = 0; d < a.dim(); ++d) out.push_back(d);
  return out;
}

struct CumsumBackward0 : BuiltinNode<CumsumBackward0> {
  static constexpr const char* kName = "CumsumBackward0";
  int64_t dim;
  DType input_dtype;
  void visit_saved_values(const SavedValueVisitor& visit) const override { visit("dim", dim); }
  variable_list apply(variable_list&& g) override {
    // The reversed cumulative sum: the total minus what came before.
    Tensor r = sum(g[0], {dim}, true) - cumsum(g[0], dim) + g[0];
    return {r.dtype() == input_dtype ? r : to_dtype(r, input_dtype)};
  }
};

struct CumprodBackward0 : BuiltinNode<CumprodBackward0> {
  static constexpr const char* kName = "CumprodBackward0";
  int64_t dim;
  SavedTensor self_, result_;
  void visit_saved_values(const SavedValueVisitor& visit) const override { visit("dim", dim); }
  void visit_saved(const SavedVisitor& visit) override {
    visit("self", self_);
    visit("result", result_);
  }
  variable_list apply(variable_list&& g) override {
    // Exact for inputs without zeros: d y_j / d x_i = y_j / x_i for j >= i.
    auto me = shared_from_this();
    Tensor x = self_.unpack(me);
    Tensor gy = g[0] * result_.unpack(me);
    Tensor rev = sum(gy, {dim}, true) - cumsum(gy, dim) + gy;
    return {rev / x};
  }
  void release_variables() override {
    self_.reset();
    result_.reset();
  }
};

Tensor scan(const Tensor& a, int64_t dim, std::optional<DType> dtype, bool is_sum) {
  const int64_t w = wrap_dim(dim, a.dim());
  const DType out_dtype = dtype ? *dtype : (is_floating(a.dtype()) ? a.dtype() : DType::Int64);
  ENGINE_CHECK(out_dtype != DType::Bool, NotImplementedError, "\"", is_sum ? "cumsum" : "cumprod",
               "_out_cpu\" not implemented for 'Bool'");
  Tensor src = a.dim() == 0 ? reshape(detach(a), {1}) : detach(a);
  const int64_t last = src.dim() - 1;
  Tensor moved = contiguous(transpose(src, w, last));
  const int64_t inner = moved.dim() == 0 ? 1 : moved.shape()[last];
  const int64_t outer = inner == 0 ? 0 : moved.numel() / inner;
  Tensor flat = Tensor::empty(moved.shape(), out_dtype);
  if (moved.numel() > 0) {
    kernels::scan_rows(is_sum ? kernels::ScanOp::CumSum : kernels::ScanOp::CumProd, flat, moved, outer, inner);
  }
  Tensor out = contiguous(transpose(flat, w, last));
  if (a.dim() == 0) out = reshape(out, {});
  if (is_floating(out_dtype) && compute_requires_grad({&a})) {
    if (is_sum) {
      auto node = make_node<CumsumBackward0>({&a});
      node->dim = a.dim() == 0 ? 0 : w;
      node->input_dtype = a.dtype();
      set_history(out, node);
    } else {
      auto node = make_node<CumprodBackward0>({&a});
      node->dim = a.dim() == 0 ? 0 : w;
      node->self_ = SavedTensor(a, false);
      set_history(out, node);
      node->result_ = SavedTensor(out, true);
    }
    if (a.dim() > 0) show_given(out, "dim", dim, w);
  }
  return out;
}

}  // namespace

Tensor prod(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype) {
  if ((is_complex(a.dtype()) && !dtype) || (dtype && is_complex(*dtype))) {
    return complex_prod(dtype ? to_dtype(a, *dtype) : a, dims, keepdim);
  }
  const std::vector<bool> mask = reduce_mask(a, dims);
  const DType out_dtype = dtype ? *dtype : (is_floating(a.dtype()) ? a.dtype() : DType::Int64);
  Rows r = to_rows(dtype && *dtype != a.dtype() ? to_dtype(detach(a), *dtype) : a, mask);  // as sum's dtype=
  Tensor flat = Tensor::empty({r.outer}, out_dtype);
  if (r.outer > 0) kernels::reduce_rows(kernels::RowOp::Prod, flat, r.data, r.outer, r.inner);
  Tensor out = shaped(flat, a, mask, keepdim);
  if (is_floating(out_dtype) && compute_requires_grad({&a})) {
    record_reduction<ProdBackward>(a, out, mask, keepdim, dims.empty() && !keepdim ? "ProdBackward0" : "ProdBackward1");
    if (dims.size() == 1) show_given(out, "dim", dims[0], masked_dims(mask)[0]);
  }
  return out;
}

Tensor amax(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim) {
  return extremum(a, dims, keepdim, true, "amax", "AmaxBackward0");
}
Tensor amin(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim) {
  return extremum(a, dims, keepdim, false, "amin", "AminBackward0");
}
Tensor max_all(const Tensor& a) { return extremum(a, {}, false, true, "max", "MaxBackward1"); }
Tensor min_all(const Tensor& a) { return extremum(a, {}, false, false, "min", "MinBackward1"); }
std::pair<Tensor, Tensor> max_dim(const Tensor& a, int64_t dim, bool keepdim) { return extremum_dim(a, dim, keepdim, true); }
std::pair<Tensor, Tensor> min_dim(const Tensor& a, int64_t dim, bool keepdim) { return extremum_dim(a, dim, keepdim, false); }
Tensor argmax(const Tensor& a, std::optional<int64_t> dim, bool keepdim) { return arg_extremum(a, dim, keepdim, true); }
Tensor argmin(const Tensor& a, std::optional<int64_t> dim, bool keepdim) { return arg_extremum(a, dim, keepdim, false); }

namespace {
// float16 / bfloat16 statistics are computed in float32 and rounded once, as PyTorch's are; the
// conversions are differentiable, so gradients arrive in the input's dtype.
template <typename F>
std::optional<Tensor> in_float32(const Tensor& a, F f) {
  if (!is_reduced_floating(a.dtype())) return std::nullopt;
  return to_dtype(f(to_dtype(a, DType::Float32)), a.dtype());
}
}  // namespace

// A reduction built of several nodes shows on its last one the dims as given and keepdim, as
// PyTorch's single node does (grad_fn._saved_dim of x.var(-1) is (2**64 - 1,)).
namespace {
Tensor show_dims(Tensor out, const std::vector<int64_t>& dims, bool keepdim) {
  if (dims.empty()) return out;
  auto* m = autograd_meta(out);
  if (!m || !m->grad_fn) return out;
  m->grad_fn->saved_values.set("dim", dims);
  m->grad_fn->saved_values.set("keepdim", keepdim);
  return out;
}
}  // namespace

// Written with differentiable ops: the gradient (and its own gradient) comes for free.
Tensor var(const Tensor& a, const std::vector<int64_t>& dims, double correction, bool keepdim) {
  if (is_complex(a.dtype())) return complex_var(a, dims, correction, keepdim);
  ENGINE_CHECK(is_floating(a.dtype()), std::runtime_error, "std and var only support floating point and complex dtypes");
  if (auto r = in_float32(a, [&](const Tensor& x) { return var(x, dims, correction, keepdim); })) return *r;
  const std::vector<bool> mask = reduce_mask(a, dims);
  const int64_t count = masked_count(a.shape(), mask);
  std::vector<int64_t> all = all_dims_if_empty(a, dims);
  Tensor centered = all.empty() ? a - a : a - mean(a, all, true);
  Tensor sq = centered * centered;
  Tensor s = all.empty() ? sq : sum(sq, all, keepdim);
  const double divisor = std::max(0.0, static_cast<double>(count) - correction);
  return show_dims(named_history(div(s, wrapped_scalar(divisor, DType::Float64)), "VarBackward0"), dims, keepdim);
}

Tensor std(const Tensor& a, const std::vector<int64_t>& dims, double correction, bool keepdim) {
  if (auto r = in_float32(a, [&](const Tensor& x) { return std(x, dims, correction, keepdim); })) return *r;
  return show_dims(named_history(sqrt(var(a, dims, correction, keepdim)), "StdBackward0"), dims, keepdim);
}

namespace {
// var_mean / std_mean: one node for both results, as PyTorch's VarMeanBackward0 / StdMeanBackward0,
// so a hook on it sees both gradients and the input's gradient is summed once. The rule is written
// with differentiable ops (higher derivatives come for free).
struct MomentsBackward : Node {
  bool is_std = false;
  std::vector<bool> mask;
  std::vector<int64_t> all;  // the reduced dims (empty: a 0-d input)
  bool keepdim = false;
  int64_t count = 0;
  double divisor = 0.0;  // count - correction, not below 0
  SavedTensor self_, spread_;  // spread_ (the standard deviation, output 0) for std_mean only
  std::string name() const override { return is_std ? "StdMeanBackward0" : "VarMeanBackward0"; }
  void release_variables() override {
    self_.reset();
    spread_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    if (is_std) visit("result0", spread_);
    visit("self", self_);
  }
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    Tensor x = self_.unpack(me);
    Tensor grad;
    if (g[0].defined()) {
      Tensor gv = g[0];
      if (is_std) {
        // d std = d var / (2 std); where the deviation is 0 PyTorch gives 0, not inf.
        Tensor s = spread_.unpack(me);
        gv = where(eq(s, zeros({}, s.dtype())), zeros({}, gv.dtype()), gv / (s * 2.0));
      }
      Tensor centered = all.empty() ? x - x : x - mean(x, all, true);
      grad = expand_reduced(gv, x.shape(), mask, keepdim) * centered * (2.0 / divisor);
    }
    if (g[1].defined()) {
      Tensor gm = expand_reduced(g[1], x.shape(), mask, keepdim) * (1.0 / static_cast<double>(count));
      grad = grad.defined() ? grad + gm : gm;
    }
    return {grad};
  }
};
}  // namespace

namespace {
// PyTorch's var_mean / std_mean take the mean by Welford's running update m += (x - m) / k, in
// which an infinity followed by any further element gives inf - inf = NaN. So their mean is
// infinite only where the slice's last element (in the order of the reduced dims) is its only
// infinity; elsewhere an infinite plain mean becomes NaN. Without infinities nothing changes.
Tensor running_update_mean(const Tensor& a, const std::vector<int64_t>& dims, const Tensor& m) {
  if (!is_floating(a.dtype()) || m.numel() == 0) return m;
  const Tensor m_inf = contiguous(isinf(m));
  const bool* flags = m_inf.data<bool>();
  if (!std::any_of(flags, flags + m_inf.numel(), [](bool f) { return f; })) return m;
  const std::vector<bool> mask = reduce_mask(a, dims);
  Dims order, seq_shape;
  int64_t n = 1;
  for (int64_t d = 0; d < a.dim(); ++d)
    if (!mask[static_cast<size_t>(d)]) {
      order.push_back(d);
      seq_shape.push_back(a.shape()[d]);
    }
  for (int64_t d = 0; d < a.dim(); ++d)
    if (mask[static_cast<size_t>(d)]) {
      order.push_back(d);
      n *= a.shape()[d];
    }
  seq_shape.push_back(n);
  const int64_t last_dim = static_cast<int64_t>(seq_shape.size()) - 1;
  Tensor seq = isinf(reshape(permute(a, order), seq_shape));
  Tensor inf_count = sum(seq, {last_dim}, false);
  Tensor only_last = logical_and(select(seq, last_dim, n - 1), eq(inf_count, wrapped_scalar(1.0, DType::Int64)));
  Tensor to_nan = logical_and(m_inf, logical_not(reshape(only_last, m.shape())));
  return where(to_nan, wrapped_scalar(std::nan(""), m.dtype()), m);
}
}  // namespace

std::pair<Tensor, Tensor> var_mean(const Tensor& a, const std::vector<int64_t>& dims, double correction, bool keepdim,
                                   bool is_std) {
  Tensor spread, m;
  {
    AutoGradMode off(false);
    spread = is_std ? std(a, dims, correction, keepdim) : var(a, dims, correction, keepdim);
    m = running_update_mean(a, dims, mean(a, dims, keepdim));
  }
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<MomentsBackward>();
    node->mutable_next_edges() = collect_next_edges({&a});
    node->is_std = is_std;
    node->mask = reduce_mask(a, dims);
    node->all = all_dims_if_empty(a, dims);
    node->keepdim = keepdim;
    node->count = masked_count(a.shape(), node->mask);
    node->divisor = std::max(0.0, static_cast<double>(node->count) - correction);
    node->self_ = SavedTensor(a, false);
    set_history(spread, node);
    set_history(m, node);
    if (is_std) node->spread_ = SavedTensor(spread, true);
  }
  return {spread, m};
}

namespace {
// aminmax: one node for both results (AminmaxBackward0). Each result's gradient is shared evenly
// among the elements equal to it, as amin's and amax's are.
struct AminmaxBackward : Node {
  std::vector<bool> mask;
  bool keepdim = false;
  SavedTensor self_, min_, max_;
  std::string name() const override { return "AminmaxBackward0"; }
  void release_variables() override {
    self_.reset();
    min_.reset();
    max_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("max", max_);
    visit("min", min_);
    visit("self", self_);
  }
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    Tensor x = self_.unpack(me);
    const std::vector<int64_t> dims = masked_dims(mask);
    Tensor grad;
    for (int i = 0; i < 2; ++i) {
      if (!g[i].defined()) continue;
      Tensor y = expand_reduced((i == 0 ? min_ : max_).unpack(me), x.shape(), mask, keepdim);
      Tensor hit = to_dtype(eq(x, y), g[i].dtype());
      Tensor count = dims.empty() ? hit : sum(hit, dims, true);
      Tensor part = expand_reduced(g[i], x.shape(), mask, keepdim) * hit / count;
      grad = grad.defined() ? grad + part : part;
    }
    return {grad};
  }
};
}  // namespace

std::pair<Tensor, Tensor> aminmax(const Tensor& a, std::optional<int64_t> dim, bool keepdim) {
  const std::vector<int64_t> dims = dim ? std::vector<int64_t>{*dim} : std::vector<int64_t>{};
  Tensor lo, hi;
  {
    AutoGradMode off(false);
    lo = amin(a, dims, keepdim);
    hi = amax(a, dims, keepdim);
  }
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<AminmaxBackward>();
    node->mutable_next_edges() = collect_next_edges({&a});
    node->mask = reduce_mask(a, dims);
    node->keepdim = keepdim;
    node->self_ = SavedTensor(a, false);
    set_history(lo, node);
    set_history(hi, node);
    node->min_ = SavedTensor(lo, true);
    node->max_ = SavedTensor(hi, true);
    node->saved_values.add("dim", dim ? SavedValue(*dim) : SavedValue());
    node->saved_values.add("keepdim", keepdim);
  }
  return {lo, hi};
}

// The vector norm; `norm` shows its node as PyTorch's linalg.vector_norm.
static Tensor norm_of(const Tensor& a, double p, const std::vector<int64_t>& dims, bool keepdim) {
  if (is_complex(a.dtype())) return norm_of(abs(a), p, dims, keepdim);  // the magnitudes' norm
  ENGINE_CHECK(is_floating(a.dtype()), std::runtime_error,
               "linalg.vector_norm: Expected a floating point or complex tensor as input. Got ", scalar_type_name(a.dtype()));
  if (auto r = in_float32(a, [&](const Tensor& x) { return norm_of(x, p, dims, keepdim); })) return *r;
  std::vector<int64_t> all = all_dims_if_empty(a, dims);
  auto reduce_sum = [&](const Tensor& t) { return all.empty() ? t : sum(t, all, keepdim); };
  if (std::isinf(p)) {
    Tensor m = abs(a);
    return all.empty() ? m : (p > 0 ? amax(m, all, keepdim) : amin(m, all, keepdim));
  }
  if (p == 0) return reduce_sum(to_dtype(ne(a, wrapped_scalar(0.0, DType::Int64)), a.dtype()));
  if (p == 1) return reduce_sum(abs(a));
  if (p == 2) return sqrt(reduce_sum(a * a));
  return pow(reduce_sum(pow(abs(a), wrapped_scalar(p, DType::Float64))), wrapped_scalar(1.0 / p, DType::Float64));
}

namespace {
// A norm without an identity (negative or infinite p) has no value over no elements: PyTorch's errors.
void check_norm_identity(const Tensor& a, double p, const std::vector<int64_t>& dims) {
  if (!(p < 0 || std::isinf(p)) || a.numel() != 0) return;
  std::ostringstream order;
  if (std::isinf(p)) {
    order << (p > 0 ? "inf" : "-inf");
  } else if (p == std::floor(p) && std::fabs(p) < 1e15) {
    order << static_cast<int64_t>(p);
  } else {
    order << p;
  }
  ENGINE_CHECK(!dims.empty(), std::runtime_error, "linalg.vector_norm cannot compute the ", order.str(),
               " norm on an empty tensor because the operation does not have an identity");
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, a.dim());
    ENGINE_CHECK(a.dim() == 0 || a.shape()[static_cast<size_t>(w)] != 0, std::runtime_error,
                 "linalg.vector_norm cannot compute the ", order.str(), " norm on the dimension ", w,
                 "because this dimension is empty and the operation does not have an identity");
  }
}
}  // namespace

Tensor norm(const Tensor& a, double p, const std::vector<int64_t>& dims, bool keepdim) {
  check_norm_identity(a, p, dims);
  return show_dims(named_history(norm_of(a, p, dims, keepdim), "LinalgVectorNormBackward0"), dims, keepdim);
}

Tensor logsumexp(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim) {
  Tensor x = is_floating(a.dtype()) ? a : to_dtype(a, default_dtype());
  std::vector<int64_t> all = all_dims_if_empty(a, dims);
  if (all.empty() || x.numel() == 0) return log(all.empty() ? exp(x) : sum(exp(x), all, keepdim));
  // Shifted by the (constant) maximum for stability; infinite maxima shift by 0.
  Tensor m = amax(detach(x), all, true);
  m = where(isinf(m), wrapped_scalar(0.0, DType::Float64), m);
  Tensor s = log(sum(exp(x - m), all, keepdim));
  return show_dims(named_history(s + (keepdim ? m : reshape(m, s.shape())), "LogsumexpBackward0"), dims, keepdim);
}

Tensor cumsum(const Tensor& a, int64_t dim, std::optional<DType> dtype) {
  if ((is_complex(a.dtype()) && !dtype) || (dtype && is_complex(*dtype))) {
    return complex_cumsum(dtype ? to_dtype(a, *dtype) : a, dim);
  }
  return scan(a, dim, dtype, true);
}
Tensor cumprod(const Tensor& a, int64_t dim, std::optional<DType> dtype) {
  if ((is_complex(a.dtype()) && !dtype) || (dtype && is_complex(*dtype))) {
    return complex_cumprod(dtype ? to_dtype(a, *dtype) : a, dim);
  }
  return scan(a, dim, dtype, false);
}

// A uint8 input gives a uint8 result (0 or 1), as in PyTorch; every other dtype gives bool.
Tensor all(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim) {
  Tensor zeros_found = sum(eq(detach(a), wrapped_scalar(0.0, DType::Int64)), dims, keepdim);
  Tensor out = eq(zeros_found, wrapped_scalar(0.0, DType::Int64));
  return a.dtype() == DType::UInt8 ? to_dtype(out, DType::UInt8) : out;
}
Tensor any(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim) {
  Tensor nonzeros = sum(ne(detach(a), wrapped_scalar(0.0, DType::Int64)), dims, keepdim);
  Tensor out = ne(nonzeros, wrapped_scalar(0.0, DType::Int64));
  return a.dtype() == DType::UInt8 ? to_dtype(out, DType::UInt8) : out;
}

}  // namespace engine::ops
