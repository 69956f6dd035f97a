// Indexing along a dim and strided views of part of a tensor: slice/narrow, diagonal, index_select,
// index_add/index_copy, gather, scatter/scatter_add; and the view-scatter behind in-place writes
// through views (PyTorch's CopySlices).
#include <cmath>
#include <limits>

#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/complex.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

// A strided view's backward: the gradient written into zeros of the input's shape at the region the
// view's function picks out of a contiguous layout.
struct StridedViewBackward : Node {
  const char* node_name;
  ViewFn fn;
  Dims input_shape;
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& g) override {
    return {strided_view_scatter(zeros(input_shape, g[0].dtype()), g[0], fn)};
  }
};

// out = base with src written at fn's region: gradient flows to base outside it and to src inside it.
struct StridedViewScatterBackward : Node {
  const char* node_name = "CopySlices";
  ViewFn fn;
  Dims src_shape;
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& g) override {
    Tensor gc = contiguous(g[0]);
    variable_list out(2);
    if (should_compute_output(0)) {
      Tensor region = strided_view(gc, fn);
      out[0] = strided_view_scatter(gc, zeros(region.shape(), gc.dtype()), fn);
    }
    if (should_compute_output(1)) out[1] = strided_view(gc, fn);
    return out;
  }
};

Tensor contiguous_nograd(const Tensor& t) {
  if (t.is_contiguous()) return t;
  Tensor out = Tensor::empty(t.shape(), t.dtype());
  kernels::copy(out, t);
  return out;
}

std::vector<int64_t> index_values(const Tensor& index, const char* fname) {
  ENGINE_CHECK(index.dtype() == DType::Int64 || index.dtype() == DType::Int32, std::runtime_error, fname,
               "(): Expected dtype int32/int64 for index");
  Tensor i64 = Tensor::empty(index.shape(), DType::Int64);
  kernels::copy(i64, index);
  return std::vector<int64_t>(i64.data<int64_t>(), i64.data<int64_t>() + i64.numel());
}

// Calls f(multi_index) for every position of `shape` in row-major order.
template <typename F>
void for_each_position(const Dims& shape, F&& f) {
  if (numel_of(shape) == 0) return;
  Dims pos(shape.size(), 0);
  while (true) {
    f(pos);
    size_t d = shape.size();
    while (d-- > 0) {
      if (++pos[d] < shape[d]) break;
      pos[d] = 0;
      if (d == 0) return;
    }
    if (shape.empty()) return;
  }
}

int64_t dot(const Dims& pos, const Dims& strides) {
  int64_t o = 0;
  for (size_t i = 0; i < pos.size(); ++i) o += pos[i] * strides[i];
  return o;
}

// Along `dim` of contiguous `out`: out[..., idx[k], ...] (=|+=) src[..., k, ...] * alpha.
void index_accumulate(Tensor& out, int64_t dim, const std::vector<int64_t>& idx, const Tensor& src, bool add,
                      double alpha) {
  const int64_t n = out.dim() == 0 ? 1 : out.shape()[dim];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= out.shape()[d];
  for (int64_t d = dim + 1; d < out.dim(); ++d) inner *= out.shape()[d];
  const int64_t k = static_cast<int64_t>(idx.size());
  Tensor s = contiguous_nograd(to_dtype(src, out.dtype()));
  ENGINE_DISPATCH_ALL(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* o = out.data<T>();
    const T* sp = s.data<T>();
    for (int64_t a = 0; a < outer; ++a)
      for (int64_t j = 0; j < k; ++j) {
        T* dst = o + (a * n + idx[j]) * inner;
        const T* from = sp + (a * k + j) * inner;
        for (int64_t b = 0; b < inner; ++b) {
          if (add) dst[b] = static_cast<T>(dst[b] + from[b] * alpha);
          else dst[b] = from[b];
        }
      }
  });
}

void check_index_range(std::vector<int64_t>& idx, int64_t n, bool wrap) {
  for (auto& i : idx) {
    ENGINE_CHECK(i >= -n && i < n && (wrap || i >= 0), IndexError, "index out of range in self");
    if (i < 0) i += n;
  }
}

