// Views (sharing storage and version counter) and reshaping.
#include <algorithm>

#include "engine/core/checked.h"
#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

// One node type for the views (and for select_backward, whose gradient is again a select): its rule
// maps the incoming gradient back to the input's layout.
struct ViewLikeBackward : Node {
  using Rule = Tensor (*)(const Tensor& grad, const ViewLikeBackward& self);
  const char* node_name;
  Rule rule;
  Dims input_shape;
  Dims dims;  // the op's dims (transpose pair, permutation, unsqueezed dim)
  ViewLikeBackward(const char* n, Rule r) : node_name(n), rule(r) {}
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& g) override { return {rule(g[0], *this)}; }
  // PyTorch's saved attributes of each view op, from the fields above.
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    const std::string n = node_name;
    if (n == "TransposeBackward0") {
      visit("dim0", dims[0]);
      visit("dim1", dims[1]);
      return;
    }
    if (n == "PermuteBackward0") {
      visit("dims", saved_ints(dims));
      return;
    }
    if (n == "UnsqueezeBackward0") {
      visit("dim", dims[0]);
      return;
    }
    if (n == "SelectBackward0") {
      visit("dim", dims[0]);
      visit("index", dims[1]);
    }
    if (n == "SqueezeBackward1") visit("dim", dims[0]);
    if (n == "SqueezeBackward2") visit("dim", saved_ints(dims));
    if (n == "SqueezeBackward2") visit("self_sym_sizes", saved_ints(input_shape));
    if (n == "ViewBackward0" || n == "UnsafeViewBackward0" || n == "ExpandBackward0" || n == "SelectBackward0" || n == "SqueezeBackward0" ||
        n == "SqueezeBackward1") {
      visit("self_sym_sizes", saved_ints(input_shape));
    }
  }
};

Tensor record_view(const Tensor& a, Tensor out, const char* name, ViewLikeBackward::Rule rule, Dims dims = {}) {
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<ViewLikeBackward>(name, rule);
    node->mutable_next_edges() = collect_next_edges({&a});
    node->input_shape = a.shape();
    node->dims = std::move(dims);
    set_history(out, node);
  }
  return out;
}

Tensor reshape_rule(const Tensor& g, const ViewLikeBackward& n) { return reshape(g, n.input_shape); }

