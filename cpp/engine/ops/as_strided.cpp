// as_strided and its backward. The view may reach any element of the storage, repeat elements
// (stride 0) or skip some of the input's, so its gradient goes through storage positions: summed
// per position where the view reads it, then read back at the input's positions (shared equally
// where the input itself repeats a position), as PyTorch's as_strided_backward does. Written with
// index_add / index_select, so it is differentiable again.
#include "engine/ops/as_strided.h"

#include <algorithm>
#include <vector>

#include "engine/core/error.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

struct Layout {
  Dims shape, strides;
  int64_t offset;
};

// The storage position of every element of `l` in row-major order, less `base`. Every position
// lies inside a storage that exists (the view was bounds-checked), so nothing overflows.
std::vector<int64_t> positions(const Layout& l, int64_t base) {
  const int64_t n = numel_of(l.shape);
  std::vector<int64_t> out(static_cast<size_t>(n));
  std::vector<int64_t> idx(l.shape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t pos = l.offset - base;
    for (size_t d = 0; d < idx.size(); ++d) pos += idx[d] * l.strides[d];
    out[static_cast<size_t>(i)] = pos;
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < l.shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

Tensor index_tensor(const std::vector<int64_t>& v) {
  Tensor t = Tensor::empty(Dims{static_cast<int64_t>(v.size())}, DType::Int64);
  std::copy(v.begin(), v.end(), t.data<int64_t>());
  return t;
}

struct AsStridedBackward : BuiltinNode<AsStridedBackward> {
  static constexpr const char* kName = "AsStridedBackward0";
  Layout input, view;
  bool offset_given = false;  // the node shows storage_offset as the caller gave it (None if not)
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    visit("size", saved_ints(view.shape));
    visit("storage_offset", offset_given ? SavedValue(view.offset) : SavedValue());
    visit("stride", saved_ints(view.strides));
  }
  variable_list apply(variable_list&& g) override {
    const int64_t n_in = numel_of(input.shape), n_view = numel_of(view.shape);
    if (n_in == 0 || n_view == 0) return {zeros(input.shape, g[0].dtype())};
    const int64_t base = std::min(input.offset, view.offset);
    const std::vector<int64_t> in_pos = positions(input, base), view_pos = positions(view, base);
    const int64_t span = std::max(*std::max_element(in_pos.begin(), in_pos.end()),
                                  *std::max_element(view_pos.begin(), view_pos.end())) + 1;
    Tensor in_index = index_tensor(in_pos);
    Tensor per_position =
        index_add(zeros(Dims{span}, g[0].dtype()), 0, index_tensor(view_pos), reshape(g[0], Dims{n_view}));
    Tensor grad = index_select(per_position, 0, in_index);
    std::vector<int64_t> sorted = in_pos;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      Tensor count = index_add(zeros(Dims{span}, g[0].dtype()), 0, in_index, ones(Dims{n_in}, g[0].dtype()));
      grad = div(grad, index_select(count, 0, in_index));
    }
    return {reshape(grad, input.shape)};
  }
};

}  // namespace

Tensor as_strided(const Tensor& a, const Dims& size, const Dims& stride, std::optional<int64_t> storage_offset) {
  ENGINE_CHECK(size.size() == stride.size(), std::runtime_error, "mismatch in length of strides and shape");
  const int64_t offset = storage_offset.value_or(a.offset());
  Tensor out = a.as_strided(size, stride, offset);  // checks the layout against the storage
  if (auto node = make_node<AsStridedBackward>({&a})) {
    node->input = Layout{a.shape(), a.strides(), a.offset()};
    node->view = Layout{size, stride, offset};
    node->offset_given = storage_offset.has_value();
    set_history(out, node);
  }
  return out;
}

}  // namespace engine::ops