std::vector<int64_t> vector_index(const Tensor& index, const char* fname) {
  ENGINE_CHECK(index.dim() <= 1, IndexError, fname, "(): Index is supposed to be a vector");
  return index_values(index, fname);
}

struct IndexSelectBackward : BuiltinNode<IndexSelectBackward> {
  static constexpr const char* kName = "IndexSelectBackward0";
  Dims input_shape;
  int64_t dim;
  SavedTensor index_;
  variable_list apply(variable_list&& g) override {
    return {index_add(zeros(input_shape, g[0].dtype()), dim, index_.unpack(shared_from_this()), g[0])};
  }
  void release_variables() override { index_.reset(); }
  void visit_saved(const SavedVisitor& visit) override { visit("index", index_); }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    visit("dim", dim);
    visit("self_sym_sizes", saved_ints(input_shape));
  }
};

struct IndexAddBackward : BuiltinNode<IndexAddBackward> {
  static constexpr const char* kName = "IndexAddBackward0";
  int64_t dim;
  SavedTensor index_;
  double alpha;
  bool copy;  // index_copy: self's gradient is zero where src was written
  Dims src_shape;
  SavedTensor source_;  // shown as PyTorch's node shows it (its rule reads the source's shape)
  std::string name() const override { return copy ? "IndexCopyBackward0" : kName; }
  void release_variables() override {
    index_.reset();
    source_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("index", index_);
    visit("source", source_);
  }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    if (!copy) visit("alpha", saved_number(alpha));
    visit("dim", dim);
    visit("source_dim", static_cast<int64_t>(src_shape.size()));
  }
  variable_list apply(variable_list&& g) override {
    const Tensor index = index_.unpack(shared_from_this());
    variable_list out(2);
    if (should_compute_output(0)) {
      out[0] = copy ? index_copy(g[0], dim, index, zeros(src_shape, g[0].dtype())) : g[0];
    }
    if (should_compute_output(1)) {
      Tensor s = index_select(g[0], dim, index);
      if (alpha != 1.0) s = s * alpha;
      out[1] = reshape(s, src_shape);
    }
    return out;
  }
};

struct GatherBackward : BuiltinNode<GatherBackward> {
  static constexpr const char* kName = "GatherBackward0";
  Dims input_shape;
  int64_t dim;
  SavedTensor index_, self_;  // self: shown as PyTorch's node shows it (its rule reads the shape)
  variable_list apply(variable_list&& g) override {
    return {scatter(zeros(input_shape, g[0].dtype()), dim, index_.unpack(shared_from_this()), g[0], true)};
  }
  void release_variables() override {
    index_.reset();
    self_.reset();
  }
  void visit_saved(const SavedVisitor& visit) override {
    visit("index", index_);
    visit("self", self_);
  }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    visit("dim", dim);
    visit("sparse_grad", false);
  }
};

// The gradient of scatter's src: gathered at the index's positions, zero where src was not read.
Tensor src_grad(const Tensor& g, int64_t dim, const Tensor& index, const Dims& src_shape) {
  Tensor got = gather(g, dim, index);
  if (got.shape() == src_shape) return got;
  const Dims ishape = index.shape();
  return strided_view_scatter(zeros(src_shape, g.dtype()), got,
                              [ishape](const Dims&, const Dims& st, int64_t off) { return ViewGeom{ishape, st, off}; });
}

struct ScatterBackward : BuiltinNode<ScatterBackward> {
  static constexpr const char* kName = "ScatterBackward0";
  int64_t dim;
  SavedTensor index_;
  bool add;
  bool value_form = false;  // scatter(dim, index, value): one input, PyTorch's ScatterBackward1
  Dims src_shape;
  std::string name() const override { return value_form ? "ScatterBackward1" : add ? "ScatterAddBackward0" : kName; }
  void release_variables() override { index_.reset(); }
  void visit_saved(const SavedVisitor& visit) override { visit("index", index_); }
  void visit_saved_values(const SavedValueVisitor& visit) const override { visit("dim", dim); }
  variable_list apply(variable_list&& g) override {
    const Tensor index = index_.unpack(shared_from_this());
    variable_list out(num_outputs());
    if (should_compute_output(0)) {
      out[0] = add ? g[0] : scatter(g[0], dim, index, zeros(index.shape(), g[0].dtype()), false);
    }
    if (should_compute_output(1)) out[1] = src_grad(g[0], dim, index, src_shape);
    return out;
  }
};