// The strides that let `newshape` view memory laid out as (oldshape, oldstride), if any
// (PyTorch's computeStride).
std::optional<Dims> view_strides(const Dims& oldshape, const Dims& oldstride, const Dims& newshape) {
  if (oldshape.empty()) return Dims(newshape.size(), 1);
  const int64_t numel = numel_of(oldshape);
  if (numel == 0) return contiguous_strides(newshape);
  Dims newstride(newshape.size());
  int64_t view_d = static_cast<int64_t>(newshape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(oldshape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= oldshape[tensor_d];
    if (tensor_d == 0 ||
        (oldshape[tensor_d - 1] != 1 && oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
        newstride[view_d] = view_numel * chunk_base_stride;
        view_numel *= newshape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return newstride;
}

}  // namespace

Dims infer_size(const Dims& shape, int64_t numel) {
  int64_t known = 1;
  std::optional<size_t> infer;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      ENGINE_CHECK(!infer, std::runtime_error, "only one dimension can be inferred");
      infer = i;
    } else {
      ENGINE_CHECK(shape[i] >= 0, std::runtime_error, "invalid shape dimension ", shape[i], " at index ", i,
                   " of shape ", dims_str(shape));
      known = checked_mul(known, shape[i], "numel");
    }
  }
  Dims out = shape;
  if (infer) {
    ENGINE_CHECK(numel != 0 || known != 0, std::runtime_error, "cannot reshape tensor of 0 elements into shape ",
                 dims_str(shape), " because the unspecified dimension size -1 can be any value and is ambiguous");
    ENGINE_CHECK(known != 0 && numel % known == 0, std::runtime_error, "shape '", dims_str(shape),
                 "' is invalid for input of size ", numel);
    out[*infer] = numel / known;
  } else {
    ENGINE_CHECK(known == numel, std::runtime_error, "shape '", dims_str(shape), "' is invalid for input of size ",
                 numel);
  }
  return out;
}

Tensor view(const Tensor& a, const Dims& shape) {
  Dims s = infer_size(shape, a.numel());
  auto strides = view_strides(a.shape(), a.strides(), s);
  ENGINE_CHECK(strides, std::runtime_error,
               "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
               "two contiguous subspaces). Use .reshape(...) instead.");
  return record_view(a, a.as_strided(s, *strides, a.offset()), "ViewBackward0", reshape_rule);
}

Tensor reshape(const Tensor& a, const Dims& shape) {
  Dims s = infer_size(shape, a.numel());
  if (view_strides(a.shape(), a.strides(), s)) return view(a, s);
  // No view fits, so a is not contiguous: as PyTorch, a row-major copy reinterpreted in the new
  // shape (its _unsafe_view), which is a tensor of its own, not a view of the temporary copy.
  const Tensor copy = contiguous(a);
  Tensor out = copy.as_strided(s, contiguous_strides(s), copy.offset());
  out.get()->view_base.reset();
  out.get()->view_creation_meta = 0;
  return record_view(copy, out, "UnsafeViewBackward0", reshape_rule);
}

Tensor transpose(const Tensor& a, int64_t d0, int64_t d1) {
  const int64_t nd = a.dim();
  const int64_t given0 = d0, given1 = d1;
  d0 = wrap_dim(d0, nd);
  d1 = wrap_dim(d1, nd);
  Dims shape = a.shape(), strides = a.strides();
  if (nd > 0) {
    std::swap(shape[d0], shape[d1]);
    std::swap(strides[d0], strides[d1]);
  }
  Tensor out = record_view(a, a.as_strided(shape, strides, a.offset()), "TransposeBackward0",
                           [](const Tensor& g, const ViewLikeBackward& n) { return transpose(g, n.dims[0], n.dims[1]); },
                           {d0, d1});
  show_given(out, "dim0", given0, d0);
  show_given(out, "dim1", given1, d1);
  return out;
}

Tensor t(const Tensor& a) {
  ENGINE_CHECK(a.dim() <= 2, std::runtime_error, "t() expects a tensor with <= 2 dimensions, but self is ", a.dim(),
               "D");
  if (a.dim() < 2) return record_view(a, a.as_strided(a.shape(), a.strides(), a.offset()), "TBackward0", reshape_rule);
  return record_view(a, a.as_strided({a.shape()[1], a.shape()[0]}, {a.strides()[1], a.strides()[0]}, a.offset()),
                     "TBackward0", [](const Tensor& g, const ViewLikeBackward&) { return t(g); });
}

Tensor unsqueeze(const Tensor& a, int64_t dim) {
  const int64_t given = dim;
  dim = wrap_dim(dim, a.dim() + 1);
  Dims shape = a.shape(), strides = a.strides();
  const int64_t st = dim < a.dim() ? a.shape()[dim] * a.strides()[dim] : 1;
  shape.insert(shape.begin() + dim, 1);
  strides.insert(strides.begin() + dim, st);
  Tensor out = record_view(a, a.as_strided(shape, strides, a.offset()), "UnsqueezeBackward0",
                           [](const Tensor& g, const ViewLikeBackward& n) { return squeeze(g, n.dims[0]); }, {dim});
  show_given(out, "dim", given, dim);
  return out;
}

Tensor squeeze(const Tensor& a, std::optional<int64_t> dim) {
  Dims shape, strides;
  std::optional<int64_t> d;
  if (dim) d = wrap_dim(*dim, a.dim());
  for (int64_t i = 0; i < a.dim(); ++i) {
    const bool drop = a.shape()[i] == 1 && (!d || *d == i);
    if (!drop) {
      shape.push_back(a.shape()[i]);
      strides.push_back(a.strides()[i]);
    }
  }
  Tensor out = record_view(a, a.as_strided(shape, strides, a.offset()),
                           dim ? "SqueezeBackward1" : "SqueezeBackward0", reshape_rule, d ? Dims{*d} : Dims{});
  if (dim) show_given(out, "dim", *dim, *d);
  return out;
}

Tensor squeeze_dims(const Tensor& a, const std::vector<int64_t>& dims) {
  std::vector<bool> listed(static_cast<size_t>(std::max<int64_t>(a.dim(), 1)), false);
  Dims wrapped;
  for (int64_t given : dims) {
    const int64_t d = wrap_dim(given, a.dim());
    ENGINE_CHECK(!listed[d], std::runtime_error, "dim ", d, " appears multiple times in the list of dims");
    listed[d] = true;
    wrapped.push_back(d);
  }
  Dims shape, strides;
  for (int64_t i = 0; i < a.dim(); ++i) {
    if (a.shape()[i] == 1 && listed[i]) continue;
    shape.push_back(a.shape()[i]);
    strides.push_back(a.strides()[i]);
  }
  Tensor out = record_view(a, a.as_strided(shape, strides, a.offset()), "SqueezeBackward2", reshape_rule, wrapped);
  show_given(out, "dim", dims, std::vector<int64_t>(wrapped.begin(), wrapped.end()));
  return out;
}

Tensor expand(const Tensor& a, const Dims& shape) {
  ENGINE_CHECK(shape.size() >= a.shape().size(), std::runtime_error, "expand(", legacy_type_name(a.dtype()), "{",
               dims_str(a.shape()), "}, size=", dims_str(shape), "): the number of sizes provided (", shape.size(),
               ") must be greater or equal to the number of dimensions in the tensor (", a.dim(), ")");
  const size_t off = shape.size() - a.shape().size();
  Dims out_shape(shape.size()), out_strides(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i < off) {
      ENGINE_CHECK(shape[i] >= 0, std::runtime_error, "The expanded size of the tensor (", shape[i],
                   ") isn't allowed in a leading, non-existing dimension ", i);
      out_shape[i] = shape[i];
      out_strides[i] = 0;
      continue;
    }
    const int64_t have = a.shape()[i - off];
    const int64_t want = shape[i] == -1 ? have : shape[i];
    if (have == want) {
      out_shape[i] = have;
      out_strides[i] = a.strides()[i - off];
    } else {
      ENGINE_CHECK(have == 1, std::runtime_error, "The expanded size of the tensor (", want,
                   ") must match the existing size (", have, ") at non-singleton dimension ", i,
                   ".  Target sizes: ", dims_str(shape), ".  Tensor sizes: ", dims_str(a.shape()));
      out_shape[i] = want;
      out_strides[i] = 0;
    }
  }
  return record_view(a, a.as_strided(out_shape, out_strides, a.offset()), "ExpandBackward0",
                     [](const Tensor& g, const ViewLikeBackward& n) { return sum_to(g, n.input_shape); });
}