struct NormalCdfBackward : BuiltinNode<NormalCdfBackward> {
  static constexpr const char* kName = "NormalCdfBackward0";
  SavedTensor x;
  void release_variables() override { x.reset(); }
  variable_list apply(variable_list&& g) override {
    Tensor v = x.unpack(shared_from_this());
    return {g[0] * (exp(v * v * -0.5) * 0.3989422804014327)};
  }
};

}  // namespace

Tensor strided_view(const Tensor& a, ViewFn fn, const char* name) {
  ViewGeom geom = fn(a.shape(), a.strides(), a.offset());
  Tensor out = a.as_strided(geom.shape, geom.strides, geom.offset);
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<StridedViewBackward>();
    node->node_name = name;
    node->fn = std::move(fn);
    node->input_shape = a.shape();
    node->mutable_next_edges() = collect_next_edges({&a});
    set_history(out, node);
  }
  return out;
}

Tensor strided_view_scatter(const Tensor& base, const Tensor& src, ViewFn fn) {
  Tensor out = Tensor::empty(base.shape(), base.dtype());
  kernels::copy(out, base);
  ViewGeom geom = fn(out.shape(), out.strides(), out.offset());
  kernels::copy(out.as_strided(geom.shape, geom.strides, geom.offset), src);
  if (auto node = make_node<StridedViewScatterBackward>({&base, &src})) {
    node->node_name = "AsStridedScatterBackward0";
    node->fn = std::move(fn);
    node->src_shape = src.shape();
    set_history(out, node);
  }
  return out;
}

void rebase_history_of_view(const Tensor& base, const Tensor& src, ViewFn fn) {
  auto node = make_node<StridedViewScatterBackward>({&base, &src});
  if (!node) return;
  node->fn = fn;
  node->src_shape = src.shape();
  set_history(base, node);
}

Tensor slice(const Tensor& a, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  ENGINE_CHECK(a.dim() > 0, IndexError, "slice() cannot be applied to a 0-dim tensor.");
  ENGINE_CHECK(step > 0, ValueError, "step must be greater than zero");
  const int64_t given_dim = dim;
  dim = wrap_dim(dim, a.dim());
  const int64_t n = a.shape()[dim];
  auto clampi = [n](std::optional<int64_t> v, int64_t dflt) {
    if (!v) return dflt;
    int64_t x = *v < 0 ? *v + n : *v;
    return std::min(std::max<int64_t>(x, 0), n);
  };
  const int64_t s = clampi(start, 0), e = std::max(clampi(end, n), s);
  // Written so that no intermediate overflows, whatever step the caller passes.
  const int64_t len = e == s ? 0 : (e - s - 1) / step + 1;
  Tensor out = strided_view(a, [dim, s, len, step](const Dims& sh, const Dims& st, int64_t off) {
    ViewGeom g{sh, st, off + s * st[dim]};
    g.shape[dim] = len;
    // With two or more elements the step is below the dim's size, so the product stays in range.
    if (len > 1) g.strides[dim] = st[dim] * step;
    return g;
  }, "SliceBackward0");
  if (compute_requires_grad({&a})) {
    // PyTorch's saved attributes: the bounds as given (an open end is INT64_MAX).
    SavedValues& v = grad_fn(out)->saved_values;
    v.add("dim", given_dim);
    v.add("start", start ? *start : int64_t{0});
    v.add("end", end ? *end : std::numeric_limits<int64_t>::max());
    v.add("step", step);
    v.add("self_sym_sizes", saved_ints(a.shape()));
  }
  return out;
}

Tensor narrow(const Tensor& a, int64_t dim, int64_t start, int64_t length) {
  ENGINE_CHECK(a.dim() > 0, std::runtime_error, "narrow() cannot be applied to a 0-dim tensor.");
  const int64_t given_dim = dim;
  dim = wrap_dim(dim, a.dim());
  const int64_t n = a.shape()[dim];
  ENGINE_CHECK(start >= -n && start <= n, IndexError, "start out of range (expected to be in range of [", -n, ", ", n,
               "], but got ", start, ")");
  if (start < 0) start += n;
  ENGINE_CHECK(length >= 0, std::runtime_error, "narrow(): length must be non-negative.");
  ENGINE_CHECK(length <= n - start, std::runtime_error, "start (", start, ") + length (", length,
               ") exceeds dimension size (", n, ").");
  return slice(a, given_dim, start, start + length, 1);
}

Tensor diagonal(const Tensor& a, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t given1 = dim1, given2 = dim2;
  dim1 = wrap_dim(dim1, a.dim());
  dim2 = wrap_dim(dim2, a.dim());
  ENGINE_CHECK(dim1 != dim2, std::runtime_error, "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  Tensor out = strided_view(a, [offset, dim1, dim2](const Dims& sh, const Dims& st, int64_t off) {
    int64_t len = offset >= 0 ? std::min(sh[dim1], sh[dim2] - offset) : std::min(sh[dim1] + offset, sh[dim2]);
    len = std::max<int64_t>(len, 0);
    if (len > 0) off += offset >= 0 ? offset * st[dim2] : -offset * st[dim1];
    ViewGeom g{{}, {}, off};
    for (size_t d = 0; d < sh.size(); ++d) {
      if (static_cast<int64_t>(d) == dim1 || static_cast<int64_t>(d) == dim2) continue;
      g.shape.push_back(sh[d]);
      g.strides.push_back(st[d]);
    }
    g.shape.push_back(len);
    g.strides.push_back(st[dim1] + st[dim2]);
    return g;
  }, "DiagonalBackward0");
  if (compute_requires_grad({&a})) {
    // PyTorch's saved attributes, the dims as given.
    SavedValues& v = grad_fn(out)->saved_values;
    v.add("dim1", given1);
    v.add("dim2", given2);
    v.add("offset", offset);
    v.add("self_sym_sizes", saved_ints(a.shape()));
  }
  return out;
}

Tensor index_select(const Tensor& a, int64_t dim, const Tensor& index) {
  // Complex: the same rows of the (real, imaginary) view.
  if (is_complex(a.dtype())) return complex_from_pairs(index_select(view_as_real(a), wrap_dim(dim, a.dim()), index));
  auto idx = vector_index(index, "index_select");
  const int64_t given_dim = dim;
  dim = wrap_dim(dim, a.dim());
  const int64_t n = a.dim() == 0 ? 1 : a.shape()[dim];
  if (a.dim() > 1 && dim == 1) {
    // PyTorch selects along dim 1 with a kernel of its own, whose bounds check words it so.
    for (int64_t i : idx)
      ENGINE_CHECK(i >= 0 && i < n, std::runtime_error, "INDICES element is out of DATA bounds, id=", i,
                   " axis_dim=", n);
  }
  check_index_range(idx, n, false);
  Dims shape = a.shape();
  if (a.dim() > 0) shape[dim] = static_cast<int64_t>(idx.size());
  Tensor out = Tensor::empty(shape, a.dtype());
  // A gather along dim: the transposed problem of index_add, written directly.
  Tensor src = contiguous_nograd(a);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= shape[d];
  for (int64_t d = dim + 1; d < a.dim(); ++d) inner *= shape[d];
  const int64_t k = static_cast<int64_t>(idx.size());
  ENGINE_DISPATCH_ALL(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* o = out.data<T>();
    const T* s = src.data<T>();
    for (int64_t x = 0; x < outer; ++x)
      for (int64_t j = 0; j < k; ++j) {
        const T* from = s + (x * n + idx[j]) * inner;
        std::copy(from, from + inner, o + (x * k + j) * inner);
      }
  });
  if (auto node = make_node<IndexSelectBackward>({&a})) {
    node->input_shape = a.shape();
    node->dim = dim;
    node->index_ = SavedTensor(index, false);
    set_history(out, node);
    show_given(out, "dim", given_dim, dim);
  }
  return out;
}