Tensor permute(const Tensor& a, const Dims& dims) {
  ENGINE_CHECK(static_cast<int64_t>(dims.size()) == a.dim(), std::runtime_error,
               "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
               "desired ordering of dimensions i.e. input.dim() = ",
               a.dim(), " is not equal to len(dims) = ", dims.size());
  Dims shape(dims.size()), strides(dims.size()), wrapped(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = wrap_dim(dims[i], a.dim());
    ENGINE_CHECK(!seen[d], std::runtime_error, "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    wrapped[i] = d;
    shape[i] = a.shape()[d];
    strides[i] = a.strides()[d];
  }
  return record_view(a, a.as_strided(shape, strides, a.offset()), "PermuteBackward0",
                     [](const Tensor& g, const ViewLikeBackward& n) {
                       Dims inverse(n.dims.size());
                       for (size_t i = 0; i < n.dims.size(); ++i) inverse[n.dims[i]] = static_cast<int64_t>(i);
                       return permute(g, inverse);
                     },
                     wrapped);
}

Tensor select(const Tensor& a, int64_t dim, int64_t index) {
  ENGINE_CHECK(a.dim() > 0, IndexError, "select() cannot be applied to a 0-dim tensor.");
  const int64_t given_dim = dim, given_index = index;
  dim = wrap_dim(dim, a.dim());
  const int64_t n = a.shape()[dim];
  ENGINE_CHECK(index >= -n && index < n, IndexError, "select(): index ", index, " out of range for tensor of size ",
               dims_str(a.shape()), " at dimension ", dim);
  if (index < 0) index += n;
  Dims shape = a.shape(), strides = a.strides();
  shape.erase(shape.begin() + dim);
  strides.erase(strides.begin() + dim);
  Tensor out = record_view(a, a.as_strided(shape, strides, a.offset() + index * a.strides()[dim]), "SelectBackward0",
                           [](const Tensor& g, const ViewLikeBackward& n) {
                             return select_backward(g, n.input_shape, n.dims[0], n.dims[1]);
                           },
                           {dim, index});
  show_given(out, "dim", given_dim, dim);
  show_given(out, "index", given_index, index);
  return out;
}

Tensor select_backward(const Tensor& grad, const Dims& input_shape, int64_t dim, int64_t index) {
  Tensor out = zeros(input_shape, grad.dtype());
  Dims shape = out.shape(), strides = out.strides();
  shape.erase(shape.begin() + dim);
  strides.erase(strides.begin() + dim);
  // A fresh buffer written once, so the copy is not an in-place op on anything the graph can see.
  kernels::copy(out.as_strided(shape, strides, index * out.strides()[dim]), grad);
  // The gradient's own gradient picks the same slice back out; record_view only needs its rule.
  return record_view(grad, out, "SelectBackwardBackward0",
                     [](const Tensor& gg, const ViewLikeBackward& n) { return select(gg, n.dims[0], n.dims[1]); },
                     {dim, index});
}

// ---- ops returning several pieces of one tensor (unbind, split, split_with_sizes, unsafe_*) ----
//
// As in PyTorch, one node serves all the pieces: piece i is output i of the op and input i of the
// node, so a node hook sees the gradients of every piece at once and the rule runs once, with
// zeros standing in for the pieces whose gradient never arrived.

namespace {

struct PiecesBackward : Node {
  const char* node_name;
  int64_t dim = 0;       // wrapped
  bool stacked = false;  // unbind: the pieces lost the dim, so their gradients are stacked back
  explicit PiecesBackward(const char* n) : node_name(n) {}
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& grads) override {
    TensorList parts;
    parts.reserve(grads.size());
    for (size_t i = 0; i < grads.size(); ++i) {
      const InputMetadata& piece = input_metadata_[i];
      parts.push_back(grads[i].defined() ? std::move(grads[i]) : zeros(piece.shape, piece.dtype));
    }
    return {stacked ? stack(parts, dim) : cat(parts, dim)};
  }
};

// The pieces of `a` along `dim` (wrapped) of the given lengths, each starting where the last ended;
// `drop_dim` removes the dim from each (unbind, lengths all 1). Views of `a` unless `detached`.
TensorList cut_pieces(const Tensor& a, int64_t dim, const std::vector<int64_t>& lengths, bool drop_dim, bool detached) {
  TensorList out;
  out.reserve(lengths.size());
  const int64_t stride = a.strides()[dim];
  int64_t start = 0;
  for (int64_t len : lengths) {
    Dims shape = a.shape(), strides = a.strides();
    if (drop_dim) {
      shape.erase(shape.begin() + dim);
      strides.erase(strides.begin() + dim);
    } else {
      shape[dim] = len;
    }
    Tensor piece = a.as_strided(shape, strides, a.offset() + start * stride);
    out.push_back(detached ? detach(piece) : std::move(piece));
    start += len;
  }
  return out;
}

// Gives the pieces one node named `node_name` when `a` records history.
std::shared_ptr<PiecesBackward> record_pieces(const Tensor& a, const TensorList& pieces, const char* node_name,
                                              int64_t dim, bool stacked) {
  if (pieces.empty() || !compute_requires_grad({&a})) return nullptr;
  auto node = std::make_shared<PiecesBackward>(node_name);
  node->mutable_next_edges() = collect_next_edges({&a});
  node->dim = dim;
  node->stacked = stacked;
  for (const Tensor& p : pieces) set_history(p, node);
  return node;
}

}  // namespace