namespace {
Tensor index_add_impl(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, double alpha,
                      bool add, const char* fname) {
  if (is_complex(self.dtype()) && self.dtype() == src.dtype()) {
    // Complex: the (real, imaginary) views, row for row.
    return complex_from_pairs(
        index_add_impl(view_as_real(self), wrap_dim(dim, self.dim()), index, view_as_real(src), alpha, add, fname));
  }
  auto idx = vector_index(index, fname);
  dim = wrap_dim(dim, self.dim());
  const int64_t n = self.dim() == 0 ? 1 : self.shape()[dim];
  for (auto& i : idx) {
    ENGINE_CHECK(i >= -n && i < n, IndexError, "index ", i, " is out of bounds for dimension ", dim, " with size ",
                 n);
    if (i < 0) i += n;
  }
  Dims want = self.shape();
  if (self.dim() > 0) want[dim] = static_cast<int64_t>(idx.size());
  // Same shape as the destination slice; a vector source may stand for a slice of as many elements.
  const bool fits = src.dim() == self.dim() ? src.shape() == want : src.dim() <= 1 && numel_of(want) == src.numel();
  ENGINE_CHECK(fits, std::runtime_error,
               fname, "_(): Source/destination tensor must have same slice shapes. Destination slice shape: ",
               dims_str(want), " at dimension ", dim, " and source slice shape: ", dims_str(src.shape()),
               " at dimension 0.");
  Tensor out = Tensor::empty(self.shape(), self.dtype());
  kernels::copy(out, self);
  index_accumulate(out, dim, idx, src, add, alpha);
  if (auto node = make_node<IndexAddBackward>({&self, &src})) {
    node->dim = dim;
    // index_add's self gradient needs no index: PyTorch keeps it only when source needs a gradient.
    if (!add || compute_requires_grad({&src})) node->index_ = SavedTensor(index, false);
    node->alpha = alpha;
    node->copy = !add;
    node->src_shape = src.shape();
    if (compute_requires_grad({&src})) node->source_ = SavedTensor(src, false);
    set_history(out, node);
  }
  return out;
}
}  // namespace

Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, double alpha) {
  ENGINE_CHECK(self.dtype() == src.dtype(), std::runtime_error, "index_add_(): self (", scalar_type_name(self.dtype()),
               ") and source (", scalar_type_name(src.dtype()), ") must have the same scalar type");
  return index_add_impl(self, dim, index, src, alpha, true, "index_add");
}

Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  ENGINE_CHECK(self.dtype() == src.dtype(), std::runtime_error,
               "index_copy_(): self and source expected to have the same dtype, but got (self) ",
               scalar_type_name(self.dtype()), " and (source) ", scalar_type_name(src.dtype()));
  return index_add_impl(self, dim, index, src, 1.0, false, "index_copy");
}