TensorList unbind(const Tensor& a, int64_t dim) {
  ENGINE_CHECK(a.dim() > 0, IndexError, "Dimension specified as ", dim, " but tensor has no dimensions");
  const int64_t given_dim = dim;
  dim = wrap_dim(dim, a.dim());
  TensorList pieces = cut_pieces(a, dim, std::vector<int64_t>(a.shape()[dim], 1), true, false);
  if (auto node = record_pieces(a, pieces, "UnbindBackward0", dim, true)) node->saved_values.add("dim", given_dim);
  mark_multi_output_views(pieces, "Unbind");
  return pieces;
}

TensorList split_pieces(const Tensor& a, const std::vector<int64_t>& lengths, int64_t dim, SplitKind kind,
                        int64_t split_size) {
  ENGINE_CHECK(a.dim() > 0, std::runtime_error, "split expects at least a 1-dimensional tensor");
  const int64_t given_dim = dim;
  dim = wrap_dim(dim, a.dim());
  const std::string shown = dims_str(Dims(lengths.begin(), lengths.end()));
  int64_t total = 0;
  bool fits = true;
  for (int64_t len : lengths) {
    ENGINE_CHECK(len >= 0, std::runtime_error,
                 "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=", shown);
    fits = fits && add_fits(total, len, &total);
  }
  ENGINE_CHECK(fits && total == a.shape()[dim], std::runtime_error,
               "split_with_sizes expects split_sizes to sum exactly to ", a.shape()[dim],
               " (input tensor's size at dimension ", dim, "), but got split_sizes=", shown);
  const bool by_size = kind == SplitKind::Split || kind == SplitKind::UnsafeSplit;
  const bool is_unsafe = kind == SplitKind::UnsafeSplit || kind == SplitKind::UnsafeSplitWithSizes;
  static constexpr const char* kNodeNames[] = {"SplitBackward0", "SplitWithSizesBackward0", "UnsafeSplitBackward0",
                                               "UnsafeSplitWithSizesBackward0"};
  TensorList pieces = cut_pieces(a, dim, lengths, false, is_unsafe);
  if (auto node = record_pieces(a, pieces, kNodeNames[static_cast<int>(kind)], dim, false)) {
    node->saved_values.add("dim", given_dim);
    node->saved_values.add("self_sym_sizes", saved_ints(a.shape()));
    if (by_size) {
      node->saved_values.add("split_size", split_size);
    } else {
      node->saved_values.add("split_sizes", lengths);
    }
  }
  if (!is_unsafe) mark_multi_output_views(pieces, by_size ? "Split" : "SplitWithSizes");
  return pieces;
}

}  // namespace engine::ops