namespace {
// PyTorch treats a 0-d tensor as a 1-element vector in gather and scatter.
Dims nonempty_shape(const Tensor& t) { return t.dim() == 0 ? Dims{1} : t.shape(); }
Dims nonempty_strides(const Tensor& t) { return t.dim() == 0 ? Dims{0} : t.strides(); }

// The shape rules gather and scatter share (PyTorch's gather_shape_check / scatter_shape_check):
// the index visits only positions that exist in self (apart from `dim`) and, for scatter, in src.
// They are what keeps every offset computed below inside its buffer.
void check_gather_scatter_shapes(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src) {
  const Dims ss = nonempty_shape(self), is = nonempty_shape(index);
  if (src && index.numel() == 0) return;
  ENGINE_CHECK(is.size() == ss.size(), std::runtime_error, "Index tensor must have the same number of dimensions as ",
               src ? "self" : "input", " tensor");
  if (!src) {
    for (size_t d = 0; d < is.size(); ++d) {
      ENGINE_CHECK(static_cast<int64_t>(d) == dim || is[d] <= ss[d], std::runtime_error,
                   "Size does not match at dimension ", d, " expected index ", dims_str(index.shape()),
                   " to be no larger than self ", dims_str(self.shape()), " apart from dimension ", dim);
    }
    return;
  }
  const Dims rs = nonempty_shape(*src);
  ENGINE_CHECK(rs.size() == is.size(), std::runtime_error,
               "Index tensor must have the same number of dimensions as src tensor");
  for (size_t d = 0; d < is.size(); ++d) {
    ENGINE_CHECK(is[d] <= rs[d] && (static_cast<int64_t>(d) == dim || is[d] <= ss[d]), std::runtime_error,
                 "Expected index ", dims_str(index.shape()), " to be no larger than self ", dims_str(self.shape()),
                 " apart from dimension ", dim, " and to be no larger size than src ", dims_str(src->shape()));
  }
}
}  // namespace

// Whether `t` and `index` agree on every dim but the last and `dim` is that last dim: then
// gather/scatter walk rows, with no multi-index per element (pooling's argmax gathers are this).
bool along_last_dim_rows(const Tensor& t, int64_t dim, const Tensor& index) {
  if (dim != t.dim() - 1 || t.dim() == 0 || index.dim() != t.dim()) return false;
  for (int64_t d = 0; d < dim; ++d) {
    if (t.shape()[d] != index.shape()[d]) return false;
  }
  return true;
}

namespace {
// An index of a complex tensor as one of its (real, imaginary) view: each position twice.
Tensor index_over_pairs(const Tensor& index) {
  Dims shape = index.shape();
  shape.push_back(2);
  return expand(unsqueeze(index, -1), shape);
}
}  // namespace

Tensor gather(const Tensor& a, int64_t dim, const Tensor& index) {
  const int64_t given_dim = dim;
  dim = wrap_dim(dim, a.dim());
  auto idx = index_values(index, "gather");
  check_gather_scatter_shapes(a, dim, index, nullptr);
  if (is_complex(a.dtype()) && a.dim() > 0) {
    // The (real, imaginary) pairs gathered together, through the real op and its gradient.
    return named_history(complex_from_pairs(gather(view_as_real(a), dim, index_over_pairs(index))), "GatherBackward0");
  }
  Tensor src = contiguous_nograd(a);
  Tensor out = Tensor::empty(index.shape(), a.dtype());
  const int64_t n = nonempty_shape(a)[dim];
  const Dims st = nonempty_strides(src);
  ENGINE_DISPATCH_ALL(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* o = out.data<T>();
    const T* s = src.data<T>();
    if (along_last_dim_rows(a, dim, index)) {
      const int64_t k = index.shape()[dim], rows = k == 0 ? 0 : index.numel() / k;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t j = 0; j < k; ++j) {
          const int64_t i = idx[r * k + j];
          ENGINE_CHECK(i >= -n && i < n, std::runtime_error, "index ", i, " is out of bounds for dimension ", dim,
                       " with size ", n);
          o[r * k + j] = s[r * n + (i < 0 ? i + n : i)];
        }
      }
      return;
    }
    int64_t flat = 0;
    for_each_position(nonempty_shape(index), [&](const Dims& pos) {
      const int64_t i = idx[flat];
      ENGINE_CHECK(i >= -n && i < n, std::runtime_error, "index ", i, " is out of bounds for dimension ", dim,
                   " with size ", n);
      o[flat++] = s[dot(pos, st) + ((i < 0 ? i + n : i) - pos[dim]) * st[dim]];
    });
  });
  if (auto node = make_node<GatherBackward>({&a})) {
    node->input_shape = a.shape();
    node->dim = dim;
    node->index_ = SavedTensor(index, false);
    node->self_ = SavedTensor(a, false);  // shown only: backward reads the shape kept above
    set_history(out, node);
    show_given(out, "dim", given_dim, dim);
  }
  return out;
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, bool add) {
  const int64_t given_dim = dim;
  dim = wrap_dim(dim, self.dim());
  auto idx = index_values(index, add ? "scatter_add" : "scatter");
  ENGINE_CHECK(self.dtype() == src.dtype(), std::runtime_error, "scatter(): Expected self.dtype to be equal to src.dtype");
  check_gather_scatter_shapes(self, dim, index, &src);
  if (is_complex(self.dtype()) && self.dim() > 0) {
    // The (real, imaginary) pairs scattered together, through the real op and its gradients.
    const Tensor pairs = scatter(view_as_real(self), dim, index_over_pairs(index), view_as_real(src), add);
    return named_history(complex_from_pairs(pairs), add ? "ScatterAddBackward0" : "ScatterBackward0");
  }
  Tensor out = Tensor::empty(self.shape(), self.dtype());
  kernels::copy(out, self);
  Tensor s = contiguous_nograd(to_dtype(src, self.dtype()));
  const int64_t n = nonempty_shape(self)[dim];
  const Dims ost = nonempty_strides(out), sst = nonempty_strides(s);
  ENGINE_DISPATCH_ALL(self.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* o = out.data<T>();
    const T* sp = s.data<T>();
    if (along_last_dim_rows(self, dim, index) && along_last_dim_rows(s, dim, index)) {
      const int64_t k = index.shape()[dim], rows = k == 0 ? 0 : index.numel() / k, m = s.shape()[dim];
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t j = 0; j < k; ++j) {
          const int64_t i = idx[r * k + j];
          ENGINE_CHECK(i >= -n && i < n, std::runtime_error, "index ", i, " is out of bounds for dimension ", dim,
                       " with size ", n);
          T& dst = o[r * n + (i < 0 ? i + n : i)];
          dst = add ? static_cast<T>(dst + sp[r * m + j]) : sp[r * m + j];
        }
      }
      return;
    }
    int64_t flat = 0;
    for_each_position(nonempty_shape(index), [&](const Dims& pos) {
      const int64_t i = idx[flat++];
      ENGINE_CHECK(i >= -n && i < n, std::runtime_error, "index ", i, " is out of bounds for dimension ", dim,
                   " with size ", n);
      const int64_t so = dot(pos, sst);
      const int64_t oo = dot(pos, ost) + ((i < 0 ? i + n : i) - pos[dim]) * ost[dim];
      o[oo] = add ? static_cast<T>(o[oo] + sp[so]) : sp[so];
    });
  });
  if (auto node = make_node<ScatterBackward>({&self, &src})) {
    node->dim = dim;
    if (!add || compute_requires_grad({&src})) node->index_ = SavedTensor(index, false);  // as index_add
    node->add = add;
    node->src_shape = src.shape();
    set_history(out, node);
    show_given(out, "dim", given_dim, dim);
  }
  return out;
}

Tensor scatter_value(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  Tensor out = scatter(self, dim, index, value, false);
  if (const auto& fn = grad_fn(out); fn && fn->name() == "ScatterBackward0" && !requires_grad(value)) {
    auto* node = static_cast<ScatterBackward*>(fn.get());
    node->value_form = true;
    node->mutable_next_edges().resize(1);
  }
  return out;
}

Tensor normal_cdf(const Tensor& a) {
  ENGINE_CHECK(is_floating(a.dtype()), std::runtime_error, "normal_cdf expects a floating point tensor");
  Tensor src = contiguous_nograd(a);
  Tensor out = Tensor::empty(a.shape(), a.dtype());
  ENGINE_DISPATCH_FLOAT(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* s = src.data<T>();
    T* o = out.data<T>();
    for (int64_t i = 0; i < out.numel(); ++i) o[i] = static_cast<T>(0.5 * std::erfc(-s[i] * 0.7071067811865476));
  });
  if (auto node = make_node<NormalCdfBackward>({&a})) {
    node->x = SavedTensor(a, false);
    set_history(out, node);
  }
  return out;
}

}  // namespace engine::ops
